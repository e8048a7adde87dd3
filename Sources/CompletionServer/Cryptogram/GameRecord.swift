import Cryptogram
import Fluent
import FluentSQL
import Foundation

/// A cryptogram game row as the move path reads and writes it: plain SQL into a plain struct.
///
/// Every guess loads and saves one game, and every new puzzle looks for the day's daily, the solved quotes and
/// writes its row; Fluent's models find their fields by runtime reflection, which showed up as the largest single
/// cost of both. These paths use fixed statements; the rarer ones (stats, the archive) keep the `CryptogramGame`
/// model on the same table.
struct GameRecord: Codable, Sendable {
  var id: UUID
  /// Whose game it is.
  var userID: UUID
  var quoteID: String
  var seed: Int64
  var mode: String
  var dailyDate: String?
  var timeZone: String
  var board: String
  var status: String
  var solvedAt: Date?
  var solveSeconds: Double?
  var mistakes: Int
  var hints: Int
  /// Bumped by every save; a save made on an older version is refused (another request saved first).
  var version: Int

  enum CodingKeys: String, CodingKey {
    case id, seed, mode, board, status, mistakes, hints, version
    case userID = "user_id"
    case quoteID = "quote_id"
    case dailyDate = "daily_date"
    case timeZone = "time_zone"
    case solvedAt = "solved_at"
    case solveSeconds = "solve_seconds"
  }

  private static func sql(_ db: any Database) -> any SQLDatabase {
    let sql = db.sql
    return sql
  }
}

extension GameRecord {
  /// A record from a model loaded by Fluent.
  init(_ model: CryptogramGame) throws {
    id = try model.requireID()
    userID = model.$user.id
    quoteID = model.quoteID
    seed = model.seed
    mode = model.mode
    dailyDate = model.dailyDate
    timeZone = model.timeZone
    board = model.board
    status = model.status
    solvedAt = model.solvedAt
    solveSeconds = model.solveSeconds
    mistakes = model.mistakes
    hints = model.hints
    version = model.version
  }

  /// A new game's row: playing, nothing found beyond the prefilled cells, version 0.
  static func new(
    userID: UUID, quoteID: String, seed: UInt64, mode: String, dailyDate: String?, timeZone: String, board: String
  ) -> GameRecord {
    GameRecord(
      id: UUID(), userID: userID, quoteID: quoteID, seed: Int64(bitPattern: seed), mode: mode, dailyDate: dailyDate, timeZone: timeZone,
      board: board, status: Board.Status.playing.rawValue, solvedAt: nil, solveSeconds: nil, mistakes: 0, hints: 0, version: 0)
  }

  /// Writes this new game's row, made and changed at `now`.
  func insert(at now: Date, on db: any Database) async throws {
    try await Self.insertSQL(
      id, userID, quoteID, seed, mode, dailyDate, timeZone, board, status, mistakes, hints, version, now, now, on: Self.sql(db)
    ).run()
  }

  private static let insertSQL = FixedSQL(
    """
    INSERT INTO cryptogram_games (id, user_id, quote_id, seed, mode, daily_date, time_zone, board, status, mistakes, hints, version,
    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    """)

  /// `userID`'s most recent game of the daily puzzle of `day` ("2026-11-24"), if any.
  static func latestDaily(of userID: UUID, day: String, on db: any Database) async throws -> GameRecord? {
    try await latestDailySQL(userID, day, on: sql(db)).first(decoding: GameRecord.self)
  }

  private static let latestDailySQL = FixedSQL(
    """
    SELECT id, user_id, quote_id, seed, mode, daily_date, time_zone, board, status, solved_at, solve_seconds, mistakes, hints, version
    FROM cryptogram_games WHERE user_id = ? AND daily_date = ? ORDER BY created_at DESC LIMIT 1
    """)

  /// The quotes `userID` has solved (what a random puzzle leaves out).
  static func solvedQuoteIDs(of userID: UUID, on db: any Database) async throws -> Set<String> {
    struct Row: Decodable { let quote_id: String }
    return Set(try await solvedSQL(userID, Board.Status.solved.rawValue, on: sql(db)).all(decoding: Row.self).map(\.quote_id))
  }

  private static let solvedSQL = FixedSQL("SELECT quote_id FROM cryptogram_games WHERE user_id = ? AND status = ?")

  /// Makes `userID`'s counters row unless it exists (the person's first puzzle).
  static func ensureStats(for userID: UUID, on db: any Database) async throws {
    try await ensureStatsSQL(UUID(), userID, on: sql(db)).run()
  }

  private static let ensureStatsSQL = FixedSQL(
    """
    INSERT INTO cryptogram_stats (id, user_id, played, solved, failed, total_solve_seconds, streak_current, streak_best)
    VALUES (?, ?, 0, 0, 0, 0, 0, 0) ON CONFLICT (user_id) DO NOTHING
    """)

  /// The game `id` if it belongs to `userID`.
  static func load(_ id: UUID, of userID: UUID, on db: any Database) async throws -> GameRecord? {
    try await loadSQL(id, userID, on: sql(db)).first(decoding: GameRecord.self)
  }

  private static let loadSQL = FixedSQL(
    """
    SELECT id, user_id, quote_id, seed, mode, daily_date, time_zone, board, status, solved_at, solve_seconds, mistakes, hints, version
    FROM cryptogram_games WHERE id = ? AND user_id = ?
    """)

  /// Writes back what a move can change if nobody saved since this record was read; returns whether it
  /// did. RETURNING tells whether the UPDATE matched (SQLite and PostgreSQL both support it).
  func save(at now: Date, on db: any Database) async throws -> Bool {
    let row = try await Self.saveSQL(
      board, status, mistakes, hints, solvedAt, solveSeconds, now, version + 1, id, version, on: Self.sql(db)
    ).first()
    return row != nil
  }

  private static let saveSQL = FixedSQL(
    """
    UPDATE cryptogram_games SET board = ?, status = ?, mistakes = ?, hints = ?, solved_at = ?, solve_seconds = ?, updated_at = ?,
    version = ? WHERE id = ? AND version = ? RETURNING version
    """)
}
