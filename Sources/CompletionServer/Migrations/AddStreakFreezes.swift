import Fluent

/// Bought streak freezes: the days freezes covered, kept with the streak (shown as "used on …", and where
/// missed days are counted from), and one row per purchase, so a streak counted again after a revoke
/// keeps the freezes that were paid for.
struct AddStreakFreezes: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(StreakRecord.schema).field("frozen_days", .string).update()
    try await database.schema(StreakFreezeRecord.schema)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("name", .string, .required)
      .field("ledger_key", .string, .required)
      .field("bought_at", .datetime, .required)
      .field("time_zone", .string, .required)
      .unique(on: "ledger_key")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(StreakFreezeRecord.schema).delete()
    try await database.schema(StreakRecord.schema).deleteField("frozen_days").update()
  }
}
