import Fluent
import Foundation

/// A quote in the database: the bundled library is synced in at start-up, imports add more.
final class QuoteRecord: Model, @unchecked Sendable {
  static let schema = "quotes"

  /// The quote's stable id (`Quote.id`).
  @ID(custom: "id", generatedBy: .user) var id: String?
  @Field(key: "text") var text: String
  @Field(key: "author") var author: String
  @OptionalField(key: "year") var year: Int?
  @OptionalField(key: "source") var source: String?
  /// "bundled" or "imported".
  @Field(key: "origin") var origin: String
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  init(id: String, text: String, author: String, year: Int?, source: String?, origin: String) {
    self.id = id
    self.text = text
    self.author = author
    self.year = year
    self.source = source
    self.origin = origin
  }
}

/// One attempt at one puzzle. The puzzle itself is rebuilt from the quote and the seed; the board is stored
/// as JSON (it is only ever read and written whole).
final class CryptogramGame: Model, @unchecked Sendable {
  static let schema = "cryptogram_games"

  @ID(key: .id) var id: UUID?
  @Parent(key: "user_id") var user: User
  @Field(key: "quote_id") var quoteID: String
  /// The cipher seed (stored as the bit pattern of a UInt64).
  @Field(key: "seed") var seed: Int64
  /// "daily" or "random".
  @Field(key: "mode") var mode: String
  /// For daily puzzles, the puzzle's date "YYYY-MM-DD".
  @OptionalField(key: "daily_date") var dailyDate: String?
  /// The person's time zone when they started; decides which date a solve counts for.
  @Field(key: "time_zone") var timeZone: String
  @Field(key: "board") var board: String
  /// "playing", "failed" or "solved" (kept beside the board for queries).
  @Field(key: "status") var status: String
  @OptionalField(key: "solved_at") var solvedAt: Date?
  @OptionalField(key: "solve_seconds") var solveSeconds: Double?
  @Field(key: "mistakes") var mistakes: Int
  @Field(key: "hints") var hints: Int
  /// Optimistic concurrency: every save bumps it and only lands on the version it read.
  @Field(key: "version") var version: Int
  /// Set from the server's clock (not Fluent's timestamps, which read the wall clock).
  @OptionalField(key: "created_at") var createdAt: Date?
  @OptionalField(key: "updated_at") var updatedAt: Date?

  init() {}
}

/// Per-person cryptogram counters kept by increments (never recounted): games started and failed. Solves,
/// times and the daily streak are the completion pipeline's (`completion_stats`, `streaks`); the old
/// solve and streak columns here were copied there and are no longer written.
final class CryptogramStats: Model, @unchecked Sendable {
  static let schema = "cryptogram_stats"

  @ID(key: .id) var id: UUID?
  @Parent(key: "user_id") var user: User
  @Field(key: "played") var played: Int
  @Field(key: "solved") var solved: Int
  @Field(key: "failed") var failed: Int
  @Field(key: "total_solve_seconds") var totalSolveSeconds: Double
  @OptionalField(key: "best_seconds") var bestSeconds: Double?
  @Field(key: "streak_current") var streakCurrent: Int
  @Field(key: "streak_best") var streakBest: Int
  @OptionalField(key: "streak_last_day") var streakLastDay: String?

  init() {}

  init(userID: UUID) {
    self.$user.id = userID
    played = 0
    solved = 0
    failed = 0
    totalSolveSeconds = 0
    streakCurrent = 0
    streakBest = 0
  }
}
