import Fluent

/// Durable idempotency: the first response to a request key, replayed to its retries (kept 48 hours).
struct CreateIdempotencyRecords: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(IdempotencyRecord.schema)
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("key", .string, .required)
      .field("fingerprint", .string, .required)
      .field("status", .int, .required)
      .field("body", .string, .required)
      .field("created_at", .datetime, .required)
      .unique(on: "user_id", "key")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(IdempotencyRecord.schema).delete()
  }
}
