import CompletionAPI
import CompletionCore
import Cryptogram
import Fluent
import FluentSQL
import Foundation
import Testing
import Vapor

@testable import CompletionServer

/// The completion pipeline through the cryptogram's API: the recorder's rows, the player's midnight,
/// idempotency keys, and two servers sharing one database.
@Suite("Completion pipeline", .serialized)
struct CompletionPipelineTests {
  let api = CryptogramAPITests()

  func instant(_ iso: String) -> Date { ISO8601DateFormatter().date(from: iso)! }

  /// Plays every hidden letter of `gameID` correctly; returns the last move.
  @discardableResult
  func solve(_ client: TestClient, _ gameID: String, app: Application, headers: HTTPHeaders = [:]) async throws -> CryptogramMoveResponse {
    let puzzle = try await api.puzzle(of: gameID, app: app)
    var shown = Set(puzzle.prefilled)
    var last: CryptogramMoveResponse?
    for cell in puzzle.letterCells where !shown.contains(cell) {
      let letter = String(Letters.letter(puzzle.cells[cell].plain!))
      let response = try await client.send(
        .POST, "/api/cryptogram/games/\(gameID)/guesses", json: CryptogramGuessRequest(cell: cell, letter: letter), headers: headers)
      #expect(response.status == .ok, "\(String(buffer: response.body))")
      let move = try client.decode(CryptogramMoveResponse.self, from: response)
      for effect in move.effects where effect.type == "revealed" { shown.formUnion(effect.cells ?? []) }
      last = move
    }
    return try #require(last)
  }

  func daily(_ client: TestClient) async throws -> CryptogramGameView {
    let response = try await client.send(
      .POST, "/api/cryptogram/games", json: NewCryptogramGameRequest(mode: "daily", length: nil, timeZone: "Europe/Berlin"))
    #expect(response.status == .ok)
    return try client.decode(CryptogramGameView.self, from: response)
  }

  @Test("A solve is recorded once: one completion row, one ledger entry, totals and the kept balance")
  func solveIsRecordedOnce() async throws {
    try await withTestApp { client, app in
      let game = try await api.newGame(client)
      let final = try await solve(client, game.id, app: app)
      #expect(final.celebration?.name == "cryptogramCompletion")
      let sql = try #require(app.db as? any SQLDatabase)
      let user = try #require(try await CryptogramGame.find(UUID(uuidString: game.id), on: app.db)?.$user.id)
      let completions = try await sql.raw("SELECT key, celebrated FROM completions WHERE user_id = \(bind: user)").all()
      #expect(completions.count == 1)
      #expect(try completions.first?.decode(column: "key", as: String.self) == "cryptogram:\(user.uuidString):\(game.id)")
      #expect(try completions.first?.decode(column: "celebrated", as: Bool.self) == true)
      let totals = try await CompletionRecorder.totals(userID: user, domain: "cryptogram", on: sql)
      #expect(totals.completed == 1 && totals.timed == 1 && totals.bestSeconds != nil)
      #expect(try await SQLLedgerStore.balance(userID: user, currency: "points", on: sql) == 10)
      #expect(try await LedgerVerification.verify(on: app.db, users: [user]).differences.isEmpty)
    }
  }

  @Test("The recorder records a completion once: a second call with the same key pays, counts and celebrates nothing new")
  func recorderIsIdempotent() async throws {
    try await withTestApp { _, app in
      let user = User(displayName: "Recorder", isGuest: true)
      try await user.create(on: app.db)
      let userID = try user.requireID()
      let completion = CryptogramCompletion.completion(
        gameID: UUID().uuidString, account: userID.uuidString, mode: "daily", dailyDate: CalendarDay(year: 2026, month: 11, day: 23),
        timeZone: "Europe/Berlin", at: instant("2026-11-23T12:00:00Z"), stats: Completion.Stats(seconds: 42, mistakes: 1, hints: 0))
      let first = try await app.db.transaction { db in
        try await CompletionRecorder.record(completion, rules: CryptogramCompletion.rules, preference: .reduced, on: db)
      }
      let second = try await app.db.transaction { db in
        try await CompletionRecorder.record(completion, rules: CryptogramCompletion.rules, preference: .reduced, on: db)
      }
      #expect(first.isFirst && !second.isFirst)
      #expect(first.payments.count == 1 && second.payments.isEmpty)
      #expect(first.streak?.current == 1 && second.streak?.current == 1)
      #expect(first.stats.completed == 1 && second.stats.completed == 1)
      #expect(first.choreography == CompletionCelebration.choreography.adapted(to: .reduced))
      #expect(second.choreography == first.choreography, "a retry replays the celebration, it is not a second one")
      let sql = try #require(app.db as? any SQLDatabase)
      #expect(try await SQLLedgerStore.balance(userID: userID, currency: "points", on: sql) == 10)
      #expect(try await CompletionRecorder.totals(userID: userID, domain: "cryptogram", on: sql).bestSeconds == 42)
    }
  }

