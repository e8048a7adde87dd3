import Foundation

/// Turns a completion into ledger entries. Keys are derived from the completion's key and the
/// currency, so the same completion always asks for the same payments and the ledger pays them once.
public struct RewardPolicy: Sendable {
  /// One payment a completion earns.
  public struct Payout: Hashable, Sendable {
    public let currency: String
    public let amount: Int
    public let reason: String

    public init(currency: String, amount: Int, reason: String) {
      self.currency = currency
      self.amount = amount
      self.reason = reason
    }
  }

  private let rule: @Sendable (Completion) -> [Payout]

  /// A policy from a rule; the rule must be pure (same completion, same payouts).
  public init(_ rule: @escaping @Sendable (Completion) -> [Payout]) {
    self.rule = rule
  }

  /// The same amount for every completion.
  public static func fixed(_ amount: Int, currency: String, reason: String) -> RewardPolicy {
    RewardPolicy { _ in [Payout(currency: currency, amount: amount, reason: reason)] }
  }

  /// An amount by the completion's kind; kinds not listed pay nothing.
  public static func byKind(_ amounts: [String: Int], currency: String, reason: String) -> RewardPolicy {
    RewardPolicy { completion in
      guard let amount = amounts[completion.kind], amount != 0 else { return [] }
      return [Payout(currency: currency, amount: amount, reason: reason)]
    }
  }

  /// Pays nothing (a completion that only counts and celebrates).
  public static let nothing = RewardPolicy { _ in [] }

  /// What `completion` earns, with deterministic idempotency keys ("<completion key>#<currency>").
  public func entries(for completion: Completion) -> [LedgerEntry] {
    rule(completion).filter { $0.amount != 0 }.map { payout in
      LedgerEntry(
        key: Self.key(for: completion, currency: payout.currency), account: completion.account, currency: payout.currency,
        amount: payout.amount, reason: payout.reason, recordedAt: completion.completedAt)
    }
  }

  /// The ledger key of `completion`'s payment in `currency`.
  public static func key(for completion: Completion, currency: String) -> String {
    "\(completion.key)#\(currency)"
  }
}
