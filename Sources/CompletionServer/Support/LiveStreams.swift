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
  private var pages: [UUID: [Int: AsyncStream<ByteBuffer>.Continuation]] = [:]
  private var nextID = 0

  /// A new page of `userID`'s: its id (for ``remove(_:_:)``) and the stream of messages to write to it.
  mutating func add(_ userID: UUID) -> (Int, AsyncStream<ByteBuffer>) {
    nextID += 1
    let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream(bufferingPolicy: .bufferingNewest(64))
    pages[userID, default: [:]][nextID] = continuation
    return (nextID, stream)
  }

  /// Forgets a page that went away; true when it was the person's last.
  @discardableResult
  mutating func remove(_ userID: UUID, _ id: Int) -> Bool {
    pages[userID]?[id]?.finish()
    pages[userID]?[id] = nil
    guard pages[userID]?.isEmpty == true else { return false }
    pages[userID] = nil
    return true
  }

  var isEmpty: Bool { pages.isEmpty }

  /// Whether `userID` has a page open here.
  func has(_ userID: UUID) -> Bool { pages[userID] != nil }

  func send(_ message: ByteBuffer, to userID: UUID) {
    for continuation in pages[userID]?.values ?? [:].values { continuation.yield(message) }
  }

  func sendToAll(_ message: ByteBuffer) {
    for continuations in pages.values { for continuation in continuations.values { continuation.yield(message) } }
  }

  /// Ends every page's stream (the pages reconnect).
  mutating func endAll() {
    for continuations in pages.values { for continuation in continuations.values { continuation.finish() } }
    pages = [:]
  }

  /// The comment line a heartbeat sends: it keeps idle connections open through proxies and finds closed ones.
  static let keepAlive = ByteBuffer(string: ": keep-alive\n\n")
  /// How often a heartbeat is sent.
  static let heartbeatSeconds: UInt64 = 15

  /// A task that calls `beat` every ``heartbeatSeconds`` until cancelled.
  static func heartbeat(_ beat: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: .seconds(heartbeatSeconds))
        guard !Task.isCancelled else { return }
        await beat()
      }
    }
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
