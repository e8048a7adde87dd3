import Fluent
import FluentSQL
import Foundation

/// A cryptogram game row as the move path reads and writes it: plain SQL into a plain struct.
///
/// Every guess loads and saves one game; Fluent's models find their fields by runtime reflection, which
/// showed up as the largest single cost of a guess. The rarer paths (creating a game, stats) keep using
/// the `CryptogramGame` model on the same table.
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

  private static func sql(_ db: any Database) -> any SQLDatabase {
    guard let sql = db as? any SQLDatabase else { preconditionFailure("CompletionKit runs on SQL databases only") }
    return sql
  }
}
