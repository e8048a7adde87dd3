import Fluent

/// Sign-ins (cookie sessions and API bearer tokens), stored as hashes.
struct CreateAuthToken: AsyncMigration {
  func prepare(on database: any Database) async throws {
    let kind = try await database.enum("auth_token_kind").case("cookie").case("bearer").create()
    try await database.schema(AuthToken.schema)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("token_hash", .string, .required)
      .field("kind", kind, .required)
      .field("created_at", .datetime)
      .field("expires_at", .datetime, .required)
      .unique(on: "token_hash")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(AuthToken.schema).delete()
    try await database.enum("auth_token_kind").delete()
  }
}
