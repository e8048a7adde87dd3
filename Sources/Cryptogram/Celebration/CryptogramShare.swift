import CompletionCore
import Foundation

/// What a solved puzzle's share says: which puzzle and how it went, never a letter of the quote, so a friend
/// can read it before playing. A daily puzzle's share names its day and links to it, so friends can play the
/// same one; a random puzzle links to the game.
public struct CryptogramShare: Sendable {
  /// One line naming the puzzle: "Cryptogram · Daily puzzle, Tuesday 24 November 2026".
  public let title: String
  /// The title, then the result and the streak, one per line; what a chat message shows.
  public let text: String
  /// Where the share points, relative to the site: the daily's own link, or the game's page.
  public let path: String
  /// The card's headline: "Daily puzzle" or "Random quote".
  public let heading: String
  /// The card's line under it: the daily's date, or the quote's length.
  public let subheading: String
  /// The card's figures, label and value: time, mistakes, hints and (when there is one) the streak.
  public let figures: [(label: String, value: String)]
  /// The card's closing line.
  public let invitation: String
  /// The card's top line: "CRYPTOGRAM · SOLVED" or "CRYPTOGRAM · FINISHED".
  public let eyebrow: String

  /// The share of a solved game.
  /// - Parameters:
  ///   - dailyDate: the daily puzzle's day; nil for a random puzzle.
  ///   - length: the quote's length band, named for a random puzzle.
  ///   - streak: the player's current daily streak in days (0 leaves the line out).
  ///   - outcome: solved, or finished after continuing past the mistake limit (said as such, never as a solve).
  public init(
    dailyDate: CalendarDay?, length: QuoteLength, seconds: Double, mistakes: Int, hints: Int, streak: Int,
    outcome: PuzzleOutcome = .solved
  ) {
    eyebrow = "CRYPTOGRAM · \(outcome.word.uppercased())"
    heading = dailyDate == nil ? "Random quote" : "Daily puzzle"
    subheading = dailyDate.map(Self.longDate) ?? "\(length.rawValue.prefix(1).uppercased())\(length.rawValue.dropFirst()) quote"
    invitation = dailyDate == nil ? "Crack a quote of your own" : "Can you crack the same one?"
    figures = [("Time", Self.clock(seconds)), ("Mistakes", "\(mistakes)"), ("Hints", "\(hints)")]
      + (streak > 0 ? [("Day streak", "\(streak)")] : [])
    let puzzle = dailyDate.map { "Daily puzzle, \(Self.longDate($0))" } ?? "a random \(length.rawValue) quote"
    title = "Cryptogram · \(puzzle)"
    let time = outcome == .solved ? "Solved in \(Self.clock(seconds))" : "Finished in \(Self.clock(seconds)) after running out of mistakes"
    var result = [time, Self.count(mistakes, "mistake"), Self.count(hints, "hint")]
    if mistakes == 0 && hints == 0 { result = [time, "no mistakes, no hints"] }
    var lines = [title, result.joined(separator: " · ")]
    if streak > 0 { lines.append("Daily streak: \(Self.count(streak, "day"))") }
    lines.append(invitation + (dailyDate == nil ? ":" : ""))
    text = lines.joined(separator: "\n")
    path = dailyDate.map { "/cryptogram?daily=\($0.description)" } ?? "/cryptogram"
  }

  /// 75 → "1:15", 3725 → "1:02:05" (whole seconds, rounded down, as the game's clock shows them).
  public static func clock(_ seconds: Double) -> String {
    let total = max(0, Int(seconds.isFinite ? seconds : 0))
    let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
    let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
    return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
  }

  /// "Tuesday 24 November 2026", in English whatever the server's locale (the product's language).
  public static func longDate(_ day: CalendarDay) -> String {
    let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    let months = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    // Day number 0 is 1970-01-01, a Thursday.
    let weekday = weekdays[((day.dayNumber % 7) + 7 + 3) % 7]
    return "\(weekday) \(day.day) \(months[day.month - 1]) \(day.year)"
  }

  private static func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
}
