import CompletionCore
import Foundation

/// How long a challenge runs and what finishing it pays (seed 004's `calculateChallengePoints`).
public enum ChallengeType: String, CaseIterable, Codable, Hashable, Sendable {
  case daily, weekly, monthly, special

  /// Points for completing a challenge of this type.
  public var points: Int {
    switch self {
    case .daily: 100
    case .weekly: 500
    case .monthly: 1000
    case .special: 750
    }
  }

  /// "Daily", "Weekly"…
  public var displayName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

  /// The seed's story prompts, shown one at a time as the placeholder of "Share Your Story".
  public var storyPrompts: [String] {
    switch self {
    case .daily: ["What did you cook today?", "How did it taste?", "Would you make it again?"]
    case .weekly: ["What was your favorite recipe this week?", "What did you learn?", "Any tips for others?"]
    case .special: ["How did you complete this challenge?", "What made it special?", "Share your experience!"]
    case .monthly: ["Tell us about your experience!", "What did you enjoy most?", "Any advice for others?"]
    }
  }
}

/// A challenge as the catalogue describes it, before it is given dates.
public struct ChallengeTemplate: Codable, Hashable, Sendable {
  /// Unique, stable name ("perfect-pancakes"): lowercase letters, digits and hyphens.
  public let slug: String
  public let type: ChallengeType
  public let title: String
  public let description: String
  /// The checklist shown with the challenge.
  public let requirements: [String]
  /// Specials only: the first day it runs each year.
  public let date: MonthDay?
  /// Specials only: how many days it runs (1…7).
  public let days: Int?

  public init(
    slug: String, type: ChallengeType, title: String, description: String, requirements: [String], date: MonthDay? = nil, days: Int? = nil
  ) {
    self.slug = slug
    self.type = type
    self.title = title
    self.description = description
    self.requirements = requirements
    self.date = date
    self.days = days
  }
}

/// A day of the year without the year ("12-24").
public struct MonthDay: Hashable, Sendable, Codable, CustomStringConvertible {
  public let month: Int
  public let day: Int

  public init?(month: Int, day: Int) {
    // 2024 is a leap year, so 02-29 is accepted (it runs on 03-01 in other years).
    guard (1...12).contains(month), CalendarDay("2024-\(Self.two(month))-\(Self.two(day))") != nil else { return nil }
    self.month = month
    self.day = day
  }

  /// Parses "MM-DD".
  public init?(_ text: String) {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let month = Int(parts[0]), let day = Int(parts[1]) else { return nil }
    self.init(month: month, day: day)
  }

  public var description: String { "\(Self.two(month))-\(Self.two(day))" }

  /// This date in `year` (02-29 becomes 03-01 outside leap years).
  public func inYear(_ year: Int) -> CalendarDay {
    CalendarDay(year: year, month: month, day: 1).adding(days: day - 1)
  }

  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let value = MonthDay(text) else {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected MM-DD, got \(text)"))
    }
    self = value
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// A challenge with its dates: what a person can join and complete.
public struct Challenge: Hashable, Sendable {
  public let template: ChallengeTemplate
  /// The first day it runs, in the person's calendar.
  public let start: CalendarDay
  /// The last day it runs (inclusive).
  public let end: CalendarDay

  public init(template: ChallengeTemplate, start: CalendarDay, end: CalendarDay) {
    self.template = template
    self.start = start
    self.end = end
  }

  /// "daily.2026-11-23.perfect-pancakes": the type, the first day and the slug.
  public var id: String { ChallengeID(type: template.type, start: start, slug: template.slug).description }
  public var slug: String { template.slug }
  public var type: ChallengeType { template.type }
  public var title: String { template.title }
  public var points: Int { template.type.points }

  /// Whether it can be joined and completed on `day`.
  public func isOpen(on day: CalendarDay) -> Bool { start <= day && day <= end }

  /// The moment it ends for a person in `zone`: the start of the day after its last.
  public func endsAt(in zone: TimeZone) -> Date { end.adding(days: 1).start(in: zone) }
}

/// A challenge's id, parsed: "{type}.{YYYY-MM-DD}.{slug}".
public struct ChallengeID: Hashable, Sendable, CustomStringConvertible {
  public let type: ChallengeType
  public let start: CalendarDay
  public let slug: String

  public init(type: ChallengeType, start: CalendarDay, slug: String) {
    self.type = type
    self.start = start
    self.slug = slug
  }

  public init?(_ text: String) {
    let parts = text.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, let type = ChallengeType(rawValue: String(parts[0])), let start = CalendarDay(String(parts[1])),
      ChallengeRules.isValidSlug(String(parts[2]))
    else { return nil }
    self.init(type: type, start: start, slug: String(parts[2]))
  }

  public var description: String { "\(type.rawValue).\(start).\(slug)" }
}

/// Where a person stands with a challenge (the seed's `UserChallenge.status`).
public enum ParticipationStatus: String, Codable, Hashable, Sendable {
  case active, completed, left
  /// Completed, then taken back by moderation: it no longer counts and cannot be completed again.
  case revoked
}
