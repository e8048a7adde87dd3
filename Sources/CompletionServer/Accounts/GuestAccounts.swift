import FluentSQL
import Foundation
import Synchronization
import Vapor

/// Removes guest accounts that never kept anything: older than the idle time, with no row in any table that
/// holds a person's things (games, projects, tasks, completions, points, photos, follows …). Their sign-ins
/// and idempotency records go with them (the foreign keys cascade). Run by `completionkit accounts prune`
/// and by the server once a day.
enum GuestPruning {
  /// Tables that reference a user without being something the person saved.
  static let bookkeepingTables: Set<String> = ["auth_tokens", "idempotency_records", "recovery_codes", "upload_usage"]
  /// Every other table that references `users`, with its column: a guest with a row in any of them is kept.
  static let belongings: [(table: String, column: String)] = [
    ("ledger_entries", "user_id"), ("ledger_balances", "user_id"),
    ("cryptogram_games", "user_id"), ("cryptogram_stats", "user_id"),
    ("kids_games", "user_id"),
    ("completions", "user_id"), ("streaks", "user_id"), ("completion_stats", "user_id"), ("completion_profiles", "user_id"),
    ("project_owners", "user_id"), ("projects", "user_id"), ("project_tasks", "user_id"), ("project_undo", "user_id"),
    ("project_headings", "user_id"),
    ("challenge_participations", "user_id"), ("challenge_photos", "user_id"), ("social_profiles", "user_id"),
    ("follows", "follower_id"), ("follows", "followee_id"),
    ("activities", "user_id"), ("feed_entries", "owner_id"), ("congrats", "user_id"), ("comments", "user_id"),
    ("reports", "reporter_id"), ("streak_freezes", "user_id"),
  ]
  /// At most this many guests are removed per statement, so a large backlog never holds a long write lock.
  static let batchSize = 500

  /// Pruning once a day while the server runs, with the configured idle time.
  static var periodic: PeriodicWork {
    PeriodicWork(name: "guest pruning", every: .seconds(24 * 60 * 60)) { app in
      let removed = try await prune(idle: app.serverOptions.guestIdleTime, now: app.services.clock.now(), app: app)
      if removed > 0 { app.logger.info("pruned \(removed) idle guest account(s)") }
      try await LoginThrottle.prune(before: app.services.clock.now(), on: app.db)
    }
  }

  /// Removes the guests created before `now - idle` that own nothing; returns how many.
  static func prune(idle: TimeInterval, now: Date, app: Application) async throws -> Int {
    let cutoff = now.addingTimeInterval(-idle)
    var removed = 0
    while true {
      let batch = try await app.services.runner.write(on: app.db) { db -> Int? in
        let sql = db.sql
        let owns = belongings.map { "EXISTS (SELECT 1 FROM \($0.table) WHERE \($0.table).\($0.column) = users.id)" }
          .joined(separator: " OR ")
        let ids = try await sql.raw(
          """
          SELECT id FROM users WHERE is_guest = \(bind: true) AND created_at < \(bind: cutoff) AND NOT (\(unsafeRaw: owns))
          LIMIT \(unsafeRaw: String(batchSize))
          """
        ).all(decoding: IDRow.self).map(\.id)
        guard !ids.isEmpty else { return 0 }
        let tokens = try await sql.select().column("id").from(AuthToken.schema).where("user_id", .in, SQLBind.group(ids))
          .all(decoding: IDRow.self).map(\.id)
        try await sql.delete(from: User.schema).where("id", .in, SQLBind.group(ids)).run()
        try await Sessions.end(tokens, app: app, on: db)
        return ids.count
      } ?? 0
      removed += batch
      if batch < batchSize { return removed }
    }
  }

  private struct IDRow: Decodable {
    let id: UUID
  }
}
