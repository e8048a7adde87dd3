import Foundation
import Testing

@testable import CompletionCore

@Suite("Reward and celebration policies")
struct CompletionPolicyTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)

  func completion(_ subject: String = "game-1", kind: String = "daily", account: String = "ada") -> Completion {
    Completion(domain: "puzzles", subject: subject, account: account, kind: kind, completedAt: now, timeZone: "Europe/Berlin")
  }

  @Test("Reward keys are deterministic: the same completion asks for the same payment, another one for another")
  func deterministicKeys() {
    let policy = RewardPolicy.fixed(10, currency: "points", reason: "Solved")
    let first = policy.entries(for: completion())
    #expect(first == policy.entries(for: completion()))
    #expect(first.map(\.key) == ["puzzles:ada:game-1#points"])
    #expect(first.first?.amount == 10 && first.first?.account == "ada" && first.first?.recordedAt == now)
    #expect(policy.entries(for: completion("game-2")).map(\.key) != first.map(\.key))
    #expect(policy.entries(for: completion(account: "bo")).map(\.key) != first.map(\.key))
  }

  @Test("Amounts by kind; an unknown kind pays nothing")
  func byKind() {
    let policy = RewardPolicy.byKind(["daily": 100, "weekly": 500], currency: "points", reason: "Challenge")
    #expect(policy.entries(for: completion(kind: "weekly")).map(\.amount) == [500])
    #expect(policy.entries(for: completion(kind: "random")).isEmpty)
  }

  @Test("Paying a completion's entries into the ledger twice pays once")
  func retriesPayOnce() async throws {
    let store = InMemoryLedgerStore()
    let policy = RewardPolicy.fixed(10, currency: "points", reason: "Solved")
    for _ in 0..<3 {
      for entry in policy.entries(for: completion()) { _ = try await store.record(entry) }
    }
    #expect(try await store.balance(of: "ada", in: "points") == 10)
  }

  let policy = CelebrationPolicy(kind: "coins", milestones: .every(5), choreography: .cardReveal)

  @Test("Milestones: every fifth, always, or named counts")
  func milestones() {
    #expect([0, 4, 5, 6, 10].map(CelebrationPolicy.Milestones.every(5).contains) == [false, false, true, false, true])
    #expect(CelebrationPolicy.Milestones.always.contains(1))
    #expect(CelebrationPolicy.Milestones.at([1, 10, 100]).contains(10) && !CelebrationPolicy.Milestones.at([1]).contains(2))
  }

  @Test("Whether: not between milestones, not when opted out, and two celebrations at once join into one")
  func whether() {
    #expect(policy.decide(.init(count: 4, now: now)) == .notAMilestone)
    #expect(policy.decide(.init(count: 5, optedOut: ["coins"], now: now)) == .optedOut)
    #expect(policy.decide(.init(count: 5, optedOut: ["other"], now: now)) == .celebrate(.cardReveal))
    let recent = now.addingTimeInterval(-policy.coalescingWindow / 2)
    #expect(policy.decide(.init(count: 5, lastCelebratedAt: recent, now: now)) == .coalesced)
    let longAgo = now.addingTimeInterval(-policy.coalescingWindow - 1)
    #expect(policy.decide(.init(count: 5, lastCelebratedAt: longAgo, now: now)) == .celebrate(.cardReveal))
  }

  @Test("How: the choreography adapted to the person's motion preference")
  func how() {
    guard case .celebrate(let calm) = policy.decide(.init(count: 10, preference: .reduced, now: now)) else {
      Issue.record("a milestone celebrates")
      return
    }
    #expect(calm == Choreography.cardReveal.adapted(to: .reduced))
    #expect(calm.steps.allSatisfy { $0.from.offsetY == 0 && $0.from.scale == 1 })
  }
}
