import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Challenges

/// Streak freezes under the Challenges rule: bought, at most two held, used on missed days.
@Suite("Streak freezes")
struct StreakFreezeTests {
  static let rule = ChallengeCompletion.streak
  static let start = CalendarDay(year: 2026, month: 11, day: 2)

  static func day(_ offset: Int) -> CalendarDay { start.adding(days: offset) }

  @Test("A bought freeze covers one missed day without lengthening the run, and is used up")
  func coversOneDay() throws {
    var streak = Streak()
    for offset in 0..<3 { streak.record(Self.day(offset), in: .gmt, rule: Self.rule) }
    try streak.addFreeze(on: Self.day(2), in: .gmt, rule: Self.rule)
    #expect(streak.freezes == 1)
    // Day 3 is missed; on day 4 the run still stands at 3, the freeze already spent on day 3.
    #expect(streak.current(on: Self.day(4), in: .gmt) == 3)
    let standing = streak.settled(on: Self.day(4), in: .gmt, rule: Self.rule)
    #expect(standing.freezes == 0 && standing.frozenDays == [Self.day(3)] && standing.current == 3)
    #expect(streak.record(Self.day(4), in: .gmt, rule: Self.rule) == .extended(freezesUsed: 1))
    #expect(streak.current == 4 && streak.freezes == 0 && streak.frozenDays == [Self.day(3)])
    // Used once: the next missed day is not covered again.
    #expect(streak.current(on: Self.day(6), in: .gmt) == 0)
  }

  @Test("Two missed days need two freezes; one freeze does not save the run and is kept")
  func twoDaysNeedTwo() throws {
    var one = Streak()
    one.record(Self.day(0), in: .gmt, rule: Self.rule)
    try one.addFreeze(on: Self.day(0), in: .gmt, rule: Self.rule)
    #expect(one.current(on: Self.day(3), in: .gmt) == 0)
    #expect(one.record(Self.day(3), in: .gmt, rule: Self.rule) == .started)
    #expect(one.freezes == 1 && one.frozenDays.isEmpty, "a freeze that cannot save the run is not spent on it")

    var two = Streak()
    two.record(Self.day(0), in: .gmt, rule: Self.rule)
    try two.addFreeze(on: Self.day(0), in: .gmt, rule: Self.rule)
    try two.addFreeze(on: Self.day(0), in: .gmt, rule: Self.rule)
    #expect(two.record(Self.day(3), in: .gmt, rule: Self.rule) == .extended(freezesUsed: 2))
    #expect(two.current == 2 && two.frozenDays == [Self.day(1), Self.day(2)])
  }

  @Test("At most two freezes are held; a freeze bought after the run broke cannot mend it")
  func limitAndNoMending() throws {
    var streak = Streak()
    streak.record(Self.day(0), in: .gmt, rule: Self.rule)
    try streak.addFreeze(on: Self.day(0), in: .gmt, rule: Self.rule)
    try streak.addFreeze(on: Self.day(0), in: .gmt, rule: Self.rule)
    #expect(throws: Streak.FreezeRefusal.limitReached(max: 2)) { try streak.addFreeze(on: Self.day(0), in: .gmt, rule: Self.rule) }
    #expect(streak.freezes == 2)

    var broken = Streak()
    broken.record(Self.day(0), in: .gmt, rule: Self.rule)
    try broken.addFreeze(on: Self.day(2), in: .gmt, rule: Self.rule)  // day 1 missed with none held: over
    #expect(broken.current(on: Self.day(2), in: .gmt) == 0)
    #expect(broken.freezes == 1)
    #expect(broken.record(Self.day(2), in: .gmt, rule: Self.rule) == .started)
  }

  @Test("Settling is idempotent: reading the streak again the same day changes nothing")
  func settleTwice() throws {
    var streak = Streak()
    streak.record(Self.day(0), in: .gmt, rule: Self.rule)
    try streak.addFreeze(on: Self.day(0), in: .gmt, rule: Self.rule)
    let once = streak.settled(on: Self.day(2), in: .gmt, rule: Self.rule)
    #expect(once.settled(on: Self.day(2), in: .gmt, rule: Self.rule) == once)
    #expect(once.freezes == 0 && once.frozenDays == [Self.day(1)])
  }

