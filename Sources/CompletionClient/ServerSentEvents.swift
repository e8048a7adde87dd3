import AsyncHTTPClient
import CompletionAPI
import Foundation
import NIOCore

/// One message of a live stream (`text/event-stream`): its id, its name and its data.
public struct ServerSentEvent: Sendable, Hashable {
  /// The `id:` line, which a reconnect sends back as `Last-Event-ID` to miss nothing.
  public var id: String?
  /// The `event:` line (nil for the default "message").
  public var event: String?
  /// The `data:` lines, joined by newlines.
  public var data: String
}

/// Splits a byte stream into server-sent events, as the HTML standard reads them: comment lines (`:`) and
/// `retry:` are skipped, several `data:` lines join with a newline, a blank line ends an event.
public struct ServerSentEventParser: Sendable {
  private var line: [UInt8] = []
  private var current = ServerSentEvent(id: nil, event: nil, data: "")
  private var hasData = false
  private var lastCR = false

  public init() {}

  /// Feeds `bytes`; returns the events they completed, in order.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
    var finished: [ServerSentEvent] = []
    for byte in bytes {
      if byte == UInt8(ascii: "\n"), lastCR {
        lastCR = false
        continue
      }
      lastCR = byte == UInt8(ascii: "\r")
      if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
        if let event = endLine() { finished.append(event) }
      } else {
        line.append(byte)
      }
    }
    return finished
  }

  private mutating func endLine() -> ServerSentEvent? {
    defer { line.removeAll(keepingCapacity: true) }
    if line.isEmpty {
      guard hasData else {
        current = ServerSentEvent(id: current.id, event: nil, data: "")
        return nil
      }
      let event = current
      current = ServerSentEvent(id: current.id, event: nil, data: "")
      hasData = false
      return event
    }
    if line.first == UInt8(ascii: ":") { return nil }
    let text = String(decoding: line, as: UTF8.self)
    let field: Substring
    var value: Substring
    if let colon = text.firstIndex(of: ":") {
      field = text[..<colon]
      value = text[text.index(after: colon)...]
      if value.first == " " { value = value.dropFirst() }
    } else {
      field = text[...]
      value = ""
    }
    switch field {
    case "data":
      current.data += hasData ? "\n" + value : String(value)
      hasData = true
    case "event": current.event = String(value)
    case "id": current.id = String(value)
    default: break
    }
    return nil
  }
}

extension CompletionClient {
  /// Opens a live stream and yields its events until the server ends it or the consumer stops. `lastEventID`
  /// resumes after the last event seen, so a reconnect misses nothing.
  func events(_ endpoint: Endpoint, lastEventID: String? = nil) -> AsyncThrowingStream<ServerSentEvent, any Error> {
    let (stream, continuation) = AsyncThrowingStream<ServerSentEvent, any Error>.makeStream()
    let task = Task {
      do {
        var headers: [(String, String)] = [("Accept", "text/event-stream")]
        if let lastEventID { headers.append(("Last-Event-ID", lastEventID)) }
        let request = try makeRequest(endpoint, [], query: [], body: .none, headers: headers)
        // Streams are long: no deadline for the whole answer (the server sends a heartbeat comment).
        let response = try await httpClient.execute(request, deadline: .distantFuture)
        guard response.status == .ok else {
          let bytes = Data(try await response.body.collect(upTo: 1 << 20).readableBytesView)
          if let problem = try? Self.decoder().decode(APIErrorBody.self, from: bytes) {
            throw APIError(status: Int(response.status.code), code: problem.code, message: problem.message, body: bytes)
          }
          throw ClientTransportError(description: "\(server) answered \(response.status.code) to a live stream.")
        }
        var parser = ServerSentEventParser()
        for try await chunk in response.body {
          for event in parser.feed(chunk.readableBytesView) { continuation.yield(event) }
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}
