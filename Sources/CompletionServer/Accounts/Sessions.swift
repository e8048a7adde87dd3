import CompletionAPI
import Fluent
import FluentSQL
import Foundation
import Synchronization
import Vapor

/// Cookie and bearer-token sign-in. Secrets are 32 random bytes; the database holds their SHA-256.
enum Sessions {
  /// The session cookie's name.
  static let cookieName = "ck_session"
  /// How long a browser stays signed in at most, however often it comes back (its absolute limit).
  static let cookieLifetime: TimeInterval = 60 * 60 * 24 * 180
  /// A browser that has not come back for this long is signed out, before its absolute limit.
  static let idleLimit: TimeInterval = 60 * 60 * 24 * 30
  /// How stale a session's last-seen time may get before a request writes it again: a write a day at most
  /// per browser, not one per request.
  static let lastSeenGranularity: TimeInterval = 60 * 60 * 24
  /// How long an API token is valid unless its creator says otherwise, and at most.
  static let bearerDefaultDays = 90
  static let bearerMaxDays = 365

  /// Whether a browser session last seen at `lastSeen` (or, never marked, made at `createdAt`) is within the
  /// idle limit at `now`.
  static func isActive(lastSeen: Date?, createdAt: Date?, at now: Date) -> Bool {
    guard let seen = lastSeen ?? createdAt else { return true }
    return now.timeIntervalSince(seen) < idleLimit
  }

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
    Digest.sha256Hex(Data(secret.utf8))
  }

  /// Stores a new sign-in for `user` and returns its secret (the only time it exists in clear).
  static func issue(
    for userID: UUID, kind: AuthToken.Kind, at now: Date, lifetime: TimeInterval? = nil, on db: any Database
  ) async throws -> String {
    let secret = makeSecret()
    let lifetime = lifetime ?? (kind == .cookie ? cookieLifetime : TimeInterval(bearerDefaultDays) * 86_400)
    let token = AuthToken(userID: userID, tokenHash: hash(secret), kind: kind, expiresAt: now.addingTimeInterval(lifetime))
    if kind == .cookie { token.lastSeenAt = now }
    try await token.create(on: db)
    return secret
  }

  /// Ends sign-ins: deleted, forgotten by this process's cache at once, and on PostgreSQL announced to every
  /// other server process sharing the database (``SessionRevocations``), so none keeps trusting its copy.
  static func end(_ tokenIDs: [UUID], app: Application, on db: any Database) async throws {
    guard !tokenIDs.isEmpty else { return }
    try await AuthToken.query(on: db).filter(\.$id ~~ tokenIDs).delete()
    for id in tokenIDs { app.services.sessions.forget(tokenID: id) }
    if case .postgres = app.serverOptions.database {
      let sql = db.sql
      for id in tokenIDs {
        try await sql.raw("SELECT pg_notify(\(bind: SessionRevocations.channel), \(bind: id.uuidString))").run()
      }
    }
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
  /// When the sign-in ends at the latest (a browser's absolute limit, a token's expiry): nothing it makes may
  /// outlive it.
  let expiresAt: Date
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

/// A sign-in as stored, with the columns its checks need. Read with plain SQL: the check runs on every request
/// (and at every live stream's heartbeat), and Fluent's reflection-based models cost more than the query itself.
struct StoredSignIn: Decodable {
  let id: UUID
  let userID: UUID
  let kind: String
  let expiresAt: Date
  let createdAt: Date?
  let lastSeenAt: Date?

  enum CodingKeys: String, CodingKey {
    case id, kind
    case userID = "user_id"
    case expiresAt = "expires_at"
    case createdAt = "created_at"
    case lastSeenAt = "last_seen_at"
  }

  /// These columns of the sign-ins, for the caller's `where`.
  static func select(on db: any Database) -> SQLSelectBuilder {
    // The kind is compared in Swift: on PostgreSQL it is an enum column, which does not compare with a text bind.
    db.sql.select()
      .columns(
        SQLIdentifier("id"), SQLIdentifier("user_id"), SQLRaw("CAST(kind AS TEXT) AS kind"), SQLIdentifier("expires_at"),
        SQLIdentifier("created_at"), SQLIdentifier("last_seen_at"))
      .from(AuthToken.schema)
  }

  /// Whether it still signs someone in at `now`: a kind this server knows, before its expiry, and (a browser's)
  /// not left idle too long, though the absolute limit may still be ahead.
  func signsIn(at now: Date) -> Bool {
    guard expiresAt > now, let kind = AuthToken.Kind(rawValue: kind) else { return false }
    return kind != .cookie || Sessions.isActive(lastSeen: lastSeenAt, createdAt: createdAt, at: now)
  }
}

/// Reads `Authorization: Bearer …` or the session cookie and remembers who is asking. An `Authorization` header
/// that is not a valid bearer token is a 401 (`invalid_token`); a cookie that no longer signs anyone in is
/// ignored on reads (the request simply has no user) and a 401 (`session_ended`) on writes.
struct SessionMiddleware: AsyncMiddleware {
  private static func token(hash: String, on db: any Database) async throws -> StoredSignIn? {
    try await StoredSignIn.select(on: db).where("token_hash", .equal, SQLBind(hash)).first(decoding: StoredSignIn.self)
  }

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    // `/metrics` has a bearer token of its own (the scraper's), which is no sign-in.
    if request.url.path == "/metrics" { return try await next.respond(to: request) }
    let (session, staleCookie) = try await Self.session(of: request)
    request.currentSession = session
    if staleCookie, CrossSiteRequestMiddleware.changesState(request.method), !Self.sessionlessPaths.contains(request.url.path) {
      // The page sending this believes it is signed in: its change must not land in a new guest account
      // while it still says "Signed in as …". The refusal also clears the cookie (see APIErrorMiddleware).
      request.pendingSessionCookie = Sessions.expiredCookie(secure: request.application.serverOptions.secureCookies)
      throw AppError.sessionEnded
    }
    let response = try await next.respond(to: request)
    if let cookie = request.pendingSessionCookie { response.cookies[Sessions.cookieName] = cookie }
    return response
  }

  /// The sign-in the request carries: from the cache when it was checked recently, else from the database.
  /// A bearer token that is not (or no longer) valid is refused with 401 `invalid_token`: a script that
  /// sends one means a particular account, and must never find its writes going to a new guest instead. A
  /// stale cookie is only forgotten: a browser whose session ended simply visits as a guest again.
  /// `staleCookie`: the request carried a session cookie that signs no one in any more.
  private static func session(of request: Request) async throws -> (session: CurrentSession?, staleCookie: Bool) {
    if request.headers.contains(name: .authorization) {
      // Any Authorization header means a particular account: an empty or malformed one ("Bearer " with an unset
      // variable, Basic, a bare token) is refused like an unknown token, never taken for a visitor.
      guard let bearer = request.headers.bearerAuthorization?.token, !bearer.isEmpty,
        let session = try await lookUp(bearer, request: request), session.kind == .bearer
      else { throw AppError.invalidToken }
      return (session, false)
    }
    guard let cookie = request.cookies[Sessions.cookieName]?.string, !cookie.isEmpty else { return (nil, false) }
    guard let session = try await lookUp(cookie, request: request), session.kind == .cookie else { return (nil, true) }
    return (session, false)
  }

  /// The account requests that work without a session (they make or replace one, or end it), which a stale
  /// cookie must not block.
  private static let sessionlessPaths = Set([Endpoint.login, .register, .recoverAccount, .logout].map(\.pattern))

  private static func lookUp(_ secret: String, request: Request) async throws -> CurrentSession? {
    guard !secret.isEmpty else { return nil }
    let hash = Sessions.hash(secret)
    let now = request.application.services.clock.now()
    let cache = request.application.services.sessions
    if let cached = cache.session(hash: hash, at: now) { return cached }
    guard let token = try await Self.token(hash: hash, on: request.db), token.signsIn(at: now),
      let storedKind = AuthToken.Kind(rawValue: token.kind)
    else { return nil }
    if storedKind == .cookie {
      let seenToday = token.lastSeenAt.map { now.timeIntervalSince($0) < Sessions.lastSeenGranularity } ?? false
      if !seenToday {
        // Best effort: a session whose day's mark failed to write is still this request's, and is marked next time.
        do {
          try await Self.markSeen(token.id, at: now, request: request)
        } catch {
          request.logger.warning("could not note a session's last use: \(String(reflecting: error))")
        }
      }
    }
    let session = CurrentSession(userID: token.userID, tokenID: token.id, kind: storedKind, expiresAt: token.expiresAt)
    cache.remember(session, hash: hash, expiresAt: token.expiresAt, at: now)
    return session
  }

  /// Notes that a browser session was used now. The cache means this runs at most every
  /// ``SessionCache/lifetime`` per session, and the day's granularity at most once a day.
  private static func markSeen(_ tokenID: UUID, at now: Date, request: Request) async throws {
    _ = try await request.application.services.runner.writes.transaction(on: request.db, singleStatement: true) { db in
      try await db.sql.update(AuthToken.schema).set("last_seen_at", to: SQLBind(now)).where("id", .equal, SQLBind(tokenID)).run()
      return true
    }
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

  /// The signed-in user; a visitor without one gets a new guest account and a session cookie. Only for
  /// requests that store something: reads use ``userOrVisitor()``. New guests are limited per client address.
  func userCreatingGuest() async throws -> User {
    if let user = try await currentUser() { return user }
    if let wait = application.services.guestLimiter.take(clientAddress, at: application.services.clock.now()) {
      throw AppError.tooManyGuests(retryAfter: wait)
    }
    let id = UUID()
    let guest = User(id: id, displayName: "Guest " + id.uuidString.prefix(4), isGuest: true)
    try await guest.create(on: db)
    let secret = try await Sessions.issue(for: id, kind: .cookie, at: application.services.clock.now(), on: db)
    pendingSessionCookie = Sessions.cookie(for: secret, secure: application.serverOptions.secureCookies)
    return guest
  }

  /// The id of ``userCreatingGuest()`` without reading the user's row when a session names them (a session
  /// ends with its account, so it always names one that exists): the paths every move takes need only the id.
  func userIDCreatingGuest() async throws -> UUID {
    if let session = currentSession { return session.userID }
    return try await userCreatingGuest().requireID()
  }

  /// The signed-in user, or for a visitor without an account an unsaved stand-in guest, who owns nothing: a
  /// read answers what a new guest would see, and no account is made until the visitor stores something.
  func userOrVisitor() async throws -> User {
    if let user = try await currentUser() { return user }
    return User(id: UUID(), displayName: User.visitorName, isGuest: true)
  }

  /// The signed-in user, or a 401.
  func requireUser() async throws -> User {
    guard let user = try await currentUser() else { throw AppError.unauthenticated }
    return user
  }
}

/// Recently checked sign-ins, so a busy player's every request does not look its token up again.
///
/// An entry is trusted for ``lifetime`` at most. Signing out or replacing a session removes its entry at once
/// on this server; another server process sharing the same PostgreSQL database notices within ``lifetime``.
final class SessionCache: Sendable {
  /// How long a checked sign-in is trusted without asking the database again.
  static let lifetime: TimeInterval = 30
  /// More entries than this and the cache starts over (a bound, not an eviction policy: it is cheap to refill).
  static let capacity = 50_000

  private struct Entry {
    let session: CurrentSession
    let expiresAt: Date
    let checkedAt: Date
  }

  private let entries = Mutex<[String: Entry]>([:])

  init() {}

  /// The sign-in stored under `hash` if it was checked less than ``lifetime`` ago and has not expired.
  func session(hash: String, at now: Date) -> CurrentSession? {
    entries.withLock { entries in
      guard let entry = entries[hash] else { return nil }
      guard entry.expiresAt > now, now.timeIntervalSince(entry.checkedAt) < Self.lifetime else {
        entries[hash] = nil
        return nil
      }
      return entry.session
    }
  }

  /// Remembers a sign-in just read from the database.
  func remember(_ session: CurrentSession, hash: String, expiresAt: Date, at now: Date) {
    entries.withLock { entries in
      if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
      entries[hash] = Entry(session: session, expiresAt: expiresAt, checkedAt: now)
    }
  }

  /// Forgets everything (the news of sign-outs from other servers may have been missed).
  func forgetAll() {
    entries.withLock { $0.removeAll() }
  }

  /// Forgets the sign-in with this token id (signed out, or replaced by a login).
  func forget(tokenID: UUID) {
    entries.withLock { entries in
      guard let hash = entries.first(where: { $0.value.session.tokenID == tokenID })?.key else { return }
      entries[hash] = nil
    }
  }
}

/// Hears, on PostgreSQL, of sign-ins ended by other server processes, and forgets them here at once (the
/// cache would otherwise trust them for up to ``SessionCache/lifetime``). While the connection is down the
/// news may be missed, so the cache is emptied then. SQLite runs one process: nothing to hear.
struct SessionRevocations: LifecycleHandler {
  static let channel = "completionkit_signout"

  private final class Running: @unchecked Sendable {
    let lock = NSLock()
    var task: Task<Void, Never>?
  }

  private let running = Running()

  func didBootAsync(_ application: Application) async throws {
    guard case .postgres(let url) = application.serverOptions.database else { return }
    let cache = application.services.sessions
    let (listener, ready) = PostgresListener.start(
      url: url, channel: Self.channel, connectionID: 3, eventLoop: application.eventLoopGroup.any(), logger: application.logger,
      notification: { payload in
        if let id = UUID(uuidString: payload) { cache.forget(tokenID: id) }
      },
      lost: { cache.forgetAll() })
    running.lock.withLock { running.task = listener }
    await ready.value
  }

  func shutdownAsync(_ application: Application) async {
    let task = running.lock.withLock { running.task }
    task?.cancel()
    await task?.value
  }
}

extension Request {
  /// The visitor's address for per-address limits: the connection's peer, or — when the server is told it
  /// runs behind a reverse proxy (`COMPLETIONKIT_TRUST_PROXY=1`) — the last address the proxy added to
  /// `X-Forwarded-For` (earlier entries come from the client and could be anything).
  var clientAddress: String? {
    if application.serverOptions.trustProxy,
      let forwarded = headers[.xForwardedFor].last?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
      !forwarded.isEmpty
    {
      return forwarded
    }
    return remoteAddress?.ipAddress
  }
}
