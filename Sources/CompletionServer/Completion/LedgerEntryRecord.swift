import Fluent
import Foundation

/// One row of the reward ledger. The unique `key` is the idempotency key: a retried or duplicated
/// completion finds its key taken and pays nothing.
final class LedgerEntryRecord: Model, @unchecked Sendable {
  static let schema = "ledger_entries"

  @ID(key: .id) var id: UUID?
  @Field(key: "key") var key: String
  @Parent(key: "user_id") var user: User
  @Field(key: "currency") var currency: String
  @Field(key: "amount") var amount: Int
  @Field(key: "reason") var reason: String
  @Timestamp(key: "created_at", on: .create) var createdAt: Date?

  init() {}

  init(key: String, userID: UUID, currency: String, amount: Int, reason: String) {
    self.key = key
    self.$user.id = userID
    self.currency = currency
    self.amount = amount
    self.reason = reason
  }
}
