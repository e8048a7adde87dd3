import CompletionAPI
import CompletionCore
import Cryptogram
import Fluent
import FluentSQL
import Vapor

/// The cryptogram game over HTTP. Every guess is checked here with the same `Cryptogram` rules the
/// tests use; the client only ever sees cells it has earned.
struct CryptogramController: RouteCollection {
  /// Points paid for a solved puzzle.
  static let pointsPerSolve = 10

  func boot(routes: any RoutesBuilder) throws {
    let api = routes.grouped("api", "cryptogram")
    api.post("games", use: create)
    api.get("current", use: current)
    api.get("stats", use: stats)
    let game = api.grouped("games", ":id")
    game.get(use: show)
    game.post("guesses", use: guess)
    game.post("hints", use: hint)
    game.post("pause") { try await move($0) { .pause(at: $0) } }
    game.post("resume") { try await move($0) { .resume(at: $0) } }
    game.post("continue") { try await move($0) { .continuePlaying(at: $0) } }
    game.post("restart") { try await move($0) { _ in .restart } }
  }

  // MARK: Routes

  /// `POST /api/cryptogram/games`: today's daily (resumed if started) or a new random puzzle.
  @Sendable func create(req: Request) async throws -> CryptogramGameView {
    let body = try req.decodeJSON(NewCryptogramGameRequest.self)
    let zone = try Self.timeZone(body.timeZone)
    guard body.mode == "daily" || body.mode == "random" else { throw CryptogramError.invalidMode(body.mode) }
    let user = try await req.userCreatingGuest()
    let userID = try user.requireID()
    let state = req.application.cryptogram
    let db = req.db
    // One creation at a time per person, so two taps on "daily" make one game.
    return try await state.people.run(userID) {
      let now = Date()
      let today = CalendarDay(now, in: zone)
      let library = try await state.quotes.library(on: db)
      let daily = PuzzleSelection.daily(for: today, from: library.quotes)
      let quote: Quote
      let seed: UInt64
      if body.mode == "daily" {
        if let existing = try await CryptogramGame.query(on: db)
          .filter(\.$user.$id == userID).filter(\.$dailyDate == today.description)
          .sort(\.$createdAt, .descending).first()
        {
          return try await Self.view(of: try GameRecord(existing), state: state, on: db, at: now)
        }
        guard let daily else { throw CryptogramError.noQuotes }
        (quote, seed) = daily
      } else {
        let solved = Set(
          try await CryptogramGame.query(on: db).filter(\.$user.$id == userID).filter(\.$status == "solved").all(\.$quoteID))
        var generator = SystemRandomNumberGenerator()
        guard
          let pick = PuzzleSelection.random(
            from: library.quotes, length: body.length, excluding: solved, alwaysExcluding: Set([daily?.quote.id].compactMap { $0 }),
            using: &generator)
        else { throw CryptogramError.noQuotes }
        quote = pick
        seed = UInt64.random(in: .min ... .max, using: &generator)
      }
      let puzzle = Puzzle(quote: quote, seed: seed)
      let game = CryptogramGame()
      game.$user.id = userID
      game.quoteID = quote.id
      game.seed = Int64(bitPattern: seed)
      game.mode = body.mode
      game.dailyDate = body.mode == "daily" ? today.description : nil
      game.timeZone = zone.identifier
      game.board = try Self.encode(Board(puzzle: puzzle))
      game.status = Board.Status.playing.rawValue
      game.mistakes = 0
      game.hints = 0
      try await state.writes.run {
        try await db.transaction { db in
          try await game.create(on: db)
          try await Self.ensureStats(for: userID, on: db)
          try await Self.increment(userID, ["played": 1], on: db)
        }
      }
      return try Self.view(of: try GameRecord(game), puzzle: puzzle, board: Board(puzzle: puzzle), at: now)
    }
  }

