import Fluent

/// Accounts: guests and named users.
struct CreateUser: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(User.schema)
      .id()
      .field("display_name", .string, .required)
      .field("username", .string)
      .field("password_hash", .string)
      .field("is_guest", .bool, .required)
      .field("created_at", .datetime)
      .field("updated_at", .datetime)
      .unique(on: "username")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(User.schema).delete()
  }
}
