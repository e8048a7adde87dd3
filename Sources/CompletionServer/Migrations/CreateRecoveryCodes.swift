import Fluent

/// Recovery codes: one-time codes that can set a new password, stored as SHA-256 hashes.
struct CreateRecoveryCodes: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(RecoveryCodes.schema)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("code_hash", .string, .required)
      .field("created_at", .datetime, .required)
      // Also the index every recovery looks a code up by.
      .unique(on: "user_id", "code_hash")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(RecoveryCodes.schema).delete()
  }
}
