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
  /// A comment line keeps idle connections open through proxies and finds closed ones.
  static let heartbeatSeconds: UInt64 = 15

  private let postgresURL: String?
  let hub: ProjectsHub

  init(options: ServerOptions) {
    if case .postgres(let url) = options.database { postgresURL = url } else { postgresURL = nil }
    hub = ProjectsHub()
  }

  /// Announces `change` from inside its transaction (PostgreSQL delivers it at the commit, or never).
  func announce(_ change: ProjectChange, on db: any SQLDatabase) async throws {
    guard postgresURL != nil else { return }
    try await db.raw("SELECT pg_notify(\(bind: Self.channel), \(bind: Self.payload(of: change)))").run()
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
    await hub.attach(database: { app.db }, logger: app.logger)
    if let postgresURL { await hub.startListening(url: postgresURL, eventLoop: app.eventLoopGroup.any(), logger: app.logger) }
    let (subscription, stream) = await hub.subscribe(userID)
    // Subscribed first, then read: a change committed in between arrives after the snapshot, never lost.
    let db = try ProjectsController.sql(req.db)
    let owner = try await ProjectStore.owner(userID, on: db)
    var first = "retry: 2000\n\n"
    if lastSeen == nil || lastSeen != owner.revision {
      let projects = try await ProjectStore.projects(userID, on: db)
      let update = ProjectsLiveUpdate(revision: owner.revision, snapshot: true, inbox: owner.inbox, projects: projects.map(\.view), deleted: [])
      first += try Self.event(update)
    }
    let hub = hub
    var headers = HTTPHeaders()
    headers.contentType = HTTPMediaType(type: "text", subType: "event-stream")
    headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
    headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
    let response = Response(status: .ok, headers: headers)
    let opening = first
    response.body = .init(asyncStream: { writer in
      do {
        try await writer.write(.buffer(ByteBuffer(string: opening)))
        for await message in stream {
          try await writer.write(.buffer(message))
        }
        try await writer.write(.end)
      } catch {
        // The page went away. The writer must still be ended (Vapor asserts on a writer left open).
        try? await writer.write(.error(error))
      }
      await hub.unsubscribe(userID, subscription)
    })
    return response
  }

  /// One server-sent event.
  static func event(_ update: ProjectsLiveUpdate) throws -> String {
    let json = String(decoding: try StreamingJSONEncoder().encode(update), as: UTF8.self)
    return "id: \(update.revision)\nevent: projects\ndata: \(json)\n\n"
  }

  /// Ends every stream (the server is stopping).
  func shutdown() async {
    await hub.shutdown()
  }
}

