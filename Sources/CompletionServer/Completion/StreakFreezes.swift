import CompletionCore
import Fluent
import FluentSQL
import Foundation
import Vapor

/// The table of bought streak freezes: one row per purchase, keyed by its ledger entry.
enum StreakFreezeRecord { static let schema = "streak_freezes" }

/// Refusals of a streak freeze purchase, each with a stable code.
enum StreakFreezeError: APIErrorConvertible, Equatable {
  /// The most freezes one may hold are held already.
  case limitReached(max: Int)
  /// The points balance does not cover the price.
  case notEnoughPoints(balance: Int, price: Int)

  var status: HTTPResponseStatus { .conflict }

  var code: String {
    switch self {
    case .limitReached: "freeze_limit_reached"
    case .notEnoughPoints: "not_enough_points"
    }
  }

  var message: String {
    switch self {
    case .limitReached(let max): "You already hold \(StreakFreezes.count(max)), the most you can. One is used by itself on a day you miss."
    case .notEnoughPoints(let balance, let price):
      "A streak freeze costs \(price) points and you have \(balance). Complete a challenge to earn more."
    }
  }
}

/// Buying streak freezes with points: the streak's rule (``Streak/addFreeze(on:in:rule:)``) decides whether
/// one may be held, the ledger whether the points cover it; both happen in one transaction, at most once
/// per purchase key however often the request is retried or sent at the same moment.
enum StreakFreezes {
  /// "one streak freeze", "two streak freezes".
  static func count(_ n: Int) -> String {
    let words = ["no", "one", "two", "three", "four", "five"]
    let number = n >= 0 && n < words.count ? words[n] : String(n)
    return "\(number) streak freeze\(n == 1 ? "" : "s")"
  }

  /// Why `streak` (as it stands today) cannot have another freeze bought with `balance` points; nil when it can.
  static func unavailable(_ streak: Streak, balance: Int, price: Int, rule: StreakRule) -> String? {
    if streak.freezes >= rule.maxFreezes { return StreakFreezeError.limitReached(max: rule.maxFreezes).message }
    if balance < price { return StreakFreezeError.notEnoughPoints(balance: balance, price: price).message }
    return nil
  }

  /// Buys one freeze of `rule`'s streak for `price` points of `currency`, inside the caller's transaction.
  /// `key` names the purchase (the request's `Idempotency-Key`): a purchase whose key was paid before
  /// spends and adds nothing again and answers 0. The streak is saved by compare-and-set, so purchases at
  /// the same moment are judged one after the other (never more than the limit held, never overspent).
  static func buy(
    rule: StreakRule, price: Int, currency: String, userID: UUID, key: String, today: CalendarDay, zone: TimeZone, at now: Date,
    on database: any Database
  ) async throws -> Int {
    let db = database.sql
    let ledger = SQLLedgerStore(database)
    let ledgerKey = "streak-freeze:\(rule.name):\(userID.uuidString):\(key)"
    for _ in 0..<GameRunner.attempts {
      if try await ledger.entry(key: ledgerKey) != nil { return 0 }
      let stored = try await CompletionRecorder.loadStoredStreak(userID: userID, name: rule.name, on: db)
      var streak = stored ?? Streak()
      do {
        try streak.addFreeze(on: today, in: zone, rule: rule)
      } catch {
        throw StreakFreezeError.limitReached(max: rule.maxFreezes)
      }
      // Lost a race (another purchase or a completion saved first): judge again on what that one saved.
      guard try await CompletionRecorder.saveStreak(streak, replacing: stored, userID: userID, name: rule.name, on: db) else { continue }
      let spend = LedgerEntry(key: ledgerKey, account: userID.uuidString, currency: currency, amount: -price, reason: "Streak freeze", recordedAt: now)
      let outcome = try await ledger.record(spend)
      switch outcome {
      case .recorded: break
      case .insufficientFunds(let balance): throw StreakFreezeError.notEnoughPoints(balance: balance, price: price)
      case .duplicate, .conflict, .missingKey: throw RewardRefused(outcome: outcome)
      }
      try await db.raw(
        """
        INSERT INTO streak_freezes (id, user_id, name, ledger_key, bought_at, time_zone)
        VALUES (\(bind: UUID()), \(bind: userID), \(bind: rule.name), \(bind: ledgerKey), \(bind: now), \(bind: zone.identifier))
        """
      ).run()
      return price
    }
    throw RunnerError.busy
  }
}
