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

/// Builds the app, migrates, serves it over real HTTP on a free port, runs `body`, and shuts down.
func withTestApp(options: ServerOptions = TestDatabase.options, _ body: (TestClient) async throws -> Void) async throws {
  try await withTestApp(options: options) { client, _ in try await body(client) }
}

/// The same, also handing the test the app (for looking into the database).
func withTestApp(options: ServerOptions = TestDatabase.options, _ body: (TestClient, Application) async throws -> Void) async throws {
  let app = try await Application.make(.testing)
  do {
    try configure(app, options: options)
    try await MigrationGate.shared.prepare(app)
    try await app.asyncBoot()  // the lifecycle handlers `serve` runs (sign-out news from other servers, …)
    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
    guard let port = app.http.server.shared.localAddress?.port else { throw Abort(.internalServerError, reason: "no port") }
    try await body(TestClient(app: app, base: "http://127.0.0.1:\(port)"), app)
  } catch {
    await app.endLiveStreams()
    await app.server.shutdown()
    try? await app.asyncShutdown()
    throw error
  }
  await app.endLiveStreams()
  await app.server.shutdown()
  try await app.asyncShutdown()
}

/// A response as a test sees it.
struct TestResponse: Sendable {
  let status: HTTPStatus
  let headers: HTTPHeaders
  let body: ByteBuffer
}

/// A tiny browser: sends real HTTP requests and keeps the session cookie between them.
final class TestClient: @unchecked Sendable {
  let app: Application
  let base: String
  /// The `ck_session` cookie this "browser" holds.
  var sessionCookie: String?

  init(app: Application, base: String) {
    self.app = app
    self.base = base
  }

  /// Another "browser" (no cookie) talking to the same server.
  func stranger() -> TestClient { TestClient(app: app, base: base) }

  /// Sends a request; `json` is encoded as the body, `raw` is sent as-is.
  @discardableResult
  func send(
    _ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, raw: String? = nil, bytes: [UInt8]? = nil,
    contentType: String? = "application/json", headers extra: HTTPHeaders = [:], useCookie: Bool = true
  ) async throws -> TestResponse {
    var headers = extra
    var body: ByteBuffer?
    if let bytes {
      body = ByteBuffer(bytes: bytes)
    } else if let json {
      body = ByteBuffer(data: try JSONEncoder().encode(json))
    } else if let raw {
      body = ByteBuffer(string: raw)
    }
    if body != nil, let contentType { headers.replaceOrAdd(name: .contentType, value: contentType) }
    if useCookie, let sessionCookie { headers.replaceOrAdd(name: .cookie, value: "ck_session=\(sessionCookie)") }
    let response = try await app.client.send(method, headers: headers, to: URI(string: base + path)) { request in
      request.body = body
    }
    if let cookie = response.headers.setCookie?["ck_session"] {
      sessionCookie = cookie.string.isEmpty ? nil : cookie.string
    }
    return TestResponse(status: response.status, headers: response.headers, body: response.body ?? ByteBuffer())
  }

  /// Decodes a JSON body.
  func decode<T: Decodable>(_ type: T.Type, from response: TestResponse) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(buffer: response.body))
  }
}

/// A username no other test (or earlier run against the same PostgreSQL) has used.
func uniqueUsername(_ prefix: String = "user") -> String {
  "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
}
