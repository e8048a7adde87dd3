import CompletionAPI
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CompletionServer

@Suite("Health and errors", .serialized)
struct HealthAndErrorTests {
  @Test("Every page, file, API answer and error carries the security headers: CSP without inline script, no framing, referrer policy, nosniff")
  func securityHeaders() async throws {
    try await withTestApp { client in
      for path in ["/", "/challenges", "/js/home.js", "/api/me", "/api/nothing-here", "/health"] {
        let response = try await client.send(.GET, path)
        let policy = response.headers.first(name: "Content-Security-Policy") ?? ""
        #expect(policy.contains("script-src 'self'") && !policy.contains("script-src 'self' 'unsafe-inline'"), "\(path)")
        #expect(policy.contains("frame-ancestors 'none'") && policy.contains("object-src 'none'"), "\(path)")
        #expect(response.headers.first(name: "X-Frame-Options") == "DENY", "\(path)")
        #expect(response.headers.first(name: "Referrer-Policy") == "strict-origin-when-cross-origin", "\(path)")
        #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path)")
      }
    }
  }

  @Test("GET /health reports status, version and database kind")
  func health() async throws {
    try await withTestApp { client in
      let response = try await client.send(.GET, "/health")
      #expect(response.status == .ok)
      let health = try client.decode(HealthResponse.self, from: response)
      #expect(health.status == "ok")
      #expect(health.version == "0.1.0")
      #expect(health.database == (ProcessInfo.processInfo.environment["DATABASE_URL"] == nil ? "sqlite" : "postgres"))
    }
  }

  @Test("Liveness answers without the database; readiness answers once the database does")
  func liveAndReady() async throws {
    try await withTestApp { client in
      let live = try await client.send(.GET, "/health/live")
      #expect(live.status == .ok)
      #expect(try client.decode(HealthResponse.self, from: live).status == "live")
      let ready = try await client.send(.GET, "/health/ready")
      #expect(ready.status == .ok)
      #expect(try client.decode(HealthResponse.self, from: ready).status == "ready")
    }
  }

  @Test("With its database unreachable the server is live but not ready (503 not_ready, Retry-After)")
  func notReadyWithoutDatabase() async throws {
    // A PostgreSQL nobody listens on: the server starts (nothing connects until a request needs it).
    var options = TestDatabase.options
    options.database = .postgres(url: "postgres://completionkit:unused@127.0.0.1:1/completionkit")
    let app = try await Application.make(.testing)
    do {
      try configure(app, options: options)
      try await app.server.start(address: .hostname("127.0.0.1", port: 0))
      let port = try #require(app.http.server.shared.localAddress?.port)
      let client = TestClient(app: app, base: "http://127.0.0.1:\(port)")
      #expect(try await client.send(.GET, "/health/live").status == .ok)
      let ready = try await client.send(.GET, "/health/ready")
      #expect(ready.status == .serviceUnavailable)
      #expect(try client.decode(APIErrorBody.self, from: ready).code == "not_ready")
      #expect(ready.headers.first(name: .retryAfter) == "5")
    } catch {
      await app.server.shutdown()
      try? await app.asyncShutdown()
      throw error
    }
    await app.server.shutdown()
    try await app.asyncShutdown()
  }

  @Test("Unknown routes are a JSON 404 with a stable code")
  func unknownRoute() async throws {
    try await withTestApp { client in
      let response = try await client.send(.GET, "/api/nothing-here")
      #expect(response.status == .notFound)
      let error = try client.decode(APIErrorBody.self, from: response)
      #expect(error.code == "not_found")
      #expect(!error.message.isEmpty)
    }
  }

  @Test("A wrong method is a JSON 405 naming the allowed methods")
  func wrongMethod() async throws {
    try await withTestApp { client in
      let response = try await client.send(.DELETE, "/health")
      #expect(response.status == .methodNotAllowed)
      #expect(response.headers.first(name: .allow) == "GET")
      #expect(try client.decode(APIErrorBody.self, from: response).code == "method_not_allowed")
    }
  }

  @Test("Malformed JSON is a 400 invalid_json")
  func malformedJSON() async throws {
    try await withTestApp { client in
      let response = try await client.send(.POST, "/api/account/login", raw: "{\"username\": ")
      #expect(response.status == .badRequest)
      #expect(try client.decode(APIErrorBody.self, from: response).code == "invalid_json")
      let missing = try await client.send(.POST, "/api/account/login", raw: "{\"username\": \"ada\"}")
      #expect(missing.status == .badRequest)
      let body = try client.decode(APIErrorBody.self, from: missing)
      #expect(body.code == "invalid_json" && body.message.contains("password"))
    }
  }

  @Test("A body that is not JSON is refused with 415")
  func wrongContentType() async throws {
    try await withTestApp { client in
      let response = try await client.send(.POST, "/api/account/login", raw: "username=ada", contentType: "text/plain")
      #expect(response.status == .unsupportedMediaType)
      #expect(try client.decode(APIErrorBody.self, from: response).code == "unsupported_media_type")
    }
  }

  @Test("Oversized bodies are a 413, not a crash")
  func oversized() async throws {
    try await withTestApp { client in
      let huge = "{\"username\":\"" + String(repeating: "a", count: 2 << 20) + "\",\"password\":\"x\"}"
      let response = try await client.send(.POST, "/api/account/login", raw: huge)
      #expect(response.status == .payloadTooLarge)
      #expect(try client.decode(APIErrorBody.self, from: response).code == "payload_too_large")
    }
  }

  @Test("The web shell is served: home page and the motion page")
  func pages() async throws {
    try await withTestApp { client in
      let home = try await client.send(.GET, "/")
      #expect(home.status == .ok)
      #expect(home.body.string.contains("CompletionKit"))
      let motion = try await client.send(.GET, "/motion")
      #expect(motion.status == .ok)
      #expect(motion.body.string.contains("Staggered list"))
      let script = try await client.send(.GET, "/js/motion.js")
      #expect(script.status == .ok)
      let systems = try client.decode([SystemSummary].self, from: try await client.send(.GET, "/api/systems"))
      #expect(systems.map(\.id).contains("motion"))
    }
  }
}
