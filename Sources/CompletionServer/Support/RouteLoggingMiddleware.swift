import Vapor

/// Logs each request's method, path and status — never its body, query, cookies or headers, so
/// passwords and tokens cannot reach the log.
struct RouteLoggingMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let response = try await next.respond(to: request)
    request.logger.info("\(request.method.rawValue) \(request.url.path) → \(response.status.code)")
    return response
  }
}
