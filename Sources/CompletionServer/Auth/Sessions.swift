import Fluent
import FluentSQL
import Foundation
import Vapor

/// Cookie and bearer-token sign-in. Secrets are 32 random bytes; the database holds their SHA-256.
enum Sessions {
  /// The session cookie's name.
  static let cookieName = "ck_session"
  /// How long a browser stays signed in without coming back.
  static let cookieLifetime: TimeInterval = 60 * 60 * 24 * 180
  /// How long an API token is valid.
  static let bearerLifetime: TimeInterval = 60 * 60 * 24 * 365

  /// A new random secret, URL-safe.
  static func makeSecret() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    return Data(bytes).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
  }

  /// Hex SHA-256 of a secret: what is stored and looked up.
  static func hash(_ secret: String) -> String {
    SHA256.hash(data: Data(secret.utf8)).map { String(format: "%02x", $0) }.joined()
  }

  /// Stores a new sign-in for `user` and returns its secret (the only time it exists in clear).
  static func issue(for userID: UUID, kind: AuthToken.Kind, on db: any Database) async throws -> String {
    let secret = makeSecret()
    let lifetime = kind == .cookie ? cookieLifetime : bearerLifetime
    let token = AuthToken(userID: userID, tokenHash: hash(secret), kind: kind, expiresAt: Date().addingTimeInterval(lifetime))
    try await token.create(on: db)
    return secret
  }

  /// The cookie that carries a session secret: http-only, same-site lax, secure when served over HTTPS.
  static func cookie(for secret: String, secure: Bool) -> HTTPCookies.Value {
    HTTPCookies.Value(
      string: secret, maxAge: Int(cookieLifetime), path: "/", isSecure: secure, isHTTPOnly: true, sameSite: .lax)
  }

  /// A cookie that tells the browser to forget the session.
  static func expiredCookie(secure: Bool) -> HTTPCookies.Value {
    HTTPCookies.Value(string: "", expires: Date(timeIntervalSince1970: 0), maxAge: 0, path: "/", isSecure: secure, isHTTPOnly: true, sameSite: .lax)
  }
}

/// What the authenticator found on a request.
struct CurrentSession: Sendable {
  let userID: UUID
  let tokenID: UUID
  let kind: AuthToken.Kind
}

extension Request {
  private struct CurrentSessionKey: StorageKey {
    typealias Value = CurrentSession
  }

  /// The sign-in this request carried, if any (set by ``SessionMiddleware``).
  var currentSession: CurrentSession? {
    get { storage[CurrentSessionKey.self] }
    set { storage[CurrentSessionKey.self] = newValue }
  }
}

/// Reads `Authorization: Bearer …` or the session cookie and remembers who is asking.
/// Unknown or expired secrets are ignored (the request simply has no user).
struct SessionMiddleware: AsyncMiddleware {
  /// The columns a sign-in check needs. Read with plain SQL: this runs on every request, and Fluent's
  /// reflection-based models cost more than the query itself.
  private struct TokenRow: Decodable {
    let id: UUID
    let userID: UUID
    let kind: String
    let expiresAt: Date

    enum CodingKeys: String, CodingKey {
      case id, kind
      case userID = "user_id"
      case expiresAt = "expires_at"
    }
  }

  private static func token(hash: String, on db: any Database) async throws -> TokenRow? {
    guard let sql = db as? any SQLDatabase else { preconditionFailure("CompletionKit runs on SQL databases only") }
    // The kind is compared in Swift: on PostgreSQL it is an enum column, which does not compare with a text bind.
    return try await sql.select()
      .columns(SQLIdentifier("id"), SQLIdentifier("user_id"), SQLRaw("CAST(kind AS TEXT) AS kind"), SQLIdentifier("expires_at"))
      .from(AuthToken.schema).where("token_hash", .equal, SQLBind(hash))
      .first(decoding: TokenRow.self)
  }

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let secret: String?
    let kind: AuthToken.Kind
    if let bearer = request.headers.bearerAuthorization?.token {
      secret = bearer
      kind = .bearer
    } else {
      secret = request.cookies[Sessions.cookieName]?.string
      kind = .cookie
    }
    if let secret, !secret.isEmpty, let token = try await Self.token(hash: Sessions.hash(secret), on: request.db),
      token.kind == kind.rawValue, token.expiresAt > Date()
    {
      request.currentSession = CurrentSession(userID: token.userID, tokenID: token.id, kind: kind)
    }
    let response = try await next.respond(to: request)
    if let cookie = request.pendingSessionCookie { response.cookies[Sessions.cookieName] = cookie }
    return response
  }
}

extension Request {
  private struct PendingCookieKey: StorageKey {
    typealias Value = HTTPCookies.Value
  }

  /// A session cookie to send with the response (a new guest, a login, a logout).
  var pendingSessionCookie: HTTPCookies.Value? {
    get { storage[PendingCookieKey.self] }
    set { storage[PendingCookieKey.self] = newValue }
  }

  /// The signed-in user, or nil.
  func currentUser() async throws -> User? {
    guard let session = currentSession else { return nil }
    return try await User.find(session.userID, on: db)
  }

  /// The signed-in user; a first visit gets a new guest account and a session cookie.
  func userCreatingGuest() async throws -> User {
    if let user = try await currentUser() { return user }
    let id = UUID()
    let guest = User(id: id, displayName: "Guest " + id.uuidString.prefix(4), isGuest: true)
    try await guest.create(on: db)
    let secret = try await Sessions.issue(for: id, kind: .cookie, on: db)
    pendingSessionCookie = Sessions.cookie(for: secret, secure: application.serverOptions.secureCookies)
    return guest
  }

  /// The signed-in user, or a 401.
  func requireUser() async throws -> User {
    guard let user = try await currentUser() else { throw AppError.unauthenticated }
    return user
  }
}
