import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import Prometheus
import Vapor

/// What Vapor's HTTP server leaves to each connection's channel: a deadline for a request's head, a `400` for a
/// request the HTTP parser refuses, and a way for a response to learn its connection closed.
///
/// Vapor 4 builds each connection's pipeline itself and offers no hook into it (no child channel initializer),
/// and its idle timeout is reset by every byte, so a client trickling a header a byte a second is never timed out.
/// So the server is wrapped: once Vapor's server has bound its socket, a handler goes first in the listening
/// socket's pipeline and adds this file's handlers to every connection it accepts, before Vapor's own.
/// Reaching the listening socket takes a look inside `HTTPServer` (see ``listeningChannel(of:)``); if a Vapor
/// release changes that, the server logs an error at start and serves without these guards (the tests notice).
struct GuardedServer: Server {
  let inner: HTTPServer
  let settings: ConnectionGuardSettings

  var onShutdown: EventLoopFuture<Void> { inner.onShutdown }

  @available(*, noasync, message: "Use the async start() method instead.")
  func start(address: BindAddress?) throws {
    try inner.start(address: address)
    try attach().wait()
  }

  func start(address: BindAddress?) async throws {
    try await inner.start(address: address)
    try await attach().get()
  }

  @available(*, noasync, message: "Use the async shutdown() method instead.")
  func shutdown() { inner.shutdown() }

  func shutdown() async { await inner.shutdown() }

  /// Puts ``AcceptedConnections`` first in the listening socket's pipeline.
  private func attach() -> EventLoopFuture<Void> {
    guard let channel = Self.listeningChannel(of: inner) else {
      settings.logger.error(
        "This Vapor release hides its listening socket: requests' heads have no deadline and unreadable requests get no 400.")
      return MultiThreadedEventLoopGroup.singleton.any().makeSucceededFuture(())
    }
    let settings = settings
    return channel.eventLoop.submit {
      try channel.pipeline.syncOperations.addHandler(AcceptedConnections(settings: settings), position: .first)
    }
  }

  /// The listening socket of a started `HTTPServer`, read from its private `connection` (an
  /// `NIOLockedValueBox<HTTPServerConnection?>` whose value has a `channel`), or nil if it is not there.
  static func listeningChannel(of server: HTTPServer) -> (any Channel)? {
    guard let box = Mirror(reflecting: server).children.first(where: { $0.label == "connection" })?.value as? any LockedValueReading
    else { return nil }
    for connection in Mirror(reflecting: box.currentValue).children {  // the Optional's `some`
      for property in Mirror(reflecting: connection.value).children where property.label == "channel" {
        return property.value as? any Channel
      }
    }
    return nil
  }
}

/// Reads an `NIOLockedValueBox` whose value's type cannot be named here.
protocol LockedValueReading {
  var currentValue: Any { get }
}

extension NIOLockedValueBox: LockedValueReading {
  var currentValue: Any { withLockedValue { $0 } }
}

/// What the connection handlers need: the head deadline, the open connections (for live streams) and figures.
struct ConnectionGuardSettings: Sendable {
  let headTimeout: TimeAmount
  let connections: OpenConnections
  let closed: @Sendable (_ reason: String) -> Void
  let logger: Logger
}

/// The close futures of this process's open connections, by the client's address and port, so a response can
/// learn that its connection went away (`Request.remoteAddress` names the connection it came on).
final class OpenConnections: Sendable {
  private let closeFutures = NIOLockedValueBox<[String: EventLoopFuture<Void>]>([:])

  func add(_ channel: any Channel) {
    guard let key = channel.remoteAddress?.description else { return }
    let future = channel.closeFuture
    closeFutures.withLockedValue { $0[key] = future }
    future.whenComplete { [weak self] _ in
      self?.closeFutures.withLockedValue { if $0[key] === future { $0[key] = nil } }
    }
  }

  /// The future that completes when the connection `request` came on closes (nil if it is not known here).
  func closed(_ request: Request) -> EventLoopFuture<Void>? {
    guard let key = request.remoteAddress?.description else { return nil }
    return closeFutures.withLockedValue { $0[key] }
  }
}

/// First in the listening socket's pipeline: hands every accepted connection a ``RequestHeadClock`` before
/// Vapor's initializer builds the rest of its pipeline.
private final class AcceptedConnections: ChannelInboundHandler {
  typealias InboundIn = any Channel
  typealias InboundOut = any Channel

  let settings: ConnectionGuardSettings

  init(settings: ConnectionGuardSettings) {
    self.settings = settings
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let accepted = Self.unwrapInboundIn(data)
    let settings = settings
    // Queued on the connection's loop before Vapor's initializer (which the next handler queues), so it runs first.
    if accepted.eventLoop.inEventLoop {
      Self.prepare(accepted, settings)
    } else {
      accepted.eventLoop.execute { Self.prepare(accepted, settings) }
    }
    context.fireChannelRead(data)
  }

  private static func prepare(_ channel: any Channel, _ settings: ConnectionGuardSettings) {
    settings.connections.add(channel)
    try? channel.pipeline.syncOperations.addHandler(RequestHeadClock(settings: settings), position: .first)
  }
}

/// Where a connection is in its requests, shared by its guard handlers (all on its event loop).
private final class ConnectionPhase {
  /// A head is awaited: the connection just opened, or the next request's first byte arrived.
  var awaitingHead = true
  /// A request's head arrived and its end has not.
  var inRequest = false
  /// A response's head was written and its end not yet.
  var responding = false
  /// When the awaited head's clock started; nil while none runs.
  var clockStarted: NIODeadline?
  /// The connection's one timer, armed while a clock may run. A clock that stops leaves it armed, and one that
  /// starts again finds it armed: every request of a kept-alive connection only notes the time, where scheduling
  /// and cancelling a timer per request cost every request a heap entry and a lock.
  var timer: Scheduled<Void>?

