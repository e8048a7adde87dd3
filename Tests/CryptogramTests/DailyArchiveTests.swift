import CompletionCore
import Foundation
import Testing

@testable import Cryptogram

@Suite("Daily archive")
struct DailyArchiveTests {
  @Test("Months read and step, the archive runs from the first daily's month to today's, days are out up to today")
  func months() throws {
    let november = try #require(DailyArchive.Month("2026-11"))
    #expect(november.description == "2026-11" && november.days.count == 30 && november.days.first == CalendarDay(year: 2026, month: 11, day: 1))
    #expect(november.previous.description == "2026-10" && november.next.description == "2026-12")
    #expect(try #require(DailyArchive.Month("2024-02")).days.count == 29)
    #expect(DailyArchive.Month("2026-13") == nil && DailyArchive.Month("2026-1") == nil && DailyArchive.Month("nope") == nil)
    let today = CalendarDay(year: 2026, month: 11, day: 25)
    #expect(DailyArchive.next(of: november, today: today) == nil)
    #expect(DailyArchive.previous(of: try #require(DailyArchive.Month("2025-04")), today: today) == nil)
    #expect(DailyArchive.shows(try #require(DailyArchive.Month("2025-04")), today: today))
    #expect(!DailyArchive.shows(try #require(DailyArchive.Month("2025-03")), today: today))
    #expect(DailyArchive.isOut(today, today: today) && !DailyArchive.isOut(today.adding(days: 1), today: today))
    #expect(!DailyArchive.isOut(DailyArchive.firstDay.adding(days: -1), today: today))
  }

  @Test("A day shows its best attempt: solved over finished over started over lost; a lost one let go is unplayed")
  func status() {
    #expect(DailyArchive.status(of: []) == .unplayed)
    #expect(DailyArchive.status(of: [(.abandoned, 3)]) == .unplayed)
    #expect(DailyArchive.status(of: [(.abandoned, 3), (.playing, 0)]) == .playing)
    #expect(DailyArchive.status(of: [(.failed, 3)]) == .failed)
    #expect(DailyArchive.status(of: [(.solved, 4)]) == .finished)
    #expect(DailyArchive.status(of: [(.solved, 4), (.solved, 1)]) == .solved)
  }

  @Test("The next daily comes at the person's next midnight")
  func nextDaily() throws {
    let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
    // 2026-11-25 22:30 UTC is 23:30 in Berlin: half an hour to go there, an hour and a half in UTC.
    let now = Date(timeIntervalSince1970: 1_795_645_800)
    #expect(abs(DailyArchive.secondsUntilNextDaily(at: now, in: berlin) - 1800) < 1e-6)
    #expect(abs(DailyArchive.secondsUntilNextDaily(at: now, in: .gmt) - 5400) < 1e-6)
  }
}
