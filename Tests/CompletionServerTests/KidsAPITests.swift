import CompletionAPI
import CompletionServer
import Foundation
import KidsGame
import Testing
import FluentSQL
import Vapor

/// Waldabenteuer over real HTTP: the family's game lives on the server, coins go through the ledger,
/// and bad or repeated input changes nothing.
@Suite("Waldabenteuer API")
struct KidsAPITests {
  static var options: ServerOptions {
    var options = TestDatabase.options
    options.testHooks = true
    options.maxUploadSize = 64 * 1024
    return options
  }

  /// A time zone where midnight is more than an hour away now, so a test's clock moves never cross into a
  /// new day (which starts the play-time count again, as it should).
  static let quietZone: String = {
    for identifier in ["Europe/Berlin", "Asia/Tokyo", "America/New_York"] {
      guard let zone = TimeZone(identifier: identifier) else { continue }
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = zone
      let hour = calendar.component(.hour, from: Date())
      if (1...22).contains(hour) { return identifier }
    }
    return "Europe/Berlin"
  }()

  /// A browser playing the kids' game.
  struct Family {
    let client: TestClient

    @discardableResult
    func launch(tab: String? = nil, reload: Bool? = nil) async throws -> KidsResponse {
      let request = KidsLaunchRequest(timeZone: KidsAPITests.quietZone, tab: tab, reload: reload)
      let response = try await client.send(.POST, "/api/kids/launch", json: request)
      #expect(response.status == .ok)
      return try decoder.decode(KidsResponse.self, from: Data(buffer: response.body))
    }

