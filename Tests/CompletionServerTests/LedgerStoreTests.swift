import CompletionCore
import Fluent
import FluentSQL
import Foundation
import Synchronization
import PropertyBased
import Testing
import Vapor

@testable import CompletionServer

/// One suite of ledger rules, run on the in-memory store and on the SQL store (SQLite here, PostgreSQL in
/// CI): a key pays once, a key reused for another payment is a conflict, an overdraft is refused, and the
/// kept balance always equals the sum of the entries.
@Suite("Ledger stores", .serialized)
struct LedgerStoreTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  static func entry(_ key: String, _ amount: Int, _ account: String, currency: String = "coins", reason: String = "test") -> LedgerEntry {
    LedgerEntry(key: key, account: account, currency: currency, amount: amount, reason: reason, recordedAt: now)
  }

  /// The SQL store as production uses it: every record in its own transaction.
  struct TransactionalSQLStore: LedgerStore {
    let db: any Database
    func record(_ entry: LedgerEntry) async throws -> LedgerOutcome {
      try await db.transaction { try await SQLLedgerStore($0).record(entry) }
    }
    func balance(of account: String, in currency: String) async throws -> Int {
      try await SQLLedgerStore(db).balance(of: account, in: currency)
    }
  }

  /// The shared rules. `accounts` are two accounts the store accepts.
  static func rules(_ store: some LedgerStore, _ ada: String, _ bo: String) async throws {
    let key = "rules-\(UUID().uuidString)"
    #expect(try await store.record(entry(key, 10, ada)) == .recorded(entry(key, 10, ada), balance: 10))
    // A retry (even with another reason text) pays nothing more.
    guard case .duplicate(let first) = try await store.record(entry(key, 10, ada, reason: "retried")) else {
      Issue.record("a retry is a duplicate")
      return
    }
    #expect(first.key == key && first.amount == 10 && first.reason == "test")
    // The same key for another payment is a conflict, whatever differs.
    for other in [entry(key, 11, ada), entry(key, 10, bo), entry(key, 10, ada, currency: "points")] {
      guard case .conflict(let original) = try await store.record(other) else {
        Issue.record("\(other) should conflict")
        continue
      }
      #expect(original.amount == 10 && original.account == ada)
    }
    #expect(try await store.balance(of: ada, in: "coins") == 10)
    // Overdrafts are refused and change nothing; an exact spend empties the balance.
    #expect(try await store.record(entry("\(key)-spend", -11, ada)) == .insufficientFunds(balance: 10))
    #expect(try await store.record(entry("\(key)-spend", -10, ada)) == .recorded(entry("\(key)-spend", -10, ada), balance: 0))
    #expect(try await store.record(entry("\(key)-nothing", -1, bo)) == .insufficientFunds(balance: 0))
    #expect(try await store.record(entry("", 5, ada)) == .missingKey)
    // Balances are per account and currency.
    _ = try await store.record(entry("\(key)-bo", 7, bo))
    _ = try await store.record(entry("\(key)-points", 100, ada, currency: "points"))
    #expect(try await store.balance(of: ada, in: "coins") == 0)
    #expect(try await store.balance(of: bo, in: "coins") == 7)
    #expect(try await store.balance(of: ada, in: "points") == 100)
  }

  /// Random payments, spends and retries in any order: Σ accepted = balance ≥ 0, each key paid once.
  static func property(_ makeStore: @escaping @Sendable () async throws -> (any LedgerStore, String), count: Int) async {
    let operation = PropertyBased.zip(Gen.int(in: 0...12), Gen.int(in: -6...8))
    await propertyCheck(count: count, input: operation.array(of: 0...40)) { operations in
      do {
        let (store, account) = try await makeStore()
        let prefix = UUID().uuidString
        var paid: [String: Int] = [:]
        for (keyNumber, amount) in operations {
          let key = "\(prefix)-\(keyNumber)"
          switch try await store.record(entry(key, amount, account)) {
          case .recorded: paid[key] = amount
          case .duplicate(let first): #expect(first.amount == amount && paid[key] == amount)
          case .conflict(let first): #expect(first.amount != amount && paid[key] == first.amount)
          case .insufficientFunds(let balance): #expect(balance + amount < 0 && paid[key] == nil)
          case .missingKey: Issue.record("keys are never empty here")
          }
          let balance = try await store.balance(of: account, in: "coins")
          #expect(balance == paid.values.reduce(0, +) && balance >= 0)
        }
      } catch {
        Issue.record(error)
      }
    }
  }

  /// The users a property run made.
  final class UserList: Sendable {
    private let users = Mutex<Set<UUID>>([])
    func add(_ user: UUID) { users.withLock { _ = $0.insert(user) } }
    var all: Set<UUID> { users.withLock { $0 } }
  }

  static func newUser(on db: any Database) async throws -> String {
    let user = User(displayName: "Ledger test", isGuest: true)
    try await user.create(on: db)
    return try user.requireID().uuidString
  }

  @Test("In-memory store: the shared rules")
  func memoryRules() async throws {
    try await Self.rules(InMemoryLedgerStore(), "ada", "bo")
  }

  @Test("SQL store: the shared rules, and `ledger verify` finds nothing wrong")
  func sqlRules() async throws {
    try await withTestApp { _, app in
      let ada = try await Self.newUser(on: app.db)
      let bo = try await Self.newUser(on: app.db)
      try await Self.rules(TransactionalSQLStore(db: app.db), ada, bo)
      let report = try await LedgerVerification.verify(on: app.db, users: [UUID(uuidString: ada)!, UUID(uuidString: bo)!])
      #expect(report.differences.isEmpty && report.negative.isEmpty && report.balancesChecked >= 3)
    }
  }

  @Test("Property: in-memory store")
  func memoryProperty() async {
    await Self.property({ (InMemoryLedgerStore(), "ada") }, count: 200)
  }

  @Test("Property: SQL store")
  func sqlProperty() async throws {
    try await withTestApp { _, app in
      let db = app.db
      let users = UserList()
      let makeStore: @Sendable () async throws -> (any LedgerStore, String) = {
        let user = try await Self.newUser(on: db)
        users.add(UUID(uuidString: user)!)
        return (TransactionalSQLStore(db: db), user)
      }
      await Self.property(makeStore, count: 25)
      let report = try await LedgerVerification.verify(on: db, users: users.all)
      #expect(report.differences.isEmpty)
    }
  }

  @Test("Concurrent spends of one balance on the SQL store: exactly the affordable ones land")
  func concurrentSpends() async throws {
    try await withTestApp { _, app in
      let db = app.db
      let ada = try await Self.newUser(on: db)
      let store = TransactionalSQLStore(db: db)
      _ = try await store.record(Self.entry("\(ada)-in", 25, ada))
      let outcomes = try await withThrowingTaskGroup(of: LedgerOutcome.self) { group in
        for index in 0..<8 { group.addTask { try await store.record(Self.entry("\(ada)-spend-\(index)", -10, ada)) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(outcomes.filter(\.didRecord).count == 2)
      #expect(try await store.balance(of: ada, in: "coins") == 5)
    }
  }

  @Test("`ledger verify` reports a kept balance that differs from its entries")
  func verifyFindsDifferences() async throws {
    try await withTestApp { _, app in
      let ada = try await Self.newUser(on: app.db)
      _ = try await TransactionalSQLStore(db: app.db).record(Self.entry("\(ada)-pay", 10, ada))
      let sql = try #require(app.db as? any SQLDatabase)
      try await sql.raw("UPDATE ledger_balances SET balance = 12 WHERE user_id = \(bind: UUID(uuidString: ada)!)").run()
      let report = try await LedgerVerification.verify(on: app.db, users: [UUID(uuidString: ada)!])
      let difference = try #require(report.differences.first { $0.userID.uuidString == ada })
      #expect(difference.kept == 12 && difference.summed == 10)
      // Put it right again: on PostgreSQL the database outlives this test.
      try await sql.raw("UPDATE ledger_balances SET balance = 10 WHERE user_id = \(bind: UUID(uuidString: ada)!)").run()
    }
  }

  @Test("`completionkit ledger verify` on a SQLite file: clean, then a tampered balance is reported and fails")
  func verifyCommand() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-ledger-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    try await withTestApp(options: options) { _, app in
      let ada = try await Self.newUser(on: app.db)
      _ = try await TransactionalSQLStore(db: app.db).record(Self.entry("\(ada)-pay", 10, ada))
    }
    let clean = try await Launcher.verifyLedger(options: options, logLevel: "error")
    #expect(clean.isClean && clean.lines == ["Ledger is consistent: 1 balance matches its entries."])
    try await withTestApp(options: options) { _, app in
      let sql = try #require(app.db as? any SQLDatabase)
      try await sql.raw("UPDATE ledger_balances SET balance = balance + 5").run()
    }
    let tampered = try await Launcher.verifyLedger(options: options, logLevel: "error")
    #expect(!tampered.isClean && tampered.lines.first?.hasPrefix("mismatch: user ") == true && tampered.lines.first?.hasSuffix("kept 15, entries sum to 10") == true)
  }
}
