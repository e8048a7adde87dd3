import FluentSQL
import Foundation
import Synchronization
import Vapor

/// How many guest accounts one client address may create: a bucket of ``ServerOptions/guestsPerAddressPerHour``
/// that refills evenly over an hour, so a classroom behind one router gets going at once while a script
/// cannot fill the users table. Kept per server process.
final class GuestLimiter: Sendable {
  private struct Bucket {
    var tokens: Double
    var updated: Date
  }

  private let perHour: Int
  private let buckets = Mutex([String: Bucket]())

  init(perHour: Int) {
    self.perHour = perHour
  }

  /// Takes one guest from `address`'s bucket; returns the seconds to wait when it is empty (nil: go ahead).
  /// A limit of 0 means no limit.
  func take(address: String?, at now: Date) -> Int? {
    guard perHour > 0, let address else { return nil }
    let capacity = Double(perHour)
    let perSecond = capacity / 3600
    return buckets.withLock { buckets in
      // Full buckets carry no information; dropping them bounds the memory a flood of addresses can take.
      if buckets.count > 100_000 {
        buckets = buckets.filter { $0.value.tokens + now.timeIntervalSince($0.value.updated) * perSecond < capacity }
      }
      var bucket = buckets[address] ?? Bucket(tokens: capacity, updated: now)
      bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond)
      bucket.updated = now
      guard bucket.tokens >= 1 else {
        buckets[address] = bucket
        return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
      }
      bucket.tokens -= 1
      buckets[address] = bucket
      return nil
    }
  }
}

/// Removes guest accounts that never kept anything: older than the idle time, with no row in any table that
/// holds a person's things (games, projects, tasks, completions, points, photos, follows …). Their sign-ins
/// and idempotency records go with them (the foreign keys cascade). Run by `completionkit accounts prune`
/// and by the server once a day.
enum GuestPruning {
  /// Tables that reference a user without being something the person saved.
  static let bookkeepingTables: Set<String> = ["auth_tokens", "idempotency_records", "recovery_codes"]
  /// Every other table that references `users`, with its column: a guest with a row in any of them is kept.
  static let belongings: [(table: String, column: String)] = [
    ("ledger_entries", "user_id"), ("ledger_balances", "user_id"),
    ("cryptogram_games", "user_id"), ("cryptogram_stats", "user_id"),
    ("kids_games", "user_id"),
    ("completions", "user_id"), ("streaks", "user_id"), ("completion_stats", "user_id"), ("completion_profiles", "user_id"),
    ("project_owners", "user_id"), ("projects", "user_id"), ("project_tasks", "user_id"),
    ("challenge_participations", "user_id"), ("challenge_photos", "user_id"), ("social_profiles", "user_id"),
    ("follows", "follower_id"), ("follows", "followee_id"),
    ("activities", "user_id"), ("feed_entries", "owner_id"), ("congrats", "user_id"), ("comments", "user_id"),
    ("reports", "reporter_id"),
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