    /// Sends an event that must be applied.
    @discardableResult
    func send(_ type: String, sourceLocation: SourceLocation = #_sourceLocation, _ fill: (inout KidsEventRequest) -> Void = { _ in })
      async throws -> KidsResponse
    {
      let response = try await raw(type, fill)
      #expect(response.status == .ok, "\(type): \(String(buffer: response.body))", sourceLocation: sourceLocation)
      return try decoder.decode(KidsResponse.self, from: Data(buffer: response.body))
    }

    /// Sends an event that must be refused with `status` and `code`.
    @discardableResult
    func refused(
      _ type: String, status: HTTPStatus, code: String, sourceLocation: SourceLocation = #_sourceLocation,
      _ fill: (inout KidsEventRequest) -> Void = { _ in }
    ) async throws -> KidsRefusalBody {
      let response = try await raw(type, fill)
      #expect(response.status == status, "\(type): \(String(buffer: response.body))", sourceLocation: sourceLocation)
      let body = try decoder.decode(KidsRefusalBody.self, from: Data(buffer: response.body))
      #expect(body.code == code, sourceLocation: sourceLocation)
      return body
    }

    func raw(_ type: String, _ fill: (inout KidsEventRequest) -> Void = { _ in }) async throws -> TestResponse {
      var event = KidsEventRequest(type: type)
      fill(&event)
      return try await client.send(.POST, "/api/kids/events", json: event)
    }

    func state() async throws -> KidsView {
      let response = try await client.send(.GET, "/api/kids/state")
      return try decoder.decode(KidsResponse.self, from: Data(buffer: response.body)).view
    }

    /// Moves the server's game clock on, and can stop real time from moving it (test hook); returns the clock's time.
    @discardableResult
    func moveClock(by seconds: Double, freeze: Bool? = nil) async throws -> Date {
      struct Now: Decodable { let now: Date }
      let freezing = freeze.map { #", "freeze": \#($0)"# } ?? ""
      let response = try await client.send(
        .POST, "/api/test/clock", raw: #"{"advanceSeconds": \#(seconds)\#(freezing)}"#)
      #expect(response.status == .ok)
      return try decoder.decode(Now.self, from: Data(buffer: response.body)).now
    }

    /// Moves the server's game clock on (test hook).
    func wait(_ seconds: Double) async throws { try await moveClock(by: seconds) }

    /// Stops real time from moving the server's clock (test hook), so sums of play time are exact on a slow machine.
    func freezeClock() async throws { try await moveClock(by: 0, freeze: true) }

    /// From a new family to Alexander's Würfel game.
    func toWuerfel() async throws {
      try await launch()
      try await send("loadingTick") { $0.seconds = 7 }
      try await send("selectPlayer") { $0.player = "alexander" }
      try await send("tapActivity") { $0.activity = "zahlen" }
      try await send("tapSubActivity") { $0.game = "wuerfel" }
    }

    /// Plays one Würfel level right; returns the response of the level's end (celebration or next level).
    @discardableResult
    func solveWuerfel() async throws -> KidsResponse {
      let rolled = try await send("rollDie")
      let face = try #require(rolled.view.level?.askedNumber)
      try await wait(1)
      let solved = try await send("tapNumber") { $0.number = face }
      #expect(solved.view.screen == "levelComplete")
      #expect(solved.effects.contains { $0.type == "schedule" && $0.event == "levelCompleteFinished" })
      return try await send("levelCompleteFinished")
    }

    /// Plays `count` Würfel levels, going past the celebrations (and from the treasure back to the game).
    func playLevels(_ count: Int) async throws {
      for _ in 0..<count {
        let next = try await solveWuerfel()
        guard next.view.screen == "celebrationOverlay" else { continue }
        let after = try await send("tapWeiter")
        if after.view.screen == "treasureScreen" {
          try await send("back")
          try await send("tapActivity") { $0.activity = "zahlen" }
          try await send("tapSubActivity") { $0.game = "wuerfel" }
        }
      }
    }

    /// Through the parent gate to the dashboard.
    func toDashboard() async throws {
      let gate = try await send("tapSettings")
      let question = try #require(gate.view.gate?.question)
      let numbers = question.split(separator: " ").compactMap { Int($0) }
      for digit in String(numbers.reduce(0, +)) { try await send("gateDigit") { $0.number = Int(String(digit)) } }
      let open = try await send("gateConfirm")
      #expect(open.view.screen == "parentDashboard")
    }

    /// Alexander's coins in the ledger.
    func ledgerCoins(_ app: Application, user: UUID, player: String = "alexander") async throws -> Int {
      guard let sql = app.db as? any SQLDatabase else { return -1 }
      let row = try await sql.raw(
        "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM ledger_entries WHERE user_id = \(bind: user) AND currency = \(bind: "kids-coins:" + player)"
      ).first()
      return try row?.decode(column: "total", as: Int.self) ?? -1
    }

    func userID() async throws -> UUID {
      let response = try await client.send(.GET, "/api/me")
      return try #require(UUID(uuidString: try client.decode(UserResponse.self, from: response).id))
    }
  }

  static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }()

  @Test("A first visit: loading, player selection, home; the loading screen holds its minimum time")
  func firstVisit() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      let start = try await family.launch()
      #expect(start.view.screen == "loading")
      let early = try await family.send("loadingTick") { $0.seconds = 1 }
      #expect(early.view.screen == "loading")
      #expect(early.effects.first?.type == "loadingProgress" && early.effects.first?.value == 50)
      let players = try await family.send("loadingTick") { $0.seconds = 2.5 }
      #expect(players.view.screen == "playerSelection")
      #expect(players.view.players.map(\.name) == ["Alexander", "Oliver"])
      #expect(players.effects.contains { $0.text == "Wie heißt du? Alexander oder Oliver?" })
      let home = try await family.send("selectPlayer") { $0.player = "alexander" }
      #expect(home.view.screen == "home")
      #expect(home.view.signs.map(\.unlocked) == [true, true, false, false])
      #expect(home.effects.contains { $0.text == "Hi Alexander, ich bin Bennie!" })
      let text = try await client.send(.GET, "/api/kids/text")
      #expect(String(buffer: text.body).contains("Wer spielt heute?"))
    }
  }

  @Test("Scenario 1 and 2 over HTTP: a coin per level, the overlay only at 5 and 10, treasure after 10; the ledger agrees")
  func coinsAndCelebrations() async throws {
    try await withTestApp(options: Self.options) { client, app in
      let family = Family(client: client)
      try await family.toWuerfel()
      for level in 1...10 {
        let next = try await family.solveWuerfel()
        if level % 5 == 0 {
          #expect(next.view.screen == "celebrationOverlay", "level \(level)")
          #expect(next.view.level != nil, "the activity stays under the overlay")
          #expect(next.effects.contains { $0.type == "showCelebration" && $0.coins == level })
          let after = try await family.send("tapWeiter")
          #expect(after.view.screen == (level == 10 ? "treasureScreen" : "playing"))
        } else {
          #expect(next.view.screen == "playing", "level \(level): no overlay off a multiple of 5")
          #expect(!next.effects.contains { $0.type == "showCelebration" })
        }
      }
      let treasure = try await family.state()
      #expect(treasure.treasure?.coins == 10)
      #expect(treasure.treasure?.fiveMinutes == "active" && treasure.treasure?.twelveMinutes == "disabled")
      #expect(try await family.ledgerCoins(app, user: try await family.userID()) == 10)
    }
  }