  /// `GET /api/cryptogram/current`: the most recent unfinished puzzle, so a reload picks up where it was.
  @Sendable func current(req: Request) async throws -> CurrentCryptogramResponse {
    guard let user = try await req.currentUser(), let userID = user.id else { return CurrentCryptogramResponse(game: nil) }
    let game = try await CryptogramGame.query(on: req.db)
      .filter(\.$user.$id == userID).filter(\.$status != "solved")
      .sort(\.$updatedAt, .descending).first()
    guard let game else { return CurrentCryptogramResponse(game: nil) }
    return CurrentCryptogramResponse(
      game: try await Self.view(of: try GameRecord(game), state: req.application.cryptogram, on: req.db, at: Date()))
  }

  /// `GET /api/cryptogram/games/{id}`.
  @Sendable func show(req: Request) async throws -> CryptogramGameView {
    let game = try await Self.ownedGame(req)
    return try await Self.view(of: game, state: req.application.cryptogram, on: req.db, at: Date())
  }

  /// `POST /api/cryptogram/games/{id}/guesses` `{cell, letter}`.
  @Sendable func guess(req: Request) async throws -> CryptogramMoveResponse {
    let body = try req.decodeJSON(CryptogramGuessRequest.self)
    guard body.letter.count == 1, let letter = body.letter.first, Letters.index(of: letter) != nil else {
      throw CryptogramError.invalidLetter
    }
    return try await move(req) { .guess(cell: body.cell, letter: letter, at: $0) }
  }

  /// `POST /api/cryptogram/games/{id}/hints` `{cell?}`.
  @Sendable func hint(req: Request) async throws -> CryptogramMoveResponse {
    let body = req.body.data == nil ? CryptogramHintRequest() : try req.decodeJSON(CryptogramHintRequest.self)
    return try await move(req) { .hint(cell: body.cell, at: $0) }
  }

  /// `GET /api/cryptogram/stats?timeZone=Europe/Berlin`.
  @Sendable func stats(req: Request) async throws -> CryptogramStatsView {
    let zone = try Self.timeZone(req.query[String.self, at: "timeZone"])
    let user = try await req.userCreatingGuest()
    let userID = try user.requireID()
    let today = CalendarDay(Date(), in: zone)
    let row = try await CryptogramStats.query(on: req.db).filter(\.$user.$id == userID).first()
    let recent = try await CryptogramGame.query(on: req.db)
      .filter(\.$user.$id == userID).filter(\.$status == "solved")
      .sort(\.$solvedAt, .descending).limit(50).all()
    let firstDay = today.adding(days: -34)
    let dailies = try await CryptogramGame.query(on: req.db)
      .filter(\.$user.$id == userID).filter(\.$status == "solved").filter(\.$mode == "daily")
      .filter(\.$dailyDate >= firstDay.description).all()
    let onTime = Set(dailies.compactMap { game -> String? in
      guard let solvedAt = game.solvedAt, let date = game.dailyDate, let zone = TimeZone(identifier: game.timeZone) else { return nil }
      return CalendarDay(solvedAt, in: zone).description == date ? date : nil
    })
    let streak = DailyStreak(
      current: row?.streakCurrent ?? 0, best: row?.streakBest ?? 0, lastDay: row?.streakLastDay.flatMap(CalendarDay.init))
    let solved = row?.solved ?? 0
    return CryptogramStatsView(
      played: row?.played ?? 0, solved: solved, failed: row?.failed ?? 0,
      averageSeconds: solved > 0 ? (row?.totalSolveSeconds ?? 0) / Double(solved) : nil, bestSeconds: row?.bestSeconds,
      currentStreak: streak.current(on: today), bestStreak: streak.best,
      history: recent.reversed().compactMap { game in
        guard let id = game.id, let solvedAt = game.solvedAt, let seconds = game.solveSeconds else { return nil }
        return .init(
          gameID: id.uuidString, solvedAt: solvedAt.timeIntervalSince1970, seconds: seconds, mode: game.mode, mistakes: game.mistakes,
          hints: game.hints)
      },
      calendar: (0..<35).map { offset in
        let day = firstDay.adding(days: offset).description
        return .init(date: day, solved: onTime.contains(day))
      },
      points: try await Ledger.balance(userID: userID, currency: "points", on: req.db))
  }

