import Fluent
import FluentSQL

/// The completion pipeline's own tables: every recorded completion (unique by key, so one is recorded
/// once), streaks by name, per-domain totals, and each person's celebration settings. The cryptogram's
/// solve totals and daily streak move here from `cryptogram_stats` (those columns are no longer written).
struct CreateCompletions: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(CompletionRecord.schema)
      .id()
      .field("key", .string, .required)
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("domain", .string, .required)
      .field("subject", .string, .required)
      .field("member", .string)
      .field("kind", .string, .required)
      .field("completed_at", .datetime, .required)
      .field("time_zone", .string, .required)
      .field("scheduled_day", .string)
      .field("seconds", .double)
      .field("mistakes", .int)
      .field("hints", .int)
      .field("celebrated", .bool, .required)
      .unique(on: "key")
      .create()
    try await database.schema(StreakRecord.schema)
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("name", .string, .required)
      .field("current", .int, .required)
      .field("longest", .int, .required)
      .field("last_day", .string)
      .field("last_zone", .string)
      .field("freezes", .int, .required)
      .unique(on: "user_id", "name")
      .create()
    try await database.schema(CompletionStatsRecord.schema)
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("domain", .string, .required)
      .field("completed", .int, .required)
      .field("timed", .int, .required)
      .field("total_seconds", .double, .required)
      .field("best_seconds", .double)
      .unique(on: "user_id", "domain")
      .create()
    try await database.schema(CompletionProfileRecord.schema)
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("celebration_opt_outs", .string, .required)
      .field("last_celebrated_at", .datetime)
      .unique(on: "user_id")
      .create()
    let sql = database.sql
    try await sql.raw(
      """
      INSERT INTO completion_stats (user_id, domain, completed, timed, total_seconds, best_seconds)
      SELECT user_id, 'cryptogram', solved, solved, total_solve_seconds, best_seconds FROM cryptogram_stats WHERE solved > 0
      """
    ).run()
    try await sql.raw(
      """
      INSERT INTO streaks (user_id, name, current, longest, last_day, last_zone, freezes)
      SELECT user_id, 'cryptogram-daily', streak_current, streak_best, streak_last_day, NULL, 0 FROM cryptogram_stats
      WHERE streak_last_day IS NOT NULL
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(CompletionProfileRecord.schema).delete()
    try await database.schema(CompletionStatsRecord.schema).delete()
    try await database.schema(StreakRecord.schema).delete()
    try await database.schema(CompletionRecord.schema).delete()
  }
}
