import CompletionAPI
import CompletionCore
import Cryptogram
import Fluent
import FluentSQL
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CompletionServer

@Suite("Cryptogram API", .serialized)
struct CryptogramAPITests {
  /// The puzzle behind a game, read from the database (the API never tells the answer).
  func puzzle(of gameID: String, app: Application) async throws -> Puzzle {
    let game = try #require(try await CryptogramGame.find(UUID(uuidString: gameID), on: app.db))
    let quote = try #require(QuoteLibrary.bundled.quote(id: game.quoteID))
    return Puzzle(quote: quote, seed: UInt64(bitPattern: game.seed))
  }

  func newGame(_ client: TestClient, mode: String = "random", length: QuoteLength? = .short) async throws -> CryptogramGameView {
    let response = try await client.send(.POST, "/api/cryptogram/games", json: NewCryptogramGameRequest(mode: mode, length: length, timeZone: "Europe/Berlin"))
    #expect(response.status == .ok)
    return try client.decode(CryptogramGameView.self, from: response)
  }

  func guess(_ client: TestClient, _ game: String, cell: Int, letter: String) async throws -> TestResponse {
    try await client.send(.POST, "/api/cryptogram/games/\(game)/guesses?preference=full", json: CryptogramGuessRequest(cell: cell, letter: letter))
  }

  /// A new game, its puzzle, a cell not given, and a wrong letter for that cell.
  func gameWithHiddenCell(_ client: TestClient, _ app: Application) async throws -> (CryptogramGameView, Puzzle, Int, String) {
    let game = try await newGame(client)
    let puzzle = try await puzzle(of: game.id, app: app)
    let cell = try #require(puzzle.letterCells.first { !puzzle.prefilled.contains($0) })
    return (game, puzzle, cell, String(Letters.letter((puzzle.cells[cell].plain! + 1) % 26)))
  }

  func stats(_ client: TestClient) async throws -> CryptogramStatsView {
    try client.decode(CryptogramStatsView.self, from: try await client.send(.GET, "/api/cryptogram/stats?timeZone=Europe/Berlin"))
  }

  /// The board as stored in the game's row.
  func storedBoard(of id: String, _ app: Application) async throws -> String {
    struct Row: Decodable { let board: String }
    let sql = try #require(app.db as? any SQLDatabase)
    let row = try await sql.raw("SELECT board FROM cryptogram_games WHERE id = \(bind: try #require(UUID(uuidString: id)))").first(decoding: Row.self)
    return try #require(row).board
  }

  /// Saves `board` into the game's row as another server process would (its own save: a newer version).
  func saveElsewhere(board: String, of id: String, _ app: Application) async throws {
    let sql = try #require(app.db as? any SQLDatabase)
    try await sql.raw(
      "UPDATE cryptogram_games SET board = \(bind: board), version = version + 1 WHERE id = \(bind: try #require(UUID(uuidString: id)))"
    ).run()
  }

  @Test("A board changed in the database by someone else (another server process) is what the next move sees")
  func boardWrittenElsewhereIsReadAfresh() async throws {
    try await withTestApp { client, app in
      let (game, puzzle, first, _) = try await gameWithHiddenCell(client, app)
      let untouched = try await storedBoard(of: game.id, app)
      // This process's move: the board it leaves behind is remembered decoded.
      let right = String(Letters.letter(puzzle.cells[first].plain!))
      #expect(try await guess(client, game.id, cell: first, letter: right).status == .ok)
      #expect(app.services.boards.count >= 1)
      // Another process puts the board back as it was before that move (its own save, a newer version).
      try await saveElsewhere(board: untouched, of: game.id, app)
      let second = try #require(puzzle.letterCells.first { $0 != first && !puzzle.prefilled.contains($0) && puzzle.cells[$0].plain != puzzle.cells[first].plain })
      let response = try await guess(client, game.id, cell: second, letter: String(Letters.letter(puzzle.cells[second].plain!)))
      #expect(response.status == .ok)
      let view = try client.decode(CryptogramMoveResponse.self, from: response).game
      // The stored board was read, not the remembered one: the first cell is empty again.
      #expect(view.cells[first].shown == nil)
      #expect(view.cells[second].shown != nil)
    }
  }

