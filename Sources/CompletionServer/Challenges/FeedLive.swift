import Challenges
import CompletionAPI
import Fluent
import Foundation
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import StreamingJSON
import Vapor

/// What happened to a feed item.
struct FeedNotice: Sendable, Hashable {
  enum Kind: String, Sendable {
    /// A new item (or one shown again after review).
    case added = "a"
    /// Hidden from feeds (reported, or revoked); its author still sees it, with its state.
    case removed = "r"
    /// Its counts or state changed (congrats, comments, a review).
    case changed = "c"
  }
  let kind: Kind
  let activity: UUID
}

/// Pushes feed items to the open feed pages of everyone whose feed they belong in, as server-sent
/// events (`activity` with a new card, `changed` with a card whose counts or state moved, `removed` with
/// its id). As for projects (``ProjectsLive``), a change
/// is announced inside its transaction: on PostgreSQL by a `NOTIFY` that every server process hears, on
/// SQLite in-process after the commit. Recipients are worked out when the notice arrives: the author, the
/// addressee of a follow notice, and the author's followers who have a page open here.
final class FeedLive: Sendable {
  static let channel = "completionkit_feed"

  private let postgresURL: String?
  /// Where the hub listens (PostgreSQL), nil on SQLite.
  private let listening: LiveChannel?
  let hub = FeedHub()

  init(options: ServerOptions) {
    if case .postgres(let url) = options.database { postgresURL = url } else { postgresURL = nil }
    listening = postgresURL.map { LiveChannel(url: $0, channel: Self.channel, connectionID: 2) }
  }

  /// Announces `notice` from inside its transaction (PostgreSQL delivers it at the commit, or never).
  func announce(_ notice: FeedNotice, on store: SQLChallengesStore) async throws {
    guard postgresURL != nil else { return }
    try await store.notify(Self.channel, notice.kind.rawValue + " " + notice.activity.uuidString)
  }

  /// Tells this process's pages about a committed notice (SQLite; on PostgreSQL the notification does).
  func committed(_ notice: FeedNotice) {
    guard postgresURL == nil else { return }
    let hub = hub
    Task { await hub.deliver(notice) }
  }

  static func notice(from payload: String) -> FeedNotice? {
    let parts = payload.split(separator: " ")
    guard parts.count == 2, let kind = FeedNotice.Kind(rawValue: String(parts[0])), let id = UUID(uuidString: String(parts[1])) else { return nil }
    return FeedNotice(kind: kind, activity: id)
  }

  /// `GET /api/feed/events` for `userID`.
  func stream(for userID: UUID, on req: Request) async throws -> Response {
    let app = req.application
    let hub = hub
    let (subscription, stream) = try await hub.open(userID, for: req, listening: listening) { [weak hub] payload in
      guard let notice = FeedLive.notice(from: payload) else { return }
      await hub?.deliver(notice)
    }
    return LivePages.response(opening: "retry: 2000\n: connected\n\n", stream: stream, open: app.services.metrics.liveStreams("feed"),
      closed: app.services.connections.closed(req)
    ) {
      await hub.unsubscribe(userID, subscription)
    }
  }
}

/// The open feed pages of this process, by person.
actor FeedHub: LiveHub {
  var pages = LivePages()
  var wiring = LiveHubWiring(label: "completionkit.feed.live")

  /// Nothing is kept per person beyond the pages.
  func forget(_ people: [UUID]) {}

  /// Sends `notice` to the pages it concerns.
  func deliver(_ notice: FeedNotice) async {
    guard !pages.isEmpty, let database = wiring.database else { return }
    let store = SQLChallengesStore(database())
    do {
      guard let activity = try await store.post(notice.activity) else { return }
      var recipients: Set<UUID> = [activity.author.id]
      if let recipient = activity.recipient {
        recipients = [recipient]
      } else {
        recipients.formUnion(try await store.followers(of: activity.author.id))
      }
      let open = recipients.filter { pages.has($0) }
      guard !open.isEmpty else { return }
      // Who of them congratulated it (one query), so each card says "you congratulated" rightly.
      let congratulated = notice.kind == .added ? [] : try await store.congratulators(of: activity.id, among: Array(open))
      for recipient in open {
        // The recipients are its author, its addressee, or followers of its author: the post's own rule says who sees it.
        let maySee = activity.isVisible(to: recipient, followsAuthor: true)
        let event: String
        switch notice.kind {
        case .added:
          // A hidden item reaches only its author (who sees its state); nobody else hears of it.
          guard maySee else { continue }
          event = "activity"
        case .removed, .changed:
          // Others lose an item that is no longer visible; its author sees its new state instead.
          if !maySee {
            pages.send(ByteBuffer(string: "event: removed\ndata: {\"id\":\"\(activity.id.uuidString)\"}\n\n"), to: recipient)
            continue
          }
          event = "changed"
        }
        let view = activity.view(for: recipient, congratulated: congratulated.contains(recipient))
        let json = String(decoding: try StreamingJSONEncoder().encode(view), as: UTF8.self)
        pages.send(ByteBuffer(string: "event: \(event)\ndata: \(json)\n\n"), to: recipient)
      }
    } catch {
      wiring.logger.warning("feed live update for \(notice.activity) failed: \(String(reflecting: error))")
    }
  }
}
