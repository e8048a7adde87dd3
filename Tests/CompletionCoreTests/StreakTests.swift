import Foundation
import PropertyBased
import Testing

@testable import CompletionCore

@Suite("Streaks")
struct StreakTests {
  let daily = StreakRule(name: "test")

  func zone(_ name: String) -> TimeZone { TimeZone(identifier: name)! }

  func instant(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

  /// Records a completion at `iso` in `zoneName` the way the recorder does (the day from the zone then).
  @discardableResult
  func record(_ streak: inout Streak, _ iso: String, in zoneName: String, rule: StreakRule? = nil) -> Streak.Change {
    let rule = rule ?? daily
    let completion = Completion(domain: "t", subject: iso, account: "ada", completedAt: instant(iso), timeZone: zoneName)
    return streak.record(rule.day(of: completion)!, in: zone(zoneName), rule: rule)
  }

  @Test("Consecutive days grow the run; the same day twice changes nothing; a missed day starts over")
  func consecutiveDays() {
    var streak = Streak()
    #expect(record(&streak, "2026-11-16T09:00:00Z", in: "UTC") == .started)
    #expect(record(&streak, "2026-11-17T21:00:00Z", in: "UTC") == .extended(freezesUsed: 0))
    #expect(record(&streak, "2026-11-17T22:00:00Z", in: "UTC") == .alreadyCounted)
    #expect(streak.current == 2 && streak.longest == 2)
    let wednesday = CalendarDay(year: 2026, month: 11, day: 18)
    #expect(streak.current(on: wednesday, in: zone("UTC")) == 2, "today not done yet: yesterday's run still counts")
    #expect(streak.current(on: wednesday.adding(days: 1), in: zone("UTC")) == 0, "a whole day missed")
    #expect(record(&streak, "2026-11-19T08:00:00Z", in: "UTC") == .started)
    #expect(streak.current == 1 && streak.longest == 2)
    #expect(record(&streak, "2026-11-18T08:00:00Z", in: "UTC") == .alreadyCounted, "an older day cannot extend it backwards")
  }

  @Test("Midnight is the person's own: 00:10 in Tokyo is the next day there, while still the day before in UTC")
  func midnightInThePersonsZone() {
    var streak = Streak()
    record(&streak, "2026-11-20T23:30:00Z", in: "UTC")  // the 20th
    // 2026-11-21T15:10Z is 00:10 on the 22nd in Tokyo: the 21st was never lived there with a completion.
    #expect(record(&streak, "2026-11-21T15:10:00Z", in: "Asia/Tokyo") == .started)
    var other = Streak()
    record(&other, "2026-11-20T23:30:00Z", in: "UTC")
    #expect(record(&other, "2026-11-21T14:50:00Z", in: "Asia/Tokyo") == .extended(freezesUsed: 0), "23:50 on the 21st in Tokyo")
  }

  @Test("DST: the 23-hour and the 25-hour day each count as one day")
  func daylightSavingBothWays() {
    // Europe/Berlin springs forward on 2026-03-29 (23 hours) and falls back on 2026-10-25 (25 hours).
    for (before, dstDay, after) in [
      ("2026-03-28T22:30:00Z", "2026-03-29T21:30:00Z", "2026-03-30T21:30:00Z"),
      ("2026-10-24T21:30:00Z", "2026-10-25T22:30:00Z", "2026-10-26T22:30:00Z"),
    ] {
      var streak = Streak()
      record(&streak, before, in: "Europe/Berlin")
      #expect(record(&streak, dstDay, in: "Europe/Berlin") == .extended(freezesUsed: 0))
      #expect(record(&streak, after, in: "Europe/Berlin") == .extended(freezesUsed: 0))
      #expect(streak.current == 3)
      // …and skipping the DST day is still a missed day.
      var skipped = Streak()
      record(&skipped, before, in: "Europe/Berlin")
      #expect(record(&skipped, after, in: "Europe/Berlin") == .started)
    }
  }

  @Test("A flight west over the date line skips a calendar date but no lived day: the run goes on")
  func dateLineWest() {
    var streak = Streak()
    // Monday 23:00 in Honolulu (UTC-10) = Tuesday 09:00 UTC.
    record(&streak, "2026-11-17T09:00:00Z", in: "Pacific/Honolulu")
    #expect(streak.lastDay == CalendarDay(year: 2026, month: 11, day: 16))
    // Landed in Tokyo (UTC+9): Wednesday 20:00 there = Wednesday 11:00 UTC. Tuesday was a few hours of flight.
    #expect(record(&streak, "2026-11-18T11:00:00Z", in: "Asia/Tokyo") == .extended(freezesUsed: 0))
    #expect(streak.current == 2)
  }

  @Test("A flight east lives a date twice: the second time it has counted already, the next day extends")
  func dateLineEast() {
    var streak = Streak()
    record(&streak, "2026-11-16T01:00:00Z", in: "Asia/Tokyo")  // Monday 10:00 in Tokyo
    #expect(record(&streak, "2026-11-16T20:00:00Z", in: "Pacific/Honolulu") == .alreadyCounted)  // Monday 10:00 again
    #expect(record(&streak, "2026-11-17T20:00:00Z", in: "Pacific/Honolulu") == .extended(freezesUsed: 0))  // Tuesday
  }

  @Test("Changing time zone never recounts the days already counted")
  func zoneChangeKeepsHistory() {
    var streak = Streak()
    record(&streak, "2026-11-16T10:00:00Z", in: "Europe/Berlin")
    record(&streak, "2026-11-17T10:00:00Z", in: "Europe/Berlin")
    let before = streak
    // Seen from New York the first completion would fall on another time of day; nothing is recomputed.
    #expect(streak.current(on: CalendarDay(year: 2026, month: 11, day: 18), in: zone("America/New_York")) == 2)
    #expect(streak.lastDay == before.lastDay && streak.longest == 2)
    #expect(record(&streak, "2026-11-18T15:00:00Z", in: "America/New_York") == .extended(freezesUsed: 0))
    #expect(streak.lastZone == "America/New_York")
  }

  @Test("A freeze covers a missed day: the run survives without growing for it, and the freeze is used up")
  func freezes() {
    let rule = StreakRule(name: "frozen", freezeEvery: 3, maxFreezes: 1)
    var streak = Streak()
    for day in 16...18 { record(&streak, "2026-11-\(day)T12:00:00Z", in: "UTC", rule: rule) }
    #expect(streak.current == 3 && streak.freezes == 1, "three days earn a freeze")
    let afterMissing = CalendarDay(year: 2026, month: 11, day: 20)
    #expect(streak.current(on: afterMissing, in: zone("UTC")) == 3, "the freeze keeps the run alive through the 19th")
    #expect(record(&streak, "2026-11-20T12:00:00Z", in: "UTC", rule: rule) == .extended(freezesUsed: 1))
    #expect(streak.current == 4 && streak.freezes == 0, "the frozen day adds nothing; the 20th adds one")
    // Two missed days with no freeze left: over.
    #expect(record(&streak, "2026-11-23T12:00:00Z", in: "UTC", rule: rule) == .started)
    #expect(streak.longest == 4)
  }

  @Test("Freezes are capped, and two missed days need two freezes")
  func freezeCap() {
    let rule = StreakRule(name: "frozen", freezeEvery: 1, maxFreezes: 2)
    var streak = Streak()
    for day in 1...5 { record(&streak, "2026-11-0\(day)T12:00:00Z", in: "UTC", rule: rule) }
    #expect(streak.freezes == 2)
    #expect(record(&streak, "2026-11-08T12:00:00Z", in: "UTC", rule: rule) == .extended(freezesUsed: 2))
    #expect(streak.current == 6)
  }

  @Test("A day that starts at 4 a.m.: a 1 a.m. completion counts for the evening before")
  func dayStartHour() {
    let owl = StreakRule(name: "owl", dayStartHour: 4)
    let late = Completion(domain: "t", subject: "a", account: "ada", completedAt: instant("2026-11-17T01:00:00Z"), timeZone: "UTC")
    #expect(owl.day(of: late) == CalendarDay(year: 2026, month: 11, day: 16))
    #expect(daily.day(of: late) == CalendarDay(year: 2026, month: 11, day: 17))
  }

  @Test("A rule that needs the scheduled day counts a daily only on its own date")
  func scheduledDay() {
    let rule = StreakRule(name: "daily", requiresScheduledDay: true)
    let monday = CalendarDay(year: 2026, month: 11, day: 16)
    let onTime = Completion(
      domain: "t", subject: "a", account: "ada", completedAt: instant("2026-11-16T20:00:00Z"), timeZone: "UTC", scheduledDay: monday)
    let late = Completion(
      domain: "t", subject: "b", account: "ada", completedAt: instant("2026-11-17T08:00:00Z"), timeZone: "UTC", scheduledDay: monday)
    let unscheduled = Completion(domain: "t", subject: "c", account: "ada", completedAt: instant("2026-11-16T20:00:00Z"), timeZone: "UTC")
    #expect(rule.day(of: onTime) == monday)
    #expect(rule.day(of: late) == nil && rule.day(of: unscheduled) == nil)
  }

  @Test("Property: any order of days keeps current ≤ longest, never below zero, and alreadyCounted changes nothing")
  func invariants() async {
    let days = Gen.int(in: 0...40).array(of: 1...40)
    await propertyCheck(count: 200, input: days) { offsets in
      let rule = StreakRule(name: "p", freezeEvery: 4, maxFreezes: 2)
      var streak = Streak()
      let start = CalendarDay(year: 2026, month: 1, day: 1)
      for offset in offsets {
        let before = streak
        let change = streak.record(start.adding(days: offset), in: .gmt, rule: rule)
        if change == .alreadyCounted { #expect(streak == before) }
        #expect(streak.current >= 1 && streak.current <= streak.longest)
        #expect(streak.freezes >= 0 && streak.freezes <= rule.maxFreezes)
      }
    }
  }
}
