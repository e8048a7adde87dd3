import CompletionAPI
import Fluent
import Foundation

/// A person. Every visitor starts as a guest; saving the account adds a username and password.
final class User: Model, @unchecked Sendable {
  static let schema = "users"

  /// What a visitor without an account is called until their first write makes their guest.
  static let visitorName = "Guest"

  @ID(key: .id) var id: UUID?
  @Field(key: "display_name") var displayName: String
  /// Lower-cased; nil for guests.
  @OptionalField(key: "username") var username: String?
  @OptionalField(key: "password_hash") var passwordHash: String?
  @Field(key: "is_guest") var isGuest: Bool
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?
  @Timestamp(key: "updated_at", on: .update) var updatedAt: Date?

  init() {}

  init(id: UUID? = nil, displayName: String, username: String? = nil, passwordHash: String? = nil, isGuest: Bool) {
    self.id = id
    self.displayName = displayName
    self.username = username
    self.passwordHash = passwordHash
    self.isGuest = isGuest
  }

  func toResponse() throws -> UserResponse {
    UserResponse(id: try requireID().uuidString, displayName: displayName, username: username, isGuest: isGuest)
  }
}