  // MARK: Moves

  /// Applies one event to a game in its own queue and stores the result with any stats and reward, all in
  /// one transaction. A refused move is a 4xx and changes nothing.
  func move(_ req: Request, _ makeEvent: @escaping @Sendable (Date) -> Board.Event) async throws -> CryptogramMoveResponse {
    // The session already names the person; the game query below checks ownership, so no user lookup is needed.
    guard let userID = req.currentSession?.userID else { throw CryptogramError.gameNotFound }
    let gameID = try Self.gameID(req)
    let preference = try MotionController.preference(req)
    let state = req.application.cryptogram
    let db = req.db
    return try await state.games.run(gameID) {
      guard let game = try await GameRecord.load(gameID, of: userID, on: db) else { throw CryptogramError.gameNotFound }
      let puzzle = try await Self.puzzle(of: game, state: state, on: db)
      var board = try Self.decode(game.board)
      let now = Date()
      let effects = board.handle(makeEvent(now), in: puzzle)
      if effects.count == 1, case .refused(let refusal) = effects[0] { throw CryptogramError.refused(refusal) }
      let stored = try await Self.store(board, effects: effects, in: game, userID: userID, at: now, writes: state.writes, on: db)
      let solved = effects.contains { if case .solved = $0 { true } else { false } }
      return CryptogramMoveResponse(
        game: try Self.view(of: stored, puzzle: puzzle, board: board, at: now),
        effects: effects.map(CryptogramEffectView.init),
        celebration: solved ? ChoreographyPayload(CompletionCelebration.choreography, preference: preference) : nil,
        wiggle: solved
          ? WigglePayload(CompletionCelebration.wiggle, count: puzzle.cells.count, seed: puzzle.seed, preference: preference) : nil)
    }
  }

  /// Saves the board and applies what the effects mean for stats, streaks and the ledger.
  static func store(
    _ board: Board, effects: [Board.Effect], in game: GameRecord, userID: UUID, at now: Date, writes: DatabaseWriteGate,
    on db: any Database
  ) async throws -> GameRecord {
    var game = game
    game.board = try encode(board)
    game.status = board.status.rawValue
    game.mistakes = board.mistakes
    game.hints = board.hints
    let touchesStats = effects.contains {
      switch $0 {
      case .failed, .restarted, .solved: true
      default: false
      }
    }
    // Most moves change only the board: one UPDATE, no transaction round trips.
    guard touchesStats else {
      try await writes.run { [game] in try await game.save(at: now, on: db) }
      return game
    }
    return try await writes.run { [game] in
      try await db.transaction { db in
        var game = game
        for effect in effects {
          switch effect {
          case .failed:
            try await increment(userID, ["failed": 1], on: db)
          case .restarted:
            try await increment(userID, ["played": 1], on: db)
          case .solved(let stats):
            game.solvedAt = now
            game.solveSeconds = stats.seconds
            let gameID = game.id
            // The ledger key is the game: however often this is retried, the solve pays and counts once.
            let paid = try await Ledger.pay(
              key: "cryptogram:\(gameID.uuidString)", userID: userID, currency: "points", amount: pointsPerSolve,
              reason: "Solved a cryptogram", on: db)
            guard paid else { continue }
            try await recordSolve(seconds: stats.seconds, game: game, userID: userID, at: now, on: db)
          default:
            continue
          }
        }
        try await game.save(at: now, on: db)
        return game
      }
    }
  }