  @Test("A move the remembered board would refuse is judged again on the stored board (changed by another process)")
  func refusalIsJudgedOnTheStoredBoard() async throws {
    try await withTestApp { client, app in
      let (game, puzzle, first, _) = try await gameWithHiddenCell(client, app)
      let untouched = try await storedBoard(of: game.id, app)
      let right = String(Letters.letter(puzzle.cells[first].plain!))
      #expect(try await guess(client, game.id, cell: first, letter: right).status == .ok)
      // As this process remembers the board, that cell is found: the same guess again would be refused.
      let again = try await guess(client, game.id, cell: first, letter: right)
      #expect(again.status != .ok)
      // Another process puts the board back; the same guess is now a move, not a refusal.
      try await saveElsewhere(board: untouched, of: game.id, app)
      let response = try await guess(client, game.id, cell: first, letter: right)
      #expect(response.status == .ok)
      #expect(try client.decode(CryptogramMoveResponse.self, from: response).game.cells[first].shown != nil)
    }
  }

  @Test("A new puzzle shows cipher letters and prefilled cells, never the hidden answers")
  func newPuzzleHidesAnswers() async throws {
    try await withTestApp { client, app in
      let game = try await newGame(client)
      #expect(game.status == "playing" && game.length == .short && game.solution == nil && game.mistakeLimit == 3)
      let puzzle = try await puzzle(of: game.id, app: app)
      for cell in game.cells where cell.isLetter {
        #expect(cell.cipher != nil)
        #expect((cell.shown != nil) == puzzle.prefilled.contains(cell.index))
      }
      #expect(game.cells.filter { !$0.isLetter }.allSatisfy { $0.shown != nil })
      #expect(game.words.flatMap { $0 }.count == game.cells.filter { $0.shown != " " }.count)
    }
  }

  @Test("Solving through the API: the last letter returns the celebration; stats, points and a retry pay once")
  func solve() async throws {
    try await withTestApp { client, app in
      let game = try await newGame(client)
      let puzzle = try await puzzle(of: game.id, app: app)
      var last: CryptogramMoveResponse?
      var revealed = puzzle.prefilled
      for cell in puzzle.letterCells where !revealed.contains(cell) {
        let response = try await guess(client, game.id, cell: cell, letter: String(Letters.letter(puzzle.cells[cell].plain!)).lowercased())
        #expect(response.status == .ok)
        let move = try client.decode(CryptogramMoveResponse.self, from: response)
        for effect in move.effects where effect.type == "revealed" { revealed.formUnion(effect.cells ?? []) }
        last = move
      }
      let final = try #require(last)
      #expect(final.effects.last?.type == "solved")
      #expect(final.game.status == "solved")
      #expect(final.game.solution?.text == puzzle.quote.text)
      #expect(final.game.solution?.attribution == puzzle.quote.attribution)
      #expect(final.game.stats?.mistakes == 0)
      #expect(final.celebration?.steps.map(\.id) == ["overlay", "trophy", "quote", "attribution", "source", "stats", "next"])
      #expect(final.wiggle?.cells.count == puzzle.cells.count)

      let after = try await stats(client)
      #expect(after.played == 1 && after.solved == 1 && after.points == 10 && after.history.count == 1)
      // A guess after solving is refused and changes nothing.
      let again = try await guess(client, game.id, cell: puzzle.letterCells[0], letter: "A")
      #expect(again.status == .conflict)
      #expect(try client.decode(APIErrorBody.self, from: again).code == "not_playing")
      let still = try await stats(client)
      #expect(still.solved == 1 && still.points == 10)
    }
  }

