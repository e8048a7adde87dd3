import CompletionAPI
import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("Connection hygiene")
struct ConnectionHygieneTests {
  /// A head timeout short enough for a test, long enough that a prompt request on a busy machine meets it.
  static func options(headTimeout: TimeInterval) -> ServerOptions {
    var options = TestDatabase.options
    options.requestHeadTimeout = headTimeout
    return options
  }

  @Test("A connection that trickles its request's head is closed with 408 once the head's time is up")
  func slowHeadIsClosed() async throws {
    try await withTestApp(options: Self.options(headTimeout: 2)) { client in
      let connection = try RawHTTPConnection(port: try #require(URL(string: client.base)?.port))
      try await connection.sendRaw("GET /health HTTP/1.1\r\nHost: localhost\r\n")
      // A header a byte at a time, 10 bytes a second: the idle timeout (reset by every byte) never ends it.
      let (text, ending) = await connection.trickle("X-Slow: " + String(repeating: "a", count: 300), pause: 100)
      #expect(ending == .closedByServer, "the connection was still open after 30 s of trickling")
      #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
      #expect(text.contains(#""code":"request_timeout""#))
      let metrics = String(buffer: try await client.send(.GET, "/metrics").body)
      #expect(MetricsTests.sample(metrics, #"completionkit_http_connections_refused_total{reason="head_timeout"}"#) >= 1)
    }
  }

  @Test("A kept-alive connection's next request has the same deadline, counted from its first byte; a prompt one is served")
  func keepAliveHead() async throws {
    try await withTestApp(options: Self.options(headTimeout: 2)) { client in
      let connection = try RawHTTPConnection(port: try #require(URL(string: client.base)?.port))
      #expect(try await connection.exchange("GET /health HTTP/1.1", headers: [:], chunkedBody: nil).status == 200)
      // Half of the next request's head, then silence.
      try await connection.sendRaw("GET /health HTTP/1.1\r\nHost: loc")
      let (text, ending) = await connection.readUntilClose()
      #expect(ending == .closedByServer)
      #expect(text.hasPrefix("HTTP/1.1 408"), "\(text)")
    }
  }

  @Test("An unknown method or a control character in a header is answered 400 bad_request before the close")
  func unreadableRequests() async throws {
    try await withTestApp { client in
      for request in [
        "BREW /health HTTP/1.1\r\nHost: localhost\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: localhost\r\nX-Note: a\u{01}b\r\n\r\n",
      ] {
        let connection = try RawHTTPConnection(port: try #require(URL(string: client.base)?.port))
        try await connection.sendRaw(request)
        let (text, ending) = await connection.readUntilClose()
        #expect(ending == .closedByServer)
        #expect(text.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription): \(text)")
        #expect(text.contains("Connection: close"))
        #expect(text.hasSuffix(#"{"code":"bad_request","message":"The request could not be read as HTTP."}"#), "\(text)")
      }
      let metrics = String(buffer: try await client.send(.GET, "/metrics").body)
      #expect(MetricsTests.sample(metrics, #"completionkit_http_connections_refused_total{reason="bad_request"}"#) == 2)
    }
  }

  @Test("A query string past the parser's limit is still closed without an answer (as the README says)")
  func overlongQueryString() async throws {
    try await withTestApp { client in
      let connection = try RawHTTPConnection(port: try #require(URL(string: client.base)?.port))
      // The server may close while the request is still being sent.
      try? await connection.sendRaw("GET /health?q=" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
      let (text, ending) = await connection.readUntilClose()
      #expect(ending == .closedByServer)
      #expect(text.isEmpty, "\(text.prefix(200))")
      // The server still serves.
      #expect(try await client.send(.GET, "/health").status == .ok)
    }
  }

  @Test("A JSON body needs Content-Type application/json alone (a charset of UTF-8 allowed): a list or another type is 415")
  func strictJSONContentType() async throws {
    try await withTestApp { client in
      let body = #"{"name":"Garden"}"#
      for refused in ["application/json, text/html", "text/html, application/json", "application/json; charset=iso-8859-1", "application/jsonx"] {
        let response = try await client.send(.POST, "/api/projects", raw: body, contentType: refused)
        #expect(response.status == .unsupportedMediaType, "\(refused)")
        #expect(try client.decode(APIErrorBody.self, from: response).code == "unsupported_media_type", "\(refused)")
      }
      for accepted in ["application/json; charset=utf-8", "application/json;charset=\"UTF-8\"", "Application/JSON"] {
        let response = try await client.send(.POST, "/api/projects", raw: body, contentType: accepted)
        #expect(response.status == .created, "\(accepted)")
      }
    }
  }

  @Test("The check of a Content-Type line")
  func contentTypeLines() {
    #expect(Request.isJSON(contentType: ["application/json"]))
    #expect(Request.isJSON(contentType: ["application/json; charset=utf-8"]))
    #expect(Request.isJSON(contentType: ["application/json;"]))
    #expect(!Request.isJSON(contentType: []))
    #expect(!Request.isJSON(contentType: ["application/json", "application/json"]))
    #expect(!Request.isJSON(contentType: ["application/json, text/html"]))
    #expect(!Request.isJSON(contentType: ["application/json; charset"]))
    #expect(!Request.isJSON(contentType: ["application/problem+json"]))
  }

  @Test("Running totals are counters, and the live-streams gauge falls as soon as a stream's connection closes")
  func metricTypes() async throws {
    try await withTestApp { client in
      _ = try await ProjectsAPITests.project(client, "Garden")
      let stream = try await EventStreamReader(client)
      _ = try await stream.next()
      let open = String(buffer: try await client.send(.GET, "/metrics").body)
      #expect(open.contains("# TYPE completionkit_db_group_commits_total counter"))
      #expect(open.contains("# TYPE completionkit_db_group_commit_writes_total counter"))
      #expect(!open.contains("# TYPE completionkit_db_group_commits gauge"))
      if case .sqliteMemory = TestDatabase.options.database {
        #expect(MetricsTests.sample(open, "completionkit_db_group_commits_total ") >= 1, "making the project committed")
      }
      #expect(MetricsTests.sample(open, #"completionkit_live_streams{stream="projects"}"#) == 1)
      // A second scrape adds nothing that did not happen (the counters are not summed twice).
      let again = String(buffer: try await client.send(.GET, "/metrics").body)
      #expect(
        MetricsTests.sample(again, "completionkit_db_group_commit_writes_total ") == MetricsTests.sample(open, "completionkit_db_group_commit_writes_total "))

      try await stream.close()
      // The stream's heartbeat (the only write that used to notice) is 15 s after it opened; the gauge must fall
      // well before. Polled until it does, with a bound that only a failing server reaches.
      let clock = ContinuousClock()
      let start = clock.now
      var streams = 1.0
      while streams != 0, clock.now - start < .seconds(8) {
        try await Task.sleep(for: .milliseconds(50))
        streams = MetricsTests.sample(String(buffer: try await client.send(.GET, "/metrics").body), #"completionkit_live_streams{stream="projects"}"#)
      }
      #expect(streams == 0, "the gauge still counted the closed stream")
    }
  }
}
