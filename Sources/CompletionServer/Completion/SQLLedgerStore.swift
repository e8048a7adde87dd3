import CompletionCore
import Fluent
import FluentSQL
import Foundation

/// The reward ledger in the database: entries in `ledger_entries` (unique key), running totals in
/// `ledger_balances`, both written in the caller's transaction. Same rules as ``InMemoryLedgerStore``
/// (one test suite runs on both).
///
/// Accounts are user ids. Use one store per transaction: `SQLLedgerStore(db)` with the transaction's
/// database, so an entry and its balance commit or roll back together with whatever was completed.
struct SQLLedgerStore: LedgerStore {
  let db: any SQLDatabase

  init(_ db: any Database) {
    let sql = db.sql
    self.db = sql
  }

  /// An account that is not a user id.
  struct InvalidAccount: Error, CustomStringConvertible {
    let account: String
    var description: String { "ledger account '\(account)' is not a user id" }
  }

  func record(_ entry: LedgerEntry) async throws -> LedgerOutcome {
    guard !entry.key.isEmpty else { return .missingKey }
    guard let userID = UUID(uuidString: entry.account) else { throw InvalidAccount(account: entry.account) }
    let id = UUID()
    // ON CONFLICT DO NOTHING: a taken key is an answer, not an error, so a PostgreSQL transaction stays usable.
    let inserted = try await Self.insertEntry(
      id, entry.key, userID, entry.currency, entry.amount, entry.reason, entry.recordedAt, on: db
    ).first()
    guard inserted != nil else {
      let first = try await self.entry(key: entry.key)
      guard let first else { preconditionFailure("a ledger key conflicted but no entry has it") }
      return first.isSamePayment(as: entry) ? .duplicate(first) : .conflict(first)
    }
    if entry.amount < 0 {
      // A spend: take it only from a balance that covers it. The row lock of this UPDATE makes concurrent
      // spends of one balance wait for each other and re-check the condition (PostgreSQL), or they are
      // serialised anyway (SQLite).
      let row = try await db.update(LedgerBalances.schema)
        .set(SQLIdentifier("balance"), to: SQLBinaryExpression(SQLIdentifier("balance"), .add, SQLBind(entry.amount)))
        .where("user_id", .equal, SQLBind(userID)).where("currency", .equal, SQLBind(entry.currency))
        .where(SQLIdentifier("balance"), .greaterThanOrEqual, SQLBind(-entry.amount))
        .returning("balance")
        .first()
      guard let row else {
        // Refused: take the entry back out, so the transaction holds no trace of it.
        try await db.delete(from: LedgerEntryRecord.schema).where("id", .equal, SQLBind(id)).run()
        return .insufficientFunds(balance: try await balance(of: entry.account, in: entry.currency))
      }
      LedgerTally.current?.add(currency: entry.currency, amount: entry.amount)
      return .recorded(entry, balance: try row.decode(column: "balance", as: Int.self))
    }
    let row = try await Self.addToBalance(userID, entry.currency, entry.amount, on: db).first()
    LedgerTally.current?.add(currency: entry.currency, amount: entry.amount)
    return .recorded(entry, balance: try row?.decode(column: "balance", as: Int.self) ?? entry.amount)
  }

  private static let insertEntry = FixedSQL(
    """
    INSERT INTO ledger_entries (id, key, user_id, currency, amount, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (key) DO NOTHING RETURNING id
    """)

  private static let addToBalance = FixedSQL(
    """
    INSERT INTO ledger_balances (user_id, currency, balance) VALUES (?, ?, ?)
    ON CONFLICT (user_id, currency) DO UPDATE SET balance = ledger_balances.balance + excluded.balance
    RETURNING balance
    """)

  func balance(of account: String, in currency: String) async throws -> Int {
    guard let userID = UUID(uuidString: account) else { throw InvalidAccount(account: account) }
    return try await Self.balance(userID: userID, currency: currency, on: db)
  }

