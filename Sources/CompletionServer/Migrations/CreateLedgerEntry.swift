import Fluent

/// The append-only reward ledger shared by every system; the unique key makes payments idempotent.
struct CreateLedgerEntry: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(LedgerEntryRecord.schema)
      .id()
      .field("key", .string, .required)
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("currency", .string, .required)
      .field("amount", .int, .required)
      .field("reason", .string, .required)
      .field("created_at", .datetime)
      .unique(on: "key")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(LedgerEntryRecord.schema).delete()
  }
}
