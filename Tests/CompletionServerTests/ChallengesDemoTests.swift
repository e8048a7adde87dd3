import Challenges
import CompletionAPI
import CompletionCore
import FluentSQL
import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("Challenges demo")
struct ChallengesDemoTests {
  struct Count: Decodable { let n: Int }
  /// The demo's people only (on PostgreSQL the tests share one database).
  static var demo: SQLQueryString { "u.username LIKE 'demo%' AND u.is_guest = false" }

  static func count(_ sql: any SQLDatabase, _ query: SQLQueryString) async throws -> Int {
    try await sql.raw(query).first(decoding: Count.self)?.n ?? -1
  }

  @Test("The demo spreads varied completions over two weeks with reactions and sensible streaks, and a second run doubles nothing")
  func spreadAndVariety() async throws {
    try await withTestApp { _, app in
      let sql = try #require(app.db as? any SQLDatabase)
      _ = try await app.fillChallengesDemo(users: 14, follows: 3)

      // Spread: completions on many different days of the last two weeks, not within a minute.
      struct Moment: Decodable { let completed_at: Date }
      let moments = try await sql.raw("SELECT completed_at FROM completions c JOIN users u ON u.id = c.user_id WHERE \(Self.demo)").all(decoding: Moment.self).map(\.completed_at)
      let days = Set(moments.map { CalendarDay($0, in: .gmt) })
      #expect(moments.count >= 40, "\(moments.count) completions")
      #expect(days.count >= 12, "completions on \(days.count) days")
      let span = (moments.max() ?? Date()).timeIntervalSince(moments.min() ?? Date())
      #expect(span >= 12 * 86_400)
      #expect(moments.allSatisfy { $0 <= app.services.clock.now() })

      // Variety: different photos, stories and types; reactions between the demo people.
      let photos = try await Self.count(sql, "SELECT COUNT(DISTINCT full_jpeg) AS n FROM challenge_photos p JOIN users u ON u.id = p.user_id WHERE \(Self.demo)")
      let stories = try await Self.count(sql, "SELECT COUNT(DISTINCT story) AS n FROM activities a JOIN users u ON u.id = a.user_id WHERE a.type = 'challenge_completed' AND \(Self.demo)")
      let types = try await Self.count(sql, "SELECT COUNT(DISTINCT challenge_type) AS n FROM activities a JOIN users u ON u.id = a.user_id WHERE a.type = 'challenge_completed' AND \(Self.demo)")
      #expect(photos == moments.count, "every completion has a photo of its own")
      #expect(stories >= 15 && types >= 2, "\(stories) stories, \(types) types")
      let comments = try await Self.count(sql, "SELECT COUNT(*) AS n FROM comments c JOIN users u ON u.id = c.user_id WHERE \(Self.demo)")
      let congrats = try await Self.count(sql, "SELECT COUNT(*) AS n FROM congrats c JOIN users u ON u.id = c.user_id WHERE \(Self.demo)")
      let commenters = try await Self.count(sql, "SELECT COUNT(DISTINCT c.user_id) AS n FROM comments c JOIN users u ON u.id = c.user_id WHERE \(Self.demo)")
      #expect(comments >= 10 && congrats >= 20 && commenters >= 5, "\(comments) comments by \(commenters), \(congrats) congrats")
      let selfCongrats = try await Self.count(
        sql, "SELECT COUNT(*) AS n FROM congrats c JOIN activities a ON a.id = c.activity_id JOIN users u ON u.id = a.user_id WHERE a.user_id = c.user_id AND \(Self.demo)")
      #expect(selfCongrats == 0)

      // Streaks: each poster's run of dailies, alive today.
      let today = CalendarDay(app.services.clock.now(), in: .gmt)
      for poster in 0..<7 {
        struct ID: Decodable { let id: UUID }
        let user = try #require(try await sql.raw("SELECT id FROM users WHERE username = \(bind: "demo\(poster + 1)")").first(decoding: ID.self))
        let streak = try await CompletionRecorder.loadStreak(userID: user.id, name: ChallengeCompletion.streak.name, on: sql)
        #expect(streak.current(on: today, in: .gmt) == ChallengesDemo.runLength(of: poster), "demo\(poster + 1)")
      }

      // A second run refuses and doubles nothing.
      let before = try await Self.count(sql, "SELECT COUNT(*) AS n FROM completions c JOIN users u ON u.id = c.user_id WHERE \(Self.demo)")
      await #expect(throws: LauncherError.self) { _ = try await app.fillChallengesDemo(users: 14, follows: 3) }
      #expect(try await Self.count(sql, "SELECT COUNT(*) AS n FROM completions c JOIN users u ON u.id = c.user_id WHERE \(Self.demo)") == before)
      #expect(try await Self.count(sql, "SELECT COUNT(*) AS n FROM users u WHERE \(Self.demo)") == 14)
    }
  }
}
