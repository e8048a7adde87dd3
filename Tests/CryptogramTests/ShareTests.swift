import CompletionCore
import Testing

@testable import Cryptogram

@Suite("Cryptogram share")
struct ShareTests {
  @Test("A daily's share names its day, links to it and reads naturally")
  func daily() {
    let day = CalendarDay(year: 2026, month: 11, day: 24)
    let share = CryptogramShare(dailyDate: day, length: .medium, seconds: 192.7, mistakes: 1, hints: 2, streak: 4)
    #expect(share.title == "Cryptogram · Daily puzzle, Tuesday 24 November 2026")
    #expect(share.text == """
      Cryptogram · Daily puzzle, Tuesday 24 November 2026
      Solved in 3:12 · 1 mistake · 2 hints
      Daily streak: 4 days
      Can you crack the same one?
      """)
    #expect(share.path == "/cryptogram?daily=2026-11-24")
    #expect(share.heading == "Daily puzzle" && share.subheading == "Tuesday 24 November 2026")
    #expect(share.figures.map(\.label) == ["Time", "Mistakes", "Hints", "Day streak"])
    #expect(share.figures.map(\.value) == ["3:12", "1", "2", "4"])
  }

  @Test("A random puzzle's share names its length, a clean solve says so, and no streak leaves its line out")
  func random() {
    let share = CryptogramShare(dailyDate: nil, length: .long, seconds: 3725, mistakes: 0, hints: 0, streak: 0)
    #expect(share.text == """
      Cryptogram · a random long quote
      Solved in 1:02:05 · no mistakes, no hints
      Crack a quote of your own:
      """)
    #expect(share.path == "/cryptogram" && share.subheading == "Long quote" && share.figures.count == 3)
  }

  @Test("Week days and clocks")
  func formats() {
    #expect(CryptogramShare.longDate(CalendarDay(year: 1970, month: 1, day: 1)) == "Thursday 1 January 1970")
    #expect(CryptogramShare.longDate(CalendarDay(year: 2026, month: 11, day: 30)) == "Monday 30 November 2026")
    #expect(CryptogramShare.longDate(CalendarDay(year: 1969, month: 12, day: 28)) == "Sunday 28 December 1969")
    #expect(CryptogramShare.clock(0) == "0:00" && CryptogramShare.clock(59.9) == "0:59" && CryptogramShare.clock(-3) == "0:00")
    #expect(CryptogramShare.clock(.infinity) == "0:00")
  }
}

@Suite("Cryptogram share after Continue")
struct FinishedShareTests {
  @Test("A solve after Continue is shared as finished, never as a solve with its mistakes")
  func finished() {
    let share = CryptogramShare(dailyDate: nil, length: .short, seconds: 95, mistakes: 4, hints: 1, streak: 0, outcome: .finished)
    #expect(share.text == """
      Cryptogram · a random short quote
      Finished in 1:35 after running out of mistakes · 4 mistakes · 1 hint
      Crack a quote of your own:
      """)
    #expect(!share.text.contains("Solved"))
    #expect(share.eyebrow == "CRYPTOGRAM · FINISHED")
    #expect(CryptogramShare(dailyDate: nil, length: .short, seconds: 95, mistakes: 1, hints: 1, streak: 0).eyebrow == "CRYPTOGRAM · SOLVED")
  }
}
