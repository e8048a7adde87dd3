import CompletionAPI
import CompletionServer
import Foundation
import Logging
import Synchronization
import Testing
import Vapor
import VaporTesting

/// Every log line the test process writes, at trace level.
final class CapturedLogs: Sendable {
  static let shared = CapturedLogs()
  private let lines = Mutex<[String]>([])

  /// Installs the product's redacting handler over a capturing one, once for the whole test process
  /// (swift-log allows one bootstrap).
  static let installed: Bool = {
    LoggingSystem.bootstrap { label in RedactingLogHandler(wrapping: CapturingHandler(label: label)) }
    return true
  }()

  func append(_ line: String) { lines.withLock { $0.append(line) } }
  var all: [String] { lines.withLock { $0 } }
}

struct CapturingHandler: LogHandler {
  let label: String
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let merged = metadata.merging(event.metadata ?? [:]) { $1 }
    CapturedLogs.shared.append("\(event.level) \(label): \(event.message) \(merged)")
  }
}

@Suite("Logs", .serialized)
struct LogTests {
  @Test("Passwords, session secrets and bearer tokens never appear in the logs, even at trace level")
  func secretsStayOutOfLogs() async throws {
    #expect(CapturedLogs.installed)
    let password = "Pa55word-\(UUID().uuidString)"
    var secrets = [password]
    try await withTestApp { client in
      let name = uniqueUsername("logs")
      try await client.becomeGuest()
      secrets.append(try #require(client.sessionCookie))
      _ = try await client.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: password))
      _ = try await client.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: password))
      _ = try await client.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: password + "x"))
      secrets.append(try #require(client.sessionCookie))
      let token = try client.decode(TokenResponse.self, from: try await client.send(.POST, "/api/account/tokens")).token
      secrets.append(token)
      var headers = HTTPHeaders()
      headers.bearerAuthorization = BearerAuthorization(token: token)
      _ = try await client.stranger().send(.GET, "/api/me", headers: headers)
    }
    let logs = CapturedLogs.shared.all
    #expect(logs.contains { $0.contains("/api/account/login") }, "requests are logged, so the check is meaningful")
    for secret in secrets {
      let leaks = logs.filter { $0.contains(secret) }
      #expect(leaks.isEmpty, "a secret reached the log: \(leaks.prefix(2).map { String($0.prefix(400)) })")
    }
  }

  @Test("A path of 5 KB or 60 KB outside /api is 404 (never 500), and no log line quotes more than a bounded part of it")
  func longPathsAreBounded() async throws {
    #expect(CapturedLogs.installed)
    let marker = "long\(UUID().uuidString.prefix(6))"
    try await withTestApp { client in
      for length in [300, 5_000, 60_000] {
        for path in ["/" + marker + String(repeating: "a", count: length), "/\(marker)/" + String(repeating: "b/", count: length / 2)] {
          let response = try await client.send(.GET, path)
          #expect([.notFound, .uriTooLong].contains(response.status), "\(path.count) characters: \(response.status)")
          #expect(response.body.readableBytes < 1_000, "the error message quotes the whole path")
        }
      }
    }
    let quoting = CapturedLogs.shared.all.filter { $0.contains(marker) }
    #expect(!quoting.isEmpty, "requests are logged, so the check is meaningful")
    for line in quoting { #expect(line.utf8.count < 2_000, "a log line of \(line.utf8.count) bytes: \(line.prefix(300))") }
  }

  @Test("JSON log lines: one object a line, with time, level, label, message and metadata, and secrets masked")
  func jsonLines() throws {
    let lines = Mutex<[String]>([])
    var logger = Logger(label: "completionkit.test") { label in
      RedactingLogHandler(wrapping: JSONLogHandler(label: label) { line in lines.withLock { $0.append(line) } })
    }
    logger.logLevel = .debug
    logger[metadataKey: "request-id"] = "r-1"
    logger.info("a \"quoted\"\nline with ck_session=abc123", metadata: ["route": "POST /api/x", "tries": .stringConvertible(2), "tags": ["a", "b"]])
    logger.debug("second")
    logger.trace("not at this level")
    let written = lines.withLock { $0 }
    #expect(written.count == 2)
    #expect(written.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().contains("\n") == false })
    let first = try #require(try JSONSerialization.jsonObject(with: Data(written[0].utf8)) as? [String: Any])
    #expect(first["level"] as? String == "info" && first["label"] as? String == "completionkit.test")
    #expect(first["message"] as? String == "a \"quoted\"\nline with ck_session=•••")
    #expect((first["time"] as? String).flatMap { try? Date($0, strategy: .iso8601) } != nil)
    let metadata = try #require(first["metadata"] as? [String: Any])
    #expect(metadata["request-id"] as? String == "r-1" && metadata["route"] as? String == "POST /api/x" && metadata["tries"] as? String == "2")
    let second = try #require(try JSONSerialization.jsonObject(with: Data(written[1].utf8)) as? [String: Any])
    #expect(second["level"] as? String == "debug" && second["message"] as? String == "second")
  }
}
