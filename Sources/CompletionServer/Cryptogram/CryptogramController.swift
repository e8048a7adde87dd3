import CompletionAPI
import CompletionCore
import Cryptogram
import Fluent
import FluentSQL
import Imaging
import StreamingJSON
import Vapor

/// The cryptogram game over HTTP. Every guess is checked here with the same `Cryptogram` rules the
/// tests use; the client only ever sees cells it has earned. Moves run through the ``GameRunner``; a
/// solve is recorded by the ``CompletionRecorder`` (points, streak, totals, celebration).
struct CryptogramController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    // The page itself, with a shared daily link's preview tags, and that preview's picture.
    try routes.register(collection: CryptogramPage())
    let api = routes.grouped("api", "cryptogram")
    api.post("games", use: create)
    api.get("current", use: current)
    api.get("stats", use: stats)
    api.get("dailies", use: dailies)
    let game = api.grouped("games", ":id")
    game.get(use: show)
    game.get("share", use: share)
    game.get("card.png", use: card)
    game.post("guesses", use: guess)
    game.post("hints", use: hint)
    game.post("pause") { try await move($0) { .pause(at: $0) } }
    game.post("resume") { try await move($0) { .resume(at: $0) } }
    game.post("continue") { try await move($0) { .continuePlaying(at: $0) } }
    game.post("restart") { try await move($0) { _ in .restart } }
    game.post("abandon") { try await move($0) { _ in .abandon } }
  }

  // MARK: Routes

  /// `POST /api/cryptogram/games`: today's daily (resumed if started) or a new random puzzle.
  @Sendable func create(req: Request) async throws -> CryptogramGameView {
    let body = try req.decodeJSON(NewCryptogramGameRequest.self)
    let zone = try Self.timeZone(body.timeZone)
    guard body.mode == "daily" || body.mode == "random" else { throw CryptogramError.invalidMode(body.mode) }
    // A shared link names the daily's day; it goes with a daily puzzle only.
    let requestedDay = try body.date.map { text in
      guard body.mode == "daily", let day = CalendarDay(text), day.year >= 2000 else { throw CryptogramError.invalidDate(text) }
      return day
    }
    let user = try await req.userCreatingGuest()
    let userID = try user.requireID()
    let services = req.application.services
    let db = req.db
    // One creation at a time per person, so two taps on "daily" make one game.
    return try await services.people.run(userID) {
      let now = services.clock.now()
      let today = CalendarDay(now, in: zone)
      // Another day's daily (a friend's link) is the same puzzle for everyone. A day is out once it has begun
      // anywhere on Earth (UTC+14), so a friend a time zone behind the one who shared it can play it too.
      let day = requestedDay ?? today
      if day > CalendarDay(now, in: Self.earliestZone) { throw CryptogramError.dailyNotYet(day) }
      let library = try await services.quotes.library(on: db)
      let daily = PuzzleSelection.daily(for: today, in: library)
      let quote: Quote
      let seed: UInt64
      if body.mode == "daily" {
        // A daily lost and let go ("New puzzle") is not reopened as a dead board: asking for it again is a
        // fresh attempt at the same puzzle.
        if let existing = try await GameRecord.latestDaily(of: userID, day: day.description, on: db),
          existing.status != Board.Status.abandoned.rawValue
        {
          return try await Self.view(of: existing, services: services, on: db, at: now)
        }
        guard let chosen = day == today ? daily : PuzzleSelection.daily(for: day, in: library) else { throw CryptogramError.noQuotes }
        (quote, seed) = chosen
      } else {
        let solved = try await GameRecord.solvedQuoteIDs(of: userID, on: db)
        var generator = SystemRandomNumberGenerator()
        guard
          let pick = PuzzleSelection.random(
            in: library, length: body.length, excluding: solved, alwaysExcluding: Set([daily?.quote.id].compactMap { $0 }),
            using: &generator)
        else { throw CryptogramError.noQuotes }
        quote = pick
        seed = UInt64.random(in: .min ... .max, using: &generator)
      }
      let puzzle = Puzzle(quote: quote, seed: seed)
      let board = try Self.encode(Board(puzzle: puzzle))
      let mode = body.mode
      let zoneID = zone.identifier
      let record = try await services.runner.write(on: db) { db -> GameRecord? in
        // The row is made inside the write (fixed statements, no model): a group commit may run its writes a
        // second time, and each run then writes a whole row of its own.
        let record = GameRecord.new(
          userID: userID, quoteID: quote.id, seed: seed, mode: mode, dailyDate: mode == "daily" ? day.description : nil,
          timeZone: zoneID, board: board)
        try await record.insert(at: now, on: db)
        // Counted as played once a letter goes in (see `move`), not when it is opened.
        try await GameRecord.ensureStats(for: userID, on: db)
        return record
      }
      guard let record else { throw RunnerError.busy }
      return try Self.view(of: record, puzzle: puzzle, board: Board(puzzle: puzzle), at: now)
    }
  }

  /// `GET /api/cryptogram/current`: the most recent unfinished puzzle, so a reload picks up where it was.
  @Sendable func current(req: Request) async throws -> CurrentCryptogramResponse {
    guard let user = try await req.currentUser(), let userID = user.id else { return CurrentCryptogramResponse(game: nil) }
    let game = try await CryptogramGame.query(on: req.db)
      .filter(\.$user.$id == userID).filter(\.$status != Board.Status.solved.rawValue)
      .filter(\.$status != Board.Status.abandoned.rawValue)
      .sort(\.$updatedAt, .descending).first()
    guard let game else { return CurrentCryptogramResponse(game: nil) }
    let services = req.application.services
    return CurrentCryptogramResponse(
      game: try await Self.view(of: try GameRecord(game), services: services, on: req.db, at: services.clock.now()))
  }

  /// `GET /api/cryptogram/games/{id}`.
  @Sendable func show(req: Request) async throws -> CryptogramGameView {
    let game = try await Self.ownedGame(req)
    let services = req.application.services
    return try await Self.view(of: game, services: services, on: req.db, at: services.clock.now())
  }

  /// `POST /api/cryptogram/games/{id}/guesses` `{cell, letter}`.
  @Sendable func guess(req: Request) async throws -> Response {
    let body = try req.decodeJSON(CryptogramGuessRequest.self)
    guard body.letter.count == 1, let letter = body.letter.first, Letters.index(of: letter) != nil else {
      throw CryptogramError.invalidLetter
    }
    return try await move(req) { .guess(cell: body.cell, letter: letter, at: $0) }
  }

  /// `POST /api/cryptogram/games/{id}/hints` `{cell?}`.
  @Sendable func hint(req: Request) async throws -> Response {
    let body = req.body.data == nil ? CryptogramHintRequest() : try req.decodeJSON(CryptogramHintRequest.self)
    return try await move(req) { .hint(cell: body.cell, at: $0) }
  }

  /// `GET /api/cryptogram/games/{id}/share`: the spoiler-free message and links for a solved puzzle.
  @Sendable func share(req: Request) async throws -> CryptogramShareView {
    let game = try await Self.ownedGame(req)
    let share = try await Self.share(of: game, req: req)
    return CryptogramShareView(
      title: share.title, text: share.text, path: share.path, cardPath: "/api/cryptogram/games/\(game.id.uuidString)/card.png")
  }

  /// `GET /api/cryptogram/games/{id}/card.png`: the share as a 1080×1080 picture, drawn off the event loop.
  @Sendable func card(req: Request) async throws -> Response {
    let game = try await Self.ownedGame(req)
    let share = try await Self.share(of: game, req: req)
    let fonts = try CardFonts.shared()
    let content = Self.cardContent(share)
    let png = try await req.application.threadPool.runIfActive { ResultCard.render(content, fonts: fonts) }
    var headers = HTTPHeaders()
    headers.contentType = .png
    headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=300")
    // The same name the page's download link gives it (a daily's carries its day).
    let name = (game.mode == "daily" ? game.dailyDate.map { "cryptogram-\($0).png" } : nil) ?? "cryptogram.png"
    headers.replaceOrAdd(name: .contentDisposition, value: "inline; filename=\"\(name)\"")
    return Response(status: .ok, headers: headers, body: .init(data: Data(png)))
  }

  /// What the card (and the share video) of a solved puzzle show.
  static func cardContent(_ share: CryptogramShare) -> ResultCardContent {
    ResultCardContent(
      eyebrow: share.eyebrow, title: share.heading, subtitle: share.subheading,
      figures: share.figures.map { ResultFigure($0.label, $0.value) }, invitation: share.invitation)
  }

  /// What sharing `game` says, with the player's daily streak as it stands today in the game's time zone.
  static func share(of game: GameRecord, req: Request) async throws -> CryptogramShare {
    guard game.status == Board.Status.solved.rawValue, let seconds = game.solveSeconds else { throw CryptogramError.notSolved }
    let sql = req.db.sql
    let services = req.application.services
    let puzzle = try await puzzle(of: game, services: services, on: req.db)
    let zone = TimeZone(identifier: game.timeZone) ?? .gmt
    var streakDays = 0
    if let rule = CryptogramCompletion.rules.streak, let userID = req.currentSession?.userID {
      let streak = try await CompletionRecorder.loadStreak(userID: userID, name: rule.name, on: sql)
      streakDays = streak.current(on: CalendarDay(services.clock.now(), in: zone), in: zone, dayStartHour: rule.dayStartHour)
    }
    let outcome = try decode(game.board).outcome ?? .solved
    return CryptogramShare(
      dailyDate: game.mode == "daily" ? game.dailyDate.flatMap(CalendarDay.init) : nil, length: puzzle.quote.length,
      seconds: seconds, mistakes: game.mistakes, hints: game.hints, streak: outcome.isWin ? streakDays : 0, outcome: outcome)
  }

  /// `GET /api/cryptogram/stats?timeZone=Europe/Berlin`.
  @Sendable func stats(req: Request) async throws -> CryptogramStatsView {
    let zone = try Self.timeZone(req.query[String.self, at: "timeZone"])
    let user = try await req.userOrVisitor()
    let userID = try user.requireID()
    let sql = req.db.sql
    let today = CalendarDay(req.application.services.clock.now(), in: zone)
    let row = try await CryptogramStats.query(on: req.db).filter(\.$user.$id == userID).first()
    let totals = try await CompletionRecorder.totals(userID: userID, domain: CryptogramCompletion.domain, on: sql)
    let rule = CryptogramCompletion.rules.streak
    var streak = Streak()
    if let rule { streak = try await CompletionRecorder.loadStreak(userID: userID, name: rule.name, on: sql) }
    let recent = try await CryptogramGame.query(on: req.db)
      .filter(\.$user.$id == userID).filter(\.$status == "solved")
      .sort(\.$solvedAt, .descending).limit(50).all()
    let firstDay = today.adding(days: -34)
    let dailies = try await CryptogramGame.query(on: req.db)
      .filter(\.$user.$id == userID).filter(\.$status == "solved").filter(\.$mode == "daily")
      .filter(\.$dailyDate >= firstDay.description).all()
    let onTime = Set(dailies.compactMap { game -> String? in
      guard PuzzleOutcome.ofSolve(mistakes: game.mistakes).isWin, let solvedAt = game.solvedAt, let date = game.dailyDate, let zone = TimeZone(identifier: game.timeZone) else { return nil }
      return CalendarDay(solvedAt, in: zone).description == date ? date : nil
    })
    // Solves after "Continue" are the solved games with the limit's mistakes (only a continued board gets there).
    let finished = try await CryptogramGame.query(on: req.db)
      .filter(\.$user.$id == userID).filter(\.$status == "solved").filter(\.$mistakes >= Board.mistakeLimit).count()
    return CryptogramStatsView(
      played: row?.played ?? 0, solved: totals.completed, failed: row?.failed ?? 0, finished: finished,
      averageSeconds: totals.timed > 0 ? totals.totalSeconds / Double(totals.timed) : nil, bestSeconds: totals.bestSeconds,
      currentStreak: streak.current(on: today, in: zone, dayStartHour: rule?.dayStartHour ?? 0), bestStreak: streak.longest,
      history: recent.reversed().compactMap { game in
        guard let id = game.id, let solvedAt = game.solvedAt, let seconds = game.solveSeconds else { return nil }
        return .init(
          gameID: id.uuidString, solvedAt: solvedAt.timeIntervalSince1970, seconds: seconds, mode: game.mode, mistakes: game.mistakes,
          hints: game.hints, outcome: .ofSolve(mistakes: game.mistakes))
      },
      calendar: (0..<35).map { offset in
        let day = firstDay.adding(days: offset).description
        return .init(date: day, solved: onTime.contains(day))
      },
      points: try await SQLLedgerStore.balance(userID: userID, currency: CryptogramCompletion.currency, on: sql))
  }

  /// `GET /api/cryptogram/dailies?month=2026-11&timeZone=…`: today's daily (solved or not, the streak, when the
  /// next comes) and one month of the archive, each day with how the person's attempts at it went.
  @Sendable func dailies(req: Request) async throws -> CryptogramDailiesView {
    let zone = try Self.timeZone(req.query[String.self, at: "timeZone"])
    let services = req.application.services
    let now = services.clock.now()
    let today = CalendarDay(now, in: zone)
    let month: DailyArchive.Month
    if let text = req.query[String.self, at: "month"] {
      guard let asked = DailyArchive.Month(text) else { throw CryptogramError.invalidMonth(text) }
      guard DailyArchive.shows(asked, today: today) else { throw CryptogramError.notInArchive(text) }
      month = asked
    } else {
      month = DailyArchive.Month(containing: today)
    }
    let days = month.days
    var games: [CryptogramGame] = []
    var streak = 0
    // A visitor without an account has played nothing: every day is unplayed.
    if let user = try await req.currentUser(), let userID = user.id {
      let first = min(days[0], today).description
      let last = max(days[days.count - 1], today).description
      games = try await CryptogramGame.query(on: req.db)
        .filter(\.$user.$id == userID).filter(\.$mode == "daily")
        .filter(\.$dailyDate >= first).filter(\.$dailyDate <= last).all()
      if let rule = CryptogramCompletion.rules.streak {
        let sql = req.db.sql
        streak = try await CompletionRecorder.loadStreak(userID: userID, name: rule.name, on: sql)
          .current(on: today, in: zone, dayStartHour: rule.dayStartHour)
      }
    }
    let attempts = Dictionary(grouping: games) { $0.dailyDate ?? "" }
    func view(of day: CalendarDay) -> CryptogramDailiesView.Day {
      let tries = attempts[day.description] ?? []
      let status = DailyArchive.status(of: tries.compactMap { game in Board.Status(rawValue: game.status).map { ($0, game.mistakes) } })
      // Solved on its own date where the player was, as the streak counts it.
      let onDay = tries.contains { game in
        guard game.status == Board.Status.solved.rawValue, PuzzleOutcome.ofSolve(mistakes: game.mistakes).isWin,
          let solvedAt = game.solvedAt, let solvedZone = TimeZone(identifier: game.timeZone)
        else { return false }
        return CalendarDay(solvedAt, in: solvedZone) == day
      }
      return .init(date: day.description, available: DailyArchive.isOut(day, today: today), status: status, solvedOnDay: onDay)
    }
    return CryptogramDailiesView(
      month: month.description, previousMonth: DailyArchive.previous(of: month, today: today)?.description,
      nextMonth: DailyArchive.next(of: month, today: today)?.description, today: view(of: today), currentStreak: streak,
      secondsToNextDaily: DailyArchive.secondsUntilNextDaily(at: now, in: zone), days: days.map(view(of:)))
  }

  // MARK: Moves

  /// Applies one event to a game through the runner: load, the board's rules, save on the version read,
  /// with any stats and the completion in the same transaction. A refused move is a 4xx and changes
  /// nothing. An `Idempotency-Key` header makes a retried move answer what the first one did.
  func move(_ req: Request, _ makeEvent: @escaping @Sendable (Date) -> Board.Event) async throws -> Response {
    // The session already names the person; the game query below checks ownership, so no user lookup is needed.
    guard let userID = req.currentSession?.userID else { throw CryptogramError.gameNotFound }
    let gameID = try Self.gameID(req)
    let preference = try MotionController.preference(req)
    let services = req.application.services
    let db = req.db
    let idempotency = try IdempotencyKey.header(of: req).map {
      try IdempotencyKey(userID: userID, key: $0, scope: "POST \(req.url.path)?\(req.url.query ?? "")", body: req)
    }
    let stored = try await services.runner.run(game: gameID, on: db, idempotency: idempotency, remembers: true) { now, mayUseRemembered in
      // The game as this process last loaded or saved it, else as stored (see DecodedStateCache).
      let game: GameRecord
      var board: Board
      let remembered = mayUseRemembered ? services.boards.remembered(gameID).flatMap { $0.record.userID == userID ? $0 : nil } : nil
      if let remembered {
        (game, board) = remembered
      } else {
        guard let loaded = try await GameRecord.load(gameID, of: userID, on: db) else { throw CryptogramError.gameNotFound }
        game = loaded
        board = try services.boards.loaded(loaded, text: loaded.board, for: gameID, decode: Self.decode)
      }
      let puzzle = try await Self.puzzle(of: game, services: services, on: db)
      let wasPlayed = board.isPlayed
      let effects = board.handle(makeEvent(now), in: puzzle)
      if effects.count == 1, case .refused(let refusal) = effects[0] {
        if remembered != nil { return .recheck }
        throw CryptogramError.refused(refusal)
      }
      // What the move means beyond the board: stats counters and, for the last letter, a completion.
      var solved: CompletionStats?
      var counters: [String: Int] = [:]
      // A puzzle (or another attempt at it) counts as played from its first letter, right or wrong.
      if !wasPlayed, board.isPlayed { counters["played", default: 0] += 1 }
      for effect in effects {
        switch effect {
        case .failed: counters["failed", default: 0] += 1
        case .solved(let stats): solved = stats
        default: continue
        }
      }
      // A solve after "Continue" is finished, not won (see `PuzzleOutcome`): the loss it had counted becomes a
      // finish, and nothing is paid or counted as a win.
      let finished = solved != nil && board.outcome == .finished
      if finished { counters["failed", default: 0] -= 1 }
      var changed = game
      changed.board = try Self.encode(board)
      changed.status = board.status.rawValue
      changed.mistakes = board.mistakes
      changed.hints = board.hints
      if let solved {
        changed.solvedAt = now
        changed.solveSeconds = solved.seconds
      }
      let updated = changed
      let solvedBoard = board
      // Once the save has committed, the next move may start from it.
      let remember: @Sendable () -> Void = {
        var saved = updated
        saved.version += 1
        services.boards.committed(saved, text: saved.board, value: solvedBoard, for: gameID, decodedBy: Self.decode)
      }
      let response: @Sendable (Choreography?) throws -> StoredResponse = { celebration in
        try StoredResponse(
          CryptogramMoveResponse(
            game: try Self.view(of: updated, puzzle: puzzle, board: solvedBoard, at: now),
            effects: effects.map(CryptogramEffectView.init),
            celebration: celebration.map { ChoreographyPayload($0, preference: preference) },
            wiggle: celebration == nil
              ? nil : WigglePayload(
                CompletionCelebration.wiggle, count: puzzle.cells.count, seed: puzzle.seed, preference: preference,
                framesPerSecond: CompletionCelebration.wiggleSamplesPerSecond)))
      }
      // Most moves change only the board: one UPDATE, which needs no transaction around it.
      guard solved != nil || !counters.isEmpty else {
        return .save(transaction: false, commit: { db in try await updated.save(at: now, on: db) ? try response(nil) : nil }, committed: remember)
      }
      let saveAll: @Sendable (any Database) async throws -> StoredResponse? = { [counters, solved] db in
        // The version check first: a lost race writes nothing else.
        guard try await updated.save(at: now, on: db) else { return nil }
        if !counters.isEmpty { try await Self.increment(userID, counters, on: db) }
        guard let solved else { return try response(nil) }
        if finished {
          // No completion is recorded, but the card still arrives as the seed times it (unless turned off).
          let sql = db.sql
          let profile = try await CompletionRecorder.profile(userID: userID, on: sql)
          let decision = CryptogramCompletion.rules.celebration.decide(
            .init(count: 1, optedOut: profile.optedOut, preference: preference, now: now))
          guard case .celebrate(let choreography) = decision else { return try response(nil) }
          return try response(choreography)
        }
        let completion = CryptogramCompletion.completion(
          gameID: gameID.uuidString, account: userID.uuidString, mode: updated.mode, dailyDate: updated.dailyDate.flatMap(CalendarDay.init),
          timeZone: updated.timeZone, at: now, stats: Completion.Stats(seconds: solved.seconds, mistakes: solved.mistakes, hints: solved.hints))
        let recorded = try await CompletionRecorder.record(completion, rules: CryptogramCompletion.rules, preference: preference, on: db)
        return try response(recorded.choreography)
      }
      return .save(commit: saveAll, committed: remember)
    }
    return stored.response
  }

  // MARK: Helpers

  /// Adds to integer counters in one UPDATE, so concurrent games of one person never lose a count.
  static func increment(_ userID: UUID, _ counters: [String: Int], on db: any Database) async throws {
    let sql = db.sql
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

  static func puzzle(of game: GameRecord, services: AppServices, on db: any Database) async throws -> Puzzle {
    try await services.puzzles.puzzle(quoteID: game.quoteID, seed: game.seed) {
      guard let quote = try await services.quotes.quote(id: game.quoteID, on: db) else { throw CryptogramError.gameNotFound }
      return Puzzle(quote: quote, seed: UInt64(bitPattern: game.seed))
    }
  }

  static func view(of game: GameRecord, services: AppServices, on db: any Database, at now: Date) async throws -> CryptogramGameView {
    let puzzle = try await puzzle(of: game, services: services, on: db)
    return try view(of: game, puzzle: puzzle, board: try decode(game.board), at: now)
  }

  static func view(of game: GameRecord, puzzle: Puzzle, board: Board, at now: Date) throws -> CryptogramGameView {
    CryptogramGameView(
      id: game.id.uuidString, mode: game.mode, date: game.dailyDate, puzzle: puzzle, board: board,
      elapsedSeconds: board.session.elapsed(at: now))
  }

  /// The zone where a new day begins first (Kiribati's Line Islands, UTC+14).
  static let earliestZone = TimeZone(secondsFromGMT: 14 * 3600)!

  static func timeZone(_ identifier: String?) throws -> TimeZone {
    guard let zone = TimeZoneName.parse(identifier) else { throw CryptogramError.invalidTimeZone(identifier ?? "") }
    return zone
  }

  static func encode(_ board: Board) throws -> String {
    // Dates as Foundation writes them by default, so stored boards old and new read back the same way.
    String(decoding: try StreamingJSONEncoder(dates: .secondsSinceReferenceDate).encode(board), as: UTF8.self)
  }

  static func decode(_ text: String) throws -> Board {
    try JSONDecoder().decode(Board.self, from: Data(text.utf8))
  }
}

// Kept beside its route (the other cryptogram views are listed in Support/Content+API.swift).
extension CryptogramDailiesView: Content {}