  @Test("Across the player's midnight: yesterday's streak still counts, the daily turns over, a late solve pays but does not extend")
  func acrossMidnight() async throws {
    try await withTestApp { client, app in
      let clock = app.services.clock
      clock.freeze()
      // 23:40 in Berlin on the 23rd (UTC+1).
      clock.set(to: instant("2026-11-23T22:40:00Z"))
      let monday = try await daily(client)
      #expect(monday.date == "2026-11-23")
      clock.set(to: instant("2026-11-23T22:55:00Z"))
      try await solve(client, monday.id, app: app)
      var stats = try await api.stats(client)
      #expect(stats.currentStreak == 1 && stats.points == 10)

      // 00:10 on the 24th in Berlin, still the 23rd in UTC.
      clock.set(to: instant("2026-11-23T23:10:00Z"))
      stats = try await api.stats(client)
      #expect(stats.currentStreak == 1, "today not solved yet: yesterday's run still counts")
      let tuesday = try await daily(client)
      #expect(tuesday.date == "2026-11-24" && tuesday.id != monday.id)
      let mondayPuzzle = try await api.puzzle(of: monday.id, app: app)
      let tuesdayPuzzle = try await api.puzzle(of: tuesday.id, app: app)
      #expect(mondayPuzzle.quote != tuesdayPuzzle.quote)
      try await solve(client, tuesday.id, app: app)
      stats = try await api.stats(client)
      #expect(stats.currentStreak == 2 && stats.bestStreak == 2 && stats.points == 20)

      // Wednesday's daily started at 23:58 and solved at 00:02 on Thursday: points, but no streak day.
      clock.set(to: instant("2026-11-25T22:58:00Z"))
      let wednesday = try await daily(client)
      #expect(wednesday.date == "2026-11-25")
      clock.set(to: instant("2026-11-25T23:02:00Z"))
      try await solve(client, wednesday.id, app: app)
      stats = try await api.stats(client)
      #expect(stats.points == 30)
      #expect(stats.currentStreak == 0 && stats.bestStreak == 2, "Wednesday was missed; Thursday is not solved yet")
      #expect(stats.calendar.first { $0.date == "2026-11-25" }?.solved == false)
    }
  }

  @Test("Idempotency-Key on a move: a retry replays the first answer, another move with the key is refused")
  func idempotentMoves() async throws {
    try await withTestApp { client, app in
      let game = try await api.newGame(client)
      let puzzle = try await api.puzzle(of: game.id, app: app)
      let cell = try #require(puzzle.letterCells.first { !puzzle.prefilled.contains($0) })
      let letter = String(Letters.letter(puzzle.cells[cell].plain!))
      let key: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let path = "/api/cryptogram/games/\(game.id)/guesses"
      let first = try await client.send(.POST, path, json: CryptogramGuessRequest(cell: cell, letter: letter), headers: key)
      let again = try await client.send(.POST, path, json: CryptogramGuessRequest(cell: cell, letter: letter), headers: key)
      #expect(first.status == .ok && again.status == .ok)
      #expect(again.headers.first(name: "Idempotent-Replayed") == "true")
      #expect(try client.decode(CryptogramMoveResponse.self, from: again) == client.decode(CryptogramMoveResponse.self, from: first))
      // Without the key the same guess is judged again (and refused: the letter is already there).
      let plain = try await client.send(.POST, path, json: CryptogramGuessRequest(cell: cell, letter: letter))
      #expect(plain.status == .conflict)
      let other = try await client.send(.POST, path, json: CryptogramGuessRequest(cell: cell, letter: "Q"), headers: key)
      #expect(other.status == .conflict)
      #expect(try client.decode(APIErrorBody.self, from: other).code == "idempotency_key_reused")
      let blank = try await client.send(.POST, path, json: CryptogramGuessRequest(cell: cell, letter: letter), headers: ["Idempotency-Key": " "])
      #expect(try client.decode(APIErrorBody.self, from: blank).code == "invalid_idempotency_key")
    }
  }

