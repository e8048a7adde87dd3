import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("The API contract: /openapi.json")
struct OpenAPIDocumentTests {
  /// The document the server serves.
  static func document() throws -> [String: Any] {
    let url = ServerOptions.defaultPublicDirectory().appendingPathComponent("openapi.json")
    return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  /// "METHOD /path/{param}" for every operation in the document.
  static func documented(_ document: [String: Any]) -> Set<String> {
    let paths = document["paths"] as? [String: [String: Any]] ?? [:]
    let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
    return Set(paths.flatMap { path, item in item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
  }

  /// "METHOD /path/{param}" for every route the server registers (without the test hooks).
  static func registered(_ app: Application) -> Set<String> {
    Set(
      app.routes.all.map { route in
        let path = route.path.map { component -> String in
          switch component {
          case .parameter(let name): "{\(name)}"
          default: component.description
          }
        }
        return "\(route.method.rawValue) /\(path.joined(separator: "/"))"
      })
  }

  @Test("Every registered route is documented, and every documented route exists")
  func routesMatch() async throws {
    let document = try Self.document()
    #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)
    try await withTestApp { _, app in
      let registered = Self.registered(app)
      let documented = Self.documented(document)
      let missing = registered.subtracting(documented).sorted()
      let extra = documented.subtracting(registered).sorted()
      #expect(missing.isEmpty, "routes missing from openapi.json: \(missing)")
      #expect(extra.isEmpty, "documented routes the server does not have: \(extra)")
    }
  }

  @Test("The error object lists every stable code the server's own errors use")
  func errorCodes() throws {
    let document = try Self.document()
    let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
    let error = try #require(schemas["Error"] as? [String: Any])
    var code = try #require((error["properties"] as? [String: Any])?["code"] as? [String: Any])
    if let reference = code["$ref"] as? String, let name = reference.split(separator: "/").last {
      code = try #require(schemas[String(name)] as? [String: Any])
    }
    let listed = Set(code["enum"] as? [String] ?? [])
    #expect(listed.count > 50)
    let ours: [any APIErrorConvertible] = [
      AppError.tooManyGuests(retryAfter: 1), AppError.requestHeaderRequired, AppError.unauthenticated, AppError.invalidCredentials, AppError.invalidToken,
      UploadQuotaError(files: 1, bytes: 1), IdempotencyError.keyInUse, SiteController.NotReady(), SiteController.MetricsTokenRequired(), KidsError.notAVideo,
    ]
    for error in ours { #expect(listed.contains(error.code), "\(error.code) is not in the Error schema's enum") }
  }

  @Test("/openapi.json is served as JSON, and /api renders it from the server's own files")
  func served() async throws {
    try await withTestApp { client in
      let document = try await client.send(.GET, "/openapi.json")
      #expect(document.status == .ok && document.headers.contentType == .json)
      let page = try await client.send(.GET, "/api")
      #expect(page.status == .ok && String(buffer: page.body).contains("api-docs.js"))
    }
  }
}