  /// Counts a solve: totals by increment, best time, and the daily streak when solved on its own date.
  static func recordSolve(seconds: Double, game: GameRecord, userID: UUID, at now: Date, on db: any Database) async throws {
    guard let sql = db as? any SQLDatabase else { return }
    try await sql.update(CryptogramStats.schema)
      .set(SQLIdentifier("solved"), to: SQLRaw("solved + 1"))
      .set(SQLIdentifier("total_solve_seconds"), to: SQLBinaryExpression(SQLIdentifier("total_solve_seconds"), .add, SQLBind(seconds)))
      .set(
        SQLIdentifier("best_seconds"),
        to: SQLQueryString("CASE WHEN best_seconds IS NULL OR best_seconds > \(bind: seconds) THEN \(bind: seconds) ELSE best_seconds END"))
      .where("user_id", .equal, SQLBind(userID))
      .run()
    guard game.mode == "daily", let date = game.dailyDate, let zone = TimeZone(identifier: game.timeZone),
      CalendarDay(now, in: zone).description == date, let day = CalendarDay(date),
      let row = try await CryptogramStats.query(on: db).filter(\.$user.$id == userID).first()
    else { return }
    var streak = DailyStreak(current: row.streakCurrent, best: row.streakBest, lastDay: row.streakLastDay.flatMap(CalendarDay.init))
    streak.recordSolve(on: day)
    row.streakCurrent = streak.current
    row.streakBest = streak.best
    row.streakLastDay = streak.lastDay?.description
    try await row.update(on: db)
  }

  // MARK: Helpers

  static func ensureStats(for userID: UUID, on db: any Database) async throws {
    if try await CryptogramStats.query(on: db).filter(\.$user.$id == userID).first() == nil {
      try await CryptogramStats(userID: userID).create(on: db)
    }
  }

  /// Adds to integer counters in one UPDATE, so concurrent games of one person never lose a count.
  static func increment(_ userID: UUID, _ counters: [String: Int], on db: any Database) async throws {
    guard let sql = db as? any SQLDatabase else { return }
    var update = sql.update(CryptogramStats.schema)
    for (column, amount) in counters {
      update = update.set(SQLIdentifier(column), to: SQLBinaryExpression(SQLIdentifier(column), .add, SQLBind(amount)))
    }
    try await update.where("user_id", .equal, SQLBind(userID)).run()
  }

  static func gameID(_ req: Request) throws -> UUID {
    guard let text = req.parameters.get("id"), let id = UUID(uuidString: text) else { throw CryptogramError.gameNotFound }
    return id
  }

  /// The signed-in person's game named in the path; someone else's game is "not found", never "forbidden".
  static func ownedGame(_ req: Request) async throws -> GameRecord {
    guard let userID = req.currentSession?.userID else { throw CryptogramError.gameNotFound }
    guard let game = try await GameRecord.load(try gameID(req), of: userID, on: req.db) else { throw CryptogramError.gameNotFound }
    return game
  }

  static func puzzle(of game: GameRecord, state: CryptogramState, on db: any Database) async throws -> Puzzle {
    guard let quote = try await state.quotes.quote(id: game.quoteID, on: db) else { throw CryptogramError.gameNotFound }
    return Puzzle(quote: quote, seed: UInt64(bitPattern: game.seed))
  }

  static func view(of game: GameRecord, state: CryptogramState, on db: any Database, at now: Date) async throws -> CryptogramGameView {
    let puzzle = try await puzzle(of: game, state: state, on: db)
    return try view(of: game, puzzle: puzzle, board: try decode(game.board), at: now)
  }

  static func view(of game: GameRecord, puzzle: Puzzle, board: Board, at now: Date) throws -> CryptogramGameView {
    CryptogramGameView(
      id: game.id.uuidString, mode: game.mode, date: game.dailyDate, puzzle: puzzle, board: board,
      elapsedSeconds: board.session.elapsed(at: now))
  }

  static func timeZone(_ identifier: String?) throws -> TimeZone {
    guard let identifier, !identifier.isEmpty else { return .gmt }
    guard let zone = TimeZone(identifier: identifier) else { throw CryptogramError.invalidTimeZone(identifier) }
    return zone
  }

  static func encode(_ board: Board) throws -> String {
    String(decoding: try JSONEncoder().encode(board), as: UTF8.self)
  }

  static func decode(_ text: String) throws -> Board {
    try JSONDecoder().decode(Board.self, from: Data(text.utf8))
  }
}
