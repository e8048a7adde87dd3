import Foundation

/// One payment (or, with a negative amount, one spend) in the ledger.
public struct LedgerEntry: Hashable, Sendable, Codable {
  /// Unique per real-world event ("cryptogram:session-42"); a retry carries the same key.
  public let key: String
  public let account: String
  /// What is paid: "coins", "points", "streakDays"…
  public let currency: String
  public let amount: Int
  public let reason: String
  public let recordedAt: Date

  public init(key: String, account: String, currency: String, amount: Int, reason: String, recordedAt: Date) {
    self.key = key
    self.account = account
    self.currency = currency
    self.amount = amount
    self.reason = reason
    self.recordedAt = recordedAt
  }
}

extension LedgerEntry {
  /// Whether `other` asks for the same payment (same key, account, currency and amount); reason and time
  /// may differ between a first attempt and its retry.
  public func isSamePayment(as other: LedgerEntry) -> Bool {
    key == other.key && account == other.account && currency == other.currency && amount == other.amount
  }
}

/// What recording an entry did.
public enum LedgerOutcome: Hashable, Sendable {
  /// The entry was appended and the balance changed.
  case recorded(LedgerEntry, balance: Int)
  /// The key had been seen with the same account, currency and amount: nothing changed; the first
  /// entry with that key is returned.
  case duplicate(LedgerEntry)
  /// The key had been used for a different payment (another account, currency or amount): refused,
  /// nothing changed; the first entry with that key is returned.
  case conflict(LedgerEntry)
  /// A spend larger than the balance: refused, nothing changed.
  case insufficientFunds(balance: Int)
  /// The key was empty: refused, nothing changed.
  case missingKey
}

/// An append-only record of rewards where every entry carries an idempotency key, so a retried or
/// duplicated completion pays once. Balances are kept incrementally, never recounted.
public struct RewardLedger: Sendable {
  private struct BalanceKey: Hashable, Sendable {
    let account: String
    let currency: String
  }

  /// Every entry, in the order recorded.
  public private(set) var entries: [LedgerEntry] = []
  private var indexByKey: [String: Int] = [:]
  private var balances: [BalanceKey: Int] = [:]

  public init() {}

  /// Appends `entry` unless its key was seen before, it would overdraw the balance, or its key is empty.
  @discardableResult
  public mutating func record(_ entry: LedgerEntry) -> LedgerOutcome {
    guard !entry.key.isEmpty else { return .missingKey }
    if let index = indexByKey[entry.key] {
      let first = entries[index]
      return first.isSamePayment(as: entry) ? .duplicate(first) : .conflict(first)
    }
    let balanceKey = BalanceKey(account: entry.account, currency: entry.currency)
    let current = balances[balanceKey, default: 0]
    if entry.amount < 0, current + entry.amount < 0 { return .insufficientFunds(balance: current) }
    indexByKey[entry.key] = entries.count
    entries.append(entry)
    balances[balanceKey] = current + entry.amount
    return .recorded(entry, balance: current + entry.amount)
  }

  /// The running total for one account and currency.
  public func balance(of account: String, in currency: String) -> Int {
    balances[BalanceKey(account: account, currency: currency), default: 0]
  }

  /// Whether an entry with `key` has been recorded.
  public func contains(key: String) -> Bool { indexByKey[key] != nil }
}

extension LedgerOutcome {
  /// Whether this call wrote the entry.
  public var didRecord: Bool {
    if case .recorded = self { return true }
    return false
  }
}
