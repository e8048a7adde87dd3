import CompletionCore
import Foundation

/// The challenges on offer, rotating by date: two dailies a day, a weekly (Monday to Sunday), a monthly,
/// and every special whose dates include the day. The same day gives everyone the same challenges; the
/// day is the person's own.
public struct ChallengeCatalogue: Sendable {
  /// Every template, built-in and imported.
  public let templates: [ChallengeTemplate]
  private let bySlug: [String: ChallengeTemplate]
  private let dailies: [ChallengeTemplate]
  private let weeklies: [ChallengeTemplate]
  private let monthlies: [ChallengeTemplate]
  private let specials: [ChallengeTemplate]

  /// How many dailies a day offers.
  public static let dailiesPerDay = 2

  public init(templates: [ChallengeTemplate]) {
    self.templates = templates
    bySlug = Dictionary(templates.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
    // A stable order that is not alphabetical, so consecutive days do not read like an index.
    func pool(_ type: ChallengeType) -> [ChallengeTemplate] {
      templates.filter { $0.type == type }.sorted { (SeededRandom.fnv1a($0.slug), $0.slug) < (SeededRandom.fnv1a($1.slug), $1.slug) }
    }
    dailies = pool(.daily)
    weeklies = pool(.weekly)
    monthlies = pool(.monthly)
    specials = pool(.special)
  }

  /// The built-in catalogue of cooking challenges.
  public static let builtIn: ChallengeCatalogue = {
    guard let url = Bundle.module.url(forResource: "catalogue", withExtension: "json"),
      let data = try? Data(contentsOf: url),
      let templates = try? JSONDecoder().decode([ChallengeTemplate].self, from: data)
    else { preconditionFailure("the built-in challenge catalogue is missing or unreadable") }
    return ChallengeCatalogue(templates: templates)
  }()

  /// The built-in catalogue with an operator's templates added.
  public func adding(_ more: [ChallengeTemplate]) -> ChallengeCatalogue {
    ChallengeCatalogue(templates: templates + more.filter { bySlug[$0.slug] == nil })
  }

  /// The template named `slug`.
  public func template(_ slug: String) -> ChallengeTemplate? { bySlug[slug] }

  /// What is on offer on `day`: dailies first, then the weekly, the monthly and the specials.
  public func challenges(on day: CalendarDay) -> [Challenge] {
    var result: [Challenge] = []
    if !dailies.isEmpty {
      let first = day.dayNumber * Self.dailiesPerDay
      for index in 0..<min(Self.dailiesPerDay, dailies.count) {
        result.append(Challenge(template: dailies[Self.index(first + index, count: dailies.count)], start: day, end: day))
      }
    }
    if !weeklies.isEmpty {
      let monday = Self.monday(of: day)
      result.append(Challenge(template: weeklies[Self.index(monday.dayNumber / 7, count: weeklies.count)], start: monday, end: monday.adding(days: 6)))
    }
    if !monthlies.isEmpty {
      let first = CalendarDay(year: day.year, month: day.month, day: 1)
      let next = day.month == 12 ? CalendarDay(year: day.year + 1, month: 1, day: 1) : CalendarDay(year: day.year, month: day.month + 1, day: 1)
      result.append(Challenge(template: monthlies[Self.index(day.year * 12 + day.month, count: monthlies.count)], start: first, end: next.adding(days: -1)))
    }
    for template in specials {
      // A special that starts late in December may still run in early January.
      for year in [day.year - 1, day.year] {
        guard let date = template.date else { continue }
        let start = date.inYear(year)
        let end = start.adding(days: max(template.days ?? 1, 1) - 1)
        if start <= day && day <= end { result.append(Challenge(template: template, start: start, end: end)) }
      }
    }
    return result
  }

  /// The challenge `id` names, if it is one this catalogue offers on `day`.
  public func challenge(_ id: ChallengeID, openOn day: CalendarDay) -> Challenge? {
    challenges(on: day).first { $0.id == id.description }
  }

  /// The Monday starting `day`'s week.
  public static func monday(of day: CalendarDay) -> CalendarDay {
    // Day 0 (1970-01-01) was a Thursday, three days after a Monday.
    day.adding(days: -index(day.dayNumber + 3, count: 7))
  }

  private static func index(_ value: Int, count: Int) -> Int { ((value % count) + count) % count }
}

/// What a template must be. The import and the built-in catalogue's test apply the same rules.
public enum ChallengeRules {
  public static let titleLength = 3...48
  public static let descriptionLength = 20...200
  public static let requirementCount = 2...4
  public static let requirementLength = 5...80
  public static let specialDays = 1...7
  /// At most this much text in a story (characters).
  public static let storyLimit = 500
  /// At most this much text in a comment (characters).
  public static let commentLimit = 300

  /// Lowercase letters, digits and single hyphens, 3 to 48 characters.
  public static func isValidSlug(_ slug: String) -> Bool {
    guard (3...48).contains(slug.count), !slug.hasPrefix("-"), !slug.hasSuffix("-"), !slug.contains("--") else { return false }
    return slug.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
  }

  /// Every problem with `template`, in words for the person importing it.
  public static func problems(with template: ChallengeTemplate) -> [String] {
    var problems: [String] = []
    if !isValidSlug(template.slug) { problems.append("slug must be 3–48 lowercase letters, digits and single hyphens") }
    let title = template.title.trimmingCharacters(in: .whitespacesAndNewlines)
    if !titleLength.contains(title.count) { problems.append("title must be \(titleLength.lowerBound)–\(titleLength.upperBound) characters") }
    if title != template.title { problems.append("title must not start or end with spaces") }
    if !descriptionLength.contains(template.description.count) {
      problems.append("description must be \(descriptionLength.lowerBound)–\(descriptionLength.upperBound) characters")
    }
    if !requirementCount.contains(template.requirements.count) {
      problems.append("there must be \(requirementCount.lowerBound)–\(requirementCount.upperBound) requirements")
    }
    for (index, requirement) in template.requirements.enumerated() where !requirementLength.contains(requirement.count) {
      problems.append("requirement \(index + 1) must be \(requirementLength.lowerBound)–\(requirementLength.upperBound) characters")
    }
    let hasControl = ([template.title, template.description] + template.requirements).contains { text in
      text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
    if hasControl { problems.append("text must not contain control characters or line breaks") }
    if template.type == .special {
      if template.date == nil { problems.append("a special needs a date (MM-DD)") }
      if let days = template.days, !specialDays.contains(days) { problems.append("days must be 1–7") }
    } else if template.date != nil || template.days != nil {
      problems.append("only specials have a date and days")
    }
    return problems
  }
}
