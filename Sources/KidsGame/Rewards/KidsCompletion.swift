import CompletionCore
import Foundation

/// How Waldabenteuer runs through the completion pipeline: a won level is a completion that pays
/// ``CoinRules/perLevel`` coin into the child's own currency, and every fifth coin is celebrated with
/// ``KidsChoreography/celebration``. Spending coins (video time, refunds, a parent's reset) is not a completion:
/// those changes go into the ledger as entries of their own.
public enum KidsCompletion {
  /// The domain name in completions, ledger keys and opt-outs.
  public static let domain = "waldabenteuer"

  /// The ledger currency of one child's coins (a family shares an account; each child has a purse).
  public static func currency(of player: String) -> String { "kids-coins:\(player)" }

  /// The policies the recorder applies.
  public static let rules = CompletionRules(
    reward: RewardPolicy { completion in
      [.init(currency: currency(of: completion.member ?? ""), amount: CoinRules.perLevel, reason: "Waldabenteuer: earned")]
    },
    streak: nil,
    celebration: CelebrationPolicy(
      kind: domain, milestones: CoinRules.milestones, counting: .rewardBalance, choreography: KidsChoreography.celebration,
      coalescingWindow: 0))

  /// The completion behind an earned coin (`change.reason == .earned`).
  public static func completion(of change: CoinChange, account: String, timeZone: String, at date: Date) -> Completion {
    Completion(
      domain: domain, subject: change.ledgerKey, account: account, member: change.player, kind: "level", completedAt: date,
      timeZone: timeZone)
  }

  /// The ledger entry for a coin change that is not a completion (redeemed, refunded, reset).
  public static func ledgerEntry(for change: CoinChange, account: String, at date: Date) -> LedgerEntry {
    LedgerEntry(
      key: "\(account):\(change.ledgerKey)", account: account, currency: currency(of: change.player), amount: change.amount,
      reason: "Waldabenteuer: \(change.reason.rawValue)", recordedAt: date)
  }
}