  @Test("The celebration can be turned off per kind; the solve still pays")
  func celebrationOptOut() async throws {
    try await withTestApp { client, app in
      let game = try await api.newGame(client)
      let response = try await client.send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: ["cryptogram"]))
      #expect(response.status == .ok)
      #expect(try client.decode(CelebrationSettings.self, from: try await client.send(.GET, "/api/account/celebrations")).optedOut == ["cryptogram"])
      let final = try await solve(client, game.id, app: app)
      #expect(final.game.status == "solved" && final.celebration == nil && final.wiggle == nil)
      #expect(try await api.stats(client).points == 10)
      let unknown = try await client.send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: ["fireworks"]))
      #expect(try client.decode(APIErrorBody.self, from: unknown).code == "invalid_parameter")
    }
  }

  @Test("Celebration settings are written through group commit on SQLite, in turn with the other writes")
  func celebrationSettingsTakeTheirTurn() async throws {
    try await withTestApp { client, app in
      guard app.serverOptions.database.kind == "sqlite" else { return }
      // Signed in first: the guest this makes is a write of its own.
      #expect(try await client.send(.GET, "/api/account/celebrations").status == .ok)
      _ = try await client.send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: []))
      let before = try #require(app.services.runner.writes.groupCommitStats).writes
      // A write on one of the driver's pooled connections would not count here; it also sleeps in SQLite's busy
      // handler (1, 2, 5, 10, 15, 20… ms) whenever the writer holds the lock, as it does half the time while the
      // feed copier runs.
      #expect(try await client.send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: ["cryptogram"])).status == .ok)
      #expect(try #require(app.services.runner.writes.groupCommitStats).writes == before + 1)
      #expect(try client.decode(CelebrationSettings.self, from: try await client.send(.GET, "/api/account/celebrations")).optedOut == ["cryptogram"])
    }
  }

  @Test("Two servers on one database: concurrent moves on both are never lost, the solve pays once")
  func twoServersShareOneDatabase() async throws {
    // A shared database: the CI's PostgreSQL, or a SQLite file both servers open.
    var options = TestDatabase.options
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-two-\(UUID().uuidString)")
    if options.database == .sqliteMemory {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      options = ServerOptions(
        database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    }
    defer { try? FileManager.default.removeItem(at: folder) }
    try await withTestApp(options: options) { one, app in
      try await withTestApp(options: options) { other, _ in
        // Three games, so a lost move (which needs an unlucky interleaving) has three chances to show.
        var lastGameID = ""
        for round in 1...3 {
          let game = try await api.newGame(one)
          lastGameID = game.id
          other.sessionCookie = one.sessionCookie  // the same person on both servers
          let puzzle = try await api.puzzle(of: game.id, app: app)
          // One guess per distinct hidden letter, half through each server, all at once.
          var byLetter: [Int: Int] = [:]
          for cell in puzzle.letterCells where !puzzle.prefilled.contains(cell) { byLetter[puzzle.cells[cell].plain!] = cell }
          let guesses = Array(byLetter).sorted { $0.key < $1.key }
          let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
            for (index, (plain, cell)) in guesses.enumerated() {
              let client = index.isMultiple(of: 2) ? one : other
              group.addTask {
                // Each guess is sent twice with one key, to both servers: a retry that crossed over.
                let key: HTTPHeaders = ["Idempotency-Key": "\(game.id)-\(cell)"]
                let body = CryptogramGuessRequest(cell: cell, letter: String(Letters.letter(plain)))
                async let first = client.send(.POST, "/api/cryptogram/games/\(game.id)/guesses", json: body, headers: key)
                async let second = (client === one ? other : one).send(.POST, "/api/cryptogram/games/\(game.id)/guesses", json: body, headers: key)
                let (a, b) = try await (first, second)
                return a.status == .ok && b.status == .ok ? .ok : .conflict
              }
            }
            return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
          }
          #expect(statuses.allSatisfy { $0 == .ok })
          let final = try one.decode(CryptogramGameView.self, from: try await one.send(.GET, "/api/cryptogram/games/\(game.id)"))
          #expect(final.status == "solved", "every move landed")
          #expect(final.cells.filter(\.isLetter).allSatisfy { $0.shown != nil })
          let otherStats = try await api.stats(other)
          let oneStats = try await api.stats(one)
          #expect(otherStats.points == 10 * round && oneStats.solved == round)
        }
        let user = try #require(try await CryptogramGame.find(UUID(uuidString: lastGameID), on: app.db)?.$user.id)
        #expect(try await LedgerVerification.verify(on: app.db, users: [user]).differences.isEmpty)
      }
    }
  }
}
