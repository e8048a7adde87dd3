import CompletionCore
import Foundation

/// The archive of past daily puzzles, by month (as NYT Games keeps one): which days have a puzzle, how a
/// person's attempts at a day went, and when the next daily comes.
public enum DailyArchive {
  /// The first daily puzzle: the original game's first daily, 23 April 2025. The archive starts there.
  public static let firstDay = CalendarDay(year: 2025, month: 4, day: 23)

  /// How a day's daily went for one person, best attempt first in the order below.
  public enum DayStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// Not opened, or lost and let go.
    case unplayed
    /// Started and not finished.
    case playing
    /// Out of mistakes (Continue, Try again or New puzzle).
    case failed
    /// Solved after continuing past the mistake limit.
    case finished
    /// Solved within the mistake limit.
    case solved
  }

  /// One calendar month, "2026-11".
  public struct Month: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    /// The month `day` falls in.
    public init(containing day: CalendarDay) {
      year = day.year
      month = day.month
    }

    /// "2026-11"; nil for anything else.
    public init?(_ text: String) {
      let parts = text.split(separator: "-", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
        (1...12).contains(month)
      else { return nil }
      self.year = year
      self.month = month
    }

    public var description: String { "\(year)-\(month < 10 ? "0" : "")\(month)" }

    /// Its first day.
    public var first: CalendarDay { CalendarDay(year: year, month: month, day: 1) }

    /// Every day of it, in order.
    public var days: [CalendarDay] {
      let start = first.dayNumber
      let end = next.first.dayNumber
      return (start..<end).map(CalendarDay.init(dayNumber:))
    }

    /// The month before.
    public var previous: Month { Month(containing: first.adding(days: -1)) }
    /// The month after.
    public var next: Month { Month(containing: first.adding(days: 32)) }

    public static func < (lhs: Month, rhs: Month) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
  }

  /// Whether `day`'s daily is out on `today`: from the first daily to today.
  public static func isOut(_ day: CalendarDay, today: CalendarDay) -> Bool {
    day >= firstDay && day <= today
  }

  /// Whether the archive shows `month` on `today`: from the first daily's month to today's.
  public static func shows(_ month: Month, today: CalendarDay) -> Bool {
    month >= Month(containing: firstDay) && month <= Month(containing: today)
  }

  /// The month before `month` in the archive, or nil at its start.
  public static func previous(of month: Month, today: CalendarDay) -> Month? {
    shows(month.previous, today: today) ? month.previous : nil
  }

  /// The month after `month` in the archive, or nil at today's month.
  public static func next(of month: Month, today: CalendarDay) -> Month? {
    shows(month.next, today: today) ? month.next : nil
  }

  /// A day's status from its attempts (each attempt's board status and mistakes): the best of them.
  public static func status(of attempts: [(status: Board.Status, mistakes: Int)]) -> DayStatus {
    let statuses = attempts.map { attempt -> DayStatus in
      switch attempt.status {
      case .solved: PuzzleOutcome.ofSolve(mistakes: attempt.mistakes) == .solved ? .solved : .finished
      case .playing: .playing
      case .failed: .failed
      case .abandoned: .unplayed
      }
    }
    let order = DayStatus.allCases
    return statuses.max { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! } ?? .unplayed
  }

  /// Seconds from `now` until the next daily comes out where the person is (their next midnight).
  public static func secondsUntilNextDaily(at now: Date, in zone: TimeZone) -> Double {
    let tomorrow = CalendarDay(now, in: zone).adding(days: 1)
    return max(0, tomorrow.start(in: zone).timeIntervalSince(now))
  }
}
