import Fluent

/// One Waldabenteuer game per account: the machine's snapshot as JSON, with a version for optimistic
/// concurrency, the recent event ids for idempotent retries, and the play-time clock's bookkeeping.
struct CreateKidsGame: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(KidsGameRecord.schema)
      .field("user_id", .uuid, .identifier(auto: false), .references(User.schema, .id, onDelete: .cascade))
      .field("snapshot", .string, .required)
      .field("version", .int, .required)
      .field("recent_event_ids", .string, .required)
      .field("play_day", .string)
      .field("time_zone", .string)
      .field("last_heartbeat_at", .datetime)
      .field("updated_at", .datetime, .required)
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(KidsGameRecord.schema).delete()
  }
}
