import CompletionAPI
import CompletionClient
import CompletionCore
import Cryptogram
import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("The terminal cryptogram: goodbyes and questions", .serialized, .timeLimit(.minutes(2)))
struct CryptogramTerminalTests {
  @Test("Leaving names the command that brings the puzzle back: --random for a random one, the same server")
  func goodbyeNamesTheRightCommand() async throws {
    try await withTestApp { test, _ in try await Self.goodbye(test) }
  }

  @MainActor static func goodbye(_ test: TestClient) async throws {
    let command = "completionkit play --server \(test.base)"
    let model = CryptogramModel(client: CompletionClient(server: test.base), clock: ManualModelClock(), timeZone: TimeZone(identifier: "UTC")!)
    await model.start(.random(.short)).value
    let random = try #require(CryptogramTerminal.goodbye(model, command: command, today: "2026-11-25"))
    #expect(random.contains("`\(command) --random` brings it back"), "\(random)")

    await model.start(.daily).value
    let today = try #require(model.game?.date)
    let daily = try #require(CryptogramTerminal.goodbye(model, command: command, today: today))
    #expect(daily.contains("`\(command)` goes on") && !daily.contains("--random"), "\(daily)")
    // Another day's daily is not what `play` opens: the goodbye says where it is instead.
    let yesterday = try #require(CryptogramTerminal.goodbye(model, command: command, today: "2999-01-01"))
    #expect(yesterday.contains("/cryptogram?daily=\(today)") && !yesterday.contains("goes on"), "\(yesterday)")
  }

  @Test("! and Continue after a loss ask first: y carries them out, any other key keeps the puzzle as it was")
  func questionsBeforeLettingGo() async throws {
    try await withTestApp { test, app in try await Self.questions(test, app) }
  }

  @MainActor static func questions(_ test: TestClient, _ app: Application) async throws {
    let model = CryptogramModel(client: CompletionClient(server: test.base), clock: ManualModelClock())
    await model.start(.random(.short)).value
    let first = try #require(model.game?.id)
    func screen() -> String { CryptogramTerminal.render(model, size: .standard, color: false).joined(separator: "\n") }

    // Nothing typed yet: nothing to lose, so ! starts a new puzzle at once.
    _ = await CryptogramTerminal.handle(.newPuzzle, on: model)
    let second = try #require(model.game?.id)
    #expect(second != first && model.confirmation == nil)

    // Under way: ! asks, and a "no" keeps the puzzle.
    _ = await CryptogramTerminal.handle(.hint, on: model)
    _ = await CryptogramTerminal.handle(.newPuzzle, on: model)
    #expect(model.confirmation == .newPuzzle)
    #expect(screen().contains("Leave this puzzle for a new one?") && screen().contains("y: yes"))
    _ = await CryptogramTerminal.handle(.letter("n"), on: model)
    #expect(model.confirmation == nil && model.game?.id == second)
    // Letters answer the question, they are not guesses: the hints and mistakes are as they were.
    #expect(model.game?.mistakes == 0 && model.game?.hints == 1)
    _ = await CryptogramTerminal.handle(.newPuzzle, on: model)
    _ = await CryptogramTerminal.handle(.letter("y"), on: model)
    let third = try #require(model.game?.id)
    #expect(third != second && model.confirmation == nil)

    // Lost: Enter (or c) asks before lifting the mistake limit.
    let puzzle = try await CryptogramAPITests().puzzle(of: third, app: app)
    let cell = try #require(model.selectedCell)
    let wrong = Letters.letter((puzzle.cells[cell].plain! + 1) % 26)
    for _ in 0..<3 { _ = await CryptogramTerminal.handle(.letter(wrong), on: model) }
    #expect(model.hasFailed)
    _ = await CryptogramTerminal.handle(.enter, on: model)
    #expect(model.confirmation == .continueAfterLoss && model.hasFailed)
    #expect(screen().contains("Keep going without a mistake limit?"))
    _ = await CryptogramTerminal.handle(.enter, on: model)
    #expect(model.confirmation == nil && model.hasFailed, "only y says yes")
    _ = await CryptogramTerminal.handle(.letter("c"), on: model)
    _ = await CryptogramTerminal.handle(.letter("y"), on: model)
    #expect(!model.hasFailed && model.game?.mistakeLimit == nil)

    // Lines from a script answer with yes and no.
    #expect(TerminalKey.parse(line: "yes") == [.letter("y")] && TerminalKey.parse(line: "no") == [.letter("n")])
  }
}
