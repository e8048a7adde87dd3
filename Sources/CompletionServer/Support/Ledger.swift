import Fluent
import FluentSQL
import Foundation

/// Pays rewards into the ledger table, once per idempotency key.
enum Ledger {
  /// Records a payment unless `key` was paid before. Returns true when this call paid.
  /// Run it inside the transaction that records the completion, so the payment and the stats commit together.
  static func pay(key: String, userID: UUID, currency: String, amount: Int, reason: String, on db: any Database) async throws -> Bool {
    guard let sql = db as? any SQLDatabase else {
      // Every supported driver is SQL; a non-SQL database would need its own conflict handling.
      preconditionFailure("the ledger needs an SQL database")
    }
    let id = UUID()
    // ON CONFLICT DO NOTHING: a duplicate key is not an error, so a PostgreSQL transaction stays usable.
    try await sql.insert(into: LedgerEntryRecord.schema)
      .columns("id", "key", "user_id", "currency", "amount", "reason", "created_at")
      .values(SQLBind(id), SQLBind(key), SQLBind(userID), SQLBind(currency), SQLBind(amount), SQLBind(reason), SQLBind(Date()))
      .ignoringConflicts(with: "key")
      .run()
    let stored = try await LedgerEntryRecord.query(on: db).filter(\.$key == key).first()
    return stored?.id == id
  }

  /// The balance of one currency for one user.
  static func balance(userID: UUID, currency: String, on db: any Database) async throws -> Int {
    guard let sql = db as? any SQLDatabase else { preconditionFailure("the ledger needs an SQL database") }
    // PostgreSQL sums BIGINT as NUMERIC; cast back so both databases answer with an integer.
    let row = try await sql.raw(
      """
      SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM ledger_entries
      WHERE user_id = \(bind: userID) AND currency = \(bind: currency)
      """
    ).first()
    return try row?.decode(column: "total", as: Int.self) ?? 0
  }
}