  /// One step of a random history: a completion on a day some days after the last step, a purchase, or a look.
  enum Step {
    case complete(gap: Int)
    case buy(gap: Int)
    case look(gap: Int)

    init(kind: Int, gap: Int) {
      switch kind {
      case 0: self = .buy(gap: gap)
      case 1: self = .look(gap: gap)
      default: self = .complete(gap: gap)
      }
    }
  }

  static let history = PropertyBased.zip(Gen.int(in: 0...4), Gen.int(in: 0...3)).array(of: 1...40)

  /// Today's rule without freezes, told simply: the run is the consecutive days ending at the last
  /// completed day, alive while today is that day or the next.
  struct PlainStreak {
    var days: [Int] = []
    var longest = 0
    var run = 0

    mutating func record(_ day: Int) {
      if let last = days.last, day <= last { return }
      run = days.last == day - 1 ? run + 1 : 1
      days.append(day)
      longest = max(longest, run)
    }

    func current(on today: Int) -> Int {
      guard let last = days.last, today - last <= 1 else { return 0 }
      return run
    }
  }

  @Test("Property: with no freezes, the result equals today's rule (plain consecutive days)")
  func noFreezesIsTodaysRule() async {
    await propertyCheck(count: 300, input: Self.history) { raw in
      var streak = Streak()
      var plain = PlainStreak()
      var today = 0
      for (kind, gap) in raw {
        today += gap
        // No purchase: a buy step is a look. Reading settles a copy only; the stored streak is what counts.
        switch Step(kind: kind, gap: gap) {
        case .complete:
          streak.record(Self.day(today), in: .gmt, rule: Self.rule)
          plain.record(today)
        case .buy, .look:
          _ = streak.settled(on: Self.day(today), in: .gmt, rule: Self.rule)
        }
        #expect(streak.current(on: Self.day(today), in: .gmt) == plain.current(on: today))
        #expect(streak.settled(on: Self.day(today), in: .gmt, rule: Self.rule).current(on: Self.day(today), in: .gmt) == plain.current(on: today))
        #expect(streak.longest == plain.longest)
      }
    }
  }

  @Test("Property: a freeze never lengthens a run, is used at most once, and never covers a completed day")
  func freezesNeverLengthen() async {
    await propertyCheck(count: 300, input: Self.history) { raw in
      var streak = Streak()
      var completed: Set<CalendarDay> = []
      var bought = 0
      var used: Set<CalendarDay> = []
      var runStart: CalendarDay?
      var today = 0
      for (kind, gap) in raw {
        today += gap
        let day = Self.day(today)
        let before = streak
        switch Step(kind: kind, gap: gap) {
        case .complete:
          let change = streak.record(day, in: .gmt, rule: Self.rule)
          if change != .alreadyCounted { completed.insert(day) }
          if change == .started { runStart = day }
          switch change {
          case .started: #expect(streak.current == 1)
          case .extended: #expect(streak.current == before.current + 1, "a completed day adds exactly one, however many freezes it used")
          case .alreadyCounted: #expect(streak == before)
          }
        case .buy:
          do {
            try streak.addFreeze(on: day, in: .gmt, rule: Self.rule)
            bought += 1
          } catch {
            #expect(before.settled(on: day, in: .gmt, rule: Self.rule).freezes == Self.rule.maxFreezes)
            #expect(streak == before, "a refused purchase changes nothing")
          }
        case .look:
          streak.settle(before: day, in: .gmt, rule: Self.rule)
        }
        #expect(streak.freezes >= 0 && streak.freezes <= Self.rule.maxFreezes)
        #expect(completed.isDisjoint(with: streak.frozenDays), "a freeze covers only a missed day")
        let newlyUsed = Set(streak.frozenDays).subtracting(before.frozenDays)
        #expect(used.isDisjoint(with: newlyUsed), "a day is covered once")
        used.formUnion(newlyUsed)
        #expect(streak.freezes + used.count == bought, "every freeze bought is held or used on one day, never both, never twice")
        // Never lengthens: the run is exactly its completed days; covered days add nothing.
        if streak.current > 0, let start = runStart, let last = streak.lastDay {
          #expect(streak.current == completed.filter { $0 >= start && $0 <= last }.count)
        }
        #expect(streak.longest <= completed.count)
      }
    }
  }
}
