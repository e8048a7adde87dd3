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
/// the run, and DST days (23 or 25 hours) count as one day. A held freeze covers a missed day: it keeps the
/// run alive without lengthening it.
public struct Streak: Hashable, Sendable, Codable {
  /// Days in the current run.
  public private(set) var current: Int
  /// The longest run ever.
  public private(set) var longest: Int
  /// The last day that counted.
  public private(set) var lastDay: CalendarDay?
  /// The zone that day was counted in.
  public private(set) var lastZone: String?
  /// Freezes held, each able to cover one missed day.
  public private(set) var freezes: Int

  /// What recording a day did.
  public enum Change: Hashable, Sendable {
    /// A new run of one day (the first ever, or after a break).
    case started
    /// The run grew by a day; `freezesUsed` missed days were covered.
    case extended(freezesUsed: Int)
    /// That day had counted already, or lies before the last one.
    case alreadyCounted
  }

  public init(current: Int = 0, longest: Int = 0, lastDay: CalendarDay? = nil, lastZone: String? = nil, freezes: Int = 0) {
    self.current = max(current, 0)
    self.longest = max(longest, current, 0)
    self.lastDay = lastDay
    self.lastZone = lastZone
    self.freezes = max(freezes, 0)
  }

  /// Counts `day` (lived in `zone`) under `rule`.
  @discardableResult
  public mutating func record(_ day: CalendarDay, in zone: TimeZone, rule: StreakRule) -> Change {
    if let lastDay, day <= lastDay { return .alreadyCounted }
    let missed = missedDays(before: day, in: zone, dayStartHour: rule.dayStartHour)
    let change: Change
    if lastDay != nil, missed <= freezes {
      freezes -= missed
      current += 1
      change = .extended(freezesUsed: missed)
    } else {
      current = 1
      change = .started
    }
    lastDay = day
    lastZone = zone.identifier
    longest = max(longest, current)
    if let every = rule.freezeEvery, current % every == 0 { freezes = min(freezes + 1, rule.maxFreezes) }
    return change
  }

  /// The run as it stands on `today` (in `zone`): it lives while today is still open to extend it, that
  /// is when every missed day since the last one can be covered by a freeze.
  public func current(on today: CalendarDay, in zone: TimeZone, dayStartHour: Int = 0) -> Int {
    guard lastDay != nil else { return 0 }
    return missedDays(before: today, in: zone, dayStartHour: dayStartHour) <= freezes ? current : 0
  }

  /// Whole days lived without a completion between the last counted day and `day`: the smaller of the
  /// calendar gap and the real time between the end of the last day (in its zone) and the start of `day`
  /// (in `zone`), rounded to days so that DST's 23- and 25-hour days count as one.
  func missedDays(before day: CalendarDay, in zone: TimeZone, dayStartHour: Int) -> Int {
    guard let lastDay else { return 0 }
    let calendarGap = day.dayNumber - lastDay.dayNumber - 1
    guard calendarGap > 0 else { return 0 }
    let lastZone = lastZone.flatMap(TimeZone.init(identifier:)) ?? zone
    let endOfLast = lastDay.adding(days: 1).start(in: lastZone, dayStartHour: dayStartHour)
    let startOfDay = day.start(in: zone, dayStartHour: dayStartHour)
    let lived = Int((startOfDay.timeIntervalSince(endOfLast) / 86_400).rounded())
    return max(0, min(calendarGap, lived))
  }
}
