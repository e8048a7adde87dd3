import CompletionAPI
import Foundation
import Testing
import Vapor

@testable import CompletionServer

/// The route table (`Endpoint` and `WebPage` in CompletionAPI) against the server's routes and `openapi.json`:
/// one list of operations, three places that must agree, each difference named.
@Suite("The route table, the server's routes and openapi.json agree")
struct RouteTableTests {
  /// "METHOD /path/{param}" → operationId, for every operation of the route table.
  static var table: [String: String] {
    var rows: [String: String] = [:]
    for endpoint in Endpoint.allCases { rows["\(endpoint.method) \(endpoint.pattern)"] = endpoint.rawValue }
    for page in WebPage.allCases { rows["GET \(page.pattern)"] = page.rawValue }
    return rows
  }

  @Test("No two operations of the table share a method and path, or a name")
  func tableHasNoDuplicates() {
    let keys = Endpoint.allCases.map { "\($0.method) \($0.pattern)" } + WebPage.allCases.map { "GET \($0.pattern)" }
    let repeated = Dictionary(grouping: keys, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    #expect(repeated.isEmpty, "the route table names these twice: \(repeated)")
    let names = Set(Endpoint.allCases.map(\.rawValue)).intersection(WebPage.allCases.map(\.rawValue))
    #expect(names.isEmpty, "both an endpoint and a page: \(names.sorted())")
  }

  @Test("The document, the registered routes and the table hold the same methods and paths, each by the same name")
  func threeAgree() async throws {
    let document = try OpenAPIDocumentTests.document()
    let documented = OpenAPIDocumentTests.documented(document)
    let table = Self.table
    let listed = Set(table.keys)
    #expect(listed.count > 90)
    try await withTestApp { _, app in
      let registered = OpenAPIDocumentTests.registered(app)
      let differences = Self.differences(["openapi.json": documented, "the server's routes": registered, "the route table (Endpoint, WebPage)": listed])
      #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }
    // Each operation is named alike in the document and the table.
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    for (route, name) in table.sorted(by: { $0.key < $1.key }) {
      let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
      guard let operation = paths[parts[1]]?[parts[0].lowercased()] as? [String: Any] else { continue }
      #expect(operation["operationId"] as? String == name, "\(route): openapi.json calls it \(operation["operationId"] ?? "nothing"), the table \(name)")
    }
  }

  /// Registering a route by its path written out (`routes.get("api", "tasks", use:)`, `grouped("api", …)`,
  /// `on(.POST, "api", …)`) rather than by its operation in the table.
  static let pathRegistration = #"\.(get|post|put|patch|delete|webSocket)\(\s*"[^"]*"\s*(,|\)\s*\{)|\.grouped\(\s*"|\.on\(\s*\.[A-Z]+\s*,"#

  @Test("Every controller registers its routes from the table, none by a path written out (test hooks aside)")
  func noPathRegistration() throws {
    let regex = try NSRegularExpression(pattern: Self.pathRegistration)
    func found(_ text: String) -> Int { regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) }
    // The pattern finds each way a path can be written out, and not a parameter read.
    for written in [
      #"routes.get("api", "photos", ":id", use: photo)"#, #"tasks.post("batch", use: batchTasks)"#, #"let p = routes.grouped("api", "projects")"#,
      #"projects.get("inbox", "tasks") { try await x($0) }"#, #"challenges.on(.POST, "streak", "freezes") { req in req }"#,
    ] {
      #expect(found(written) == 1, "\(written)")
    }
    #expect(found(#"let id = try ProjectInput.id(req.parameters.get("id"), notFound: .projectNotFound)"#) == 0)
    #expect(found(#"routes.on(.uploadPhoto, body: .stream) { req in req }"#) == 0)
    // Test hooks exist only with COMPLETIONKIT_TEST_HOOKS=1 and stay outside the public table.
    let controllers = try SwiftClientContractTests.sources("Sources/CompletionServer").filter { !$0.path.contains("/Testing/") }
    #expect(controllers.contains { $0.path.hasSuffix("ProjectsController.swift") } && controllers.contains { $0.path.hasSuffix("ChallengesController.swift") })
    for (path, text) in controllers {
      #expect(found(text) == 0, "\(path) registers a route by its path: use routes.on(.operation, use:)")
    }
  }

  /// For each pair of sets, what one holds and the other does not, as sentences naming the routes.
  static func differences(_ sets: KeyValuePairs<String, Set<String>>) -> [String] {
    var found: [String] = []
    for (name, routes) in sets {
      for (other, otherRoutes) in sets where other != name {
        let missing = routes.subtracting(otherRoutes).sorted()
        if !missing.isEmpty { found.append("in \(name) but not in \(other): \(missing.joined(separator: ", "))") }
      }
    }
    return found
  }

  @Test("A difference in any direction is found and named")
  func differencesAreNamed() {
    let same: Set = ["GET /a", "POST /b"]
    #expect(Self.differences(["doc": same, "routes": same, "table": same]).isEmpty)
    let found = Self.differences(["doc": same, "routes": same.union(["DELETE /c"]), "table": ["GET /a"]])
    #expect(found.contains("in routes but not in doc: DELETE /c"))
    #expect(found.contains("in doc but not in table: POST /b"))
    #expect(found.contains("in routes but not in table: DELETE /c, POST /b"))
    #expect(found.count == 3)
  }

  /// Schemas the document names apart where one Swift type serves both (the document says which fields each
  /// use takes).
  static let sameSwiftType = ["TaskCreateRequest": "TaskRequest", "TaskUpdateRequest": "TaskRequest", "CelebrationSettingsRequest": "CelebrationSettings"]

  /// The Swift name of the JSON schema `content` names (`Array<X>` for an array of one), nil when it has none.
  static func schemaName(_ content: [String: Any]?) -> String? {
    guard let schema = (content?["application/json"] as? [String: Any])?["schema"] as? [String: Any] else { return nil }
    func name(_ reference: Any?) -> String? {
      (reference as? String)?.split(separator: "/").last.map { sameSwiftType[String($0)] ?? String($0) }
    }
    if let named = name(schema["$ref"]) { return named }
    if schema["type"] as? String == "array", let item = name((schema["items"] as? [String: Any])?["$ref"]) { return "Array<\(item)>" }
    return "unnamed schema"
  }

  @Test("Each endpoint's request and response types are the schemas the document names for it")
  func typesMatchTheDocument() throws {
    let document = try OpenAPIDocumentTests.document()
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let sharedResponses = (document["components"] as? [String: Any])?["responses"] as? [String: Any] ?? [:]
    var checked = 0
    for endpoint in Endpoint.allCases {
      guard let operation = paths[endpoint.pattern]?[endpoint.method.lowercased()] as? [String: Any] else { continue }
      let request = Self.schemaName((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])
      let success = (operation["responses"] as? [String: Any] ?? [:]).filter { $0.key.hasPrefix("2") }.sorted { $0.key < $1.key }
      let answers = success.compactMap { _, value -> String? in
        var response = value as? [String: Any]
        if let reference = response?["$ref"] as? String, let name = reference.split(separator: "/").last {
          response = sharedResponses[String(name)] as? [String: Any]
        }
        return Self.schemaName(response?["content"] as? [String: Any])
      }
      let table = (request: endpoint.requestType.map { String(describing: $0) }, response: endpoint.responseType.map { String(describing: $0) })
      #expect(table.request == request, "\(endpoint): openapi.json sends \(request ?? "no JSON"), Endpoint.requestType is \(table.request ?? "nil")")
      #expect(Set(answers).count <= 1, "\(endpoint): answers differ by status: \(answers)")
      #expect(table.response == answers.first, "\(endpoint): openapi.json answers \(answers.first ?? "no JSON"), Endpoint.responseType is \(table.response ?? "nil")")
      checked += 1
    }
    #expect(checked == Endpoint.allCases.count)
  }
}
