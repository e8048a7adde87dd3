import KidsGame
import Vapor

/// Headers every page and API response carries: a Content-Security-Policy with no inline script (the pages
/// load their scripts as files), no framing by other sites, no referrer sent to other origins, and no
/// content-type sniffing. The outside origins allowed are YouTube's privacy-enhanced player and its still
/// images (exactly the thumbnail host), for the films a parent chooses in Waldabenteuer: a child who cannot
/// read tells the films apart by their pictures.
struct SecurityHeadersMiddleware: AsyncMiddleware {
  static let contentSecurityPolicy = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: \(YouTubeLink.thumbnailOrigin)",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "frame-src https://www.youtube-nocookie.com",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].joined(separator: "; ")

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let response = try await next.respond(to: request)
    let headers = [
      ("Content-Security-Policy", Self.contentSecurityPolicy),
      ("X-Frame-Options", "DENY"),
      ("Referrer-Policy", "strict-origin-when-cross-origin"),
      ("X-Content-Type-Options", "nosniff"),
    ]
    for (name, value) in headers where !response.headers.contains(name: name) {
      response.headers.replaceOrAdd(name: name, value: value)
    }
    if let cacheControl = Self.personalCacheControl(request: request, response: response) {
      response.headers.replaceOrAdd(name: .cacheControl, value: cacheControl)
    }
    return response
  }

  /// Personal answers are kept by no cache (a shared computer's browser, a proxy): the account's own routes
  /// always, and every other API answer made for a sign-in or setting a session cookie unless the route chose
  /// its own caching (a photo or a card may be kept privately by the browser that fetched it).
  static func personalCacheControl(request: Request, response: Response) -> String? {
    let path = request.url.path
    guard path.hasPrefix("/api/") else { return nil }
    if path == "/api/me" || path.hasPrefix("/api/account/") { return "no-store" }
    let personal = request.currentSession != nil || response.headers.contains(name: .setCookie)
    return personal && !response.headers.contains(name: .cacheControl) ? "no-store" : nil
  }
}
