import Vapor

/// Logs each request's method, path and status — never its body, query, cookies or headers, so
/// passwords and tokens cannot reach the log — with the path capped (``Request/loggedPath``), so a
/// request cannot make a log line as long as itself.
struct RouteLoggingMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let response = try await next.respond(to: request)
    request.logger.info("\(request.method.rawValue) \(request.loggedPath) → \(response.status.code)")
    return response
  }
}

/// Quotes of what a client sent, cut to a bound: every log line (and error message) that quotes a request
/// goes through here.
enum LogQuote {
  /// The most characters of a client's text a log line carries.
  static let limit = 200

  /// `text` itself when short, else its start and how long it was.
  static func capped(_ text: String, limit: Int = LogQuote.limit) -> String {
    guard text.count > limit else { return text }
    return String(text.prefix(limit)) + "… (\(text.utf8.count) bytes)"
  }
}

extension Request {
  /// The method's name as a log line quotes it (an unknown method is the client's text).
  var loggedMethod: String { LogQuote.capped(method.rawValue, limit: 20) }

  /// The path as a log line quotes it.
  var loggedPath: String { LogQuote.capped(url.path) }
}
