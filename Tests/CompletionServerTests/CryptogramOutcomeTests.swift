import CompletionAPI
import CompletionCore
import Cryptogram
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CompletionServer

@Suite("Cryptogram API: a solve after Continue", .serialized)
struct CryptogramOutcomeTests {
  let api = CryptogramAPITests()

  @Test("A solve after Continue is finished: not a win and not a loss, no points or streak day, shared and shown as finished")
  func finishedAfterContinue() async throws {
    try await withTestApp { client, app in
      let (game, puzzle, cell, wrong) = try await api.gameWithHiddenCell(client, app)
      for _ in 0..<3 { _ = try await api.guess(client, game.id, cell: cell, letter: wrong) }
      #expect(try await api.stats(client).failed == 1)
      _ = try await client.send(.POST, "/api/cryptogram/games/\(game.id)/continue")
      _ = try await api.guess(client, game.id, cell: cell, letter: wrong)
      var last: CryptogramMoveResponse?
      var revealed = puzzle.prefilled
      for index in puzzle.letterCells where !revealed.contains(index) {
        let response = try await api.guess(client, game.id, cell: index, letter: String(Letters.letter(puzzle.cells[index].plain!)))
        let move = try client.decode(CryptogramMoveResponse.self, from: response)
        for effect in move.effects where effect.type == "revealed" { revealed.formUnion(effect.cells ?? []) }
        last = move
      }
      let final = try #require(last)
      #expect(final.game.status == "solved" && final.game.outcome == .finished && final.game.mistakes == 4)
      // The card still arrives on the seed's timeline.
      #expect(final.celebration?.steps.map(\.id).first == "overlay")

      let stats = try await api.stats(client)
      #expect(stats.played == 1 && stats.solved == 0 && stats.failed == 0 && stats.finished == 1)
      #expect(stats.points == 0 && stats.winRate == 0 && stats.bestSeconds == nil)
      #expect(stats.history.map(\.outcome) == [.finished])

      let share = try client.decode(CryptogramShareView.self, from: try await client.send(.GET, "/api/cryptogram/games/\(game.id)/share"))
      #expect(share.text.contains("Finished in") && share.text.contains("after running out of mistakes"))
      #expect(!share.text.contains("Solved"))
    }
  }

  @Test("A clean solve stays a win with its points")
  func cleanSolveIsAWin() async throws {
    try await withTestApp { client, app in
      let game = try await api.newGame(client)
      let puzzle = try await api.puzzle(of: game.id, app: app)
      var final: CryptogramMoveResponse?
      var revealed = puzzle.prefilled
      for index in puzzle.letterCells where !revealed.contains(index) {
        let move = try client.decode(
          CryptogramMoveResponse.self,
          from: try await api.guess(client, game.id, cell: index, letter: String(Letters.letter(puzzle.cells[index].plain!))))
        for effect in move.effects where effect.type == "revealed" { revealed.formUnion(effect.cells ?? []) }
        final = move
      }
      #expect(final?.game.outcome == .solved)
      let stats = try await api.stats(client)
      #expect(stats.solved == 1 && stats.finished == 0 && stats.points == CryptogramCompletion.pointsPerSolve)
      #expect(stats.history.map(\.outcome) == [.solved])
    }
  }
}
