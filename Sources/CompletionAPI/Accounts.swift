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

/// `POST /api/account/tokens` `{expiresInDays?}` (optional body): how long the token lasts, 1–365 days (90).
public struct TokenRequest: Codable, Hashable, Sendable {
  public let expiresInDays: Int?

  public init(expiresInDays: Int? = nil) { self.expiresInDays = expiresInDays }
}

/// One of a person's sign-ins (never its secret): a browser session or an API token.
public struct SignInView: Codable, Hashable, Sendable {
  public let id: String
  /// "browser" (a session cookie) or "token" (a bearer token).
  public let kind: String
  /// Seconds since 1970.
  public let createdAt: Double?
  public let expiresAt: Double
  /// The sign-in this request was made with.
  public let current: Bool

  public init(id: String, kind: String, createdAt: Double?, expiresAt: Double, current: Bool) {
    self.id = id
    self.kind = kind
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.current = current
  }
}

/// `GET /api/account/tokens`: every sign-in of the person, newest first.
public struct SignInList: Codable, Hashable, Sendable {
  public let signIns: [SignInView]

  public init(signIns: [SignInView]) { self.signIns = signIns }
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
