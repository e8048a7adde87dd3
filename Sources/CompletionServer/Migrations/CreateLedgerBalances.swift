import Fluent
import FluentSQL

/// Kept ledger balances (one row per user and currency), filled from the entries already there, so a
/// balance is read, never summed.
struct CreateLedgerBalances: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(LedgerBalances.schema)
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("currency", .string, .required)
      .field("balance", .int, .required)
      .unique(on: "user_id", "currency")
      .create()
    let sql = database.sql
    try await sql.raw(
      """
      INSERT INTO ledger_balances (user_id, currency, balance)
      SELECT user_id, currency, CAST(SUM(amount) AS BIGINT) FROM ledger_entries GROUP BY user_id, currency
      """
    ).run()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(LedgerBalances.schema).delete()
  }
}
