import CompletionAPI
import CompletionCore
import Cryptogram
import Fluent
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CompletionServer

@Suite("Cryptogram API: a new game written with fixed statements", .serialized)
struct CryptogramCreateTests {
  let api = CryptogramAPITests()

  @Test("A new game's row reads back whole through the model; the daily resumes; the counters row is made once")
  func newGameRow() async throws {
    try await withTestApp { client, app in
      let game = try await api.newGame(client, mode: "daily", length: nil)
      let row = try #require(try await CryptogramGame.find(UUID(uuidString: game.id), on: app.db))
      let now = app.services.clock.now()
      let today = CalendarDay(now, in: TimeZone(identifier: "Europe/Berlin")!)
      #expect(row.mode == "daily" && row.dailyDate == today.description && row.timeZone == "Europe/Berlin")
      #expect(row.status == "playing" && row.mistakes == 0 && row.hints == 0 && row.version == 0 && row.solvedAt == nil)
      #expect(abs((row.createdAt ?? .distantPast).timeIntervalSince(now)) < 5 && row.createdAt == row.updatedAt)
      // The stored board is the puzzle's fresh board: its prefilled cells are the ones the view shows.
      let puzzle = try await api.puzzle(of: game.id, app: app)
      #expect(try CryptogramController.decode(row.board) == Board(puzzle: puzzle))
      // The daily asked for again is the same game; a random one is a new row; one counters row in all.
      #expect(try await api.newGame(client, mode: "daily", length: nil).id == game.id)
      let random = try await api.newGame(client)
      #expect(random.id != game.id && random.mode == "random")
      let userID = try #require(row.$user.id as UUID?)
      #expect(try await CryptogramStats.query(on: app.db).filter(\.$user.$id == userID).count() == 1)
      // The first letter counts the puzzle as played, on that row.
      let cell = try #require(random.cells.first { $0.isLetter && $0.shown == nil }).index
      _ = try await client.send(.POST, "/api/cryptogram/games/\(random.id)/hints", json: CryptogramHintRequest(cell: cell))
      #expect(try await api.stats(client).played == 1)
    }
  }

  @Test("A random puzzle leaves out the quotes already solved (read with a fixed statement)")
  func solvedQuotesAreLeftOut() async throws {
    try await withTestApp { client, app in
      let first = try await api.newGame(client, length: .short)
      _ = try await api.solveAll(client, first, app: app)
      let solvedQuote = try #require(try await CryptogramGame.find(UUID(uuidString: first.id), on: app.db)).quoteID
      let userID = try #require(try await CryptogramGame.find(UUID(uuidString: first.id), on: app.db)).$user.id
      #expect(try await GameRecord.solvedQuoteIDs(of: userID, on: app.db) == [solvedQuote])
      for _ in 0..<5 {
        let next = try await api.newGame(client, length: .short)
        #expect(try #require(try await CryptogramGame.find(UUID(uuidString: next.id), on: app.db)).quoteID != solvedQuote)
      }
    }
  }
}
