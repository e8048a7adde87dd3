import CompletionAPI
import Foundation

// Accounts: who is here, saving a guest's account, signing in and out, sign-ins and API tokens, and which
// celebrations a person turned off. The transport keeps the session cookie a sign-in sets (and forgets it on
// a sign-out), so these methods only send and decode.
extension CompletionClient {
  /// The signed-in person (a visitor without an account is answered as a guest with an empty id).
  public func me() async throws -> UserResponse {
    try await send(.getMe)
  }

  /// Turns the current guest (or a new visitor) into a named account with a password, and signs it in. The
  /// answer carries the account's ten recovery codes: the only time they are shown.
  @discardableResult
  public func register(username: String, password: String, displayName: String? = nil) async throws -> RegisterResponse {
    try await send(.register, body: .json(RegisterRequest(username: username, password: password, displayName: displayName)))
  }

  /// Changes the signed-in account's password. Every other sign-in ends; a bearer token making the change ends
  /// too (``PasswordChangeResponse/signedOut``): sign in again with the new password.
  public func changePassword(current: String, new: String) async throws -> PasswordChangeResponse {
    try await send(.changePassword, body: .json(ChangePasswordRequest(currentPassword: current, newPassword: new)))
  }

  /// Sets a new password with one of the account's recovery codes (used up) and signs in with it; every other
  /// sign-in of the account ends.
  public func recover(username: String, code: String, newPassword: String) async throws -> RecoverResponse {
    try await send(.recoverAccount, body: .json(RecoverRequest(username: username, code: code, newPassword: newPassword)))
  }

  /// How many unused recovery codes the signed-in account has.
  public func recoveryCodeStatus() async throws -> RecoveryCodeStatus {
    try await send(.getRecoveryCodeStatus)
  }

  /// Ten new recovery codes for the signed-in account, shown once; the earlier ones stop working.
  public func regenerateRecoveryCodes(password: String) async throws -> RecoveryCodeList {
    try await send(.regenerateRecoveryCodes, body: .json(RecoveryCodesRequest(password: password)))
  }

  /// Signs in with a password; the client keeps the session the server sets for every later request.
  @discardableResult
  public func login(username: String, password: String) async throws -> UserResponse {
    try await send(.login, body: .json(LoginRequest(username: username, password: password)))
  }

  /// Ends this sign-in; the client forgets its session.
  public func logout() async throws {
    try await sendExpectingNoContent(.logout)
  }

  /// Ends every sign-in of the person (this one and every API token); the client forgets its session.
  public func logoutEverywhere() async throws {
    try await sendExpectingNoContent(.logoutEverywhere)
  }

  /// A new bearer token for the signed-in named account, shown once (lasting `request.expiresInDays`, else 90 days).
  public func createToken(_ request: TokenRequest = TokenRequest()) async throws -> TokenResponse {
    try await send(.createToken, body: .json(request))
  }

  /// The person's sign-ins (browsers and API tokens), newest first, never a secret.
  public func signIns() async throws -> SignInList {
    try await send(.listSignIns)
  }

  /// Ends one of the person's own sign-ins (an id from ``signIns()``), on every server at once.
  public func revokeSignIn(_ id: String) async throws {
    try await sendExpectingNoContent(.revokeSignIn, id)
  }

  /// What a username and a new password must be (the server's rules, for a form to show before sending).
  public func accountLimits() async throws -> AccountLimits {
    try await send(.getAccountLimits)
  }

  /// Which kinds of celebration the person turned off, and every kind that can be.
  public func celebrations() async throws -> CelebrationSettings {
    try await send(.getCelebrations)
  }

  /// Turns celebrations of the kinds in `optedOut` off and every other kind on.
  public func setCelebrations(optedOut: [String]) async throws -> CelebrationSettings {
    try await send(.setCelebrations, body: .json(CelebrationSettings(optedOut: optedOut)))
  }
}
