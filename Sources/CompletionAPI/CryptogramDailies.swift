import Cryptogram

/// `GET /api/cryptogram/dailies?month=2026-11` (the day in the `Time-Zone` header's zone): today's daily and a month of past dailies.
public struct CryptogramDailiesView: Codable, Hashable, Sendable {
  /// One day of the archive.
  public struct Day: Codable, Hashable, Sendable {
    /// "2026-11-24".
    public let date: String
    /// Whether the day's puzzle is out (from the first daily to today): only those link to a puzzle.
    public let available: Bool
    /// How the person's attempts at it went.
    public let status: DailyArchive.DayStatus
    /// Solved on its own date (what the streak counts).
    public let solvedOnDay: Bool

    public init(date: String, available: Bool, status: DailyArchive.DayStatus, solvedOnDay: Bool) {
      self.date = date
      self.available = available
      self.status = status
      self.solvedOnDay = solvedOnDay
    }
  }

  /// The month shown, "2026-11".
  public let month: String
  /// The month before, or nil at the archive's start.
  public let previousMonth: String?
  /// The month after, or nil at today's month.
  public let nextMonth: String?
  /// Today's daily, where the person is.
  public let today: Day
  /// Dailies solved on their own date in a row, up to today.
  public let currentStreak: Int
  /// Seconds until the next daily comes out where the person is.
  public let secondsToNextDaily: Double
  /// Every day of the month, in order.
  public let days: [Day]

  public init(
    month: String, previousMonth: String?, nextMonth: String?, today: Day, currentStreak: Int, secondsToNextDaily: Double, days: [Day]
  ) {
    self.month = month
    self.previousMonth = previousMonth
    self.nextMonth = nextMonth
    self.today = today
    self.currentStreak = currentStreak
    self.secondsToNextDaily = secondsToNextDaily
    self.days = days
  }
}
