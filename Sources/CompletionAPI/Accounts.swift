/// A person as the API shows them. Guests have no username until they save their account.
public struct UserResponse: Codable, Hashable, Sendable {
  public let id: String
  public let displayName: String
  public let username: String?
  public let isGuest: Bool

  public init(id: String, displayName: String, username: String?, isGuest: Bool) {
    self.id = id
    self.displayName = displayName
    self.username = username
    self.isGuest = isGuest
  }
}

/// `POST /api/account/register`: turns the current guest into a named account.
public struct RegisterRequest: Codable, Hashable, Sendable {
  public let username: String
  public let password: String
  public let displayName: String?

  public init(username: String, password: String, displayName: String? = nil) {
    self.username = username
    self.password = password
    self.displayName = displayName
  }
}

/// `POST /api/account/login`.
public struct LoginRequest: Codable, Hashable, Sendable {
  public let username: String
  public let password: String

  public init(username: String, password: String) {
    self.username = username
    self.password = password
  }
}

/// `POST /api/account/tokens`: a bearer token for API clients, shown once.
public struct TokenResponse: Codable, Hashable, Sendable {
  public let token: String
  public let user: UserResponse

  public init(token: String, user: UserResponse) {
    self.token = token
    self.user = user
  }
}

/// `GET`/`PUT /api/account/celebrations`: which kinds of celebration a person turned off.
public struct CelebrationSettings: Codable, Hashable, Sendable {
  /// Kinds turned off ("cryptogram"); completions still pay and count, they just are not celebrated.
  public var optedOut: [String]
  /// Every kind that can be turned off (sent by the server).
  public var kinds: [String]?

  public init(optedOut: [String], kinds: [String]? = nil) {
    self.optedOut = optedOut
    self.kinds = kinds
  }
}
