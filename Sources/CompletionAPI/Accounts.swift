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

/// `POST /api/account/register`'s answer: the saved account (the fields of ``UserResponse``) and its ten
/// recovery codes, shown this once (only their hashes are kept).
public struct RegisterResponse: Codable, Hashable, Sendable {
  public let id: String
  public let displayName: String
  public let username: String?
  public let isGuest: Bool
  /// One-time codes, each able to set a new password once (`POST /api/account/recover`).
  public let recoveryCodes: [String]

  public init(user: UserResponse, recoveryCodes: [String]) {
    id = user.id
    displayName = user.displayName
    username = user.username
    isGuest = user.isGuest
    self.recoveryCodes = recoveryCodes
  }

  /// The account, without the codes.
  public var user: UserResponse { UserResponse(id: id, displayName: displayName, username: username, isGuest: isGuest) }
}

/// `POST /api/account/password`: a new password for the signed-in account, proven by the current one.
public struct ChangePasswordRequest: Codable, Hashable, Sendable {
  public let currentPassword: String
  public let newPassword: String

  public init(currentPassword: String, newPassword: String) {
    self.currentPassword = currentPassword
    self.newPassword = newPassword
  }
}

/// `POST /api/account/password`'s answer: how many other sign-ins (browsers and API tokens) were ended.
public struct PasswordChangeResponse: Codable, Hashable, Sendable {
  public let endedSignIns: Int
  /// Whether the sign-in the change was made with was ended too (a bearer token is: sign in again).
  public let signedOut: Bool

  public init(endedSignIns: Int, signedOut: Bool) {
    self.endedSignIns = endedSignIns
    self.signedOut = signedOut
  }
}

/// `POST /api/account/recover`: a forgotten password replaced with the help of one recovery code.
public struct RecoverRequest: Codable, Hashable, Sendable {
  public let username: String
  public let code: String
  public let newPassword: String

  public init(username: String, code: String, newPassword: String) {
    self.username = username
    self.code = code
    self.newPassword = newPassword
  }
}

/// `POST /api/account/recover`'s answer: the account now signed in here, and how many codes are left.
public struct RecoverResponse: Codable, Hashable, Sendable {
  public let user: UserResponse
  public let recoveryCodesLeft: Int

  public init(user: UserResponse, recoveryCodesLeft: Int) {
    self.user = user
    self.recoveryCodesLeft = recoveryCodesLeft
  }
}

/// `POST /api/account/recovery-codes`: new recovery codes, proven by the password.
public struct RecoveryCodesRequest: Codable, Hashable, Sendable {
  public let password: String

  public init(password: String) { self.password = password }
}

/// New recovery codes, shown once; every earlier code stopped working.
public struct RecoveryCodeList: Codable, Hashable, Sendable {
  public let codes: [String]

  public init(codes: [String]) { self.codes = codes }
}

/// `GET /api/account/recovery-codes`: how many unused codes the account has (never the codes).
public struct RecoveryCodeStatus: Codable, Hashable, Sendable {
  public let remaining: Int

  public init(remaining: Int) { self.remaining = remaining }
}

/// `POST /api/account/tokens`: a bearer token for API clients, shown once.
public struct TokenResponse: Codable, Hashable, Sendable {
  public let token: String
  public let user: UserResponse
  /// When the token stops working, in seconds since 1970 (never later than the sign-in that made it).
  public let expiresAt: Double?

  public init(token: String, user: UserResponse, expiresAt: Double? = nil) {
    self.token = token
    self.user = user
    self.expiresAt = expiresAt
  }
}

/// `POST /api/account/tokens` `{expiresInDays?}` (optional body): how long the token lasts, 1–365 days (90), but
/// never past the sign-in it is made with.
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
  /// When a browser was last seen (to the day), in seconds since 1970; it is signed out after 30 idle days.
  public let lastSeenAt: Double?

  public init(id: String, kind: String, createdAt: Double?, expiresAt: Double, current: Bool, lastSeenAt: Double? = nil) {
    self.id = id
    self.kind = kind
    self.createdAt = createdAt
    self.expiresAt = expiresAt
    self.current = current
    self.lastSeenAt = lastSeenAt
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

/// `GET /api/account/limits`: what a username and a new password must be, so a form can say so before it is sent.
public struct AccountLimits: Codable, Hashable, Sendable {
  /// A username's fewest and most characters.
  public let usernameMinLength: Int
  public let usernameMaxLength: Int
  /// The characters a username may have, as a person reads them.
  public let usernameCharacters: String
  /// A new password's fewest characters, and most bytes (UTF-8).
  public let passwordMinLength: Int
  public let passwordMaxBytes: Int

  public init(usernameMinLength: Int, usernameMaxLength: Int, usernameCharacters: String, passwordMinLength: Int, passwordMaxBytes: Int) {
    self.usernameMinLength = usernameMinLength
    self.usernameMaxLength = usernameMaxLength
    self.usernameCharacters = usernameCharacters
    self.passwordMinLength = passwordMinLength
    self.passwordMaxBytes = passwordMaxBytes
  }
}