  /// The kept balance of one currency for one user (0 before the first entry).
  static func balance(userID: UUID, currency: String, on db: any SQLDatabase) async throws -> Int {
    let row = try await db.select().column("balance").from(LedgerBalances.schema)
      .where("user_id", .equal, SQLBind(userID)).where("currency", .equal, SQLBind(currency))
      .first()
    return try row?.decode(column: "balance", as: Int.self) ?? 0
  }

  /// The entry with `key`, if any.
  func entry(key: String) async throws -> LedgerEntry? {
    struct Row: Decodable {
      let key: String
      let user_id: UUID
      let currency: String
      let amount: Int
      let reason: String
      let created_at: Date?
    }
    let row = try await db.select().columns("key", "user_id", "currency", "amount", "reason", "created_at")
      .from(LedgerEntryRecord.schema).where("key", .equal, SQLBind(key))
      .first(decoding: Row.self)
    return row.map {
      LedgerEntry(
        key: $0.key, account: $0.user_id.uuidString, currency: $0.currency, amount: $0.amount, reason: $0.reason,
        recordedAt: $0.created_at ?? Date(timeIntervalSince1970: 0))
    }
  }
}

/// The kept running totals of the ledger: one row per user and currency.
enum LedgerBalances {
  static let schema = "ledger_balances"
}

/// Checks that every kept balance equals the sum of its entries (`completionkit ledger verify`).
enum LedgerVerification {
  /// A balance that does not match its entries.
  struct Difference: Hashable, Sendable, CustomStringConvertible {
    let userID: UUID
    let currency: String
    /// What the balances table says.
    let kept: Int
    /// What the entries add up to.
    let summed: Int

    var description: String { "user \(userID.uuidString) \(currency): kept \(kept), entries sum to \(summed)" }
  }

  /// What a verification found.
  struct Report: Sendable {
    let balancesChecked: Int
    let differences: [Difference]
    /// Balances below zero (never allowed).
    let negative: [Difference]
  }

  /// Recomputes every balance from the entries and compares. One statement, so it reads one consistent
  /// state while payments go on (two separate reads could straddle a commit and report a false mismatch).
  /// `users` limits the report to those people (tests share one database); nil checks everyone.
  static func verify(on database: any Database, users: Set<UUID>? = nil) async throws -> Report {
    let db = database.sql
    struct Row: Decodable {
      let user_id: UUID
      let currency: String
      let kept: Int?
      let summed: Int
    }
    // PostgreSQL sums BIGINT as NUMERIC; cast back so both databases answer with an integer.
    let rows = try await db.raw(
      """
      SELECT b.user_id AS user_id, b.currency AS currency, b.balance AS kept,
        CAST(COALESCE((SELECT SUM(e.amount) FROM ledger_entries e WHERE e.user_id = b.user_id AND e.currency = b.currency), 0) AS BIGINT) AS summed
      FROM ledger_balances b
      UNION ALL
      SELECT e.user_id AS user_id, e.currency AS currency, NULL AS kept, CAST(SUM(e.amount) AS BIGINT) AS summed
      FROM ledger_entries e
      WHERE NOT EXISTS (SELECT 1 FROM ledger_balances b WHERE b.user_id = e.user_id AND b.currency = e.currency)
      GROUP BY e.user_id, e.currency
      """
    ).all(decoding: Row.self).filter { users?.contains($0.user_id) ?? true }
    var differences: [Difference] = []
    var negative: [Difference] = []
    for row in rows {
      let difference = Difference(userID: row.user_id, currency: row.currency, kept: row.kept ?? 0, summed: row.summed)
      if difference.kept != difference.summed { differences.append(difference) }
      if difference.kept < 0 { negative.append(difference) }
    }
    let balancesChecked = rows.filter { $0.kept != nil }.count
    return Report(
      balancesChecked: balancesChecked, differences: differences.sorted { $0.description < $1.description }, negative: negative)
  }
}
