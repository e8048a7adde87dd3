import Foundation

/// How a domain counts streaks.
public struct StreakRule: Hashable, Sendable {
  /// The streak's name ("cryptogram-daily", "challenges-daily"); one streak per person and name.
  public let name: String
  /// The hour a person's day starts (0 = midnight; 4 lets a 1 a.m. finish count for the evening before).
  public let dayStartHour: Int
  /// A freeze is earned every this many days of a run (nil: never).
  public let freezeEvery: Int?
  /// At most this many freezes are held at once.
  public let maxFreezes: Int
  /// Whether only completions finished on their ``Completion/scheduledDay`` count (a daily puzzle).
  public let requiresScheduledDay: Bool
  /// The completion kinds that count (nil: every kind). Challenges count only their dailies.
  public let kinds: Set<String>?

  public init(
    name: String, dayStartHour: Int = 0, freezeEvery: Int? = nil, maxFreezes: Int = 0, requiresScheduledDay: Bool = false,
    kinds: Set<String>? = nil
  ) {
    self.name = name
    self.kinds = kinds
    self.dayStartHour = min(max(dayStartHour, 0), 23)
    self.freezeEvery = freezeEvery.map { max($0, 1) }
    self.maxFreezes = max(maxFreezes, 0)
    self.requiresScheduledDay = requiresScheduledDay
  }

  /// The day `completion` counts for, or nil when it does not count (a daily finished on another date).
  public func day(of completion: Completion) -> CalendarDay? {
    if let kinds, !kinds.contains(completion.kind) { return nil }
    let day = CalendarDay(completion.completedAt, in: completion.zone, dayStartHour: dayStartHour)
    if requiresScheduledDay {
      guard let scheduled = completion.scheduledDay, scheduled == day else { return nil }
    }
    return day
  }
}

/// Consecutive days with a completion, counted in the person's own calendar.
///
/// Each completion's day comes from the time zone the person was in *at that moment*; days already counted
/// are never recounted when the zone changes later. A missed day is one the person really lived without a
/// completion: a flight west over the date line skips a calendar date but no lived day, so it does not break
/// the run, and DST days (23 or 25 hours) count as one day.
///
/// Freezes (earned by ``StreakRule/freezeEvery`` or bought, see ``addFreeze(on:in:rule:)``): a held freeze
/// covers one missed day. It keeps the run alive without lengthening it, it is used at most once (it leaves
/// ``freezes`` for ``frozenDays``), and missed days are covered only all together: two missed days need two
/// freezes, and freezes that cannot save a run are kept rather than spent on it.
public struct Streak: Hashable, Sendable, Codable {
  /// Days in the current run (0 once a settled run was broken).
  public private(set) var current: Int
  /// The longest run ever.
  public private(set) var longest: Int
  /// The last day that counted.
  public private(set) var lastDay: CalendarDay?
  /// The zone that day was counted in.
  public private(set) var lastZone: String?
  /// Freezes held, each able to cover one missed day.
  public private(set) var freezes: Int
  /// Missed days of the current run that freezes covered, oldest first (the last ``frozenDaysKept``).
  public private(set) var frozenDays: [CalendarDay]

  /// How many covered days are remembered (to show "used on …"); the newest is what matters to the rule.
  public static let frozenDaysKept = 7

  /// What recording a day did.
  public enum Change: Hashable, Sendable {
    /// A new run of one day (the first ever, or after a break).
    case started
    /// The run grew by a day; `freezesUsed` missed days were covered.
    case extended(freezesUsed: Int)
    /// That day had counted already, lies before the last one, or was covered by a freeze.
    case alreadyCounted
  }

  /// What settling the missed days before a day did.
  public enum Settlement: Hashable, Sendable {
    /// Nothing was missed (or there is no run).
    case unchanged
    /// Freezes covered these missed days; the run keeps its length.
    case covered([CalendarDay])
    /// More days were missed than freezes held: the run is over (its freezes are kept).
    case broken
  }

  /// Why a freeze could not be added.
  public enum FreezeRefusal: Error, Hashable, Sendable {
    /// ``StreakRule/maxFreezes`` are held already.
    case limitReached(max: Int)
  }

  public init(
    current: Int = 0, longest: Int = 0, lastDay: CalendarDay? = nil, lastZone: String? = nil, freezes: Int = 0, frozenDays: [CalendarDay] = []
  ) {
    self.current = max(current, 0)
    self.longest = max(longest, current, 0)
    self.lastDay = lastDay
    self.lastZone = lastZone
    self.freezes = max(freezes, 0)
    self.frozenDays = Array(frozenDays.sorted().suffix(Self.frozenDaysKept))
  }

