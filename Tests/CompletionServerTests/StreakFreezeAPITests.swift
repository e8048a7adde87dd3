import Challenges
import CompletionAPI
import CompletionCore
import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("Streak freezes API")
struct StreakFreezeAPITests {
  typealias API = ChallengesAPITests

  static func buy(_ client: TestClient, key: String = UUID().uuidString) async throws -> TestResponse {
    var headers = HTTPHeaders()
    headers.add(name: "Idempotency-Key", value: key)
    return try await client.send(.POST, "/api/challenges/streak/freezes?tz=Europe/Berlin", headers: headers)
  }

  static func code(_ client: TestClient, _ response: TestResponse) -> String {
    (try? client.decode(APIErrorBody.self, from: response).code) ?? "status \(response.status.code)"
  }

  /// Completes today's daily (and, with `weekly`, the weekly too) for points and a streak day.
  static func completeToday(_ client: TestClient, weekly: Bool = false) async throws -> ChallengeCompletionView {
    let challenges = try await API.overview(client).challenges
    let photo = try await API.upload(client)
    if weekly, let week = challenges.first(where: { $0.type == "weekly" && $0.participation?.status != "completed" }) {
      #expect(try await API.complete(client, week, photo: photo).status == .ok)
    }
    let daily = try #require(challenges.first { $0.type == "daily" })
    return try client.decode(ChallengeCompletionView.self, from: try await API.complete(client, daily, photo: photo))
  }

  @Test("A purchase spends the price once per key; buys at the same moment never hold more than two or overspend; too few points is 409")
  func purchaseOnce() async throws {
    try await withTestApp { cook, app in
      _ = try await API.account(cook)
      _ = try await Self.completeToday(cook, weekly: true)
      #expect(try await API.points(app, cook) == 600)
      let offered = try #require(try await API.overview(cook).stats.freezes)
      #expect(offered.held == 0 && offered.max == 2 && offered.price == ChallengeCompletion.freezePrice && offered.unavailable == nil)

      // One key sent six times at once: one purchase, the others answer it again.
      let key = UUID().uuidString
      let repeats = try await withThrowingTaskGroup(of: TestResponse.self) { group in
        for _ in 0..<6 { group.addTask { try await Self.buy(cook, key: key) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(repeats.allSatisfy { $0.status == .created }, "\(repeats.map { Self.code(cook, $0) })")
      // Every answer is the first one's (the others replayed it); the ledger took the price once.
      #expect(repeats.filter { $0.headers.first(name: "Idempotent-Replayed") != "true" }.count == 1)
      let spent = try repeats.map { try cook.decode(StreakFreezePurchaseView.self, from: $0).pointsSpent }
      #expect(Set(spent) == [ChallengeCompletion.freezePrice])
      #expect(try await API.points(app, cook) == 600 - ChallengeCompletion.freezePrice)

      // Eight different purchases at once: only one more fits under the limit of two.
      let rush = try await withThrowingTaskGroup(of: TestResponse.self) { group in
        for _ in 0..<8 { group.addTask { try await Self.buy(cook) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(rush.filter { $0.status == .created }.count == 1)
      #expect(rush.filter { $0.status == .conflict && Self.code(cook, $0) == "freeze_limit_reached" }.count == 7)
      #expect(try await API.points(app, cook) == 600 - 2 * ChallengeCompletion.freezePrice)
      let held = try #require(try await API.overview(cook).stats.freezes)
      #expect(held.held == 2 && held.unavailable != nil)

      // Too few points: a clear code, nothing spent or held.
      let poor = cook.stranger()
      _ = try await API.account(poor, "poor")
      _ = try await Self.completeToday(poor)
      let refused = try await Self.buy(poor)
      #expect(refused.status == .conflict && Self.code(poor, refused) == "not_enough_points")
      #expect(try await API.points(app, poor) == 100)
      let poorFreezes = try #require(try await API.overview(poor).stats.freezes)
      #expect(poorFreezes.held == 0 && poorFreezes.unavailable?.contains("you have 100") == true)

      let report = try await LedgerVerification.verify(on: app.db)
      #expect(report.differences.isEmpty && report.negative.isEmpty)
    }
  }

  @Test("A bought freeze keeps the streak across a missed day without lengthening it; without one the streak ends")
  func protectsAMissedDay() async throws {
    try await withTestApp { cook, app in
      _ = try await API.account(cook)
      let other = cook.stranger()
      _ = try await API.account(other, "nofreeze")
      let clock = app.services.clock
      let start = clock.now()
      #expect(try await Self.completeToday(cook, weekly: true).stats.currentStreak == 1)
      #expect(try await Self.completeToday(other).stats.currentStreak == 1)
      #expect(try await Self.buy(cook).status == .created)

      // The next day is missed; the day after, the freeze has covered it.
      clock.set(to: start.addingTimeInterval(2 * 86_400))
      let today = try await API.overview(cook)
      let missed = CalendarDay(start.addingTimeInterval(86_400), in: TimeZone(identifier: "Europe/Berlin")!).description
      #expect(today.stats.currentStreak == 1 && today.stats.freezes?.held == 0 && today.stats.freezes?.usedOn == [missed])
      #expect(try await API.overview(other).stats.currentStreak == 0)
      let next = try await Self.completeToday(cook)
      #expect(next.stats.currentStreak == 2 && next.stats.longestStreak == 2, "the covered day adds nothing")
      #expect(next.stats.freezes?.usedOn == [missed])
      #expect(try await Self.completeToday(other).stats.currentStreak == 1)
    }
  }

  @Test("Freezes are the person's own: their profile shows them to them, never to someone else or a visitor")
  func freezesArePrivate() async throws {
    try await withTestApp { cook, _ in
      let name = try await API.account(cook, "frost")
      _ = try await Self.completeToday(cook, weekly: true)
      #expect(try await Self.buy(cook).status == .created)
      let own = try cook.decode(ProfileView.self, from: try await cook.send(.GET, "/api/social/people/\(name)"))
      #expect(own.isMe && own.stats.freezes?.held == 1)
      #expect(try cook.decode(ProfileView.self, from: try await cook.send(.GET, "/api/social/me")).stats.freezes?.held == 1)
      for reader in [cook.stranger(), cook.stranger()] {
        let seen = try reader.decode(ProfileView.self, from: try await reader.send(.GET, "/api/social/people/\(name)"))
        #expect(!seen.isMe && seen.stats.freezes == nil && seen.stats.currentStreak == own.stats.currentStreak)
      }
    }
  }
}
