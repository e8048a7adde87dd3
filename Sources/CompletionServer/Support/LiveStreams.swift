import CompletionAPI
import FluentSQL
import Foundation
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import Prometheus
import Vapor

/// The open server-sent-event pages of one process, by person: the part every live hub shares (the
/// projects' lists, the challenges' feed). A value kept inside its hub's actor.
struct LivePages {
  /// One open page: where its messages go, and the sign-in it was opened with (its stream ends with it).
  private struct Page {
    let continuation: AsyncStream<ByteBuffer>.Continuation
    let session: UUID
  }

  private var pages: [UUID: [Int: Page]] = [:]
  private var nextID = 0

  /// A new page of `userID`'s, opened with the sign-in `session`: its id (for ``remove(_:_:)``) and the stream of
  /// messages to write to it.
  mutating func add(_ userID: UUID, session: UUID) -> (Int, AsyncStream<ByteBuffer>) {
    nextID += 1
    let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(64))
    pages[userID, default: [:]][nextID] = Page(continuation: continuation, session: session)
    return (nextID, stream)
  }

  /// Forgets a page that went away; true when it was the person's last.
  @discardableResult
  mutating func remove(_ userID: UUID, _ id: Int) -> Bool {
    pages[userID]?[id]?.continuation.finish()
    pages[userID]?[id] = nil
    guard pages[userID]?.isEmpty == true else { return false }
    pages[userID] = nil
    return true
  }

  var isEmpty: Bool { pages.isEmpty }

  /// The people with a page open here.
  var people: [UUID] { Array(pages.keys) }

  /// Whether `userID` has a page open here.
  func has(_ userID: UUID) -> Bool { pages[userID] != nil }

  func send(_ message: ByteBuffer, to userID: UUID) {
    for page in pages[userID]?.values ?? [:].values { page.continuation.yield(message) }
  }

  func sendToAll(_ message: ByteBuffer) {
    for byPage in pages.values { for page in byPage.values { page.continuation.yield(message) } }
  }

  /// Ends every page's stream (the pages reconnect).
  mutating func endAll() {
    for byPage in pages.values { for page in byPage.values { page.continuation.finish() } }
    pages = [:]
  }

  /// The sign-ins the open pages were opened with.
  var sessions: Set<UUID> {
    Set(pages.values.flatMap { $0.values.map(\.session) })
  }

  /// Ends the pages opened with one of the `ended` sign-ins, each told why first (``sessionEndedEvent``), so it
  /// shows that instead of reconnecting. Answers the people who have no page open here any more.
  mutating func end(sessions ended: Set<UUID>) -> [UUID] {
    guard !ended.isEmpty else { return [] }
    var gone: [UUID] = []
    for (userID, byPage) in pages {
      for (id, page) in byPage where ended.contains(page.session) {
        page.continuation.yield(Self.sessionEndedEvent)
        page.continuation.finish()  // what was yielded is still written; then the response ends
        pages[userID]?[id] = nil
      }
      if pages[userID]?.isEmpty == true {
        pages[userID] = nil
        gone.append(userID)
      }
    }
    return gone
  }

  /// The comment line a heartbeat sends: it keeps idle connections open through proxies and finds closed ones.
  static let keepAlive = ByteBuffer(string: ": keep-alive\n\n")
  /// How often a heartbeat is sent unless the server is told otherwise (``ServerOptions/liveHeartbeat``).
  static let heartbeatSeconds: TimeInterval = 15

  /// The last event of a stream whose sign-in ended (signed out here or on another device, revoked, expired):
  /// `session_ended`, with the words the page shows.
  static let sessionEndedEvent: ByteBuffer = {
    let body = APIErrorBody(
      code: AppError.sessionEnded.code,
      message:
        "You were signed out (on another device, or after a long time away), so this page no longer shows your changes. Sign in again on the home page, or reload this page to carry on as a guest.")
    let json = (try? JSONEncoder().encode(body)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    return ByteBuffer(string: "event: session_ended\ndata: \(json)\n\n")
  }()

  /// A task that calls `beat` every `seconds` until cancelled.
  static func heartbeat(every seconds: TimeInterval, _ beat: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(seconds))
        guard !Task.isCancelled else { return }
        await beat()
      }
    }
  }

  /// Of `sessions` (the sign-ins open pages were opened with), those that no longer sign anyone in: deleted
  /// (signed out, revoked — perhaps by another server process sharing the database), past their expiry, or (a
  /// browser's) idle too long. Read from the database, never the sign-in cache, which another process's revoke
  /// may not have reached: one read by primary key for a heartbeat's every page, in chunks.
  static func endedSessions(_ sessions: Set<UUID>, at now: Date, on db: any Database) async throws -> Set<UUID> {
    var valid: Set<UUID> = []
    let all = Array(sessions)
    for start in stride(from: 0, to: all.count, by: 500) {
      let chunk = all[start..<min(start + 500, all.count)]
      let rows = try await StoredSignIn.select(on: db).where(SQLIdentifier("id"), .in, SQLBind.group(Array(chunk)))
        .all(decoding: StoredSignIn.self)
      for row in rows where row.signsIn(at: now) { valid.insert(row.id) }
    }
    return sessions.subtracting(valid)
  }

  /// The streaming `text/event-stream` response of one page: `opening`, then every message, until the
  /// stream ends or the connection closes (`closed`, see ``OpenConnections``); then `ended` runs, whether the
  /// page or the server hung up. Without `closed` a page that went away is noticed at the next write it fails.
  static func response(
    opening: String, stream: AsyncStream<ByteBuffer>, open: Gauge, closed: EventLoopFuture<Void>?,
    ended: @escaping @Sendable () async -> Void
  ) -> Response {
    var headers = HTTPHeaders()
    headers.contentType = HTTPMediaType(type: "text", subType: "event-stream")
    headers.replaceOrAdd(name: .cacheControl, value: "no-cache")
    headers.replaceOrAdd(name: "X-Accel-Buffering", value: "no")
    let response = Response(status: .ok, headers: headers)
    response.body = .init(asyncStream: { writer in
      open.increment()
      defer { open.decrement() }
      let writing = Task {
        do {
          try await writer.write(.buffer(ByteBuffer(string: opening)))
          // Ends when the stream does, or when the connection closes (cancelled below).
          for await message in stream { try await writer.write(.buffer(message)) }
          try Task.checkCancellation()
          try await writer.write(.end)
        } catch {
          // The page went away. The writer must still be ended (Vapor asserts on a writer left open).
          try? await writer.write(.error(error))
        }
      }
      // The connection's close ends the page at once, not at the next heartbeat that fails to write.
      closed?.whenComplete { _ in writing.cancel() }
      await writing.value
      await ended()
    })
    return response
  }
}

