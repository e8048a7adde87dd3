import Foundation
import PropertyBased
import Testing

@testable import CompletionCore

@Suite("Reward ledger")
struct LedgerTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func entry(_ key: String, _ amount: Int, account: String = "ada", currency: String = "coins") -> LedgerEntry {
    LedgerEntry(key: key, account: account, currency: currency, amount: amount, reason: "test", recordedAt: now)
  }

  @Test("A key seen twice pays once")
  func idempotent() {
    var ledger = RewardLedger()
    #expect(ledger.record(entry("level-1", 1)) == .recorded(entry("level-1", 1), balance: 1))
    #expect(ledger.record(entry("level-1", 1)) == .duplicate(entry("level-1", 1)))
    #expect(ledger.record(entry("level-1", 5)) == .conflict(entry("level-1", 1)), "the same key for another amount is a conflict")
    #expect(ledger.record(entry("level-1", 1, account: "bo")) == .conflict(entry("level-1", 1)), "…or for another account")
    #expect(ledger.balance(of: "ada", in: "coins") == 1)
    #expect(ledger.entries.count == 1)
  }

  @Test("Spends cannot overdraw; empty keys are refused; balances are per account and currency")
  func spendsAndRefusals() {
    var ledger = RewardLedger()
    ledger.record(entry("a", 10))
    #expect(ledger.record(entry("spend-1", -11)) == .insufficientFunds(balance: 10))
    #expect(ledger.record(entry("spend-2", -10)) == .recorded(entry("spend-2", -10), balance: 0))
    #expect(ledger.record(entry("", 3)) == .missingKey)
    ledger.record(entry("b", 7, account: "bo"))
    ledger.record(entry("c", 100, currency: "points"))
    #expect(ledger.balance(of: "ada", in: "coins") == 0)
    #expect(ledger.balance(of: "bo", in: "coins") == 7)
    #expect(ledger.balance(of: "ada", in: "points") == 100)
  }

  @Test("Property: with retries and duplicates, the balance equals the sum of unique keys and never goes negative")
  func ledgerProperty() async {
    let operation = PropertyBased.zip(Gen.int(in: 0...15), Gen.int(in: -5...8))
    await propertyCheck(count: 300, input: operation.array(of: 0...60)) { operations in
      var ledger = RewardLedger()
      var paid: [String: Int] = [:]
      var balance = 0
      for (keyNumber, amount) in operations {
        let key = "k\(keyNumber)"
        let outcome = ledger.record(entry(key, amount))
        switch outcome {
        case .recorded:
          #expect(paid[key] == nil)
          paid[key] = amount
          balance += amount
        case .duplicate(let first):
          #expect(first.amount == paid[key] && first.amount == amount)
        case .conflict(let first):
          #expect(first.amount == paid[key] && first.amount != amount)
        case .insufficientFunds(let current):
          #expect(current + amount < 0)
        case .missingKey:
          Issue.record("keys are never empty here")
        }
        #expect(ledger.balance(of: "ada", in: "coins") == balance)
        #expect(balance >= 0)
      }
      #expect(ledger.entries.count == paid.count)
      #expect(ledger.entries.reduce(0) { $0 + $1.amount } == balance)
    }
  }
}
