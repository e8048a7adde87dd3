import CompletionAPI
import CompletionServer
import Foundation
import Testing
import Vapor
import VaporTesting

/// Where server tests keep data: a throwaway SQLite file by default, a real PostgreSQL when `DATABASE_URL` is set.
enum TestDatabase {
  static var options: ServerOptions {
    let environment = ProcessInfo.processInfo.environment
    let database: ServerOptions.Database =
      if let url = environment["DATABASE_URL"], !url.isEmpty { .postgres(url: url) } else { .sqliteMemory }
    var options = ServerOptions(
      database: database,
      dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("ck-tests-\(UUID().uuidString)"),
      passwordCost: 4)
    // Every test's visitors come from 127.0.0.1; the guest limit's own test sets one.
    options.guestsPerAddressPerHour = 0
    // Each test's clients say which machine they are on (X-Forwarded-For, see TestClient.address): on
    // PostgreSQL the sign-in throttle's counts are shared by every test using the database, and the tests'
    // wrong passwords from one address would add up to a lock-out.
    options.trustProxy = true
    // Tests on one PostgreSQL database would copy each other's waiting posts: each test copies its own
    // (`FeedFanOut.drain`), and the one test of the background copier turns it on, on its own SQLite database.
    options.copiesFeedsInBackground = false
    return options
  }
}

/// Runs migrations one app at a time: parallel tests share one PostgreSQL database, and two migrators
/// creating the same tables at once would collide. (Each throwaway SQLite database is private anyway.)
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

/// The same, also handing the test the app (for looking into the database); `middleware` runs on every
/// request after the server's own (a test watching what clients send).
func withTestApp(
  options: ServerOptions = TestDatabase.options, middleware: [any Middleware] = [], _ body: (TestClient, Application) async throws -> Void
) async throws {
  let app = try await Application.make(.testing)
  do {
    try configure(app, options: options)
    for layer in middleware { app.middleware.use(layer) }
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
  /// The address of the machine this "browser" runs on (sent as `X-Forwarded-For` unless a test sends its
  /// own): one per test, shared by its strangers, as if every browser of a test were on one computer.
  let address: String

  init(app: Application, base: String, address: String? = nil) {
    self.app = app
    self.base = base
    self.address = address ?? "10.\(Int.random(in: 0...255)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
  }

  /// Another "browser" (no cookie) talking to the same server, on the same machine.
  func stranger() -> TestClient { TestClient(app: app, base: base, address: address) }

  /// Sends a request; `json` is encoded as the body, `raw` is sent as-is.
  @discardableResult
  func send(
    _ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, raw: String? = nil, bytes: [UInt8]? = nil,
    contentType: String? = "application/json", headers extra: HTTPHeaders = [:], useCookie: Bool = true,
    siteHeader: Bool = true
  ) async throws -> TestResponse {
    var headers = extra
    // What the site's own pages send on every request (the server's guard against cross-site forms).
    if siteHeader { headers.replaceOrAdd(name: "X-CompletionKit", value: "1") }
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
    if !headers.contains(name: .xForwardedFor) { headers.add(name: .xForwardedFor, value: address) }
    let response = try await app.client.send(method, headers: headers, to: URI(string: base + path)) { request in
      request.body = body
    }
    if let cookie = response.headers.setCookie?["ck_session"] {
      sessionCookie = cookie.string.isEmpty ? nil : cookie.string
    }
    return TestResponse(status: response.status, headers: response.headers, body: response.body ?? ByteBuffer())
  }

  /// Becomes a guest the way a visitor does, by a first write (here: turning no celebration off), and
  /// returns who that is. (Reads never make an account.)
  @discardableResult
  func becomeGuest() async throws -> UserResponse {
    let write = try await send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: [], kinds: []))
    precondition(write.status == .ok, "the first write should make a guest")
    return try decode(UserResponse.self, from: try await send(.GET, "/api/me"))
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

/// The first bytes of real video files, enough for the server's check of what an upload is.
enum VideoBytes {
  /// An MP4: a `ftyp` box (brand isom), then a `free` box and an empty `mdat`.
  static let mp4: [UInt8] =
    [0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8) + [0, 0, 0, 8] + Array("free".utf8)
    + [0, 0, 0, 8] + Array("mdat".utf8)
  /// A WebM: an EBML header whose DocType is "webm", then the start of a Segment.
  static let webm: [UInt8] =
    [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0x42, 0xF2, 0x81, 0x04, 0x42, 0xF3, 0x81, 0x08,
     0x42, 0x82, 0x84] + Array("webm".utf8) + [0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02, 0x18, 0x53, 0x80, 0x67, 0x01, 0xFF]
}