/// What every live hub (``ProjectsHub``, ``FeedHub``) shares: its open pages, a heartbeat that also ends the
/// pages whose sign-in ended, and, on PostgreSQL, one listener. A hub is an actor holding these two values and
/// saying what it forgets when pages end; the rest is here, once.
protocol LiveHub: Actor {
  var pages: LivePages { get set }
  var wiring: LiveHubWiring { get set }
  /// Pages were ended (their sign-in ended, or every page was): `people` have none open here any more.
  func forget(_ people: [UUID])
}

/// A live hub's connections to the rest of the server, set when its first page opens.
struct LiveHubWiring {
  var database: (@Sendable () -> any Database)?
  var now: @Sendable () -> Date = { Date() }
  var heartbeatSeconds = LivePages.heartbeatSeconds
  var logger: Logger
  var heartbeat: Task<Void, Never>?
  var listener: Task<Void, Never>?
  var listening: Task<Void, Never>?

  init(label: String) { logger = Logger(label: label) }
}

/// Where a hub listens on PostgreSQL.
struct LiveChannel: Sendable {
  let url: String
  let channel: String
  /// The listener connection's id in the logs.
  let connectionID: Int
}

extension LiveHub {
  /// Opens a page of `userID`'s for `req`: wires the hub on first use, waits until the listener (when there is
  /// one) hears, so nothing committed after this returns is missed, and ties the page to the request's sign-in.
  func open(
    _ userID: UUID, for req: Request, listening channel: LiveChannel?, notification: @escaping @Sendable (String) async -> Void
  ) async throws -> (Int, AsyncStream<ByteBuffer>) {
    let app = req.application
    if wiring.database == nil {
      let clock = app.services.clock
      wiring.database = { app.db }
      wiring.now = { clock.now() }
      wiring.heartbeatSeconds = app.serverOptions.liveHeartbeat
      wiring.logger = app.logger
    }
    if let channel { await startListening(channel, eventLoop: app.eventLoopGroup.any(), notification: notification) }
    // The stream lives only as long as the sign-in it was opened with (checked at every heartbeat).
    guard let session = req.currentSession?.tokenID else { throw AppError.unauthenticated }
    if wiring.heartbeat == nil {
      wiring.heartbeat = LivePages.heartbeat(every: wiring.heartbeatSeconds) { [weak self] in await self?.beat() }
    }
    return pages.add(userID, session: session)
  }

