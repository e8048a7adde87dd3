import Challenges
import CompletionAPI
import CompletionCore
import Fluent
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
      let store = SQLChallengesStore(db)
      guard try await store.addReport(on: id, by: reporter, reason: reason, at: Micros.of(now)), var post = try await store.post(id) else {
        return false
      }
      // A revoked post is out of every feed but its author's, who cannot report it: nothing moves.
      let effects = (try? post.handle(.report(by: reporter, threshold: threshold))) ?? []
      try await store.saveModeration(post.moderation, of: id)
      try await store.log(ModerationEvent(post: id, action: .reported, actor: reporter.uuidString, note: reason, at: Micros.of(now)))
      guard effects.contains(.hide) else { return false }
      // A microsecond after the report that caused it (counted in whole microseconds: a Date this far
      // from 1970 cannot add one exactly), so the trail reads in order.
      try await store.log(
        ModerationEvent(post: id, action: .hidden, actor: "system", note: "\(post.moderation.reports) reports", at: Micros.of(now) + 1))
      try await app.services.feedLive.announce(FeedNotice(kind: .removed, activity: id), on: store)
      return true
    }
    if hidden == true { app.services.feedLive.committed(FeedNotice(kind: .removed, activity: id)) }
  }

  /// Completions waiting for review (or, with `all`, every reported one), most reported first.
  public static func list(all: Bool, on db: any Database) async throws -> [Item] {
    try await SQLChallengesStore(db).reportedPosts(all: all).map {
      Item(id: $0.id, author: $0.authorName, title: $0.title, status: $0.status.rawValue, reports: $0.reports, reasons: $0.reasons)
    }
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
      let store = SQLChallengesStore(db)
      guard var post = try await store.post(id), post.isCompletion else {
        throw Refused(description: "No challenge completion has the id \(id.uuidString).")
      }
      let effects: [Post.Effect]
      do {
        effects = try post.handle(.review(decision == .keep ? .keep : .revoke, threshold: threshold))
      } catch {
        throw Refused(description: "That completion was revoked already; nothing changed.")
      }
      try await store.saveModeration(post.moderation, of: id)
      try await store.log(
        ModerationEvent(post: id, action: decision == .keep ? .kept : .revoked, actor: name, note: note, at: Micros.of(now)))
      if effects.contains(.clawBack), let key = post.completionKey {
        try await CompletionRecorder.revoke(
          key: key, rules: ChallengeCompletion.rules, reason: "Revoked by moderation: \(post.challenge?.title ?? post.title)", at: now, on: db)
        if let found = try await store.participation(ofPost: id) {
          var participation = found.participation
          if participation.revoke() { _ = try await store.save(participation, of: found.user, replacing: found.participation, at: now) }
        }
      }
      // Hidden, shown again, or (a hidden one revoked, a visible one kept) changed: its author sees the state.
      let kind: FeedNotice.Kind = effects.contains(.hide) ? .removed : effects.contains(.show) ? .added : .changed
      try await app.services.feedLive.announce(FeedNotice(kind: kind, activity: id), on: store)
      // A decision made with the command-line tool reaches the running server's pages on SQLite too.
      try await LiveNoticeLog.record(channel: FeedLive.channel, payload: kind.rawValue + " " + id.uuidString, app: app, on: db)
      return .some(FeedNotice(kind: kind, activity: id))
    }
    if let notice = notice ?? nil { app.services.feedLive.committed(notice) }
  }

  /// The recorded steps of one completion, oldest first: "2026-11-23T10:00:00Z reported by … (reason)".
  public static func trail(_ id: UUID, on db: any Database) async throws -> [String] {
    let formatter = ISO8601DateFormatter()
    let store = SQLChallengesStore(db)
    let events = try await store.trail(of: id)
    // Reporters are recorded by account id; the operator reads names. A trail has a handful of people.
    var names: [String: String] = [:]
    for actor in Set(events.map(\.actor)) {
      guard let account = UUID(uuidString: actor) else { continue }
      if let person = try await store.person(account) {
        names[actor] = person.username.map { "@\($0)" } ?? "a guest (\(person.displayName))"
      }
    }
    return events.map { event in
      let when = formatter.string(from: Date(timeIntervalSince1970: Double(event.at) / 1_000_000))
      let who = names[event.actor] ?? event.actor
      return "\(when) \(event.action.rawValue) by \(who)" + (event.note.isEmpty ? "" : " (\(event.note))")
    }
  }
}
