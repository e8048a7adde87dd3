import CompletionAPI
import CompletionCore
import Cryptogram
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CompletionServer

@Suite("Cryptogram API: today's daily and the archive", .serialized)
struct CryptogramDailiesTests {
  let api = CryptogramAPITests()

  func dailies(_ client: TestClient, month: String? = nil) async throws -> CryptogramDailiesView {
    let query = "timeZone=Europe/Berlin" + (month.map { "&month=\($0)" } ?? "")
    let response = try await client.send(.GET, "/api/cryptogram/dailies?\(query)")
    #expect(response.status == .ok)
    return try client.decode(CryptogramDailiesView.self, from: response)
  }

  @Test("Today's daily says when it is solved, with the streak and the time to the next; past months list their days")
  func todayAndArchive() async throws {
    try await withTestApp { client, app in
      // A visitor: everything unplayed, today's month, the next daily before a day is out.
      let fresh = try await dailies(client)
      let today = CalendarDay(app.services.clock.now(), in: TimeZone(identifier: "Europe/Berlin")!)
      #expect(fresh.month == DailyArchive.Month(containing: today).description && fresh.nextMonth == nil)
      #expect(fresh.today.date == today.description && fresh.today.status == .unplayed && fresh.currentStreak == 0)
      #expect(fresh.secondsToNextDaily > 0 && fresh.secondsToNextDaily <= 86_400)
      #expect(fresh.days.count == DailyArchive.Month(containing: today).days.count)
      #expect(fresh.days.filter(\.available).map(\.date).last == today.description)

      // Today's daily solved: ticked, on its day, a streak of one.
      let daily = try await api.newGame(client, mode: "daily", length: nil)
      _ = try await api.solveAll(client, daily, app: app)
      let solved = try await dailies(client)
      #expect(solved.today.status == .solved && solved.today.solvedOnDay && solved.currentStreak == 1)
      #expect(solved.days.first { $0.date == today.description }?.status == .solved)

      // Last month: every day out, yesterday's puzzle started from its link shows as started.
      let previous = try #require(solved.previousMonth)
      let lastMonth = try await dailies(client, month: previous)
      #expect(lastMonth.month == previous && lastMonth.nextMonth == solved.month)
      #expect(lastMonth.days.allSatisfy(\.available) && lastMonth.today.date == today.description)
      let day = try #require(lastMonth.days.first).date
      let past = try client.decode(
        CryptogramGameView.self,
        from: try await client.send(.POST, "/api/cryptogram/games", json: NewCryptogramGameRequest(mode: "daily", timeZone: "Europe/Berlin", date: day)))
      let cell = try #require(past.cells.first { $0.isLetter && $0.shown == nil }).index
      _ = try await client.send(.POST, "/api/cryptogram/games/\(past.id)/hints", json: CryptogramHintRequest(cell: cell))
      #expect(try await dailies(client, month: previous).days.first?.status == .playing)
      // The archive starts at the first daily's month.
      let first = try await dailies(client, month: "2025-04")
      #expect(first.previousMonth == nil && first.days.filter(\.available).first?.date == "2025-04-23")
    }
  }

  @Test("Not a month is a clear 400; a month outside the archive has no dailies: 404")
  func badMonths() async throws {
    try await withTestApp { client in
      for month in ["2026-13", "0000-00", "november"] {
        let response = try await client.send(.GET, "/api/cryptogram/dailies?month=\(month)")
        #expect(response.status == .badRequest)
        #expect(try client.decode(APIErrorBody.self, from: response).code == "invalid_month")
      }
      for month in ["2025-03", "2999-01", "0000-01"] {
        let response = try await client.send(.GET, "/api/cryptogram/dailies?month=\(month)")
        #expect(response.status == .notFound)
        #expect(try client.decode(APIErrorBody.self, from: response).code == "not_found")
      }
    }
  }
}