  /// Keeps the streams open, and ends those whose sign-in ended since (signed out, revoked here or by another
  /// process, expired), each told so first: a page must not go on receiving the person's data after that.
  private func beat() async {
    pages.sendToAll(LivePages.keepAlive)
    let sessions = pages.sessions
    guard !sessions.isEmpty, let database = wiring.database else { return }
    do {
      let ended = try await LivePages.endedSessions(sessions, at: wiring.now(), on: database())
      forget(pages.end(sessions: ended))
    } catch {
      wiring.logger.warning("live streams: checking the streams' sign-ins failed: \(String(reflecting: error))")
    }
  }

  /// Listens on PostgreSQL once; a second page waits for the first one's `LISTEN`. When the connection drops,
  /// every page is ended: its notifications may have been missed, and pages reconnect and read afresh.
  private func startListening(
    _ channel: LiveChannel, eventLoop: any EventLoop, notification: @escaping @Sendable (String) async -> Void
  ) async {
    if let listening = wiring.listening { return await listening.value }
    let (listener, ready) = PostgresListener.start(
      url: channel.url, channel: channel.channel, connectionID: channel.connectionID, eventLoop: eventLoop, logger: wiring.logger,
      notification: notification, lost: { [weak self] in await self?.endAll() })
    wiring.listener = listener
    wiring.listening = ready
    await ready.value
  }

  /// Forgets a page that went away; when it was its person's last here, what the hub kept for them goes too.
  func unsubscribe(_ userID: UUID, _ id: Int) {
    if pages.remove(userID, id) { forget([userID]) }
  }

  /// Ends every open stream (the pages reconnect).
  func endAll() {
    let everyone = pages.people
    pages.endAll()
    forget(everyone)
  }

  /// Stops the heartbeat and the listener and ends every stream (the server is stopping).
  func shutdown() {
    wiring.listener?.cancel()
    wiring.heartbeat?.cancel()
    wiring.listener = nil
    wiring.heartbeat = nil
    endAll()
  }
}

/// Ends the live streams when the app shuts down.
struct LiveStreamsShutdown: LifecycleHandler {
  func shutdownAsync(_ application: Application) async {
    await application.endLiveStreams()
  }
}

extension Application {
  /// Ends every open live stream (pages reconnect to another process or after a restart). Call before
  /// stopping the HTTP server, which otherwise waits for those never-ending responses.
  public func endLiveStreams() async {
    await services.projectsLive.hub.shutdown()
    await services.feedLive.hub.shutdown()
  }
}

/// A PostgreSQL `LISTEN` on one channel that hands every notification's payload to a handler, and
/// reconnects when the connection drops (`lost` runs then: notifications may have been missed).
enum PostgresListener {
  /// Starts listening; the returned `ready` task finishes once `LISTEN` is active (or the first attempt
  /// failed), so a page subscribed before it misses nothing committed afterwards.
  static func start(
    url: String, channel: String, connectionID: Int, eventLoop: any EventLoop, logger: Logger,
    notification: @escaping @Sendable (String) async -> Void, lost: @escaping @Sendable () async -> Void
  ) -> (listener: Task<Void, Never>, ready: Task<Void, Never>) {
    let (readySignals, signal) = AsyncStream<Void>.makeStream()
    let ready = Task<Void, Never> { for await _ in readySignals { return } }
    let listener = Task {
      while !Task.isCancelled {
        do {
          let configuration = try SQLPostgresConfiguration(url: url)
          let connection = try await PostgresConnection.connect(
            on: eventLoop, configuration: configuration.coreConfiguration, id: connectionID, logger: logger)
          defer { Task { try? await connection.close() } }
          let notifications = try await connection.listen(channel)
          signal.yield()
          for try await item in notifications { await notification(item.payload) }
        } catch {
          signal.yield()
          if Task.isCancelled { return }
          logger.warning("\(channel): LISTEN connection lost (\(String(reflecting: error))); reconnecting")
          await lost()
          try? await Task.sleep(for: .seconds(1))
        }
      }
    }
    return (listener, ready)
  }
}
