import CompletionAPI
import FluentSQL
import Foundation
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import Projects
import StreamingJSON
import Vapor

/// Pushes project changes to every open page of their owner, as server-sent events.
///
/// A change is announced by the transaction that made it. On PostgreSQL the announcement is a `NOTIFY`
/// sent with the commit, and every server process `LISTEN`s, so a change made on one process reaches
/// pages connected to any of them; on SQLite (one process) it is handed over in-process after the commit.
/// Changes of one person within ``ChangeCoalescer/defaultWindow`` are joined into one message, read
/// fresh from the database once for all of that person's pages. A page that reconnects sends the last
/// revision it saw and gets a snapshot when anything changed since.
final class ProjectsLive: Sendable {
  static let channel = "completionkit_projects"

  private let postgresURL: String?
  /// Where the hub listens (PostgreSQL), nil on SQLite.
  private let listening: LiveChannel?
  let hub: ProjectsHub

  init(options: ServerOptions) {
    if case .postgres(let url) = options.database { postgresURL = url } else { postgresURL = nil }
    listening = postgresURL.map { LiveChannel(url: $0, channel: Self.channel, connectionID: 1) }
    hub = ProjectsHub()
  }

  /// Announces `change` from inside its transaction (PostgreSQL delivers it at the commit, or never).
  func announce(_ change: ProjectChange, on db: any Database) async throws {
    guard postgresURL != nil else { return }
    try await SQLProjectsStore(db).notify(channel: Self.channel, payload: Self.payload(of: change))
  }

  /// Tells this process's pages about a committed change (SQLite; on PostgreSQL the notification does).
  func committed(_ change: ProjectChange) {
    guard postgresURL == nil else { return }
    let hub = hub
    Task { await hub.publish(change) }
  }

  /// "user-id project-id project-id …", or "user-id *" for every project (a notification carries at most
  /// 8,000 bytes).
  static func payload(of change: ProjectChange) -> String {
    if change.all || change.projects.count > 100 { return change.userID.uuidString + " *" }
    return ([change.userID.uuidString] + change.projects.map(\.uuidString)).joined(separator: " ")
  }

  static func change(from payload: String) -> ProjectChange? {
    let parts = payload.split(separator: " ")
    guard let first = parts.first, let userID = UUID(uuidString: String(first)) else { return nil }
    if parts.dropFirst().first == "*" { return ProjectChange(userID: userID, projects: [], all: true) }
    return ProjectChange(userID: userID, projects: Set(parts.dropFirst().compactMap { UUID(uuidString: String($0)) }))
  }

  /// The event stream for `userID`'s page.
  func stream(for userID: UUID, lastSeen: Int?, on req: Request) async throws -> Response {
    let app = req.application
    let hub = hub
    let (subscription, stream) = try await hub.open(userID, for: req, listening: listening) { [weak hub] payload in
      guard let change = ProjectsLive.change(from: payload) else { return }
      await hub?.publish(change)
    }
    // Subscribed first, then read: a change committed in between arrives after the snapshot, never lost.
    let store = SQLProjectsStore(req.db)
    let owner = try await store.owner(userID)
    var first = "retry: 2000\n\n"
    if lastSeen == nil || lastSeen != owner.revision {
      let projects = try await store.projects(userID)
      let update = ProjectsLiveUpdate(
        revision: owner.revision, snapshot: true, inbox: owner.inboxView, projects: projects.map(\.view), deleted: [],
        undoSeq: try await store.lastUndoSeq(userID))
      first += try Self.event(update)
    }
    return LivePages.response(opening: first, stream: stream, open: app.services.metrics.liveStreams("projects"),
      closed: app.services.connections.closed(req)
    ) {
      await hub.unsubscribe(userID, subscription)
    }
  }

  /// One server-sent event.
  static func event(_ update: ProjectsLiveUpdate) throws -> String {
    let json = String(decoding: try StreamingJSONEncoder().encode(update), as: UTF8.self)
    return "id: \(update.revision)\nevent: projects\ndata: \(json)\n\n"
  }
}

/// The open pages of this process, by person, and the changes waiting to be sent to them.
actor ProjectsHub: LiveHub {
  var pages = LivePages()
  var wiring = LiveHubWiring(label: "completionkit.projects.live")
  private var pending: [UUID: ChangeCoalescer<UUID>] = [:]
  private var everything: Set<UUID> = []
  private let clock = ContinuousClock()
  private let started = ContinuousClock.now

  /// Changes waiting for people with no page open here any more are dropped.
  func forget(_ people: [UUID]) {
    for userID in people {
      pending[userID] = nil
      everything.remove(userID)
    }
  }

  /// Notes a committed change; the person's pages hear of it when the coalescing window closes.
  func publish(_ change: ProjectChange) {
    guard pages.has(change.userID) else { return }  // nobody of theirs is connected here
    let now = (clock.now - started).seconds
    var coalescer = pending[change.userID] ?? ChangeCoalescer<UUID>()
    if change.all { everything.insert(change.userID) }
    var due: Double?
    for project in change.projects { due = coalescer.note(project, at: now) ?? due }
    if change.projects.isEmpty { due = coalescer.note(change.userID, at: now) }  // the person's own row (Inbox, order)
    pending[change.userID] = coalescer
    guard let due else { return }
    let userID = change.userID
    Task {
      try? await Task.sleep(for: .seconds(max(due - now, 0)))
      await self.flush(userID)
    }
  }

  private func flush(_ userID: UUID) async {
    guard var coalescer = pending[userID], let database = wiring.database else { return }
    let keys = coalescer.flush()
    pending[userID] = coalescer
    let all = everything.remove(userID) != nil
    do {
      let store = SQLProjectsStore(database())
      let owner = try await store.owner(userID)
      // Read after the counter, so it is the last step as of `revision` or later: a page hides a toast whose
      // step (at or before `revision`) is not it, never one whose change this update has not seen yet.
      let undoSeq = try await store.lastUndoSeq(userID)
      let update: ProjectsLiveUpdate
      if all {
        let projects = try await store.projects(userID)
        update = ProjectsLiveUpdate(
          revision: owner.revision, snapshot: true, inbox: owner.inboxView, projects: projects.map(\.view), deleted: [], undoSeq: undoSeq)
      } else {
        let ids = keys.subtracting([userID])
        let projects = try await store.projects(userID, ids: ids)
        let found = Set(projects.map(\.id))
        update = ProjectsLiveUpdate(
          revision: owner.revision, snapshot: false, inbox: owner.inboxView, projects: projects.map(\.view),
          deleted: ids.subtracting(found).map(\.uuidString).sorted(), undoSeq: undoSeq)
      }
      pages.send(ByteBuffer(string: try ProjectsLive.event(update)), to: userID)
    } catch {
      wiring.logger.warning("projects live update for \(userID) failed: \(String(reflecting: error))")
    }
  }

  /// Ends every open stream (a test hook: a connection cut as a network would cut it).
  func dropStreams() {
    endAll()
  }
}

extension Duration {
  /// Seconds as a Double.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