  @Test("Three mistakes fail the puzzle; continue lifts the limit; try again is a new attempt")
  func failure() async throws {
    try await withTestApp { client, app in
      let (game, _, cell, wrong) = try await gameWithHiddenCell(client, app)
      for _ in 0..<3 { try await guess(client, game.id, cell: cell, letter: wrong) }
      let failed = try client.decode(CryptogramGameView.self, from: try await client.send(.GET, "/api/cryptogram/games/\(game.id)"))
      #expect(failed.status == "failed" && failed.mistakes == 3)
      // A lost game is its own state, not a paused one (the player has no Resume to press).
      #expect(!failed.isPaused)
      #expect(try await stats(client).failed == 1)
      let refused = try await guess(client, game.id, cell: cell, letter: wrong)
      #expect(refused.status == .conflict)

      let continued = try client.decode(CryptogramMoveResponse.self, from: try await client.send(.POST, "/api/cryptogram/games/\(game.id)/continue"))
      #expect(continued.game.status == "playing" && continued.game.mistakeLimit == nil)
      let restarted = try client.decode(CryptogramMoveResponse.self, from: try await client.send(.POST, "/api/cryptogram/games/\(game.id)/restart"))
      #expect(restarted.game.mistakes == 0 && restarted.game.mistakeLimit == 3)
      // The new attempt counts as played from its first letter.
      #expect(try await stats(client).played == 1)
      _ = try await guess(client, game.id, cell: cell, letter: wrong)
      #expect(try await stats(client).played == 2)
    }
  }

  @Test("New puzzle after a loss lets the lost one go: it is no longer the current game, and it cannot be resumed")
  func abandon() async throws {
    try await withTestApp { client, app in
      let (game, _, cell, wrong) = try await gameWithHiddenCell(client, app)
      // Only a lost game can be let go.
      #expect(try await client.send(.POST, "/api/cryptogram/games/\(game.id)/abandon").status == .conflict)
      for _ in 0..<3 { _ = try await guess(client, game.id, cell: cell, letter: wrong) }
      let current = try client.decode(CurrentCryptogramResponse.self, from: try await client.send(.GET, "/api/cryptogram/current"))
      #expect(current.game?.id == game.id && current.game?.status == "failed")
      let abandoned = try client.decode(CryptogramMoveResponse.self, from: try await client.send(.POST, "/api/cryptogram/games/\(game.id)/abandon"))
      #expect(abandoned.game.status == "abandoned" && abandoned.effects.map(\.type) == ["abandoned"])
      let after = try client.decode(CurrentCryptogramResponse.self, from: try await client.send(.GET, "/api/cryptogram/current"))
      #expect(after.game == nil)
      #expect(try await client.send(.POST, "/api/cryptogram/games/\(game.id)/continue").status == .conflict)
      let stats = try await stats(client)
      #expect(stats.played == 1 && stats.failed == 1)
    }
  }

  @Test("Played counts puzzles with a letter entered, not puzzles only opened")
  func playedCounts() async throws {
    try await withTestApp { client, app in
      let opened = try await newGame(client)
      _ = try await newGame(client)
      #expect(try await stats(client).played == 0)
      let puzzle = try await puzzle(of: opened.id, app: app)
      let cell = try #require(puzzle.letterCells.first { !puzzle.prefilled.contains($0) })
      let right = String(Letters.letter(puzzle.cells[cell].plain!))
      _ = try await guess(client, opened.id, cell: cell, letter: right)
      let second = try #require(puzzle.letterCells.first { !puzzle.prefilled.contains($0) && puzzle.cells[$0].cipher != puzzle.cells[cell].cipher })
      _ = try await guess(client, opened.id, cell: second, letter: String(Letters.letter(puzzle.cells[second].plain!)))
      #expect(try await stats(client).played == 1)
    }
  }

  @Test("Hints, pause and resume through the API")
  func hintsAndPause() async throws {
    try await withTestApp { client, _ in
      let game = try await newGame(client)
      let hint = try client.decode(CryptogramMoveResponse.self, from: try await client.send(.POST, "/api/cryptogram/games/\(game.id)/hints", json: CryptogramHintRequest()))
      #expect(hint.game.hints == 1 && hint.effects.first?.type == "hint")
      let hintedCell = try #require(hint.effects.first?.cells?.first)
      #expect(hint.game.cells[hintedCell].hinted && hint.game.cells[hintedCell].shown != nil)
      let paused = try client.decode(CryptogramMoveResponse.self, from: try await client.send(.POST, "/api/cryptogram/games/\(game.id)/pause"))
      #expect(paused.game.isPaused)
      let whilePaused = try await client.send(.POST, "/api/cryptogram/games/\(game.id)/hints", json: CryptogramHintRequest())
      #expect(try client.decode(APIErrorBody.self, from: whilePaused).code == "paused")
      let resumed = try client.decode(CryptogramMoveResponse.self, from: try await client.send(.POST, "/api/cryptogram/games/\(game.id)/resume"))
      #expect(!resumed.game.isPaused && resumed.game.hints == 1)
    }
  }

