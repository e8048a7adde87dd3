import CompletionAPI
import Vapor

/// Turns every error into JSON `{code, message}` with a fitting status. Client mistakes stay 4xx:
/// malformed JSON, unknown routes, wrong methods and oversized bodies never surface as 5xx.
struct APIErrorMiddleware: AsyncMiddleware {
  /// Which methods each known path answers, to tell "wrong method" (405) from "no such route" (404).
  let methodsByPath: MethodIndex

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    do {
      return try await next.respond(to: request)
    } catch {
      return response(for: error, request: request)
    }
  }

  private func response(for error: any Error, request: Request) -> Response {
    let status: HTTPResponseStatus
    let body: APIErrorBody
    var headers = HTTPHeaders()
    switch error {
    case is ConnectionPoolTimeoutError:
      // Every database connection stayed busy for the pool's whole wait: the server is overloaded, which
      // is a 503 a client retries, not a fault.
      status = .serviceUnavailable
      body = APIErrorBody(code: AppError.busy.code, message: "The server is very busy just now. Please try again in a moment.")
      headers.replaceOrAdd(name: "Retry-After", value: "1")
    case let error as any APIErrorConvertible:
      status = error.status
      body = APIErrorBody(code: error.code, message: error.message)
      if let seconds = error.retryAfter { headers.replaceOrAdd(name: "Retry-After", value: String(seconds)) }
      // RFC 6750: a refused bearer token says so in the challenge, so clients know to sign in again.
      if (error as? AppError) == .invalidToken { headers.replaceOrAdd(name: .wwwAuthenticate, value: #"Bearer error="invalid_token""#) }
    case let error as DecodingError:
      status = .badRequest
      body = APIErrorBody(code: "invalid_json", message: "The request body is not valid JSON for this endpoint: \(Self.describe(error))")
    case let abort as any AbortError:
      (status, body, headers) = mapAbort(abort, request: request)
    default:
      status = .internalServerError
      body = APIErrorBody(code: "internal_error", message: "Something went wrong on our side. Please try again.")
    }
    if status.code >= 500 {
      request.logger.error("\(request.loggedMethod) \(request.loggedPath) failed: \(LogQuote.capped(String(reflecting: error), limit: 1000))")
    }
    let response = Response(status: status, headers: headers)
    // A session that ended is forgotten by the browser with the refusal, so a reload visits as a guest.
    if (error as? AppError) == .sessionEnded, let cookie = request.pendingSessionCookie { response.cookies[Sessions.cookieName] = cookie }
    do {
      try response.content.encode(body, as: .json)
    } catch {
      response.body = .init(string: #"{"code":"internal_error","message":"Could not encode the error."}"#)
    }
    return response
  }

  private func mapAbort(_ abort: any AbortError, request: Request) -> (HTTPResponseStatus, APIErrorBody, HTTPHeaders) {
    var headers = HTTPHeaders()
    switch abort.status {
    case .notFound:
      let allowed = methodsByPath.methods(for: request.url.path)
      if !allowed.isEmpty, !allowed.contains(request.method.rawValue) {
        headers.replaceOrAdd(name: .allow, value: allowed.sorted().joined(separator: ", "))
        return (
          .methodNotAllowed, APIErrorBody(code: "method_not_allowed", message: "\(request.loggedMethod) is not allowed here."),
          headers
        )
      }
      return (.notFound, APIErrorBody(code: "not_found", message: "There is nothing at \(request.loggedPath)."), headers)
    case .payloadTooLarge:
      return (.payloadTooLarge, APIErrorBody(code: "payload_too_large", message: "The request body is too large."), headers)
    case .badRequest:
      return (.badRequest, APIErrorBody(code: "bad_request", message: abort.reason), headers)
    case .unsupportedMediaType:
      return (.unsupportedMediaType, APIErrorBody(code: "unsupported_media_type", message: AppError.unsupportedMediaType.message), headers)
    default:
      let code = abort.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
      return (abort.status, APIErrorBody(code: code, message: abort.reason), headers)
    }
  }

  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, _): "missing field '\(key.stringValue)'."
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      "field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type."
    case .dataCorrupted(let context) where context.debugDescription == StrictFields.unknownField:
      "unknown field '\(context.codingPath.map(\.stringValue).joined(separator: "."))'."
    case .dataCorrupted(let context):
      context.codingPath.isEmpty ? "the body could not be parsed." : "field '\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not valid."
    @unknown default: "the body could not be read."
    }
  }
}

/// Paths of all registered routes with the methods each accepts (path parameters match any segment).
struct MethodIndex: Sendable {
  private struct Entry: Sendable {
    let segments: [String?]  // nil = parameter or wildcard
    let catchAll: Bool
    let method: HTTPMethod
  }

  private let entries: [Entry]

  init(routes: [Route]) {
    entries = routes.map { route in
      var catchAll = false
      // `map`, not `compactMap`: a parameter's nil must stay in its place.
      let segments: [String?] = route.path.map { component -> String? in
        switch component {
        case .constant(let value): return value
        case .parameter, .anything: return nil
        case .catchall:
          catchAll = true
          return nil
        }
      }
      return Entry(segments: catchAll ? Array(segments.dropLast()) : segments, catchAll: catchAll, method: route.method)
    }
  }

  /// The methods (by name) that some route at `path` answers.
  func methods(for path: String) -> Set<String> {
    let parts = path.split(separator: "/").map(String.init)
    var result = Set<String>()
    for entry in entries {
      if entry.catchAll ? parts.count < entry.segments.count : parts.count != entry.segments.count { continue }
      if zip(entry.segments, parts).allSatisfy({ $0.0 == nil || $0.0 == $0.1 }) { result.insert(entry.method.rawValue) }
    }
    return result
  }
}
