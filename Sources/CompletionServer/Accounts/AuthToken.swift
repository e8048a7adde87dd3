import Fluent
import Foundation

/// A sign-in: the SHA-256 of a random secret held by a browser cookie or an API client.
/// Only the hash is stored, so a copy of the database cannot be used to sign in.
final class AuthToken: Model, @unchecked Sendable {
  static let schema = "auth_tokens"

  /// Where the secret lives.
  enum Kind: String, Codable, Sendable {
    case cookie
    case bearer
  }

  @ID(key: .id) var id: UUID?
  @Parent(key: "user_id") var user: User
  @Field(key: "token_hash") var tokenHash: String
  @Enum(key: "kind") var kind: Kind
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?
  @Field(key: "expires_at") var expiresAt: Date
  /// When a browser session was last used, to the day (nil for API tokens).
  @OptionalField(key: "last_seen_at") var lastSeenAt: Date?

  init() {}

  init(userID: UUID, tokenHash: String, kind: Kind, expiresAt: Date) {
    self.$user.id = userID
    self.tokenHash = tokenHash
    self.kind = kind
    self.expiresAt = expiresAt
  }
}