  @Test("An event the remembered game would refuse is judged again on the stored game (changed by another process)")
  func refusalIsJudgedOnTheStoredGame() async throws {
    try await withTestApp(options: Self.options) { client, app in
      let family = Family(client: client)
      try await family.launch()
      try await family.send("loadingTick") { $0.seconds = 7 }
      let sql = try #require(app.db as? any SQLDatabase)
      let userID = try await family.userID()
      struct Row: Decodable { let snapshot: String }
      let choosing = try #require(
        try await sql.raw("SELECT snapshot FROM kids_games WHERE user_id = \(bind: userID)").first(decoding: Row.self)
      ).snapshot
      try await family.send("selectPlayer") { $0.player = "alexander" }
      // As this process remembers the game, Alexander is playing: choosing a child again is refused.
      #expect(try await family.raw("selectPlayer") { $0.player = "oliver" }.status != .ok)
      // Another process puts the game back at the choice of child; choosing is now a move, not a refusal.
      try await sql.raw("UPDATE kids_games SET snapshot = \(bind: choosing), version = version + 1 WHERE user_id = \(bind: userID)").run()
      let chosen = try await family.send("selectPlayer") { $0.player = "oliver" }
      #expect(chosen.view.screen != "playerSelection")
    }
  }

  @Test("Bad input: clear 4xx, the screen and the coins unchanged, the child's friendly line included")
  func badInput() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      try await family.launch()
      try await family.send("loadingTick") { $0.seconds = 7 }
      try await family.refused("selectPlayer", status: .notFound, code: "unknown_player") { $0.player = "mallory" }
      try await family.send("selectPlayer") { $0.player = "alexander" }
      let unknown = try await family.raw("jump")
      #expect(unknown.status == .badRequest && String(buffer: unknown.body).contains("unknown_event"))
      let missing = try await family.raw("tapActivity")
      #expect(missing.status == .badRequest && String(buffer: missing.body).contains("missing_field"))
      let wrongValue = try await family.raw("tapActivity") { $0.activity = "schwimmen" }
      #expect(wrongValue.status == .badRequest && String(buffer: wrongValue.body).contains("invalid_field"))
      // The document bounds a text field on every event, including one the event does not read (the fuzzer's
      // setAudio with a long name), in code points: 1,001 "e" + combining accent is 1,001 characters but 2,002.
      for long in [String(repeating: "x", count: 2_001), String(repeating: "e\u{301}", count: 1_001)] {
        let tooLong = try await family.raw("setAudio") {
          $0.enabled = true
          $0.name = long
        }
        #expect(tooLong.status == .badRequest && String(buffer: tooLong.body).contains("'name' is not valid"))
      }
      // An event id is 1–64 visible ASCII characters: a control character (the fuzzer's "0\u{1E}") is refused.
      for id in ["0\u{1E}", "a b", String(repeating: "x", count: 65), "é"] {
        let badID = try await family.raw("heartbeat") { $0.eventID = id }
        #expect(badID.status == .badRequest && String(buffer: badID.body).contains("invalid_field"), "\(id.debugDescription)")
      }
      let malformed = try await client.send(.POST, "/api/kids/events", raw: "{not json")
      #expect(malformed.status == .badRequest)

      let locked = try await family.refused("tapActivity", status: .conflict, code: "activity_locked") { $0.activity = "logik" }
      #expect(locked.view.screen == "home")
      #expect(locked.effects.contains { $0.type == "speak" && $0.text == "Das ist noch gesperrt." })
      let chest = try await family.refused("tapChest", status: .conflict, code: "not_enough_coins")
      #expect(chest.effects.contains { $0.text == "Noch 10 Münzen!" })
      try await family.refused("setDailyLimit", status: .forbidden, code: "parent_gate_required") {
        $0.player = "alexander"
        $0.number = 120
      }
      try await family.refused("redeem", status: .conflict, code: "not_allowed_here") { $0.tier = "fiveMinutes" }
      let view = try await family.state()
      #expect(view.screen == "home" && view.activePlayer?.coins == 0)
    }
  }

  @Test("A retried event (same id) is applied once and answers what the first did; the id for another event is a 409")
  func idempotentRetry() async throws {
    try await withTestApp(options: Self.options) { client, app in
      let family = Family(client: client)
      try await family.toWuerfel()
      let rolled = try await family.send("rollDie")
      try await family.wait(1)
      let id = UUID().uuidString
      let first = try await family.send("tapNumber") {
        $0.number = rolled.view.level?.askedNumber
        $0.eventID = id
      }
      #expect(first.replayed == false && first.view.activePlayer?.coins == 1)
      let again = try await family.send("tapNumber") {
        $0.number = rolled.view.level?.askedNumber
        $0.eventID = id
      }
      #expect(again.replayed == true && again.effects == first.effects && again.view == first.view)
      #expect(try await family.ledgerCoins(app, user: try await family.userID()) == 1)
      // The same id with another event is not a retry.
      let reused = try await family.raw("tapNumber") {
        $0.number = 7
        $0.eventID = id
      }
      #expect(reused.status == .conflict)
      #expect(try client.decode(APIErrorBody.self, from: reused).code == "idempotency_key_reused")
      // Long after 64 other events the id still replays (the old window forgot it).
      for _ in 0..<70 {
        try await family.send("heartbeat") {
          $0.timeZone = KidsAPITests.quietZone
          $0.eventID = UUID().uuidString
        }
      }
      let late = try await family.send("tapNumber") {
        $0.number = rolled.view.level?.askedNumber
        $0.eventID = id
      }
      #expect(late.replayed == true && late.view == first.view)
      #expect(try await family.ledgerCoins(app, user: try await family.userID()) == 1)
    }
  }

  @Test("Concurrent redemptions pay once: one succeeds, the rest are refused, 10 coins leave exactly once")
  func concurrentRedemptions() async throws {
    try await withTestApp(options: Self.options) { client, app in
      let family = Family(client: client)
      try await family.toWuerfel()
      try await family.playLevels(10)
      try await family.send("home")
      try await family.send("tapChest")
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for _ in 0..<6 {
          group.addTask {
            try await family.raw("redeem") {
              $0.tier = "fiveMinutes"
              $0.online = true
            }.status
          }
        }
        return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
      }
      #expect(statuses.filter { $0 == .ok }.count == 1)
      #expect(statuses.filter { $0 == .conflict }.count == 5)
      let view = try await family.state()
      #expect(view.screen == "videoSelection" && view.activePlayer?.coins == 0 && view.paidMinutes == 5)
      #expect(try await family.ledgerCoins(app, user: try await family.userID()) == 0)
      // "Zurück" costs nothing: the coins come back, once.
      let back = try await family.send("back")
      #expect(back.view.screen == "treasureScreen" && back.view.activePlayer?.coins == 10)
      #expect(try await family.ledgerCoins(app, user: try await family.userID()) == 10)
    }
  }

  @Test("Puzzle Matching over HTTP: copy the ZIEL grid leaf by leaf, earn the coin in the ledger; bad cells and colours are refused")
  func puzzleMatching() async throws {
    try await withTestApp(options: Self.options) { client, app in
      let family = Family(client: client)
      try await family.launch()
      try await family.send("loadingTick") { $0.seconds = 2.5 }
      try await family.send("selectPlayer") { $0.player = "alexander" }
      try await family.send("tapActivity") { $0.activity = "raetsel" }
      let start = try await family.send("tapSubActivity") { $0.game = "puzzleMatching" }
      let puzzle = try #require(start.view.level?.puzzle)
      #expect(start.view.screen == "playing" && puzzle.size == 3 && puzzle.leaves.map(\.id) == ["green", "yellow"])
      #expect(puzzle.cells.allSatisfy { $0 == nil } && puzzle.target.count == 9)
      #expect(start.effects.contains { $0.text == "Mach das Muster nach!" })

      let wrongColour = try await family.raw("paintCell") {
        $0.cell = 0
        $0.colour = "purple"
      }
      #expect(wrongColour.status == .badRequest && String(buffer: wrongColour.body).contains("invalid_field"))
      try await family.refused("paintCell", status: .badRequest, code: "number_out_of_range") {
        $0.cell = 9
        $0.colour = "green"
      }
      try await family.refused("paintCell", status: .badRequest, code: "colour_not_offered") {
        $0.cell = 0
        $0.colour = "brown"
      }

      var last: KidsResponse?
      for (cell, colour) in puzzle.target.enumerated() {
        guard let colour else { continue }
        last = try await family.send("paintCell") {
          $0.cell = cell
          $0.colour = colour
        }
      }
      #expect(last?.view.screen == "levelComplete")
      #expect(last?.view.activePlayer?.coins == 1)
      #expect(try await family.ledgerCoins(app, user: try await family.userID()) == 1)
      let next = try await family.send("levelCompleteFinished")
      #expect(next.view.level?.game == "puzzleMatching" && next.view.level?.level == 2)
    }
  }

  @Test("Test hook: freeze stops real time from moving the clock; freeze false lets it run again, without a jump")
  func clockHookThaws() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      let frozen = try await family.moveClock(by: 0, freeze: true)
      #expect(try await family.moveClock(by: 0) == frozen)
      let response = try await client.send(.POST, "/api/test/clock", raw: #"{"freeze": false}"#)
      #expect(response.status == .ok)
      // Real time moves it again: poll until it does (each call takes real time), from where it stood.
      var now = frozen
      for _ in 0..<10_000 where now == frozen { now = try await family.moveClock(by: 0) }
      #expect(now > frozen)
      #expect(now.timeIntervalSince(frozen) < 60)
    }
  }

  @Test("Persistence: a reload asks who plays; the same child comes back on the activity's selection screen, coins kept")
  func recovery() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      try await family.toWuerfel()
      try await family.playLevels(7)
      let relaunched = try await family.launch()
      #expect(relaunched.view.screen == "loading")
      let players = try await family.send("loadingTick") { $0.seconds = 2.5 }
      #expect(players.view.screen == "playerSelection")
      let back = try await family.send("selectPlayer") { $0.player = "alexander" }
      #expect(back.view.screen == "activitySelection" && back.view.activity == "zahlen")
      #expect(back.view.activePlayer?.coins == 7)
      // The parent area is not a child's screen: after a reload at the gate, the child starts at home.
      try await family.send("back")
      try await family.send("tapSettings")
      try await family.send("gateDigit") { $0.number = 1 }
      try await family.launch()
      try await family.send("loadingTick") { $0.seconds = 2.5 }
      let oliver = try await family.send("selectPlayer") { $0.player = "oliver" }
      #expect(oliver.view.screen == "home" && oliver.view.activePlayer?.coins == 0)
    }
  }

  @Test("A second tab opened during play joins the game; a reload, or a launch after the other tab fell quiet, relaunches")
  func secondTab() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      try await family.launch(tab: "first")
      try await family.send("loadingTick") { $0.seconds = 2.5 }
      try await family.send("selectPlayer") { $0.player = "alexander" }
      try await family.send("tapActivity") { $0.activity = "zahlen" }
      try await family.send("tapSubActivity") { $0.game = "wuerfel" }
      let rolled = try await family.send("rollDie")
      try await family.send("heartbeat") {
        $0.timeZone = KidsAPITests.quietZone
        $0.tab = "first"
      }
      // The second tab shows the level in play, with the die as rolled; the first tab's tap still lands.
      let joined = try await family.launch(tab: "second")
      #expect(joined.view.screen == "playing" && joined.view.level?.askedNumber == rolled.view.level?.askedNumber)
      let face = try #require(rolled.view.level?.askedNumber)
      try await family.wait(1)
      let tapped = try await family.send("tapNumber") { $0.number = face }
      #expect(tapped.view.screen == "levelComplete")
      // A reload of either tab is a launch: loading, then who plays.
      let reloaded = try await family.launch(tab: "first", reload: true)
      #expect(reloaded.view.screen == "loading")
      try await family.send("loadingTick") { $0.seconds = 2.5 }
      try await family.send("selectPlayer") { $0.player = "alexander" }
      // The same tab opening the page again (not a reload) is a launch too.
      let reopened = try await family.launch(tab: "first")
      #expect(reopened.view.screen == "loading")
      try await family.send("loadingTick") { $0.seconds = 2.5 }
      try await family.send("selectPlayer") { $0.player = "alexander" }
      // Once the other tab has been quiet longer than a heartbeat gap, a new tab launches.
      try await family.wait(21)
      let later = try await family.launch(tab: "third")
      #expect(later.view.screen == "loading")
      // A tab id that is not one is refused.
      let long = try await client.send(
        .POST, "/api/kids/launch", json: KidsLaunchRequest(timeZone: KidsAPITests.quietZone, tab: String(repeating: "x", count: 65)))
      #expect(long.status == .badRequest)
    }
  }

  @Test("A tab that was hidden or closed gives up its place: a page opened seconds later launches (loading, then who plays)")
  func hiddenTabGivesUpItsPlace() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      try await family.launch(tab: "first")
      try await family.send("loadingTick") { $0.seconds = 2.5 }
      try await family.send("selectPlayer") { $0.player = "alexander" }
      try await family.send("heartbeat") {
        $0.timeZone = KidsAPITests.quietZone
        $0.tab = "first"
      }
      try await family.send("appBackgrounded") { $0.tab = "first" }
      let reopened = try await family.launch(tab: "second")
      #expect(reopened.view.screen == "loading")
      let asked = try await family.send("loadingTick") { $0.seconds = 2.5 }
      #expect(asked.view.screen == "playerSelection")
      // "Wer spielt?" on home hands over without closing the app.
      try await family.send("selectPlayer") { $0.player = "alexander" }
      let handOver = try await family.send("changePlayer")
      #expect(handOver.view.screen == "playerSelection")
      #expect(handOver.effects.contains { $0.text == "Wie heißt du? Alexander oder Oliver?" })
      let oliver = try await family.send("selectPlayer") { $0.player = "oliver" }
      #expect(oliver.view.screen == "home" && oliver.view.activePlayer?.id == "oliver")
    }
  }

  @Test("The Content-Security-Policy lets YouTube's thumbnails in, from exactly their host and no other")
  func thumbnailsPassThePolicy() async throws {
    try await withTestApp(options: Self.options) { client in
      let page = try await client.send(.GET, "/kids")
      let policy = try #require(page.headers.first(name: "Content-Security-Policy"))
      let images = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("img-src") }
      #expect(images == ["img-src 'self' data: blob: https://i.ytimg.com"])
      #expect(YouTubeLink.thumbnailURL(id: "M7lc1UVf-VE").hasPrefix(YouTubeLink.thumbnailOrigin + "/"))
    }
  }

  @Test("/kids#eltern from a cold start: the link sent during loading is kept, and the gate follows the loading screen")
  func deepLinkFromColdStart() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      let launched = try await family.launch()
      #expect(launched.view.screen == "loading")
      let link = try await family.send("openParentDeepLink")
      #expect(link.view.screen == "loading")
      let gate = try await family.send("loadingTick") { $0.seconds = 2.5 }
      #expect(gate.view.screen == "parentGate" && gate.view.gate != nil)
    }
  }

  @Test("Another account sees its own family: no shared players, coins, videos or files")
  func accountsAreSeparate() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      try await family.toWuerfel()
      try await family.solveWuerfel()
      try await family.send("home")
      try await family.toDashboard()
      let upload = try await client.send(.POST, "/api/kids/videos?title=Wald", bytes: VideoBytes.webm, contentType: "video/webm")
      #expect(upload.status == .ok)
      let uploaded = try Self.decoder.decode(KidsResponse.self, from: Data(buffer: upload.body))
      let videoID = try #require(uploaded.view.dashboard?.videos.first?.id)

      let stranger = Family(client: client.stranger())
      let theirs = try await stranger.launch()
      #expect(theirs.view.screen == "loading")
      try await stranger.send("loadingTick") { $0.seconds = 7 }
      let home = try await stranger.send("selectPlayer") { $0.player = "alexander" }
      #expect(home.view.activePlayer?.coins == 0, "their Alexander is their own")
      let file = try await stranger.client.send(.GET, "/api/kids/videos/\(videoID)/file")
      #expect(file.status == .notFound)
      let mine = try await client.send(.GET, "/api/kids/videos/\(videoID)/file")
      #expect(mine.status == .ok && Array(mine.body.readableBytesView) == VideoBytes.webm)
      // Served as what it is, as a file, never sniffed or run as a page.
      #expect(mine.headers.first(name: "X-Content-Type-Options") == "nosniff")
      #expect(mine.headers.first(name: "Content-Disposition")?.hasPrefix("attachment; filename=") == true)
      #expect(mine.headers.first(name: "Content-Security-Policy")?.contains("sandbox") == true)
      #expect(mine.headers.first(name: "Content-Security-Policy")?.contains("script-src") == false)
    }
  }

  @Test("Uploads: only in the parent area, only video types, size-limited; removing deletes the file")
  func uploads() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      try await family.launch()
      try await family.send("loadingTick") { $0.seconds = 7 }
      try await family.send("selectPlayer") { $0.player = "oliver" }
      let early = try await client.send(.POST, "/api/kids/videos", raw: "bytes", contentType: "video/mp4")
      #expect(early.status == .forbidden && String(buffer: early.body).contains("parent_gate_required"))
      try await family.toDashboard()
      let text = try await client.send(.POST, "/api/kids/videos", raw: "bytes", contentType: "text/plain")
      #expect(text.status == .unsupportedMediaType && String(buffer: text.body).contains("unsupported_video_type"))
      let big = try await client.send(.POST, "/api/kids/videos", raw: String(repeating: "x", count: 70 * 1024), contentType: "video/mp4")
      #expect(big.status == .payloadTooLarge)
      let empty = try await client.send(.POST, "/api/kids/videos", raw: "", contentType: "video/mp4")
      #expect(empty.status == .badRequest)
      let good = try await client.send(.POST, "/api/kids/videos?title=Unser%20Wald", bytes: VideoBytes.mp4, contentType: "video/mp4")
      #expect(good.status == .ok)
      let view = try await family.state()
      #expect(view.dashboard?.videos.count == 1)
      let video = try #require(view.dashboard?.videos.first)
      #expect(video.title == "Unser Wald" && video.source == "upload" && video.needsInternet == false)
      let invalid = try await family.refused("addVideo", status: .unprocessableEntity, code: "invalid_youtube_link") {
        $0.link = "https://example.com/video"
      }
      #expect(invalid.message == "Ungültiger YouTube Link")
      try await family.send("addVideo") {
        $0.link = "https://youtu.be/dQw4w9WgXcQ"
        $0.name = "Lied"
      }
      #expect(try await family.state().dashboard?.videos.map(\.id).first == "dQw4w9WgXcQ")
      try await family.send("removeVideo") { $0.video = video.id }
      let gone = try await client.send(.GET, "/api/kids/videos/\(video.id)/file")
      #expect(gone.status == .notFound)
    }
  }

  @Test("Scenario 3 over HTTP: pay 10 coins, watch an uploaded video on the server's clock, warning at one minute, home at the end")
  func videoClock() async throws {
    try await withTestApp(options: Self.options) { client, app in
      let family = Family(client: client)
      try await family.toWuerfel()
      try await family.playLevels(12)
      try await family.send("home")
      try await family.toDashboard()
      _ = try await client.send(.POST, "/api/kids/videos?title=Film", bytes: VideoBytes.webm, contentType: "video/webm")
      try await family.send("back")
      try await family.send("tapChest")
      let paid = try await family.send("redeem") {
        $0.tier = "fiveMinutes"
        $0.online = false
      }
      #expect(paid.view.screen == "videoSelection" && paid.view.activePlayer?.coins == 2)
      #expect(paid.effects.contains { $0.text == "Film ab!" })
      let videoID = try #require(paid.view.videos.first?.id)
      let playing = try await family.send("chooseVideo") {
        $0.video = videoID
        $0.online = false
      }
      #expect(playing.view.playback?.label == "Noch 5 Minuten")
      #expect(playing.view.playback?.src == "/api/kids/videos/\(videoID)/file")
      try await family.refused("back", status: .conflict, code: "video_running")
      try await family.wait(100)
      // A reload sends the film home (the seed's recovery rule); the server's clock stops at the launch and
      // the time left waits on home for the child who paid it.
      let reloaded = try await family.launch()
      #expect(reloaded.view.screen == "loading")
      try await family.send("loadingTick") { $0.seconds = 2.5 }
      try await family.wait(30)
      let home = try await family.send("selectPlayer") { $0.player = "alexander" }
      #expect(home.view.screen == "home")
      let waiting = try #require(home.view.unwatchedVideo)
      #expect(waiting.video?.id == videoID && waiting.remainingSeconds <= 200.5 && waiting.remainingSeconds > 170)
      #expect(waiting.label == "Noch 4 Minuten")
      let back = try await family.send("resumeUnwatchedVideo") { $0.online = false }
      #expect(back.view.screen == "videoPlaying" && back.view.unwatchedVideo == nil)
      #expect(back.effects.contains { $0.type == "resumeVideoTimer" })
      #expect(back.view.playback?.paused == false)
      let left = back.view.playback?.remainingSeconds ?? 0
      #expect(left <= 200.5 && left > 170)
      try await family.wait(141)
      let warned = try await family.send("videoTick")
      #expect(warned.effects.contains { $0.type == "videoOneMinuteWarning" })
      #expect(warned.effects.contains { $0.text == "Noch eine Minute." })
      try await family.wait(60)
      let done = try await family.send("videoTick")
      #expect(done.effects.contains { $0.type == "videoTimeUp" && $0.seconds == 3 })
      #expect(done.effects.contains { $0.text == "Die Zeit ist um. Lass uns spielen!" })
      #expect(done.view.screen == "home" && done.view.activePlayer?.coins == 2)
      #expect(try await family.ledgerCoins(app, user: try await family.userID()) == 2)
    }
  }

  @Test("Heartbeats count play time (at most 20 s per beat) into the parent's card; the family's day is kept")
  func playTime() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      try await family.freezeClock()  // before launch, which starts the first heartbeat gap
      try await family.toWuerfel()
      for _ in 0..<7 {
        try await family.send("heartbeat") { $0.timeZone = Self.quietZone }
        try await family.wait(15)
      }
      try await family.wait(600)  // a long sleep of the tab counts as at most 20 s
      try await family.send("heartbeat") { $0.timeZone = Self.quietZone }
      try await family.send("home")
      try await family.toDashboard()
      let card = try #require(try await family.state().dashboard?.players.first { $0.id == "alexander" })
      // 6 gaps of 15 s and one of 20 s (capped) = 110 s.
      #expect(card.playedMinutes == 1 && card.limitMinutes == 60 && card.band == "green")
      #expect(abs(card.usage - 110.0 / 3600) < 1e-6)
      let bad = try await family.raw("heartbeat") { $0.timeZone = "Mars/Olympus" }
      #expect(bad.status == .badRequest && String(buffer: bad.body).contains("invalid_time_zone"))
    }
  }

  @Test("At midnight in the family's time zone the day's play time starts again from zero")
  func playTimeRollsOverAtMidnight() async throws {
    try await withTestApp(options: Self.options) { client in
      let family = Family(client: client)
      try await family.freezeClock()  // before launch, which starts the first heartbeat gap
      try await family.toWuerfel()
      let zone = Self.quietZone
      func beat() async throws { try await family.send("heartbeat") { $0.timeZone = zone } }
      for _ in 0..<4 {
        try await beat()
        try await family.wait(15)
      }
      try await beat()  // 4 × 15 s = 60 s today

      // Move the server's clock to 5 s before the family's midnight; the next beat still counts for today.
      let now = try await family.moveClock(by: 0)
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = try #require(TimeZone(identifier: zone))
      let midnight = try #require(calendar.nextDate(after: now, matching: DateComponents(hour: 0, minute: 0, second: 0), matchingPolicy: .nextTime))
      try await family.wait(midnight.timeIntervalSince(now) - 5)
      try await beat()  // + 20 s (a long gap is capped) = 80 s, still yesterday's count

      try await family.wait(15)
      try await beat()  // 10 s after midnight: a new day, which starts with this 15 s gap
      try await family.wait(15)
      try await beat()  // 30 s today

      try await family.send("home")
      try await family.toDashboard()
      let card = try #require(try await family.state().dashboard?.players.first { $0.id == "alexander" })
      #expect(abs(card.usage - 30.0 / 3600) < 1e-6, "usage \(card.usage * 3600) s")
      #expect(card.playedMinutes == 0 && card.band == "green")
    }
  }

  @Test("The kids page and the home page's list")
  func pages() async throws {
    try await withTestApp(options: Self.options) { client in
      let page = try await client.send(.GET, "/kids")
      #expect(page.status == .ok && String(buffer: page.body).contains("Waldabenteuer"))
      let systems = try await client.send(.GET, "/api/systems")
      #expect(String(buffer: systems.body).contains("/kids"))
    }
  }
}
