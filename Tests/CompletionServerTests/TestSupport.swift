import CompletionAPI
import CompletionServer
import Foundation
import Testing
import Vapor
import VaporTesting

/// Where server tests keep data: in-memory SQLite by default, a real PostgreSQL when `DATABASE_URL` is set.
enum TestDatabase {
  static var options: ServerOptions {
    let environment = ProcessInfo.processInfo.environment
    let database: ServerOptions.Database =
      if let url = environment["DATABASE_URL"], !url.isEmpty { .postgres(url: url) } else { .sqliteMemory }
    return ServerOptions(
      database: database,
      dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ck-tests-\(UUID().uuidString)"),
      passwordCost: 4)
  }
}

/// Runs migrations one app at a time: parallel tests share one PostgreSQL database, and two migrators
/// creating the same tables at once would collide. (Each in-memory SQLite database is private anyway.)
/// Actors are re-entrant, so each call chains onto the previous call's task instead of awaiting inline.
actor MigrationGate {
  static let shared = MigrationGate()
  private var last: Task<Void, Never>?

  func prepare(_ app: Application) async throws {
    let previous = last
    let current = Task { () async throws -> Void in
      await previous?.value
      try await prepareDatabase(app)
    }
    last = Task { _ = try? await current.value }
    try await current.value
  }
}

/// Builds the app, migrates, runs `body` against it over real HTTP on a free port, and shuts down.
func withTestApp(options: ServerOptions = TestDatabase.options, _ body: (TestClient) async throws -> Void) async throws {
  let app = try await Application.make(.testing)
  do {
    try configure(app, options: options)
    try await MigrationGate.shared.prepare(app)
    let client = TestClient(tester: try app.testing(method: .running(hostname: "127.0.0.1", port: 0)))
    try await body(client)
  } catch {
    try? await app.asyncShutdown()
    throw error
  }
  try await app.asyncShutdown()
}

/// A tiny browser: sends requests and keeps the session cookie between them.
final class TestClient: @unchecked Sendable {
  let tester: any TestingApplicationTester
  /// The `ck_session` cookie this "browser" holds.
  var sessionCookie: String?

  init(tester: any TestingApplicationTester) {
    self.tester = tester
  }

  /// Sends a request; `json` is encoded as the body, `raw` is sent as-is.
  @discardableResult
  func send(
    _ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, raw: String? = nil,
    contentType: String? = "application/json", headers extra: HTTPHeaders = [:], useCookie: Bool = true
  ) async throws -> TestingHTTPResponse {
    var headers = extra
    var body = ByteBufferAllocator().buffer(capacity: 0)
    if let json {
      body.writeBytes(try JSONEncoder().encode(json))
    } else if let raw {
      body.writeString(raw)
    }
    if json != nil || raw != nil, let contentType { headers.replaceOrAdd(name: .contentType, value: contentType) }
    if useCookie, let sessionCookie { headers.replaceOrAdd(name: .cookie, value: "ck_session=\(sessionCookie)") }
    let response = try await tester.performTest(
      request: TestingHTTPRequest(method: method, url: URI(path: path), headers: headers, body: body))
    if let cookie = response.headers.setCookie?["ck_session"] {
      sessionCookie = cookie.string.isEmpty ? nil : cookie.string
    }
    return response
  }

  /// Decodes a JSON body.
  func decode<T: Decodable>(_ type: T.Type, from response: TestingHTTPResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(buffer: response.body))
  }
}

/// A username no other test (or earlier run against the same PostgreSQL) has used.
func uniqueUsername(_ prefix: String = "user") -> String {
  "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
}
