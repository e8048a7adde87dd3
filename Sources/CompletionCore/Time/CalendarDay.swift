import Foundation

/// A calendar date with no time or zone ("2026-11-21"), as a person's own calendar shows it.
public struct CalendarDay: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  public init(year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `instant` falls on in `timeZone`.
  public init(_ instant: Date, in timeZone: TimeZone) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: instant)
    self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
  }

  /// Parses "YYYY-MM-DD"; nil for anything that is not a real date.
  public init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
    else { return nil }
    let candidate = CalendarDay(year: year, month: month, day: day)
    // Round-trip through the calendar to reject 2026-02-30 and the like.
    guard CalendarDay(dayNumber: candidate.dayNumber) == candidate else { return nil }
    self = candidate
  }

  /// Days since 1970-01-01 (proleptic Gregorian), for arithmetic.
  public var dayNumber: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthIndex = (month + 9) % 12
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The day `dayNumber` days after 1970-01-01.
  public init(dayNumber: Int) {
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
  }

  /// The day `days` later (or earlier when negative).
  public func adding(days: Int) -> CalendarDay { CalendarDay(dayNumber: dayNumber + days) }

  /// "YYYY-MM-DD".
  public var description: String {
    let y = String(year)
    let m = month < 10 ? "0\(month)" : "\(month)"
    let d = day < 10 ? "0\(day)" : "\(day)"
    return "\(y)-\(m)-\(d)"
  }

  public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.dayNumber < rhs.dayNumber }
}

extension CalendarDay {
  /// The day `instant` counts for when a person's day starts at `dayStartHour` (0 = midnight, 4 = a day
  /// that runs until 4 a.m., as night owls expect): the date of `instant` minus that many hours.
  public init(_ instant: Date, in timeZone: TimeZone, dayStartHour: Int) {
    self.init(instant.addingTimeInterval(-Double(dayStartHour) * 3600), in: timeZone)
  }

  /// The instant this day starts in `timeZone` (at `dayStartHour`), DST-aware.
  public func start(in timeZone: TimeZone, dayStartHour: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let midnight =
      calendar.date(from: DateComponents(year: year, month: month, day: day))
      ?? Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
    return calendar.date(byAdding: .hour, value: dayStartHour, to: midnight) ?? midnight.addingTimeInterval(Double(dayStartHour) * 3600)
  }
}
