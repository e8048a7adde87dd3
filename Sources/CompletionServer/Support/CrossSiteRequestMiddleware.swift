import Vapor

/// Keeps cross-site forms out: a request that changes something (POST, PUT, PATCH, DELETE) must carry a
/// `Content-Type` that an HTML form cannot send (JSON, a video, a photo), or the header `X-CompletionKit`, or
/// a bearer token. A browser sends neither of the first two across sites without asking the server first
/// (a CORS preflight, which this server never grants), so the session cookie's `SameSite=Lax` is not the
/// only guard. Refused with `403 request_header_required`.
struct CrossSiteRequestMiddleware: AsyncMiddleware {
  /// The routes' methods: a request no route takes is left to answer 404 or 405.
  let methodsByPath: MethodIndex

  /// The header CompletionKit's own pages and clients send on every request that changes something.
  static let headerName = "X-CompletionKit"
  /// Content types a cross-site `<form>` (or a no-cors fetch) can send without a preflight.
  static let formTypes: Set<String> = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    guard Self.changesState(request.method), !Self.provenSameSite(request),
      methodsByPath.methods(for: request.url.path).contains(request.method.rawValue)
    else {
      return try await next.respond(to: request)
    }
    throw AppError.requestHeaderRequired
  }

  static func changesState(_ method: HTTPMethod) -> Bool {
    method == .POST || method == .PUT || method == .PATCH || method == .DELETE
  }

  static func provenSameSite(_ request: Request) -> Bool {
    if request.headers.bearerAuthorization != nil || request.headers.contains(name: headerName) { return true }
    guard let type = request.headers.first(name: .contentType) else { return false }
    let bare = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    return !bare.isEmpty && !formTypes.contains(bare)
  }
}
