import CompletionAPI
import Cryptogram
import Fluent
import FluentSQL
import Vapor

/// Guests, saving an account, signing in and out, and API tokens.
struct AccountController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(.getMe, use: me)
    routes.on(.register, use: register)
    routes.on(.login, use: login)
    routes.on(.logout, use: logout)
    // A retried token request gets the same token back (sealed in the stored answer; see IdempotentCreate).
    routes.on(.createToken) { req in try await IdempotentCreate.run(req, secret: true, self.createToken) }
    routes.on(.listSignIns, use: signIns)
    routes.on(.revokeSignIn, use: revoke)
    routes.on(.logoutEverywhere, use: logoutEverywhere)
    routes.on(.changePassword, use: changePassword)
    routes.on(.recoverAccount, use: recover)
    routes.on(.getRecoveryCodeStatus, use: recoveryCodeStatus)
    routes.on(.getAccountLimits) { _ in Self.limits }
    routes.on(.regenerateRecoveryCodes, use: regenerateRecoveryCodes)
    routes.on(.getCelebrations, use: celebrations)
    routes.on(.setCelebrations, use: setCelebrations)
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
    // Through group commit like every other write: a pooled connection that finds SQLite's write lock taken sleeps
    // in SQLite's busy handler (1, 2, 5, 10, 15, 20, 25 ms… between tries) instead of waiting its turn.
    _ = try await req.application.services.runner.writes.transaction(on: req.db, singleStatement: true) { db in
      try await CompletionRecorder.setOptOuts(Set(body.optedOut), userID: userID, on: db.sql)
      return true
    }
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

  /// `POST /api/account/register`: gives the current guest (or a new visitor) a username and password, and
  /// answers with the account's ten recovery codes (shown this once).
  @Sendable func register(req: Request) async throws -> Response {
    let body = try req.decodeJSON(RegisterRequest.self)
    let username = try Self.validUsername(body.username)
    try PasswordPolicy.check(body.password, username: username)
    let displayName = body.displayName?.trimmingCharacters(in: .whitespacesAndNewlines)
    if let current = try await req.currentUser(), !current.isGuest { throw AppError.alreadyRegistered }
    if try await User.query(on: req.db).filter(\.$username == username).first() != nil { throw AppError.usernameTaken }
    let hash = try await req.application.services.passwordWork.hash(body.password)
    let user = try await req.userCreatingGuest()
    let userID = try user.requireID()
    let name = displayName.flatMap { $0.isEmpty ? nil : String($0.prefix(60)) } ?? body.username
    let codes = RecoveryCodes.makeCodes()
    let now = req.application.services.clock.now()
    do {
      // The name, the password and the codes are saved together: an account never exists without its codes.
      _ = try await req.application.services.runner.write(on: req.db) { db in
        try await db.sql.update(User.schema).set("username", to: SQLBind(username)).set("password_hash", to: SQLBind(hash))
          .set("is_guest", to: SQLBind(false)).set("display_name", to: SQLBind(name)).set("updated_at", to: SQLBind(now))
          .where("id", .equal, SQLBind(userID)).run()
        try await RecoveryCodes.replace(for: userID, with: codes, at: now, on: db)
        return true
      }
    } catch let error as any DatabaseError where error.isConstraintFailure {
      // Two people raced for the same name; the unique index decided.
      throw AppError.usernameTaken
    }
    user.username = username
    user.passwordHash = hash
    user.isGuest = false
    user.displayName = name
    // A new session for the new account: a session id known before signing up (fixed by someone else on a
    // shared computer, say) must not become the account's.
    if let previous = req.currentSession, previous.kind == .cookie {
      try await Sessions.end([previous.tokenID], app: req.application, on: req.db)
      let secret = try await Sessions.issue(for: try user.requireID(), kind: .cookie, at: req.application.services.clock.now(), on: req.db)
      req.pendingSessionCookie = Sessions.cookie(for: secret, secure: req.application.serverOptions.secureCookies)
    }
    let response = Response(status: .created)
    try response.content.encode(RegisterResponse(user: try user.toResponse(), recoveryCodes: codes))
    return response
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
    guard let user, matches, body.password.utf8.count <= PasswordPolicy.maxBytes, let userID = user.id else {
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
        if token.kind == .cookie, !Sessions.isActive(lastSeen: token.lastSeenAt, createdAt: token.createdAt, at: now) { return nil }
        return SignInView(
          id: id.uuidString, kind: token.kind == .cookie ? "browser" : "token", createdAt: token.createdAt?.timeIntervalSince1970,
          expiresAt: token.expiresAt.timeIntervalSince1970, current: id == session.tokenID,
          lastSeenAt: token.lastSeenAt?.timeIntervalSince1970)
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
    let now = req.application.services.clock.now()
    var expiresAt = now.addingTimeInterval(TimeInterval(days) * 86_400)
    // Never outliving the sign-in that asks for it: a leaked short token cannot become a long one.
    if let session = req.currentSession { expiresAt = min(expiresAt, session.expiresAt) }
    let secret = try await Sessions.issue(for: userID, kind: .bearer, at: now, lifetime: expiresAt.timeIntervalSince(now), on: req.db)
    let response = Response(status: .created)
    try response.content.encode(TokenResponse(token: secret, user: try user.toResponse(), expiresAt: expiresAt.timeIntervalSince1970))
    return response
  }

  /// `POST /api/account/password {currentPassword, newPassword}`: a new password, proven by the current one
  /// (checked under the sign-in throttle, like a sign-in). Every other sign-in of the account ends, API tokens
  /// included; the browser that asked stays signed in (a bearer token that asked ends too: sign in again).
  @Sendable func changePassword(req: Request) async throws -> PasswordChangeResponse {
    let body = try req.decodeJSON(ChangePasswordRequest.self)
    guard let session = req.currentSession else { throw AppError.unauthenticated }
    guard let user = try await User.find(session.userID, on: req.db), !user.isGuest, let username = user.username, let userID = user.id
    else { throw AppError.namedAccountRequired }
    try PasswordPolicy.check(body.newPassword, username: username)
    try await Self.checkPassword(body.currentPassword, of: user, req: req)
    let hash = try await req.application.services.passwordWork.hash(body.newPassword)
    let keep = session.kind == .cookie ? session.tokenID : nil
    let ended = try await Self.setPassword(hash, userID: userID, keeping: keep, consuming: nil, app: req.application, on: req.db) ?? []
    return PasswordChangeResponse(endedSignIns: ended.filter { $0 != session.tokenID }.count, signedOut: keep == nil)
  }

  /// `POST /api/account/recover {username, code, newPassword}`: a forgotten password replaced with one of the
  /// account's recovery codes, which is used up. Throttled like a sign-in (per username and per address).
  /// Every sign-in of the account ends, and this browser is signed in with the new password.
  @Sendable func recover(req: Request) async throws -> RecoverResponse {
    let body = try req.decodeJSON(RecoverRequest.self)
    let username = body.username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    try PasswordPolicy.check(body.newPassword, username: username)
    let services = req.application.services
    guard !services.passwordWork.isFull else { throw AppError.busy }
    let attempt = try await services.loginThrottle.reserve(username: username, address: req.clientAddress, at: services.clock.now(), on: req.db)
    let codeHash = RecoveryCodes.hash(body.code)
    guard let user = try await User.query(on: req.db).filter(\.$username == username).first(), !user.isGuest, let userID = user.id,
      try await RecoveryCodes.contains(codeHash, userID: userID, on: req.db)
    else { throw AppError.invalidRecoveryCode }
    let hash = try await services.passwordWork.hash(body.newPassword)
    // The code is used up in the same transaction that sets the password: of two requests with one code, one wins.
    guard let ended = try await Self.setPassword(hash, userID: userID, keeping: nil, consuming: codeHash, app: req.application, on: req.db)
    else { throw AppError.invalidRecoveryCode }
    try await services.loginThrottle.succeeded(attempt, on: req.db)
    if let previous = req.currentSession, previous.kind == .cookie, !ended.contains(previous.tokenID) {
      try await Sessions.end([previous.tokenID], app: req.application, on: req.db)
    }
    let secret = try await Sessions.issue(for: userID, kind: .cookie, at: services.clock.now(), on: req.db)
    req.pendingSessionCookie = Sessions.cookie(for: secret, secure: req.application.serverOptions.secureCookies)
    user.passwordHash = hash
    return RecoverResponse(user: try user.toResponse(), recoveryCodesLeft: try await RecoveryCodes.remaining(userID: userID, on: req.db))
  }

  /// `GET /api/account/recovery-codes`: how many unused recovery codes the account has (never the codes).
  @Sendable func recoveryCodeStatus(req: Request) async throws -> RecoveryCodeStatus {
    let user = try await req.requireUser()
    guard !user.isGuest, let userID = user.id else { throw AppError.namedAccountRequired }
    return RecoveryCodeStatus(remaining: try await RecoveryCodes.remaining(userID: userID, on: req.db))
  }

  /// `POST /api/account/recovery-codes {password}`: ten new recovery codes, shown once; the earlier ones stop
  /// working. The password is checked under the sign-in throttle.
  @Sendable func regenerateRecoveryCodes(req: Request) async throws -> RecoveryCodeList {
    let body = try req.decodeJSON(RecoveryCodesRequest.self)
    let user = try await req.requireUser()
    guard !user.isGuest, let userID = user.id else { throw AppError.namedAccountRequired }
    try await Self.checkPassword(body.password, of: user, req: req)
    let codes = RecoveryCodes.makeCodes()
    let now = req.application.services.clock.now()
    _ = try await req.application.services.runner.write(on: req.db) { db in
      try await RecoveryCodes.replace(for: userID, with: codes, at: now, on: db)
      return true
    }
    return RecoveryCodeList(codes: codes)
  }

  /// Checks a named account's password for a change that needs it, counted by the sign-in throttle exactly as
  /// a sign-in is; a wrong one is `403 wrong_password`.
  private static func checkPassword(_ password: String, of user: User, req: Request) async throws {
    let services = req.application.services
    guard let username = user.username else { throw AppError.namedAccountRequired }
    guard !services.passwordWork.isFull else { throw AppError.busy }
    let attempt = try await services.loginThrottle.reserve(username: username, address: req.clientAddress, at: services.clock.now(), on: req.db)
    let matches = try await services.passwordWork.verify(password, created: user.passwordHash)
    guard matches, password.utf8.count <= PasswordPolicy.maxBytes else { throw AppError.wrongPassword }
    try await services.loginThrottle.succeeded(attempt, on: req.db)
  }

  /// Sets an account's password hash and ends every one of its sign-ins but `keeping`, in one transaction;
  /// with `consuming`, only if that recovery code is unused (it is used up), else nothing changes and the
  /// answer is nil. Answers the ids of the sign-ins ended.
  static func setPassword(
    _ hash: String, userID: UUID, keeping: UUID?, consuming codeHash: String?, app: Application, on db: any Database
  ) async throws -> [UUID]? {
    let now = app.services.clock.now()
    let ended = try await app.services.runner.write(on: db) { db -> [UUID]? in
      if let codeHash, try await !RecoveryCodes.consume(codeHash, userID: userID, on: db) { return nil }
      let sql = db.sql
      try await sql.update(User.schema).set("password_hash", to: SQLBind(hash)).set("updated_at", to: SQLBind(now))
        .where("id", .equal, SQLBind(userID)).run()
      let ids = try await sql.select().column("id").from(AuthToken.schema).where("user_id", .equal, SQLBind(userID))
        .all(decoding: TokenID.self).map(\.id).filter { $0 != keeping }
      try await Sessions.end(ids, app: app, on: db)
      return ids
    }
    // Forgotten again once committed: a request that read a sign-in just before the commit may have cached it.
    for id in ended ?? [] { app.services.sessions.forget(tokenID: id) }
    return ended
  }

  private struct TokenID: Decodable {
    let id: UUID
  }

  /// How long a username may be.
  static let usernameLength = 3...32
  /// The characters a username may have (after lower-casing).
  static let usernameCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789._-")

  /// `GET /api/account/limits`: the rules below and ``PasswordPolicy``'s, for the forms that set them.
  static let limits = AccountLimits(
    usernameMinLength: usernameLength.lowerBound, usernameMaxLength: usernameLength.upperBound, usernameCharacters: "a–z, 0–9, “.”, “-” and “_”",
    passwordMinLength: PasswordPolicy.minCharacters, passwordMaxBytes: PasswordPolicy.maxBytes)

  /// Lower-cases and checks a username: 3–32 of a–z, 0–9, ".", "-", "_".
  static func validUsername(_ raw: String) throws -> String {
    let name = raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    guard usernameLength.contains(name.count), name.allSatisfy(usernameCharacters.contains) else { throw AppError.invalidUsername }
    return name
  }

  /// A Bcrypt hash of a random secret nobody knows (cost 12, like real ones), made once on first use.
  static let unknownUserHash: String = (try? Bcrypt.hash(Sessions.makeSecret(), cost: 12)) ?? ""
}
