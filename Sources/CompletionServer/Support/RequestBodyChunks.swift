import NIOConcurrencyHelpers
import NIOCore
import Vapor

extension Request {
  /// The body's chunks as they arrive, one at a time: the next is read from the connection only when the
  /// consumer asks for it. Use this, never `for try await chunk in req.body`: Vapor's AsyncSequence bridge has a
  /// back-pressure state machine that can trap the whole process when a chunk arrives at the wrong moment
  /// (`RequestBody+Concurrency.swift`, "noSignalReceived"; seen here on an upload under load). This reads through
  /// the body's own callback (`drain`), which waits for each chunk's future before it reads the next.
  /// A consumer that stops early leaves the rest to be read and dropped, so the connection is never stalled.
  func bodyChunks() -> RequestBodyChunks { RequestBodyChunks(body, on: eventLoop) }
}

/// The chunks of one request's body (see ``Vapor/Request/bodyChunks()``).
struct RequestBodyChunks: AsyncSequence, Sendable {
  typealias Element = ByteBuffer

  /// What the drain callback and the consumer share.
  fileprivate final class Relay: Sendable {
    struct State {
      /// The chunk handed over and not yet asked past: the connection reads on once it completes.
      var outstanding: EventLoopPromise<Void>?
      /// The consumer is gone: what is left of the body is read and dropped.
      var discarding = false
    }

    let state = NIOLockedValueBox(State())

    /// Lets the connection read on: the consumer asked for more, or is gone.
    func release() {
      state.withLockedValue { state -> EventLoopPromise<Void>? in
        defer { state.outstanding = nil }
        return state.outstanding
      }?.succeed(())
    }

    /// The consumer is gone: read on and drop the rest.
    func abandon() {
      state.withLockedValue { $0.discarding = true }
      release()
    }
  }

  private let stream: AsyncThrowingStream<ByteBuffer, any Error>
  private let relay: Relay

  init(_ body: Request.Body, on eventLoop: any EventLoop) {
    let relay = Relay()
    self.relay = relay
    stream = AsyncThrowingStream(ByteBuffer.self, bufferingPolicy: .unbounded) { continuation in
      continuation.onTermination = { _ in relay.abandon() }
      body.drain { part in
        switch part {
        case .buffer(let buffer):
          let promise = eventLoop.makePromise(of: Void.self)
          let discarding = relay.state.withLockedValue { state -> Bool in
            if !state.discarding { state.outstanding = promise }
            return state.discarding
          }
          if discarding { return eventLoop.makeSucceededVoidFuture() }
          continuation.yield(buffer)
          return promise.futureResult
        case .error(let error):
          continuation.finish(throwing: error)
          return eventLoop.makeSucceededVoidFuture()
        case .end:
          continuation.finish()
          return eventLoop.makeSucceededVoidFuture()
        }
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator(), relay: relay) }

  /// Asks the connection for the next chunk only when the consumer asks for it.
  struct AsyncIterator: AsyncIteratorProtocol {
    fileprivate var base: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator
    fileprivate let relay: Relay

    mutating func next() async throws -> ByteBuffer? {
      relay.release()
      return try await base.next()
    }
  }
}
