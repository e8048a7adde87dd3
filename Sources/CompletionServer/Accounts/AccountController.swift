import CompletionAPI
import Cryptogram
import Fluent
import FluentSQL
import Vapor

/// Guests, saving an account, signing in and out, and API tokens.
struct AccountController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.get("api", "me", use: me)
    let account = routes.grouped("api", "account")
    account.post("register", use: register)
    account.post("login", use: login)
    account.post("logout", use: logout)
    // A retried token request gets the same token back (sealed in the stored answer; see IdempotentCreate).
    account.post("tokens") { req in try await IdempotentCreate.run(req, secret: true, self.createToken) }
    account.get("tokens", use: signIns)
    account.delete("tokens", ":id", use: revoke)
    account.post("logout-everywhere", use: logoutEverywhere)
    account.get("celebrations", use: celebrations)
    account.put("celebrations", use: setCelebrations)
  }

  /// Celebrations a person may turn off. (Waldabenteuer's celebration is part of the children's game and
  /// always shows.)
  static let celebrationKinds = [CryptogramCompletion.domain]

  /// `GET /api/account/celebrations`.
  @Sendable func celebrations(req: Request) async throws -> CelebrationSettings {
    let userID = try await req.userOrVisitor().requireID()
    let sql = req.db.sql
    let profile = try await CompletionRecorder.profile(userID: userID, on: sql)
    return CelebrationSettings(optedOut: profile.optedOut.sorted(), kinds: Self.celebrationKinds)
  }

  /// `PUT /api/account/celebrations {optedOut}`: turns celebrations of those kinds off, the rest on.
  @Sendable func setCelebrations(req: Request) async throws -> CelebrationSettings {
    let body = try req.decodeJSON(CelebrationSettings.self)
    if let unknown = body.optedOut.first(where: { !Self.celebrationKinds.contains($0) }) {
      throw AppError.invalidParameter("optedOut", "'\(unknown)' is not a kind of celebration (use \(Self.celebrationKinds.joined(separator: ", ")))")
    }
    let userID = try await req.userIDCreatingGuest()
    let sql = req.db.sql
    try await CompletionRecorder.setOptOuts(Set(body.optedOut), userID: userID, on: sql)
    return CelebrationSettings(optedOut: Set(body.optedOut).sorted(), kinds: Self.celebrationKinds)
  }

  /// `GET /api/me`: who is here. A visitor without an account is answered as a guest without an id; the
  /// account is made by their first write.
  @Sendable func me(req: Request) async throws -> UserResponse {
    guard let user = try await req.currentUser() else {
      return UserResponse(id: "", displayName: User.visitorName, username: nil, isGuest: true)
    }
    return try user.toResponse()
  }

  /// `POST /api/account/register`: gives the current guest (or a new visitor) a username and password.
  @Sendable func register(req: Request) async throws -> Response {
    let body = try req.decodeJSON(RegisterRequest.self)
    let username = try Self.validUsername(body.username)
    try Self.checkNewPassword(body.password)
    let displayName = body.displayName?.trimmingCharacters(in: .whitespacesAndNewlines)
    if let current = try await req.currentUser(), !current.isGuest { throw AppError.alreadyRegistered }
    if try await User.query(on: req.db).filter(\.$username == username).first() != nil { throw AppError.usernameTaken }
    let hash = try await req.application.services.passwordWork.hash(body.password)
    let user = try await req.userCreatingGuest()
    user.username = username
    user.passwordHash = hash
    user.isGuest = false
    if let displayName, !displayName.isEmpty { user.displayName = String(displayName.prefix(60)) } else { user.displayName = body.username }
    do {
      try await user.save(on: req.db)
    } catch let error as any DatabaseError where error.isConstraintFailure {
      // Two people raced for the same name; the unique index decided.
      throw AppError.usernameTaken
    }
    // A new session for the new account: a session id known before signing up (fixed by someone else on a
    // shared computer, say) must not become the account's.
    if let previous = req.currentSession, previous.kind == .cookie {
      try await Sessions.end([previous.tokenID], app: req.application, on: req.db)
      let secret = try await Sessions.issue(for: try user.requireID(), kind: .cookie, at: req.application.services.clock.now(), on: req.db)
      req.pendingSessionCookie = Sessions.cookie(for: secret, secure: req.application.serverOptions.secureCookies)
    }
    let response = Response(status: .created)
    try response.content.encode(try user.toResponse())
    return response
  }

  /// bcrypt reads only a password's first 72 bytes: a longer one would let in anything that starts the same.
  static let maxPasswordBytes = 72

  /// The rules for a new password: at least 8 characters, not only spaces, at most ``maxPasswordBytes`` bytes.
  static func checkNewPassword(_ password: String) throws {
    guard password.count >= 8 else { throw AppError.weakPassword }
    guard !password.allSatisfy(\.isWhitespace) else { throw AppError.blankPassword }
    guard password.utf8.count <= maxPasswordBytes else { throw AppError.passwordTooLong }
  }

  /// `POST /api/account/login`: signs this browser in to a saved account.
  @Sendable func login(req: Request) async throws -> UserResponse {
    let body = try req.decodeJSON(LoginRequest.self)
    let username = body.username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    let services = req.application.services
    // A full hashing queue turns a sign-in away before it costs the database anything.
    guard !services.passwordWork.isFull else { throw AppError.busy }
    // Counted before the password is checked, so a burst arriving at once gets no more checks than a trickle.
    let attempt = try await services.loginThrottle.reserve(username: username, address: req.clientAddress, at: services.clock.now(), on: req.db)
    let user = try await User.query(on: req.db).filter(\.$username == username).first()
    let matches = try await services.passwordWork.verify(body.password, created: user?.passwordHash)
    // Longer than any password can be: never a match, however its first 72 bytes compare.
    guard let user, matches, body.password.utf8.count <= Self.maxPasswordBytes, let userID = user.id else {
      throw AppError.invalidCredentials
    }
    try await services.loginThrottle.succeeded(attempt, on: req.db)
    if let previous = req.currentSession, previous.kind == .cookie {
      try await Sessions.end([previous.tokenID], app: req.application, on: req.db)
    }
    let secret = try await Sessions.issue(for: userID, kind: .cookie, at: req.application.services.clock.now(), on: req.db)
    req.pendingSessionCookie = Sessions.cookie(for: secret, secure: req.application.serverOptions.secureCookies)
    return try user.toResponse()
  }

  /// `POST /api/account/logout`: forgets this sign-in.
  @Sendable func logout(req: Request) async throws -> HTTPStatus {
    if let session = req.currentSession { try await Sessions.end([session.tokenID], app: req.application, on: req.db) }
    req.pendingSessionCookie = Sessions.expiredCookie(secure: req.application.serverOptions.secureCookies)
    return .noContent
  }

  /// `GET /api/account/tokens`: the person's sign-ins (browsers and API tokens), newest first, never a secret.
  @Sendable func signIns(req: Request) async throws -> SignInList {
    guard let session = req.currentSession else { throw AppError.unauthenticated }
    let now = req.application.services.clock.now()
    let tokens = try await AuthToken.query(on: req.db).filter(\.$user.$id == session.userID).filter(\.$expiresAt > now)
      .sort(\.$createdAt, .descending).all()
    return SignInList(
      signIns: tokens.compactMap { token in
        guard let id = token.id else { return nil }
        return SignInView(
          id: id.uuidString, kind: token.kind == .cookie ? "browser" : "token", createdAt: token.createdAt?.timeIntervalSince1970,
          expiresAt: token.expiresAt.timeIntervalSince1970, current: id == session.tokenID)
      })
  }

  /// `DELETE /api/account/tokens/{id}`: ends one of one's own sign-ins, on every server at once.
  @Sendable func revoke(req: Request) async throws -> HTTPStatus {
    guard let session = req.currentSession else { throw AppError.unauthenticated }
    guard let id = req.parameters.get("id").flatMap(UUID.init(uuidString:)),
      try await AuthToken.query(on: req.db).filter(\.$id == id).filter(\.$user.$id == session.userID).first() != nil
    else { throw AppError.notFound("That sign-in") }
    try await Sessions.end([id], app: req.application, on: req.db)
    if id == session.tokenID, session.kind == .cookie {
      req.pendingSessionCookie = Sessions.expiredCookie(secure: req.application.serverOptions.secureCookies)
    }
    return .noContent
  }

  /// `POST /api/account/logout-everywhere`: ends every sign-in of the person (this one too), every API token
  /// included.
  @Sendable func logoutEverywhere(req: Request) async throws -> HTTPStatus {
    guard let session = req.currentSession else { throw AppError.unauthenticated }
    let ids = try await AuthToken.query(on: req.db).filter(\.$user.$id == session.userID).all().compactMap(\.id)
    try await Sessions.end(ids, app: req.application, on: req.db)
    req.pendingSessionCookie = Sessions.expiredCookie(secure: req.application.serverOptions.secureCookies)
    return .noContent
  }

  /// `POST /api/account/tokens`: a bearer token for scripts and apps, shown once.
  @Sendable func createToken(req: Request) async throws -> Response {
    let user = try await req.requireUser()
    guard !user.isGuest, let userID = user.id else { throw AppError.namedAccountRequired }
    var days = Sessions.bearerDefaultDays
    if req.body.data.map({ $0.readableBytes > 0 }) == true {
      days = try req.decodeJSON(TokenRequest.self).expiresInDays ?? days
    }
    guard (1...Sessions.bearerMaxDays).contains(days) else {
      throw AppError.invalidParameter("expiresInDays", "a token lasts 1 to \(Sessions.bearerMaxDays) days")
    }
    let secret = try await Sessions.issue(
      for: userID, kind: .bearer, at: req.application.services.clock.now(), lifetime: TimeInterval(days) * 86_400, on: req.db)
    let response = Response(status: .created)
    try response.content.encode(TokenResponse(token: secret, user: try user.toResponse()))
    return response
  }

  /// Lower-cases and checks a username: 3–32 of a–z, 0–9, ".", "-", "_".
  static func validUsername(_ raw: String) throws -> String {
    let name = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")
    guard (3...32).contains(name.count), name.allSatisfy(allowed.contains) else { throw AppError.invalidUsername }
    return name
  }

  /// A Bcrypt hash of a random secret nobody knows (cost 12, like real ones), made once on first use.
  static let unknownUserHash: String = (try? Bcrypt.hash(Sessions.makeSecret(), cost: 12)) ?? ""
}