  /// The last day of the run, counted or covered: missed days are counted from it.
  var anchor: CalendarDay? {
    guard let lastDay else { return nil }
    guard let frozen = frozenDays.last, frozen > lastDay else { return lastDay }
    return frozen
  }

  /// Counts `day` (lived in `zone`) under `rule`.
  @discardableResult
  public mutating func record(_ day: CalendarDay, in zone: TimeZone, rule: StreakRule) -> Change {
    if let anchor, day <= anchor { return .alreadyCounted }
    let change: Change
    switch settle(before: day, in: zone, rule: rule) {
    case .covered(let days):
      current += 1
      change = .extended(freezesUsed: days.count)
    case .unchanged where current > 0:
      current += 1
      change = .extended(freezesUsed: 0)
    case .unchanged, .broken:
      current = 1
      frozenDays = []
      change = .started
    }
    lastDay = day
    lastZone = zone.identifier
    longest = max(longest, current)
    if let every = rule.freezeEvery, current % every == 0 { freezes = min(freezes + 1, rule.maxFreezes) }
    return change
  }

  /// Settles the days missed before `day` (in `zone`): freezes cover them when there are enough for all,
  /// each used once; otherwise the run ends (`current` becomes 0) and the freezes are kept. Settling
  /// again before the same day changes nothing, so it may run whenever the streak is read or changed.
  @discardableResult
  public mutating func settle(before day: CalendarDay, in zone: TimeZone, rule: StreakRule) -> Settlement {
    guard let anchor, current > 0 else { return .unchanged }
    let missed = missedDays(before: day, in: zone, dayStartHour: rule.dayStartHour)
    guard missed > 0 else { return .unchanged }
    guard missed <= freezes else {
      current = 0
      frozenDays = []
      return .broken
    }
    let covered = (1...missed).map { anchor.adding(days: $0) }
    freezes -= missed
    frozenDays = Array((frozenDays + covered).suffix(Self.frozenDaysKept))
    return .covered(covered)
  }

  /// The streak as it stands on `today`: ``settle(before:in:rule:)`` on a copy, for reading without saving.
  public func settled(on today: CalendarDay, in zone: TimeZone, rule: StreakRule) -> Streak {
    var copy = self
    copy.settle(before: today, in: zone, rule: rule)
    return copy
  }

  /// Adds a freeze (one bought) on `today`: the days missed before today are settled first, so a freeze
  /// bought after a run broke cannot mend it. Refused when ``StreakRule/maxFreezes`` are held.
  public mutating func addFreeze(on today: CalendarDay, in zone: TimeZone, rule: StreakRule) throws(FreezeRefusal) {
    var settledCopy = self
    settledCopy.settle(before: today, in: zone, rule: rule)
    guard settledCopy.freezes < rule.maxFreezes else { throw .limitReached(max: rule.maxFreezes) }
    settledCopy.freezes += 1
    self = settledCopy
  }

  /// The run as it stands on `today` (in `zone`): it lives while today is still open to extend it, that
  /// is when every missed day since the last one can be covered by a freeze.
  public func current(on today: CalendarDay, in zone: TimeZone, dayStartHour: Int = 0) -> Int {
    guard lastDay != nil, current > 0 else { return 0 }
    return missedDays(before: today, in: zone, dayStartHour: dayStartHour) <= freezes ? current : 0
  }

  /// Whole days lived without a completion between the run's last day (counted or covered) and `day`: the
  /// smaller of the calendar gap and the real time between the end of that day (in the last counted day's
  /// zone) and the start of `day` (in `zone`), rounded to days so that DST's 23- and 25-hour days count as one.
  func missedDays(before day: CalendarDay, in zone: TimeZone, dayStartHour: Int) -> Int {
    guard let anchor else { return 0 }
    let calendarGap = day.dayNumber - anchor.dayNumber - 1
    guard calendarGap > 0 else { return 0 }
    let lastZone = lastZone.flatMap(TimeZone.init(identifier:)) ?? zone
    let endOfLast = anchor.adding(days: 1).start(in: lastZone, dayStartHour: dayStartHour)
    let startOfDay = day.start(in: zone, dayStartHour: dayStartHour)
    let lived = Int((startOfDay.timeIntervalSince(endOfLast) / 86_400).rounded())
    return max(0, min(calendarGap, lived))
  }
}
