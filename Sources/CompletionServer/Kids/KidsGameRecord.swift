import Fluent
import FluentSQL
import Foundation

/// The row of one family's game, read and written with plain SQL (every event loads and saves it once).
struct KidsGameRecord: Codable, Sendable {
  static let schema = "kids_games"

  var userID: UUID
  /// `GameSnapshot` as JSON.
  var snapshot: String
  /// Bumped by every save; a save that finds another version lost a race and is retried.
  var version: Int
  /// No longer used: retries are answered from `idempotency_records` (new rows keep "[]").
  var recentEventIDs: String
  /// The family's calendar day ("2026-11-22") that today's play time belongs to.
  var playDay: String?
  var timeZone: String?
  var lastHeartbeatAt: Date?
  /// The browser tab that launched the game or sent the last heartbeat (a page's own id), if it said.
  var activeTab: String? = nil
  var updatedAt: Date

  enum CodingKeys: String, CodingKey {
    case snapshot, version
    case userID = "user_id"
    case recentEventIDs = "recent_event_ids"
    case playDay = "play_day"
    case timeZone = "time_zone"
    case lastHeartbeatAt = "last_heartbeat_at"
    case activeTab = "active_tab"
    case updatedAt = "updated_at"
  }

  static let columns = [
    "user_id", "snapshot", "version", "recent_event_ids", "play_day", "time_zone", "last_heartbeat_at", "active_tab", "updated_at",
  ]

  /// The family's row, or nil before their first visit.
  static func load(_ userID: UUID, on db: any Database) async throws -> KidsGameRecord? {
    try await loadSQL(userID, on: sql(db)).first(decoding: KidsGameRecord.self)
  }

  private static let loadSQL = FixedSQL(
    """
    SELECT user_id, snapshot, version, recent_event_ids, play_day, time_zone, last_heartbeat_at, active_tab, updated_at
    FROM kids_games WHERE user_id = ?
    """)

  /// Inserts a new row; false when one already exists (another request created it first).
  static func insert(_ record: KidsGameRecord, on db: any Database) async throws -> Bool {
    let row = try await sql(db).insert(into: schema)
      .columns(columns.map { SQLIdentifier($0) })
      .values(
        SQLBind(record.userID), SQLBind(record.snapshot), SQLBind(record.version), SQLBind(record.recentEventIDs),
        SQLBind(record.playDay), SQLBind(record.timeZone), SQLBind(record.lastHeartbeatAt), SQLBind(record.activeTab),
        SQLBind(record.updatedAt)
      )
      .ignoringConflicts(with: "user_id")
      .returning("version")
      .first()
    return row != nil
  }

  /// Writes the row if nobody saved since it was read at `expectedVersion`; returns whether it did.
  /// Bumps `version`.
  func save(expectedVersion: Int, on db: any Database) async throws -> Bool {
    // RETURNING tells whether this UPDATE matched: both SQLite and PostgreSQL support it, and unlike
    // reading the version back it cannot mistake another writer's save for this one.
    let row = try await Self.saveSQL(
      snapshot, version, recentEventIDs, playDay, timeZone, lastHeartbeatAt, activeTab, updatedAt, userID, expectedVersion,
      on: Self.sql(db)
    ).first()
    return row != nil
  }

  private static let saveSQL = FixedSQL(
    """
    UPDATE kids_games SET snapshot = ?, version = ?, recent_event_ids = ?, play_day = ?, time_zone = ?, last_heartbeat_at = ?,
    active_tab = ?, updated_at = ? WHERE user_id = ? AND version = ? RETURNING version
    """)

  private static func sql(_ db: any Database) -> any SQLDatabase {
    let sql = db.sql
    return sql
  }
}