  @Test("Bad input is a clear 4xx and changes nothing")
  func badInput() async throws {
    try await withTestApp { client, app in
      let game = try await newGame(client)
      let puzzle = try await puzzle(of: game.id, app: app)
      let hidden = try #require(puzzle.letterCells.first { !puzzle.prefilled.contains($0) })
      let space = try #require(puzzle.cells.first { !$0.isLetter }).index
      for (cell, letter, status, code) in [
        (hidden, "7", HTTPStatus.badRequest, "invalid_letter"), (hidden, "AB", .badRequest, "invalid_letter"),
        (hidden, "", .badRequest, "invalid_letter"), (9_999, "A", .badRequest, "no_such_cell"), (space, "A", .badRequest, "not_a_letter"),
      ] {
        let response = try await guess(client, game.id, cell: cell, letter: letter)
        #expect(response.status == status, "\(cell) \(letter)")
        #expect(try client.decode(APIErrorBody.self, from: response).code == code)
      }
      let malformed = try await client.send(.POST, "/api/cryptogram/games/\(game.id)/guesses", raw: "{\"cell\": \"two\"}")
      #expect(malformed.status == .badRequest)
      let unknown = try await guess(client, UUID().uuidString, cell: 0, letter: "A")
      #expect(unknown.status == .notFound)
      #expect(try client.decode(APIErrorBody.self, from: unknown).code == "game_not_found")
      #expect(try await guess(client, "not-an-id", cell: 0, letter: "A").status == .notFound)
      // Another person cannot see or play this game.
      let stranger = client.stranger()
      _ = try await stranger.send(.GET, "/api/me")
      #expect(try await stranger.send(.GET, "/api/cryptogram/games/\(game.id)").status == .notFound)
      #expect(try await guess(stranger, game.id, cell: hidden, letter: "A").status == .notFound)
      let badMode = try await client.send(.POST, "/api/cryptogram/games", json: NewCryptogramGameRequest(mode: "weekly"))
      #expect(try client.decode(APIErrorBody.self, from: badMode).code == "invalid_mode")
      let badZone = try await client.send(.POST, "/api/cryptogram/games", json: NewCryptogramGameRequest(mode: "daily", timeZone: "Mars/Olympus"))
      #expect(try client.decode(APIErrorBody.self, from: badZone).code == "invalid_time_zone")
      // Nothing changed.
      let unchanged = try client.decode(CryptogramGameView.self, from: try await client.send(.GET, "/api/cryptogram/games/\(game.id)"))
      #expect(unchanged.mistakes == 0 && unchanged.cells == game.cells)
    }
  }

  @Test("The daily puzzle is one game per day per person and the same quote for everyone")
  func daily() async throws {
    try await withTestApp { client, app in
      let first = try await newGame(client, mode: "daily", length: nil)
      let again = try await newGame(client, mode: "daily", length: nil)
      #expect(first.id == again.id && first.mode == "daily" && first.date != nil)
      let other = client.stranger()
      let theirs = try await newGame(other, mode: "daily", length: nil)
      #expect(theirs.id != first.id)
      let mine = try await puzzle(of: first.id, app: app)
      let yours = try await puzzle(of: theirs.id, app: app)
      #expect(mine.quote == yours.quote && mine.cipher == yours.cipher)
      // Opened twice, no letter yet: not played.
      #expect(try await stats(client).played == 0)
    }
  }

