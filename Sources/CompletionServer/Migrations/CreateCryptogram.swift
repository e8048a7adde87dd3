import Fluent
import FluentSQL

/// Quotes, cryptogram games and per-person cryptogram stats.
struct CreateCryptogram: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(QuoteRecord.schema)
      .field("id", .string, .identifier(auto: false))
      .field("text", .string, .required)
      .field("author", .string, .required)
      .field("year", .int)
      .field("source", .string)
      .field("origin", .string, .required)
      .field("created_at", .datetime)
      .create()
    try await database.schema(CryptogramGame.schema)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("quote_id", .string, .required, .references(QuoteRecord.schema, "id"))
      .field("seed", .int64, .required)
      .field("mode", .string, .required)
      .field("daily_date", .string)
      .field("time_zone", .string, .required)
      .field("board", .string, .required)
      .field("status", .string, .required)
      .field("solved_at", .datetime)
      .field("solve_seconds", .double)
      .field("mistakes", .int, .required)
      .field("hints", .int, .required)
      .field("created_at", .datetime)
      .field("updated_at", .datetime)
      .create()
    try await database.schema(CryptogramStats.schema)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("played", .int, .required)
      .field("solved", .int, .required)
      .field("failed", .int, .required)
      .field("total_solve_seconds", .double, .required)
      .field("best_seconds", .double)
      .field("streak_current", .int, .required)
      .field("streak_best", .int, .required)
      .field("streak_last_day", .string)
      .unique(on: "user_id")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(CryptogramStats.schema).delete()
    try await database.schema(CryptogramGame.schema).delete()
    try await database.schema(QuoteRecord.schema).delete()
  }
}

/// Lookups the game makes on every request: a person's games by status and date.
struct IndexCryptogramGames: AsyncMigration {
  func prepare(on database: any Database) async throws {
    let sql = database.sql
    try await sql.create(index: "cryptogram_games_user_status").on(CryptogramGame.schema).column("user_id").column("status").run()
    try await sql.create(index: "cryptogram_games_user_daily").on(CryptogramGame.schema).column("user_id").column("daily_date").run()
  }

  func revert(on database: any Database) async throws {
    let sql = database.sql
    try await sql.drop(index: "cryptogram_games_user_status").run()
    try await sql.drop(index: "cryptogram_games_user_daily").run()
  }
}
