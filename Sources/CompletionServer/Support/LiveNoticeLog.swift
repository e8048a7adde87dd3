import Challenges
import Fluent
import FluentSQL
import Foundation
import Synchronization
import Vapor

/// Live notices that must cross processes on SQLite, where there is no `NOTIFY`: an operator's decision made
/// with the command-line tool while the server runs (`completionkit moderation keep|revoke`). The writer adds a
/// row inside its transaction; the running server reads new rows every second and pushes them to open pages as
/// it does its own. Rows a process wrote itself are skipped (it told its pages already), and old rows go.
/// On PostgreSQL the notification does all of this, and no row is written.
enum LiveNoticeLog {
  static let schema = "live_notices"
  /// How often the server looks for notices from other processes.
  static let interval: Duration = .seconds(1)
  /// How long a notice is kept: long enough for every running server to have read it.
  static let keep: TimeInterval = 600

  /// Adds a notice for other processes, inside the caller's transaction (SQLite only; a no-op on PostgreSQL).
  static func record(channel: String, payload: String, app: Application, on db: any Database) async throws {
    guard case .sqliteFile = app.serverOptions.database else { return }
    try await db.sql.insert(into: schema)
      .columns("channel", "payload", "origin", "at_micros")
      .values(
        SQLBind(channel), SQLBind(payload), SQLBind(app.services.processID),
        SQLBind(Micros.of(app.services.clock.now())))
      .run()
  }

  /// The server's side: every second, the notices other processes added since the last look.
  static func watcher(startingAt start: Date) -> PeriodicWork {
    let watch = Watch()
    let startMicros = Micros.of(start)
    // Registered on SQLite only (configure): PostgreSQL's notifications need no watcher.
    return PeriodicWork(name: "live notices from other processes", every: interval) { app in
      let sql = app.db.sql
      guard let after = watch.cursor.withLock({ $0 }) else {
        // The first look marks where this process starts: notices from before it started are old news,
        // those since (a decision made in its first second) are read below.
        struct Last: Decodable { let last: Int64? }
        let last = try await sql.raw("SELECT MAX(seq) AS last FROM \(ident: schema) WHERE at_micros < \(bind: startMicros)")
          .first(decoding: Last.self)?.last ?? 0
        watch.cursor.withLock { $0 = last }
        return try await watcherRound(after: last, watch: watch, app: app)
      }
      try await watcherRound(after: after, watch: watch, app: app)
    }
  }

  /// One look: the notices after `after`, delivered unless this process wrote them; now and then, old ones go.
  /// Where the watcher is: the last notice read, and how many looks it has taken.
  private final class Watch: Sendable {
    let cursor = Mutex<Int64?>(nil)
    let rounds = Mutex(0)
  }

  private static func watcherRound(after: Int64, watch: Watch, app: Application) async throws {
    struct Row: Decodable {
      let seq: Int64
      let channel: String
      let payload: String
      let origin: String
    }
    let rows = try await app.db.sql.raw(
      "SELECT seq, channel, payload, origin FROM \(ident: schema) WHERE seq > \(bind: after) ORDER BY seq LIMIT 500"
    ).all(decoding: Row.self)
    if let last = rows.last?.seq { watch.cursor.withLock { $0 = last } }
    for row in rows where row.origin != app.services.processID {
      if row.channel == FeedLive.channel, let notice = FeedLive.notice(from: row.payload) {
        await app.services.feedLive.hub.deliver(notice)
      }
    }
    let round = watch.rounds.withLock { value -> Int in
      value += 1
      return value
    }
    guard round % 60 == 0 else { return }
    let before = Micros.of(app.services.clock.now().addingTimeInterval(-keep))
    try await app.services.runner.write(on: app.db) { db -> Bool? in
      // The newest row stays: SQLite gives a new row the largest seq + 1, so the cursor never sees a number twice.
      try await db.sql.raw(
        "DELETE FROM \(ident: schema) WHERE at_micros < \(bind: before) AND seq < (SELECT MAX(seq) FROM \(ident: schema))"
      ).run()
      return true
    }
  }
}

/// The table of ``LiveNoticeLog``.
struct CreateLiveNotices: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(LiveNoticeLog.schema)
      .field("seq", .int64, .identifier(auto: true))
      .field("channel", .string, .required)
      .field("payload", .string, .required)
      .field("origin", .string, .required)
      .field("at_micros", .int64, .required)
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(LiveNoticeLog.schema).delete()
  }
}