  func stopClock() {
    clockStarted = nil
  }

  func cancelTimer() {
    timer?.cancel()
    timer = nil
  }
}

/// First in a connection's pipeline (it sees raw bytes): starts the head's clock when the connection opens and
/// when the first byte of a next request arrives, and closes the connection when the clock runs out (with a
/// `408` when no response is under way). Once Vapor's handlers are in place it adds ``RequestHeadSeen`` right
/// after the HTTP parser and ``UnreadableRequestAnswer`` after the pipelining handler.
private final class RequestHeadClock: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundOut = ByteBuffer

  let settings: ConnectionGuardSettings
  let phase = ConnectionPhase()

  init(settings: ConnectionGuardSettings) {
    self.settings = settings
  }

  func channelActive(context: ChannelHandlerContext) {
    let pipeline = context.pipeline.syncOperations
    if let parser = try? pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self) {
      try? pipeline.addHandler(RequestHeadSeen(phase: phase), position: .after(parser))
      let answer = UnreadableRequestAnswer(phase: phase, closed: settings.closed)
      if let pipelining = try? pipeline.handler(type: HTTPServerPipelineHandler.self) {
        try? pipeline.addHandler(answer, position: .after(pipelining))
      } else {
        try? pipeline.addHandler(answer, position: .after(parser))
      }
      startClock(context: context)
    }
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if !phase.awaitingHead && !phase.inRequest {
      phase.awaitingHead = true
      startClock(context: context)
    }
    context.fireChannelRead(data)
  }

  func channelInactive(context: ChannelHandlerContext) {
    phase.stopClock()
    phase.cancelTimer()
    context.fireChannelInactive()
  }

  private func startClock(context: ChannelHandlerContext) {
    phase.clockStarted = .now()
    if phase.timer == nil { Self.arm(in: settings.headTimeout, phase, settings, context) }
  }

  /// Looks at the clock in `delay`: when the awaited head's time is up the connection is closed (with a `408`
  /// unless a response is under way); when a later clock runs, it looks again when that one's time is up.
  private static func arm(in delay: TimeAmount, _ phase: ConnectionPhase, _ settings: ConnectionGuardSettings, _ context: ChannelHandlerContext) {
    phase.timer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [phase, settings] in
      phase.timer = nil
      guard let started = phase.clockStarted, phase.awaitingHead, context.channel.isActive else { return }
      let left = started + settings.headTimeout - .now()
      if left > .zero {
        arm(in: left, phase, settings, context)
        return
      }
      settings.closed("head_timeout")
      if !phase.responding {
        context.writeAndFlush(Self.wrapOutboundOut(Self.timeoutAnswer), promise: nil)
      }
      context.close(promise: nil)
    }
  }

  /// The `408` a connection gets when its request's head took too long (written as bytes: the HTTP encoder is
  /// further along the pipeline).
  static var timeoutAnswer: ByteBuffer {
    let body = #"{"code":"request_timeout","message":"The request's headers took too long to arrive."}"#
    return ByteBuffer(
      string: "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
        + "Connection: close\r\n\r\n" + body)
  }
}

/// Right after the HTTP parser: a parsed head stops the clock; a request's end means the next byte starts it.
private final class RequestHeadSeen: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  let phase: ConnectionPhase

  init(phase: ConnectionPhase) {
    self.phase = phase
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch Self.unwrapInboundIn(data) {
    case .head:
      phase.awaitingHead = false
      phase.inRequest = true
      phase.stopClock()
    case .body:
      break
    case .end:
      phase.inRequest = false
    }
    context.fireChannelRead(data)
  }
}

/// Answers a request the HTTP parser refuses (an unknown method, a control character in a header, a malformed
/// request line) with `400 bad_request` before the connection closes, unless a response is already under way.
/// Heads past the parser's size limits (a query string of tens of KB) are closed without an answer, as before.
/// Sits after the pipelining handler, which holds a parser error back until the response before it is done.
private final class UnreadableRequestAnswer: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundIn = HTTPServerResponsePart
  typealias OutboundOut = HTTPServerResponsePart

  let phase: ConnectionPhase
  let closed: @Sendable (String) -> Void

  init(phase: ConnectionPhase, closed: @escaping @Sendable (String) -> Void) {
    self.phase = phase
    self.closed = closed
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if let parserError = error as? HTTPParserError {
      phase.awaitingHead = false
      phase.stopClock()
      if parserError != .headerOverflow && !phase.responding {
        closed("bad_request")
        let body = ByteBuffer(string: #"{"code":"bad_request","message":"The request could not be read as HTTP."}"#)
        let headers = HTTPHeaders([
          ("Content-Type", "application/json; charset=utf-8"), ("Content-Length", String(body.readableBytes)), ("Connection", "close"),
        ])
        context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
        context.write(Self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil)), promise: nil)
      } else {
        closed("unreadable")
      }
    }
    context.fireErrorCaught(error)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    switch Self.unwrapOutboundIn(data) {
    case .head(let head) where head.status.code < 200 || head.status.code == 101:
      break
    case .head:
      phase.responding = true
    case .body:
      break
    case .end:
      phase.responding = false
    }
    context.write(data, promise: promise)
  }
}
