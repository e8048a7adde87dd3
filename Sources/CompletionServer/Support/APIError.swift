import Vapor

/// An error the API reports on purpose: an HTTP status, a stable code clients can branch on, and a
/// message a person can read. Domains conform their own error enums to it; the middleware maps them.
public protocol APIErrorConvertible: Error {
  var status: HTTPResponseStatus { get }
  var code: String { get }
  var message: String { get }
  /// Seconds after which trying again makes sense (sent as `Retry-After`), if any.
  var retryAfter: Int? { get }
}

extension APIErrorConvertible {
  public var retryAfter: Int? { nil }
}

/// Errors of the server itself (accounts, requests, motion parameters).
public enum AppError: APIErrorConvertible, Equatable {
  case invalidJSON(String)
  case invalidParameter(String, String)
  case notFound(String)
  case unauthenticated
  /// A bearer token that is unknown, revoked or expired: the client must sign in again.
  case invalidToken
  /// A write with a session cookie that no longer signs anyone in (signed out elsewhere, idle too long): the
  /// page believes it is someone, so the change must not go to a new guest instead.
  case sessionEnded
  case invalidCredentials
  case usernameTaken
  case invalidUsername
  case weakPassword
  case blankPassword
  case passwordTooLong
  /// One of the bundled most common passwords.
  case passwordTooCommon
  /// The password is the username, or contains it.
  case passwordContainsUsername
  /// A change that needs the current password came with the wrong one.
  case wrongPassword
  /// A recovery code that is not one of the account's unused codes (or an unknown username).
  case invalidRecoveryCode
  case alreadyRegistered
  case namedAccountRequired
  case unsupportedMediaType
  case tooManyAttempts(retryAfter: Int)
  case busy
  /// Too many new guest accounts from one client address.
  case tooManyGuests(retryAfter: Int)
  /// A browser request that changes something came without proof that it is not a cross-site form.
  case requestHeaderRequired

  public var status: HTTPResponseStatus {
    switch self {
    case .invalidJSON, .invalidParameter, .invalidUsername, .weakPassword, .blankPassword, .passwordTooLong, .passwordTooCommon,
      .passwordContainsUsername:
      .badRequest
    case .notFound: .notFound
    case .unauthenticated, .invalidCredentials, .invalidToken, .sessionEnded, .invalidRecoveryCode: .unauthorized
    case .namedAccountRequired, .wrongPassword: .forbidden
    case .usernameTaken, .alreadyRegistered: .conflict
    case .unsupportedMediaType: .unsupportedMediaType
    case .tooManyAttempts, .tooManyGuests: .tooManyRequests
    case .requestHeaderRequired: .forbidden
    case .busy: .serviceUnavailable
    }
  }

  public var code: String {
    switch self {
    case .invalidJSON: "invalid_json"
    case .invalidParameter: "invalid_parameter"
    case .notFound: "not_found"
    case .unauthenticated: "unauthenticated"
    case .invalidToken: "invalid_token"
    case .sessionEnded: "session_ended"
    case .invalidCredentials: "invalid_credentials"
    case .usernameTaken: "username_taken"
    case .invalidUsername: "invalid_username"
    case .weakPassword: "weak_password"
    case .blankPassword: "blank_password"
    case .passwordTooLong: "password_too_long"
    case .passwordTooCommon: "password_too_common"
    case .passwordContainsUsername: "password_contains_username"
    case .wrongPassword: "wrong_password"
    case .invalidRecoveryCode: "invalid_recovery_code"
    case .alreadyRegistered: "already_registered"
    case .namedAccountRequired: "named_account_required"
    case .unsupportedMediaType: "unsupported_media_type"
    case .tooManyAttempts: "too_many_attempts"
    case .busy: "busy"
    case .tooManyGuests: "too_many_guests"
    case .requestHeaderRequired: "request_header_required"
    }
  }

  public var message: String {
    switch self {
    case .invalidJSON(let detail): "The request body is not valid JSON for this endpoint: \(detail)"
    case .invalidParameter(let name, let detail): "The parameter '\(name)' is not valid: \(detail)"
    case .notFound(let what): "\(what) was not found."
    case .unauthenticated: "Sign in first: this needs an account."
    case .invalidToken: "This token is unknown, revoked or expired. Please sign in again and make a new token."
    case .sessionEnded:
      "You were signed out (on another device, or after a long time away), so nothing was saved. Sign in again on the home page, or reload this page to carry on as a guest."
    case .invalidCredentials: "That username and password do not match."
    case .usernameTaken: "That username is taken. Please choose another."
    case .invalidUsername: "Usernames are 3–32 letters, digits, dots, dashes or underscores."
    case .weakPassword: "Passwords need at least 8 characters."
    case .blankPassword: "A password of only spaces is easy to guess: use letters, digits or symbols too."
    case .passwordTooLong: "Passwords can be at most 72 bytes long: 72 plain letters or digits, fewer with accents or emoji."
    case .passwordTooCommon:
      "That password is one of the most common ones, which anyone guessing tries first. Please choose another: a few unrelated words make a strong one."
    case .passwordContainsUsername: "A password must not contain your username. Please choose another."
    case .wrongPassword: "Your current password is not right. Please try again."
    case .invalidRecoveryCode:
      "That username and recovery code do not match, or the code was used already (each code works once)."
    case .alreadyRegistered: "This account already has a username and password."
    case .namedAccountRequired: "Save your account with a username and password first."
    case .unsupportedMediaType: "Send the request body as JSON (Content-Type: application/json)."
    case .tooManyAttempts(let seconds):
      "Too many sign-in attempts. Please wait \(seconds < 120 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes") and try again."
    case .busy: "The server is busy signing people in. Please try again in a moment."
    case .tooManyGuests(let seconds):
      "Many new visitors came from your network just now. Please wait \(seconds < 120 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes") and try again, or sign in."
    case .requestHeaderRequired:
      "This request changes something, so it must come from CompletionKit's own pages: send JSON (Content-Type: application/json) or the header X-CompletionKit: 1."
    }
  }

  public var retryAfter: Int? {
    switch self {
    case .tooManyAttempts(let seconds), .tooManyGuests(let seconds): seconds
    case .busy: 1
    default: nil
    }
  }
}
