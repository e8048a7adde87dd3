import CompletionCore
import Foundation
import Testing

@testable import Cryptogram

@Suite("Daily, random and streaks")
struct SelectionTests {
  /// Forty distinct quotes; the number is spelled out because ids are made from letters only.
  let library: [Quote] = (0..<40).map { number in
    let names = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    let spelled = String(number).map { names[Int(String($0))!] }.joined(separator: " ")
    return Quote(text: "Quote \(spelled) has letters" + String(repeating: " and more", count: number % 12), author: "Author \(spelled)")
  }

  @Test("The daily puzzle is the same for everyone on a date, and differs from day to day")
  func dailyDeterminism() {
    let day = CalendarDay(year: 2026, month: 11, day: 21)
    let a = PuzzleSelection.daily(for: day, from: library)
    let b = PuzzleSelection.daily(for: day, from: library.reversed())
    #expect(a?.quote == b?.quote && a?.seed == b?.seed)
    let week = (0..<40).compactMap { PuzzleSelection.daily(for: day.adding(days: $0), from: library)?.quote.id }
    #expect(Set(week).count == 40, "no repeats until the library is used up")
  }

  @Test("Random puzzles skip solved quotes, keep to the length, and fall back to solved ones when needed")
  func random() {
    var generator = SeededRandom(seed: 1)
    let shorts = library.filter { $0.length == .short }
    let solved = Set(shorts.dropFirst().map(\.id))
    for _ in 0..<20 {
      let pick = PuzzleSelection.random(from: library, length: .short, excluding: solved, using: &generator)
      #expect(pick == shorts.first)
    }
    let all = Set(shorts.map(\.id))
    let fallback = PuzzleSelection.random(from: library, length: .short, excluding: all, using: &generator)
    #expect(fallback.map { $0.length == .short } == true)
    let never = PuzzleSelection.random(from: library, length: .short, excluding: [], alwaysExcluding: all, using: &generator)
    #expect(never == nil)
  }

  @Test("Length bands: short ≤ 49, medium 50–99, long ≥ 100 characters")
  func bands() {
    #expect(QuoteLength(characterCount: 49) == .short)
    #expect(QuoteLength(characterCount: 50) == .medium)
    #expect(QuoteLength(characterCount: 99) == .medium)
    #expect(QuoteLength(characterCount: 100) == .long)
  }

  @Test("Calendar days: parsing, arithmetic, and the date an instant falls on in a time zone")
  func calendarDays() throws {
    #expect(CalendarDay("2024-02-29") == CalendarDay(year: 2024, month: 2, day: 29))
    #expect(CalendarDay("2026-02-29") == nil && CalendarDay("2026-13-01") == nil && CalendarDay("yesterday") == nil)
    #expect(CalendarDay(year: 2026, month: 12, day: 31).adding(days: 1).description == "2027-01-01")
    #expect(CalendarDay(year: 1970, month: 1, day: 1).dayNumber == 0)
    // 2026-11-21 23:30 UTC is already the 22nd in Berlin and still the 21st in New York.
    let instant = try #require(ISO8601DateFormatter().date(from: "2026-11-21T23:30:00Z"))
    #expect(CalendarDay(instant, in: TimeZone(identifier: "Europe/Berlin")!).description == "2026-11-22")
    #expect(CalendarDay(instant, in: TimeZone(identifier: "America/New_York")!).description == "2026-11-21")
  }

  @Test("The completion sequence follows the seed: from the solve, trophy and quote at 0.4 s, the view's fade from 0.7 s, then 1.2, 1.8 and 2.3 s")
  func celebration() {
    let c = CompletionCelebration.choreography
    let delays = Dictionary(uniqueKeysWithValues: c.steps.map { ($0.id, ($0.delay * 1000).rounded() / 1000) })
    #expect(delays == ["overlay": 0.7, "trophy": 0.4, "quote": 0.4, "attribution": 1.2, "source": 1.2, "stats": 1.8, "next": 2.3])
    #expect(c.step("trophy")?.curve == .spring(Spring(response: 0.6, dampingFraction: 0.8)))
    #expect(c.step("trophy")?.from.scale == 0.8 && c.step("quote")?.from.scale == 0.9)
    #expect(c.step("stats")?.from.offsetY == 20 && c.step("next")?.from.offsetY == 15)
    #expect(c.startOrder == ["trophy", "quote", "overlay", "attribution", "source", "stats", "next"])
    let calm = c.adapted(to: .reduced)
    #expect(calm.steps.allSatisfy { $0.from.offsetY == 0 && $0.from.scale == 1 })
  }
}