  /// Guesses every hidden letter of `game` right; returns the last move.
  func solveAll(_ client: TestClient, _ game: CryptogramGameView, app: Application) async throws -> CryptogramMoveResponse {
    let puzzle = try await puzzle(of: game.id, app: app)
    var last: CryptogramMoveResponse?
    var revealed = puzzle.prefilled
    for cell in puzzle.letterCells where !revealed.contains(cell) {
      let move = try client.decode(
        CryptogramMoveResponse.self, from: try await guess(client, game.id, cell: cell, letter: String(Letters.letter(puzzle.cells[cell].plain!))))
      for effect in move.effects where effect.type == "revealed" { revealed.formUnion(effect.cells ?? []) }
      last = move
    }
    return try #require(last)
  }

  @Test("A shared daily link opens that day's puzzle for whoever follows it; a day not out yet or not a day is refused")
  func dailyLink() async throws {
    try await withTestApp { client, app in
      let today = CalendarDay(app.services.clock.now(), in: try #require(TimeZone(identifier: "Europe/Berlin")))
      let yesterday = today.adding(days: -1).description
      let send = { (who: TestClient, date: String, mode: String) in
        try await who.send(.POST, "/api/cryptogram/games", json: NewCryptogramGameRequest(mode: mode, timeZone: "Europe/Berlin", date: date))
      }
      let mine = try client.decode(CryptogramGameView.self, from: try await send(client, yesterday, "daily"))
      #expect(mine.mode == "daily" && mine.date == yesterday)
      // The friend who follows the link gets the same puzzle, cipher and all; following it again resumes it.
      let friend = client.stranger()
      let theirs = try friend.decode(CryptogramGameView.self, from: try await send(friend, yesterday, "daily"))
      #expect(theirs.id != mine.id && theirs.date == yesterday)
      let (a, b) = (try await puzzle(of: mine.id, app: app), try await puzzle(of: theirs.id, app: app))
      #expect(a.quote == b.quote && a.cipher == b.cipher)
      #expect(try friend.decode(CryptogramGameView.self, from: try await send(friend, yesterday, "daily")).id == theirs.id)
      // Today's date is today's daily, the same game the Daily button opens.
      let todays = try client.decode(CryptogramGameView.self, from: try await send(client, today.description, "daily"))
      #expect(todays.id == (try await newGame(client, mode: "daily", length: nil)).id)
      for (date, mode, status, code) in [
        (today.adding(days: 2).description, "daily", HTTPStatus.conflict, "daily_not_yet"), ("2026-02-30", "daily", .badRequest, "invalid_date"),
        ("yesterday", "daily", .badRequest, "invalid_date"), (yesterday, "random", .badRequest, "invalid_date"),
      ] {
        let refused = try await send(client, date, mode)
        #expect(refused.status == status, "\(date) \(mode)")
        #expect(try client.decode(APIErrorBody.self, from: refused).code == code)
      }
      // A friend in Los Angeles follows a link from someone already in the day that has begun first on Earth.
      let newest = CalendarDay(app.services.clock.now(), in: CryptogramController.earliestZone).description
      let behind = client.stranger()
      let opened = try await behind.send(
        .POST, "/api/cryptogram/games", json: NewCryptogramGameRequest(mode: "daily", timeZone: "America/Los_Angeles", date: newest))
      #expect(opened.status == .ok)
      #expect(try behind.decode(CryptogramGameView.self, from: opened).date == newest)
    }
  }

  @Test("A daily lost and let go is a fresh attempt when asked for again, not a dead board")
  func abandonedDaily() async throws {
    try await withTestApp { client, app in
      let game = try await newGame(client, mode: "daily", length: nil)
      let puzzle = try await puzzle(of: game.id, app: app)
      let cell = try #require(puzzle.letterCells.first { !puzzle.prefilled.contains($0) })
      let wrong = String(Letters.letter((puzzle.cells[cell].plain! + 1) % 26))
      for _ in 0..<3 { _ = try await guess(client, game.id, cell: cell, letter: wrong) }
      #expect(try await client.send(.POST, "/api/cryptogram/games/\(game.id)/abandon").status == .ok)
      let again = try await newGame(client, mode: "daily", length: nil)
      #expect(again.id != game.id && again.status == "playing" && again.mistakes == 0 && again.date == game.date)
      let (first, second) = (puzzle, try await self.puzzle(of: again.id, app: app))
      #expect(first.quote == second.quote && first.cipher == second.cipher)
      // And the fresh attempt is the one the Daily button opens from now on.
      #expect(try await newGame(client, mode: "daily", length: nil).id == again.id)
    }
  }

  @Test("Sharing a solved puzzle: spoiler-free text, the daily's link and a square card; nothing before the solve")
  func share() async throws {
    try await withTestApp { client, app in
      let game = try await newGame(client, mode: "daily", length: nil)
      let early = try await client.send(.GET, "/api/cryptogram/games/\(game.id)/share")
      #expect(early.status == .conflict)
      #expect(try client.decode(APIErrorBody.self, from: early).code == "not_solved")
      #expect(try await client.send(.GET, "/api/cryptogram/games/\(game.id)/card.png").status == .conflict)
      let solved = try await solveAll(client, game, app: app)
      let share = try client.decode(CryptogramShareView.self, from: try await client.send(.GET, "/api/cryptogram/games/\(game.id)/share"))
      let date = try #require(game.date.flatMap(CalendarDay.init))
      #expect(share.path == "/cryptogram?daily=\(date)")
      #expect(share.title == "Cryptogram · Daily puzzle, \(CryptogramShare.longDate(date))")
      #expect(share.text.contains("Solved in \(CryptogramShare.clock(solved.game.stats?.seconds ?? -1))"))
      #expect(share.text.contains("Daily streak: 1 day"))
      // No word of the quote or its author.
      let quote = try #require(solved.game.solution)
      let words = (quote.text + " " + quote.attribution).split { !$0.isLetter }.filter { $0.count >= 5 }.map { $0.lowercased() }
      #expect(!words.isEmpty)
      for word in words { #expect(!share.text.lowercased().contains(word), "\(word)") }
      let png = try await client.send(.GET, share.cardPath)
      #expect(png.status == .ok && png.headers.contentType == .png)
      let bytes = Array(png.body.readableBytesView)
      #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      #expect(bytes[16..<20].reduce(0) { $0 << 8 | Int($1) } == 1080 && bytes[20..<24].reduce(0) { $0 << 8 | Int($1) } == 1080)
      // Someone else's game is not theirs to share.
      #expect(try await client.stranger().send(.GET, "/api/cryptogram/games/\(game.id)/share").status == .notFound)
    }
  }

  @Test("Concurrent identical last guesses pay once")
  func concurrentSolve() async throws {
    try await withTestApp { client, app in
      let game = try await newGame(client)
      let puzzle = try await puzzle(of: game.id, app: app)
      let hidden = puzzle.letterCells.filter { !puzzle.prefilled.contains($0) }
      let lastPlain = try #require(hidden.last.flatMap { puzzle.cells[$0].plain })
      // Fill everything except the last letter.
      for cell in hidden where puzzle.cells[cell].plain != lastPlain {
        _ = try await guess(client, game.id, cell: cell, letter: String(Letters.letter(puzzle.cells[cell].plain!)))
      }
      let final = try #require(hidden.last)
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for _ in 0..<6 {
          group.addTask { try await guess(client, game.id, cell: final, letter: String(Letters.letter(lastPlain))).status }
        }
        return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
      }
      #expect(statuses.filter { $0 == .ok }.count == 1)
      #expect(statuses.filter { $0 == .conflict }.count == 5)
      let after = try await stats(client)
      #expect(after.solved == 1 && after.points == 10)
    }
  }

  @Test("A half-played puzzle survives a server restart (SQLite file)")
  func survivesRestart() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-restart-\(UUID().uuidString)")
    let options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    var cookie: String?
    var gameID = ""
    try await withTestApp(options: options) { client, _ in
      let game = try await newGame(client)
      _ = try await client.send(.POST, "/api/cryptogram/games/\(game.id)/hints", json: CryptogramHintRequest())
      cookie = client.sessionCookie
      gameID = game.id
    }
    try await withTestApp(options: options) { client, _ in
      client.sessionCookie = cookie
      let current = try client.decode(CurrentCryptogramResponse.self, from: try await client.send(.GET, "/api/cryptogram/current"))
      #expect(current.game?.id == gameID && current.game?.hints == 1)
    }
    try? FileManager.default.removeItem(at: folder)
  }
}
