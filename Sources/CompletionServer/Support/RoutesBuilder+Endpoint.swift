import CompletionAPI
import Vapor

// Routes from the one route table (`Endpoint`, `WebPage` in CompletionAPI): a controller names the operation and its
// handler; the method and path come from the table, so the server, the Swift client and `openapi.json` (held
// together by `RouteTableTests`) cannot drift apart by a typo.
extension RoutesBuilder {
  /// Registers `handler` for `endpoint`'s method and path; `body: .stream` for uploads read as they arrive.
  @discardableResult
  func on<Answer: AsyncResponseEncodable>(
    _ endpoint: Endpoint, body: HTTPBodyStreamStrategy = .collect, use handler: @escaping @Sendable (Request) async throws -> Answer
  ) -> Route {
    on(HTTPMethod(rawValue: endpoint.method), Self.components(endpoint.pattern), body: body, use: handler)
  }

  /// Registers `handler` for `page` (a GET).
  @discardableResult
  func on<Answer: AsyncResponseEncodable>(_ page: WebPage, use handler: @escaping @Sendable (Request) async throws -> Answer) -> Route {
    on(.GET, Self.components(page.pattern), use: handler)
  }

  /// `/api/tasks/{id}` as Vapor's path components (`api`, `tasks`, `:id`).
  static func components(_ pattern: String) -> [PathComponent] {
    pattern.split(separator: "/").map { segment in
      segment.hasPrefix("{") && segment.hasSuffix("}") ? .parameter(String(segment.dropFirst().dropLast())) : .constant(String(segment))
    }
  }
}
