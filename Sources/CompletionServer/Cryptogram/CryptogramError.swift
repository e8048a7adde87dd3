import CompletionCore
import Cryptogram
import Vapor

/// Everything the cryptogram API refuses, with its status and stable code.
enum CryptogramError: APIErrorConvertible, Equatable {
  case gameNotFound
  case invalidMode(String)
  case invalidTimeZone(String)
  case invalidLetter
  case noQuotes
  case invalidDate(String)
  case invalidMonth(String)
  /// A well-formed day or month that has no daily puzzle (before the archive starts, or a month not yet come).
  case notInArchive(String)
  case dailyNotYet(CalendarDay)
  case notSolved
  case refused(Board.Refusal)

  var status: HTTPResponseStatus {
    switch self {
    case .gameNotFound, .notInArchive: .notFound
    case .invalidMode, .invalidTimeZone, .invalidLetter, .invalidDate, .invalidMonth: .badRequest
    case .dailyNotYet, .notSolved: .conflict
    case .noQuotes: .serviceUnavailable
    case .refused(let refusal):
      switch refusal {
      case .noSuchCell, .notALetter, .invalidLetter: .badRequest
      default: .conflict
      }
    }
  }

  var code: String {
    switch self {
    case .gameNotFound: "game_not_found"
    case .invalidMode: "invalid_mode"
    case .invalidTimeZone: "invalid_time_zone"
    case .invalidLetter: "invalid_letter"
    case .noQuotes: "no_quotes"
    case .invalidDate: "invalid_date"
    case .invalidMonth: "invalid_month"
    case .notInArchive: "not_found"
    case .dailyNotYet: "daily_not_yet"
    case .notSolved: "not_solved"
    case .refused(let refusal): refusal.rawValue
    }
  }

  var message: String {
    switch self {
    case .gameNotFound: "There is no such puzzle for you. Start a new one."
    case .invalidMode(let mode): "'\(mode)' is not a way to play: use daily or random."
    case .invalidTimeZone(let zone): "'\(zone)' is not a time zone this server knows (try Europe/Berlin or UTC)."
    case .invalidLetter: "Send one letter from A to Z."
    case .noQuotes: "There are no quotes to play yet. Import some with `completionkit quotes import`."
    case .invalidDate(let text): "'\(text)' is not a day with a daily puzzle: a daily puzzle's link ends in a date like 2026-11-24 (from the year 2000 on)."
    case .invalidMonth(let text):
      "'\(text)' is not a month of the daily archive: use a month like 2026-11, from April 2025 to this month."
    case .notInArchive(let text): "'\(text)' has no daily puzzle: the archive runs from April 2025 to today."
    case .dailyNotYet(let day): "The daily puzzle for \(CryptogramShare.longDate(day)) is not out yet: it opens when that day begins."
    case .notSolved: "Only a solved puzzle can be shared: finish it first."
    case .refused(let refusal):
      switch refusal {
      case .notPlaying: "This puzzle is not being played right now."
      case .paused: "The puzzle is paused. Resume it to keep playing."
      case .noSuchCell: "That cell is not part of this puzzle."
      case .notALetter: "That cell is not a letter."
      case .alreadyRevealed: "That letter is already filled in."
      case .invalidLetter: "Send one letter from A to Z."
      case .notPaused: "The puzzle is not paused."
      case .notFailed: "You can only continue a puzzle that ran out of mistakes."
      case .nothingToReveal: "Every letter is already shown."
      }
    }
  }
}
