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

  /// Turns the current guest (or a new visitor) into a named account with a password, and signs it in.
  public func register(username: String, password: String, displayName: String? = nil) async throws -> UserResponse {
    try await send(.register, body: .json(RegisterRequest(username: username, password: password, displayName: displayName)))
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

  /// Which kinds of celebration the person turned off, and every kind that can be.
  public func celebrations() async throws -> CelebrationSettings {
    try await send(.getCelebrations)
  }

  /// Turns celebrations of the kinds in `optedOut` off and every other kind on.
  public func setCelebrations(optedOut: [String]) async throws -> CelebrationSettings {
    try await send(.setCelebrations, body: .json(CelebrationSettings(optedOut: optedOut)))
  }
}
