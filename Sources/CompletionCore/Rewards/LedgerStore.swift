import Foundation

/// A reward ledger behind a small protocol: the in-memory store and the SQL store follow the same rules
/// and pass the same tests.
///
/// The rules: a key pays once (a retry gets `.duplicate` and changes nothing); a key reused with another
/// account, currency or amount is a `.conflict` (Stripe's rule for idempotency keys); a spend larger than
/// the balance is refused; balances are kept as entries are written, never summed on read.
public protocol LedgerStore: Sendable {
  /// Records `entry` unless one of the rules refuses it.
  func record(_ entry: LedgerEntry) async throws -> LedgerOutcome
  /// The running total for one account and currency.
  func balance(of account: String, in currency: String) async throws -> Int
}

/// The in-memory ledger store (tests, previews, a device without a server).
public actor InMemoryLedgerStore: LedgerStore {
  private var ledger = RewardLedger()

  public init() {}

  public func record(_ entry: LedgerEntry) -> LedgerOutcome { ledger.record(entry) }

  public func balance(of account: String, in currency: String) -> Int { ledger.balance(of: account, in: currency) }

  /// Every entry, in the order recorded.
  public var entries: [LedgerEntry] { ledger.entries }
}