/// The open pages of this process, by person, and the changes waiting to be sent to them.
actor ProjectsHub {
  private var subscribers: [UUID: [Int: AsyncStream<ByteBuffer>.Continuation]] = [:]
  private var nextID = 0
  private var pending: [UUID: ChangeCoalescer<UUID>] = [:]
  private var everything: Set<UUID> = []
  private var database: (@Sendable () -> any Database)?
  private var logger = Logger(label: "completionkit.projects.live")
  private var heartbeat: Task<Void, Never>?
  private var listener: Task<Void, Never>?
  private var listening: Task<Void, Never>?
  private let clock = ContinuousClock()
  private let started = ContinuousClock.now

  func attach(database: @escaping @Sendable () -> any Database, logger: Logger) {
    guard self.database == nil else { return }
    self.database = database
    self.logger = logger
  }

  func subscribe(_ userID: UUID) -> (Int, AsyncStream<ByteBuffer>) {
    nextID += 1
    let id = nextID
    let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(64))
    subscribers[userID, default: [:]][id] = continuation
    startHeartbeat()
    return (id, stream)
  }

  func unsubscribe(_ userID: UUID, _ id: Int) {
    subscribers[userID]?[id]?.finish()
    subscribers[userID]?[id] = nil
    if subscribers[userID]?.isEmpty == true {
      subscribers[userID] = nil
      pending[userID] = nil
    }
  }

  /// Notes a committed change; the person's pages hear of it when the coalescing window closes.
  func publish(_ change: ProjectChange) {
    guard subscribers[change.userID] != nil else { return }  // nobody of theirs is connected here
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
    guard var coalescer = pending[userID], let database else { return }
    let keys = coalescer.flush()
    pending[userID] = coalescer
    let all = everything.remove(userID) != nil
    do {
      guard let db = database() as? any SQLDatabase else { return }
      let owner = try await ProjectStore.owner(userID, on: db)
      let update: ProjectsLiveUpdate
      if all {
        let projects = try await ProjectStore.projects(userID, on: db)
        update = ProjectsLiveUpdate(revision: owner.revision, snapshot: true, inbox: owner.inbox, projects: projects.map(\.view), deleted: [])
      } else {
        let ids = keys.subtracting([userID])
        let projects = try await ProjectStore.projects(userID, ids: ids, on: db)
        let found = Set(projects.map(\.id))
        update = ProjectsLiveUpdate(
          revision: owner.revision, snapshot: false, inbox: owner.inbox, projects: projects.map(\.view),
          deleted: ids.subtracting(found).map(\.uuidString).sorted())
      }
      let message = ByteBuffer(string: try ProjectsLive.event(update))
      for continuation in subscribers[userID]?.values ?? [:].values { continuation.yield(message) }
    } catch {
      logger.warning("projects live update for \(userID) failed: \(String(reflecting: error))")
    }
  }

  private func startHeartbeat() {
    guard heartbeat == nil else { return }
    heartbeat = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(ProjectsLive.heartbeatSeconds))
        guard let self else { return }
        await self.beat()
      }
    }
  }

  private func beat() {
    let comment = ByteBuffer(string: ": keep-alive\n\n")
    for continuations in subscribers.values {
      for continuation in continuations.values { continuation.yield(comment) }
    }
  }

  /// Listens for other processes' (and this one's) changes on PostgreSQL, reconnecting when the
  /// connection drops. A missed notification while reconnecting is repaired by the pages themselves:
  /// their stream ends with the listener's connection and they reconnect with their last revision.
  func startListening(url: String, eventLoop: any EventLoop, logger: Logger) async {
    if let listening { return await listening.value }
    // The first page waits until LISTEN is active, so nothing committed after its snapshot is missed.
    let (ready, signal) = AsyncStream<Void>.makeStream()
    let listening = Task<Void, Never> { for await _ in ready { return } }
    self.listening = listening
    listener = Task { [weak self] in
      while !Task.isCancelled {
        do {
          let configuration = try SQLPostgresConfiguration(url: url)
          let connection = try await PostgresConnection.connect(
            on: eventLoop, configuration: configuration.coreConfiguration, id: 1, logger: logger)
          defer { Task { try? await connection.close() } }
          let notifications = try await connection.listen(ProjectsLive.channel)
          signal.yield()
          for try await notification in notifications {
            guard let change = ProjectsLive.change(from: notification.payload) else { continue }
            await self?.publish(change)
          }
        } catch {
          signal.yield()
          if Task.isCancelled { return }
          logger.warning("projects live: LISTEN connection lost (\(String(reflecting: error))); reconnecting")
          await self?.dropAll()
          try? await Task.sleep(for: .seconds(1))
        }
      }
    }
    await listening.value
  }

  /// Ends every stream so pages reconnect (and get a snapshot): used when notifications may have been missed.
  private func dropAll() {
    for continuations in subscribers.values {
      for continuation in continuations.values { continuation.finish() }
    }
    subscribers = [:]
    pending = [:]
  }

  /// Ends every open stream (a test hook: a connection cut as a network would cut it).
  func dropStreams() {
    dropAll()
  }

  func shutdown() {
    listener?.cancel()
    heartbeat?.cancel()
    listener = nil
    heartbeat = nil
    dropAll()
  }
}

extension Duration {
  /// Seconds as a Double.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}

/// Ends the live streams when the app shuts down.
struct ProjectsLiveShutdown: LifecycleHandler {
  func shutdownAsync(_ application: Application) async {
    await application.services.projectsLive.shutdown()
    await application.services.feedLive.shutdown()
  }
}

extension Application {
  /// Ends every open live stream (pages reconnect to another process or after a restart). Call before
  /// stopping the HTTP server, which otherwise waits for those never-ending responses.
  public func endLiveStreams() async {
    await services.projectsLive.shutdown()
    await services.feedLive.shutdown()
  }
}
