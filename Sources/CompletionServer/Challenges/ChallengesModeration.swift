import Challenges
import CompletionAPI
import CompletionCore
import FluentSQL
import Foundation
import Vapor

/// Reports and reviews of challenge completions. Each step runs ``ModerationState`` (the rules, as a
/// value) in one transaction and writes a row to `moderation_events`: reported, hidden, kept, revoked.
/// A revoke pays the points back through the ledger and counts the streak again (``CompletionRecorder/revoke``).
public enum ChallengesModeration {
  /// A moderation step that could not be taken.
  public struct Refused: Error, CustomStringConvertible {
    public let description: String
  }

  /// A completion as the operator's list shows it.
  public struct Item: Sendable {
    public let id: UUID
    public let author: String
    public let title: String
    public let status: String
    public let reports: Int
    public let reasons: [String]
  }

  /// Records `reporter`'s report (a second one by the same person changes nothing).
  static func report(_ id: UUID, by reporter: UUID, reason: String, app: Application) async throws {
    let threshold = app.serverOptions.reportThreshold
    let now = app.services.clock.now()
    let hidden = try await app.services.runner.write(on: app.db) { db -> Bool? in
      let sql = ChallengeStore.sql(db)
      let inserted = try await sql.raw(
        """
        INSERT INTO reports (activity_id, reporter_id, reason, at_micros) VALUES (\(bind: id), \(bind: reporter), \(bind: reason), \(bind: ChallengeStore.micros(now)))
        ON CONFLICT (activity_id, reporter_id) DO NOTHING RETURNING reporter_id
        """
      ).first()
      guard inserted != nil, let activity = try await ChallengeStore.activity(id, on: sql) else { return false }
      var state = activity.moderation
      let effects = (try? state.handle(.reported, threshold: threshold)) ?? []
      try await save(state, of: id, on: sql)
      try await log(id, action: "reported", actor: reporter.uuidString, note: reason, at: now, on: sql)
      if effects.contains(.hide) {
        // A microsecond after the report that caused it (counted in whole microseconds: a Date this far
        // from 1970 cannot add one exactly), so the trail reads in order.
        try await log(id, action: "hidden", actor: "system", note: "\(state.reports) reports", atMicros: ChallengeStore.micros(now) + 1, on: sql)
        try await app.services.feedLive.announce(FeedNotice(kind: .removed, activity: id), on: sql)
        return true
      }
      return false
    }
    if hidden == true { app.services.feedLive.committed(FeedNotice(kind: .removed, activity: id)) }
  }

  /// Completions waiting for review (or, with `all`, every reported one), most reported first.
  public static func list(all: Bool, on db: any Database) async throws -> [Item] {
    let sql = ChallengeStore.sql(db)
    struct Row: Decodable {
      let id: UUID
      let title: String
      let status: String
      let reports: Int
      let author_name: String
    }
    let rows = try await sql.raw(
      """
      SELECT a.id, a.title, a.status, a.reports, u.display_name AS author_name FROM activities a JOIN users u ON u.id = a.user_id
      WHERE \(unsafeRaw: all ? "a.id IN (SELECT activity_id FROM reports)" : "a.status = 'pending_review'")
      ORDER BY a.reports DESC, a.at_micros DESC
      """
    ).all(decoding: Row.self)
    var items: [Item] = []
    for row in rows {
      struct Reason: Decodable { let reason: String }
      let reasons = try await sql.raw("SELECT reason FROM reports WHERE activity_id = \(bind: row.id) AND reason <> '' ORDER BY at_micros")
        .all(decoding: Reason.self).map(\.reason)
      items.append(Item(id: row.id, author: row.author_name, title: row.title, status: row.status, reports: row.reports, reasons: reasons))
    }
    return items
  }

  /// What an operator decides.
  public enum Decision: String, Sendable {
    case keep, revoke
  }

  /// Keeps (shown again) or revokes (hidden for good, points paid back, streak recounted) a completion.
  public static func review(_ id: UUID, decision: Decision, operator name: String, note: String, app: Application) async throws {
    let now = app.services.clock.now()
    let threshold = app.serverOptions.reportThreshold
    let notice = try await app.services.runner.write(on: app.db) { db -> FeedNotice?? in
      let sql = ChallengeStore.sql(db)
      guard let activity = try await ChallengeStore.activity(id, on: sql), activity.type == FeedActivityType.challengeCompleted else {
        throw Refused(description: "No challenge completion has the id \(id.uuidString).")
      }
      var state = activity.moderation
      let effects: [ModerationState.Effect]
      do {
        effects = try state.handle(decision == .keep ? .kept : .revoked, threshold: threshold)
      } catch {
        throw Refused(description: "That completion was revoked already; nothing changed.")
      }
      try await save(state, of: id, on: sql)
      try await log(id, action: decision == .keep ? "kept" : "revoked", actor: name, note: note, at: now, on: sql)
      if effects.contains(.clawBack), let key = activity.completion_key {
        try await CompletionRecorder.revoke(
          key: key, rules: ChallengeCompletion.rules, reason: "Revoked by moderation: \(activity.challenge_title ?? activity.title)", at: now,
          on: db)
        try await sql.raw(
          "UPDATE challenge_participations SET status = 'revoked', progress = 0, updated_at = \(bind: now) WHERE activity_id = \(bind: id)"
        ).run()
      }
      // Hidden, shown again, or (a hidden one revoked, a visible one kept) changed: its author sees the state.
      let kind: FeedNotice.Kind = effects.contains(.hide) ? .removed : effects.contains(.show) ? .added : .changed
      let result: FeedNotice? = FeedNotice(kind: kind, activity: id)
      try await app.services.feedLive.announce(FeedNotice(kind: kind, activity: id), on: sql)
      return .some(result)
    }
    if let notice = notice ?? nil { app.services.feedLive.committed(notice) }
  }

  private static func save(_ state: ModerationState, of id: UUID, on db: any SQLDatabase) async throws {
    try await db.raw(
      "UPDATE activities SET status = \(bind: state.status.rawValue), reports = \(bind: state.reports), kept = \(bind: state.kept) WHERE id = \(bind: id)"
    ).run()
  }

  private static func log(_ id: UUID, action: String, actor: String, note: String, at now: Date, on db: any SQLDatabase) async throws {
    try await log(id, action: action, actor: actor, note: note, atMicros: ChallengeStore.micros(now), on: db)
  }

  private static func log(_ id: UUID, action: String, actor: String, note: String, atMicros: Int64, on db: any SQLDatabase) async throws {
    try await db.raw(
      """
      INSERT INTO moderation_events (id, activity_id, action, actor, note, at_micros)
      VALUES (\(bind: UUID()), \(bind: id), \(bind: action), \(bind: actor), \(bind: note), \(bind: atMicros))
      """
    ).run()
  }

  /// The recorded steps of one completion, oldest first: "2026-11-23T10:00:00Z reported by … (reason)".
  public static func trail(_ id: UUID, on db: any Database) async throws -> [String] {
    struct Row: Decodable {
      let action: String
      let actor: String
      let note: String
      let at_micros: Int64
    }
    let rows = try await ChallengeStore.sql(db).raw(
      "SELECT action, actor, note, at_micros FROM moderation_events WHERE activity_id = \(bind: id) ORDER BY at_micros, action"
    ).all(decoding: Row.self)
    let formatter = ISO8601DateFormatter()
    return rows.map { row in
      let when = formatter.string(from: Date(timeIntervalSince1970: Double(row.at_micros) / 1_000_000))
      return "\(when) \(row.action) by \(row.actor)" + (row.note.isEmpty ? "" : " (\(row.note))")
    }
  }
}
