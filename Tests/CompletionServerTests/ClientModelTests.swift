import CompletionAPI
import CompletionClient
import CompletionCore
import Cryptogram
import Foundation
import KidsGame
import Observation
import Testing
import Vapor

@testable import CompletionServer

/// The Swift client's models driven against a real server started in-process, on its own database: what an
/// iPhone or the terminal does, end to end, with the model's time moved by the test and the server's by its
/// test hook.
@Suite("Swift client models against the server", .timeLimit(.minutes(2)))
struct ClientModelTests {
  /// Returns once `condition` holds, waking on each change of the observed model state it reads (no polling;
  /// the suite's time limit fails a change that never comes).
  @MainActor static func observe(_ condition: @escaping @MainActor () -> Bool) async {
    while !condition() {
      await withCheckedContinuation { (changed: CheckedContinuation<Void, Never>) in
        withObservationTracking {
          _ = condition()
        } onChange: {
          changed.resume()
        }
      }
    }
  }

  @Test("Cryptogram: a puzzle solved through the model; the mistake flash, the clock, the wiggle and the choreography run on the model's clock with the core's times; a reload reopens the board")
  func cryptogramSolvedThroughTheModel() async throws {
    try await withTestApp { test, app in try await Self.cryptogramSolvedThroughTheModel(test, app) }
  }

  @MainActor static func cryptogramSolvedThroughTheModel(_ test: TestClient, _ app: Application) async throws {
      let clock = ManualModelClock()
      let platform = PlainPlatform()
      let api = CompletionClient(server: test.base)
      let model = CryptogramModel(
        client: api, clock: clock, timeZone: TimeZone(identifier: "Europe/Berlin")!, haptics: platform, animator: platform)
      await model.start(.random(.short)).value
      let game = try #require(model.game)
      #expect(model.problem == nil)
      #expect(model.acceptsInput && model.selectedCell == model.emptyCells.first)
      guard case .session = api.credential else {
        Issue.record("the first change made a guest, and the client keeps its session")
        return
      }
      let puzzle = try await CryptogramAPITests().puzzle(of: game.id, app: app)
      func answer(_ cell: Int) -> Character { Letters.letter(puzzle.cells[cell].plain!) }

      // A wrong letter: counted by the server, shown in its cell, gone after the flash on the model's clock.
      let first = try #require(model.selectedCell)
      let wrong = Letters.letter((puzzle.cells[first].plain! + 1) % 26)
      await model.type(wrong).value
      #expect(model.game?.mistakes == 1)
      #expect(model.mistake?.cell == first && model.mistake?.letter == wrong)
      #expect(platform.played.last == .warning)
      clock.advance(by: CryptogramModel.mistakeFlashSeconds / 2)
      #expect(model.mistake != nil)
      clock.advance(by: CryptogramModel.mistakeFlashSeconds / 2)
      #expect(model.mistake == nil)
      #expect(model.selectedCell == first, "a wrong letter keeps the cell selected")

      // The play time runs on between answers, from the server's figure, on the model's clock.
      let shown = model.elapsedSeconds
      clock.advance(by: 5)
      #expect(abs(model.elapsedSeconds - shown - 5) < 0.001)

      // Two right letters, then a reload: a new model on the same account reopens the same board.
      await model.type(answer(first)).value
      #expect(model.game?.cells[first].shown == String(answer(first)))
      #expect(model.selectedCell != first, "a right letter moves on to the next empty cell")
      let reloaded = CryptogramModel(client: api, clock: clock)
      await reloaded.open().value
      #expect(reloaded.game?.id == game.id)
      #expect(reloaded.game?.cells == model.game?.cells)
      #expect(reloaded.game?.mistakes == 1)

      // Every other letter, typed into the selected cell as a person would.
      var moves = 0
      while !model.isSolved, let cell = model.selectedCell, moves < 200 {
        await model.type(answer(cell)).value
        moves += 1
      }
      #expect(model.isSolved)
      #expect(model.game?.solution?.text == puzzle.quote.text)
      #expect(model.game?.stats?.mistakes == 1)
      #expect(platform.played.last == .success)

      // The celebration is the core's choreography, played from the solve on the model's clock.
      let celebration = try #require(model.celebration)
      let core = CompletionCelebration.choreography
      #expect(celebration.steps.map(\.id) == core.steps.map(\.id))
      #expect(celebration.steps.map(\.delay) == core.steps.map(\.delay))
      let last = try #require(core.steps.max { $0.delay < $1.delay })
      #expect(last.delay > 0)
      #expect(!model.celebrationHasReached(last.id))
      #expect(model.celebrationAppearance(of: last.id) == last.from)
      clock.advance(by: last.delay)
      #expect(model.celebrationHasReached(last.id))
      clock.advance(by: core.totalDuration)
      let rest = model.celebrationAppearance(of: last.id)
      #expect(abs(rest.opacity - last.to.opacity) < 1e-6 && abs(rest.offsetY - last.to.offsetY) < 1e-6 && abs(rest.scale - last.to.scale) < 1e-6)

      // The wiggle lasted the core's time and ended by itself.
      #expect(!model.isWiggling)
      let solved = CryptogramModel(client: api, clock: clock)
      await solved.open().value
      #expect(solved.game?.id != game.id, "a solved puzzle is not reopened: today's daily starts")
  }

  @Test("Cryptogram: the wiggle's length and each cell's swing come from the server and end on the model's clock")
  func cryptogramWiggle() async throws {
    try await withTestApp { test, app in try await Self.cryptogramWiggle(test, app) }
  }

  @MainActor static func cryptogramWiggle(_ test: TestClient, _ app: Application) async throws {
      let clock = ManualModelClock()
      let model = CryptogramModel(client: CompletionClient(server: test.base), clock: clock)
      await model.start(.random(.short)).value
      let puzzle = try await CryptogramAPITests().puzzle(of: try #require(model.game?.id), app: app)
      while !model.isSolved, let cell = model.selectedCell {
        await model.type(Letters.letter(puzzle.cells[cell].plain!)).value
      }
      let wiggle = try #require(model.wiggle)
      #expect(wiggle.duration == CompletionCelebration.wiggle.resetAfter)
      #expect(wiggle.cells.count == puzzle.cells.count)
      let moving = try #require(wiggle.cells.first { $0.offset != 0 })
      clock.advance(by: moving.delay + wiggle.sampleInterval * 3)
      #expect(model.wiggleOffset(of: moving.index) != 0)
      clock.advance(by: wiggle.duration)
      #expect(!model.isWiggling && model.wiggleOffset(of: moving.index) == 0)
  }

  @Test("Waldabenteuer: a child reaches the celebration at 5 and 10 coins, the treasure and a video whose time runs out on the server's clock; a reload asks who plays and keeps the coins")
  func waldabenteuerThroughTheModel() async throws {
    try await withTestApp(options: KidsAPITests.options) { test, app in try await Self.waldabenteuerThroughTheModel(test, app) }
  }

  @MainActor static func waldabenteuerThroughTheModel(_ test: TestClient, _ app: Application) async throws {
      let server = KidsAPITests.Family(client: test)  // only for the server's clock (test hook)
      let clock = ManualModelClock()
      let platform = PlainPlatform()
      let zone = TimeZone(identifier: KidsAPITests.quietZone)!
      let api = CompletionClient(server: test.base)
      let model = WaldabenteuerModel(client: api, clock: clock, timeZone: zone, haptics: platform, animator: platform)
      await model.start().value
      #expect(model.screen == "loading")
      let catalog = try #require(model.catalog)

      /// Moves the model's time on, in steps, until `done` or a limit, answering what the model sent.
      @MainActor func play(until done: () -> Bool, step: Double, limit: Int = 200) async {
        var steps = 0
        while !done(), steps < limit {
          clock.advance(by: step)
          await model.settled()
          steps += 1
        }
      }

      // The loading screen: the model reports its time at the server's interval until the server moves on.
      await play(until: { model.screen != "loading" }, step: catalog.timing.loadingTickSeconds)
      #expect(model.screen == "playerSelection")
      #expect(model.loadingProgress == 100, "the bar shows the server's last value")
      #expect(model.view?.players.map(\.name) == ["Alexander", "Oliver"])

      await model.selectPlayer("alexander").value
      #expect(model.screen == "home")
      await play(until: { model.bubbleLine != nil }, step: 0.5, limit: 20)
      #expect(model.bubbleLine?.text == "Hi Alexander, ich bin Bennie!")
      await model.tapActivity("zahlen").value
      await model.tapGame("wuerfel").value
      #expect(model.screen == "playing" && model.view?.game == "wuerfel")

      /// One Würfel level: roll, let the die tumble (the model's clock, the server's), tap the face, and let the
      /// level's scheduled end come back from the model.
      @MainActor func solveLevel() async throws {
        let rolls = model.dieRolls
        await model.rollDie().value
        #expect(model.dieRolls == rolls + 1 && model.isDieTumbling)
        let tumble = try #require(model.motion("kidsDieTumble", step: "die")).duration
        clock.advance(by: tumble)
        #expect(!model.isDieTumbling)
        try await server.wait(1)
        let face = try #require(model.view?.level?.askedNumber)
        await model.tapNumber(face).value
        #expect(model.screen == "levelComplete")
        let scheduled = try #require(model.lastEffects.first { $0.type == "schedule" })
        clock.advance(by: scheduled.seconds ?? 0)
        await model.settled()
      }

      for level in 1...12 {
        try await solveLevel()
        #expect(model.activePlayer?.coins == level)
        #expect(model.coinFlight?.balance == level)
        if level % 5 == 0 {
          #expect(model.isCelebrating, "level \(level)")
          #expect(model.confettiBursts > 0 && platform.played.contains(.heavy))
          await model.tapWeiter().value
          #expect(model.screen == (level == 10 ? "treasureScreen" : "playing"))
          if level == 10 {
            #expect(model.view?.treasure?.chestOpen == true)
            await model.back().value
            await model.tapActivity("zahlen").value
            await model.tapGame("wuerfel").value
          }
        } else {
          #expect(!model.isCelebrating && model.screen == "playing", "level \(level)")
        }
      }

      // A parent approves a video through the gate; the child pays five minutes and watches it.
      await model.home().value
      await model.tapSettings().value
      let question = try #require(model.view?.gate?.question)
      let sum = question.split(separator: " ").compactMap { Int($0) }.reduce(0, +)
      for digit in String(sum) { await model.gateDigit(Int(String(digit))!).value }
      await model.gateConfirm().value
      #expect(model.screen == "parentDashboard")
      // A name too long is refused; the words naming the limit are the catalog's, as the parent area shows them.
      await model.send("addPlayer") { $0.name = String(repeating: "A", count: GameMachine.maxNameLength + 1) }.value
      #expect(model.refusal == "invalid_name")
      #expect(model.refusalLine(for: "invalid_name") == "Bitte gib einen Namen mit 1 bis \(GameMachine.maxNameLength) Zeichen ein.")
      #expect(model.refusalLine(for: "too_many_players") == catalog.lines["tooManyPlayers"] && model.refusalLine(for: "last_player") == nil)
      await model.uploadVideo(Data(VideoBytes.webm), contentType: "video/webm", title: "Film").value
      #expect(model.view?.dashboard?.videos.map(\.title) == ["Film"], "the answer's dashboard lists the upload")
      await model.back().value
      await model.tapChest().value
      #expect(model.screen == "treasureScreen")
      model.isOnline = false
      await model.redeem("fiveMinutes").value
      let cost = try #require(catalog.tiers["fiveMinutes"]?["cost"])
      #expect(model.screen == "videoSelection" && model.activePlayer?.coins == 12 - cost)
      let video = try #require(model.view?.videos.first?.id)
      await model.chooseVideo(video).value
      #expect(model.screen == "videoPlaying")
      #expect(model.view?.playback?.label == "Noch 5 Minuten")

      // The server's clock runs the video out; the model's next tick hears it and holds "Zeit ist um!".
      try await server.wait(300)
      await play(until: { model.screen != "videoPlaying" }, step: catalog.timing.videoTickSeconds, limit: 5)
      #expect(model.screen == "home")
      #expect(model.isHoldingTimeUp)
      #expect(model.timeUpPlayback?.video.id == video, "the finished video stays on screen while time up holds")
      let timeUp = try #require(model.lastEffects.first { $0.type == "videoTimeUp" }?.seconds)
      clock.advance(by: timeUp)
      #expect(!model.isHoldingTimeUp && model.timeUpPlayback == nil)

      // A reload: a new model on the same account launches again and asks who plays; the coins are kept.
      model.stop()
      let reloaded = WaldabenteuerModel(client: api, clock: clock, timeZone: zone)
      await reloaded.start(reload: true).value
      #expect(reloaded.screen == "loading")
      var steps = 0
      while reloaded.screen == "loading", steps < 200 {
        clock.advance(by: catalog.timing.loadingTickSeconds)
        await reloaded.settled()
        steps += 1
      }
      #expect(reloaded.screen == "playerSelection")
      await reloaded.selectPlayer("alexander").value
      #expect(reloaded.screen == "home" && reloaded.activePlayer?.coins == 12 - cost)
      _ = app
  }

  @Test("Waldabenteuer: the daily limit's 95 % line is heard in full; the level won right after it does not stop the voice")
  func waldabenteuerGentleExitHeardInFull() async throws {
    try await withTestApp(options: KidsAPITests.options) { test in try await Self.waldabenteuerGentleExitHeardInFull(test) }
  }

  /// A voice that says nothing: it starts each line at once and counts how often it was stopped.
  @MainActor final class CountingVoice: KidsSpeaking {
    var stops = 0
    func speak(_ line: KidsLine, started: @escaping @MainActor () -> Void) { started() }
    func stop() { stops += 1 }
  }

  @MainActor static func waldabenteuerGentleExitHeardInFull(_ test: TestClient) async throws {
      let server = KidsAPITests.Family(client: test)
      try await server.freezeClock()
      let clock = ManualModelClock()
      let voice = CountingVoice()
      let api = CompletionClient(server: test.base)
      let model = WaldabenteuerModel(client: api, clock: clock, timeZone: TimeZone(identifier: KidsAPITests.quietZone)!, voice: voice)
      await model.start().value
      let timing = try #require(model.catalog).timing
      while model.screen == "loading" {
        clock.advance(by: timing.loadingTickSeconds)
        await model.settled()
      }
      await model.selectPlayer("alexander").value
      await model.tapActivity("zahlen").value
      await model.tapGame("wuerfel").value
      // 56 min 50 s of today's 60 reported on the family's account (at most 20 s a report), not to the model.
      for seconds in Array(repeating: 20.0, count: 170) + [10] {
        try await server.wait(seconds)
        var beat = KidsEventRequest(type: "heartbeat")
        beat.timeZone = KidsAPITests.quietZone
        _ = try await api.kidsEvent(beat)
      }
      await model.rollDie().value
      clock.advance(by: try #require(model.motion("kidsDieTumble", step: "die")).duration)
      await model.settled()
      // The model's own report crosses 95 %.
      try await server.wait(20)
      clock.advance(by: timing.heartbeatSeconds)
      await model.settled()
      #expect(model.spokenLine?.text == "Noch ein Spiel. Dann machen wir Pause.")
      #expect(model.spokenLine?.inFull == true)
      let stops = voice.stops
      // The level is won at once: a new screen, but the voice finishes the 95 % line.
      await model.tapNumber(try #require(model.view?.level?.askedNumber)).value
      #expect(model.screen == "levelComplete")
      #expect(voice.stops == stops, "the 95 % line was cut off")
      #expect(model.spokenLine?.inFull == false)
      // The next screen change stops the voice as before.
      await model.home().value
      #expect(voice.stops > stops)
  }

  @Test("Waldabenteuer: a refused tap leaves the screen as it was and says why; the idle prompts come at the level's marks")
  func waldabenteuerRefusalAndIdle() async throws {
    try await withTestApp(options: KidsAPITests.options) { test in try await Self.waldabenteuerRefusalAndIdle(test) }
  }

  @MainActor static func waldabenteuerRefusalAndIdle(_ test: TestClient) async throws {
      let clock = ManualModelClock()
      let model = WaldabenteuerModel(client: CompletionClient(server: test.base), clock: clock, timeZone: TimeZone(identifier: KidsAPITests.quietZone)!)
      await model.start().value
      while model.screen == "loading" {
        clock.advance(by: try #require(model.catalog).timing.loadingTickSeconds)
        await model.settled()
      }
      await model.selectPlayer("alexander").value
      await model.tapActivity("logik").value
      #expect(model.screen == "home", "a locked sign does not open")
      #expect(model.refusal != nil)
      await model.tapActivity("zahlen").value
      await model.tapGame("wuerfel").value
      let marks = try #require(model.view?.level?.idleMarks)
      #expect(!marks.isEmpty)
      // Würfel's prompts speak of the rolled number: the die is rolled, then the child waits.
      await model.rollDie().value
      let first = try #require(marks.first)
      clock.advance(by: first - 0.001)
      await model.settled()
      #expect(model.lastEffects.contains { $0.type == "dieRolled" }, "nothing was asked before the first mark")
      clock.advance(by: 0.001)
      await model.settled()
      #expect(model.lastEffects.contains { $0.type == "speak" }, "the first idle prompt was asked for at its mark and spoken")
  }

  @Test("Projects: the model follows the counts live — a task completed by another client moves its project; the completion plays once for the server's hold")
  func projectsFollowLive() async throws {
    try await withTestApp { test in try await Self.projectsFollowLive(test) }
  }

  @MainActor static func projectsFollowLive(_ test: TestClient) async throws {
      let clock = ManualModelClock()
      let api = CompletionClient(server: test.base)
      let model = ProjectsModel(client: api, clock: clock)
      await model.createProject(name: "Garden")
      let project = try #require(model.openProject)
      await model.addTask("Dig")
      await model.addTask("Sow")
      #expect(model.tasks.map(\.title) == ["Dig", "Sow"])
      #expect(model.openProject?.total == 2 && model.openProject?.percent == 0)

      model.followLive()
      // Another device of the same person (a second client on the same session) completes a task.
      let other = CompletionClient(server: test.base, credential: api.credential)
      _ = try await other.updateTask(model.tasks[0].id, TaskRequest(completed: true))
      await Self.observe { model.projects.first { $0.id == project.id }?.completed == 1 }
      #expect(model.projects.first { $0.id == project.id }?.percent == 50)

      await model.setCompleted(model.tasks[1].id, true)
      let completion = try #require(model.completion)
      #expect(completion.isFirst && model.completedProject?.id == project.id)
      clock.advance(by: completion.holdSeconds)
      #expect(model.completion == nil)
      await model.setCompleted(model.tasks[1].id, false)
      await model.setCompleted(model.tasks[1].id, true)
      #expect(model.completion == nil, "completing again does not celebrate twice")
      model.stopFollowing()

      // Undo: the last change (the completion just made) is taken back on the server; a deleted task returns
      // to its place.
      #expect(model.undoable?.label == "Completed “Sow”")
      await model.undo()
      #expect(model.tasks[1].completed == false && model.undoable == nil)
      let dig = model.tasks[0]
      await model.deleteTask(dig.id)
      #expect(model.undoable?.label == "Deleted “Dig”")
      await model.undo()
      #expect(model.tasks.map(\.title) == ["Dig", "Sow"] && model.tasks[0].completed && model.problem == nil)
      // The model undoes the step it shows: overtaken by a change on another device, it is refused and nothing
      // is undone (the other device's change stays), and the offer goes.
      await model.setCompleted(model.tasks[0].id, false)
      #expect(model.undoable?.label == "Reopened “Dig”" && model.undoable?.seq != nil)
      _ = try await other.updateTask(model.tasks[1].id, TaskRequest(completed: true))
      await model.undo()
      #expect(model.problem?.contains("Something else changed since") == true && model.undoable == nil)
      let afterRefusal = try await other.tasks(inProject: project.id).tasks.map(\.completed)
      #expect(afterRefusal == [false, true])
      _ = try await other.undoTaskChange()
      await model.setCompleted(model.tasks[0].id, true)

      // The model sends the revision it holds: an edit made after another device changed the task is refused
      // (the model then holds the task as it is now), and an edit on that goes through.
      let sow = model.tasks[1]
      _ = try await other.updateTask(sow.id, TaskRequest(title: "Sow beans"))
      await model.updateTask(sow.id, TaskRequest(title: "Sow peas"))
      #expect(model.problem != nil && model.tasks[1].title == "Sow beans")
      await model.updateTask(sow.id, TaskRequest(title: "Sow peas"))
      #expect(model.tasks[1].title == "Sow peas")

      // Archived: apart from the list, counts as they were; back again.
      await model.updateProject(project.id, archived: true)
      #expect(model.listedProjects.isEmpty && model.archivedProjects.map(\.total) == [2])
      await model.updateProject(project.id, archived: false)
      #expect(model.listedProjects.map(\.id) == [project.id])
  }

  @Test("Projects: the model's open list comes as sections — tasks under no heading, then each heading in the server's order with its tasks; a heading's undo reads them again")
  func projectSections() async throws {
    try await withTestApp { test in try await Self.projectSections(test) }
  }

  @MainActor static func projectSections(_ test: TestClient) async throws {
    let api = CompletionClient(server: test.base)
    let model = ProjectsModel(client: api, clock: ManualModelClock())
    await model.createProject(name: "Garden")
    let garden = try #require(model.openProject)
    let spring = try #require(try await api.createHeading(inProject: garden.id, name: "Spring").heading)
    let summer = try #require(try await api.createHeading(inProject: garden.id, name: "Summer").heading)
    let autumn = try #require(try await api.createHeading(inProject: garden.id, name: "Autumn").heading)
    for (title, heading) in [("Dig", summer), ("Sow", spring), ("Water", nil), ("Weed", summer)] as [(String, HeadingView?)] {
      let task = try #require(try await api.createTask(TaskRequest(title: title, projectId: .set(garden.id))).task)
      if let heading { _ = try await api.setHeading(ofTask: task.id, to: heading.id) }
    }
    _ = try await api.updateHeading(autumn.id, inProject: garden.id, position: 0)
    await model.open(garden.id)
    func drawn() -> [String] { model.sections.map { "\($0.heading?.name ?? "-"): \($0.tasks.map(\.title).joined(separator: ","))" } }
    #expect(drawn() == ["-: Water", "Autumn: ", "Spring: Sow", "Summer: Dig,Weed"])

    // Summer deleted elsewhere (the same person): its tasks go to the top; the model's undo brings it back.
    _ = try await api.deleteHeading(summer.id, inProject: garden.id)
    await model.open(garden.id)
    #expect(drawn() == ["-: Dig,Water,Weed", "Autumn: ", "Spring: Sow"])
    await model.undo()
    #expect(model.problem == nil)
    #expect(drawn() == ["-: Water", "Autumn: ", "Spring: Sow", "Summer: Dig,Weed"])

    // Grouping alone: no loose tasks and headings leave the first section out; an unknown heading counts as none.
    let task = { (id: String, heading: String?) in
      TaskView(id: id, projectId: "p", title: id, notes: "", priority: "none", dueDate: nil, completed: false, completedAt: nil, position: 0, headingId: heading)
    }
    let heading = HeadingView(id: "h", projectId: "p", name: "H", position: 0)
    #expect(TaskSection.of([task("a", "h")], headings: [heading]).map(\.id) == ["h"])
    #expect(TaskSection.of([task("a", "gone")], headings: [heading]).map { $0.tasks.map(\.id) } == [["a"], []])
    #expect(TaskSection.of([], headings: []).map(\.id) == [""])
  }

  @Test("The terminal cryptogram: fits 80×24 and a narrow window, plain under NO_COLOR, keys read from raw bytes and lines, the solved sequence appears at the core's times")
  func terminalCryptogram() async throws {
    try await withTestApp { test, app in try await Self.terminalCryptogram(test, app) }
  }

  @MainActor static func terminalCryptogram(_ test: TestClient, _ app: Application) async throws {
    #expect(TerminalKey.parse([0x1B, 0x5B, 0x43, 0x09, 0x1B, 0x5B, 0x5A, 0x3F, 0x20, 0x61, 0x0D, 0x03]) == [.next, .next, .previous, .hint, .pause, .letter("a"), .enter, .quit])
    #expect(TerminalKey.parse([0x1B]) == [.quit])
    // Ctrl-→, Shift-←, F5 and Alt-x are read whole and ignored: never a guess, never a way out.
    #expect(TerminalKey.parse(Array("\u{1B}[1;5C\u{1B}[1;2D\u{1B}[15~\u{1B}x".utf8)) == [.other, .other, .other, .other])
    #expect(TerminalKey.parse(line: "hint") == [.hint] && TerminalKey.parse(line: "e t") == [.letter("e"), .letter("t")])

    let clock = ManualModelClock()
    let model = CryptogramModel(client: CompletionClient(server: test.base), clock: clock)
    await model.start(.random(.long)).value
    let escape = "\u{1B}"
    func visible(_ line: String) -> Int {
      ClientRuleCopyTests.matches(#"\x1B\[[0-9;]*m"#, in: line).reduce(line.count) { $0 - $1.count }
    }
    for size in [TerminalSize(columns: 80, rows: 24), TerminalSize(columns: 40, rows: 24), TerminalSize(columns: 30, rows: 12)] {
      for color in [true, false] {
        let lines = CryptogramTerminal.render(model, size: size, color: color)
        #expect(lines.count <= size.rows, "\(size)")
        for line in lines { #expect(visible(line) <= size.columns, "\(size): \(line)") }
        #expect(lines.contains { $0.contains(escape) } == color, "colour codes only with colour")
        let help = lines.suffix(3).joined(separator: " ")
        #expect(help.contains("hint") && help.contains("Esc quit"), "the keys are named on the last lines: \(help)")
      }
    }
    let plain = CryptogramTerminal.render(model, size: .standard, color: false)
    #expect(plain.contains { $0.contains("^ ") }, "without colour the selected cell is pointed at")

    // A window too short for a long quote scrolls the board to the selected cell and keeps the status line.
    let tiny = TerminalSize(columns: 30, rows: 12)
    for _ in 0..<12 { model.moveSelection(forward: false) }
    let scrolled = CryptogramTerminal.render(model, size: tiny, color: false)
    #expect(scrolled.contains { $0.contains("^ ") }, "the selected cell stays in view:\n\(scrolled.joined(separator: "\n"))")
    #expect(scrolled.contains { $0.contains("clock") || $0.contains("% found") }, "the status line stays:\n\(scrolled.joined(separator: "\n"))")

    // Paused: the board is hidden, as on the web page.
    _ = await CryptogramTerminal.handle(.hint, on: model)
    _ = await CryptogramTerminal.handle(.pause, on: model)
    #expect(model.game?.isPaused == true)
    let paused = CryptogramTerminal.render(model, size: .standard, color: false).joined(separator: "\n")
    #expect(paused.contains("Paused") && !paused.contains("^ "))
    _ = await CryptogramTerminal.handle(.pause, on: model)
    #expect(model.game?.isPaused == false)

    // Played through the keys; the solved sequence appears part by part on the model's clock.
    let puzzle = try await CryptogramAPITests().puzzle(of: try #require(model.game?.id), app: app)
    while !model.isSolved, let cell = model.selectedCell {
      _ = await CryptogramTerminal.handle(.letter(Letters.letter(puzzle.cells[cell].plain!)), on: model)
    }
    #expect(model.isSolved)
    func screen() -> String { CryptogramTerminal.render(model, size: .standard, color: false).joined(separator: "\n") }
    #expect(!screen().contains("S O L V E D"), "the board stays while the wiggle plays")
    let steps = Dictionary(uniqueKeysWithValues: try #require(model.celebration).steps.map { ($0.id, $0.delay) })
    clock.advance(by: try #require(steps["trophy"]) + 0.3)
    #expect(screen().contains("S O L V E D") && !screen().contains("Press Enter"))
    clock.advance(by: try #require(steps["next"]))
    #expect(screen().contains("Press Enter for the next puzzle"))
    #expect(screen().contains(String(puzzle.quote.text.split(separator: " ").first ?? "")))
    #expect(await CryptogramTerminal.handle(.enter, on: model) == .keepPlaying)
    #expect(!model.isSolved && model.game?.id != nil, "Enter starts the next puzzle")
    #expect(await CryptogramTerminal.handle(.quit, on: model) == .quit)
  }

  @Test("Challenges: join and complete with a photo through the model; the points and streak are the server's, the celebration goes after its time; a follower's model sees it and congratulates")
  func challengesThroughTheModel() async throws {
    try await withTestApp { test, _ in try await Self.challengesThroughTheModel(test) }
  }

  @MainActor static func challengesThroughTheModel(_ test: TestClient) async throws {
    let clock = ManualModelClock()
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let cookClient = CompletionClient(server: test.base)
    let cookName = uniqueUsername("cook")
    _ = try await cookClient.register(username: cookName, password: "password-123")
    let cook = ChallengesModel(client: cookClient, clock: clock, timeZone: berlin)
    await cook.load()
    #expect(cook.problem == nil)
    let daily = try #require(cook.challenges.first { $0.type == "daily" })
    await cook.join(daily.id)
    #expect(cook.challenges.first { $0.id == daily.id }?.participation?.status == "active")

    let friendClient = CompletionClient(server: test.base)
    _ = try await friendClient.register(username: uniqueUsername("friend"), password: "password-123")
    let friend = ChallengesModel(client: friendClient, clock: clock, timeZone: berlin)
    await friend.follow(cookName)

    await cook.complete(daily.id, photo: Data(ChallengesAPITests.gpsPhoto), contentType: "image/jpeg", story: "Crispy edges!")
    #expect(cook.problem == nil)
    let done = try #require(cook.celebration)
    #expect(done.isFirst && done.pointsAwarded == daily.points)
    #expect(cook.stats?.totalPoints == daily.points && cook.stats?.currentStreak == 1)
    #expect(cook.feed.first?.id == done.activity.id)
    let core = try #require(done.celebration)
    let first = try #require(core.steps.min { $0.delay < $1.delay })
    #expect(cook.celebrationAppearance(of: first.id) == first.from)
    clock.advance(by: done.dismissAfter)
    #expect(cook.celebration == nil, "the celebration goes by itself after the server's time")

    // A retried completion pays nothing again and does not celebrate twice.
    await cook.complete(daily.id, photo: Data(ChallengesAPITests.gpsPhoto), contentType: "image/jpeg")
    #expect(cook.celebration == nil && cook.stats?.totalPoints == daily.points)

    // A streak freeze: refused in the server's words while the points do not cover it, then bought.
    let price = try #require(cook.stats?.freezes?.price)
    await cook.buyStreakFreeze()
    #expect(cook.problem?.contains("you have \(daily.points)") == true && cook.freezeMessage == nil)
    let weekly = try #require(cook.challenges.first { $0.type == "weekly" })
    await cook.complete(weekly.id, photo: Data(ChallengesAPITests.gpsPhoto), contentType: "image/jpeg")
    clock.advance(by: done.dismissAfter)
    await cook.buyStreakFreeze()
    #expect(cook.problem == nil && cook.freezeMessage != nil)
    #expect(cook.stats?.freezes?.held == 1 && cook.stats?.totalPoints == daily.points + weekly.points - price)

    await friend.load()
    let item = try #require(friend.feed.first { $0.id == done.activity.id })
    #expect(item.story == "Crispy edges!" && !item.congratulated)
    await friend.setCongratulated(item.id, true)
    #expect(friend.feed.first { $0.id == item.id }?.congrats == 1)
    #expect(friend.feed.first { $0.id == item.id }?.congratulated == true)
  }

  @Test("The real clock runs an action whose handle nobody kept (the handle is only for cancelling)")
  @MainActor func systemClockRunsUnheldActions() async {
    let clock = SystemModelClock()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      clock.schedule(after: 0.01) { done.resume() }
    }
    var ran = false
    let kept = clock.schedule(after: 0.01) { ran = true }
    kept.cancel()
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      clock.schedule(after: 0.05) { done.resume() }
    }
    #expect(!ran, "a cancelled action does not run")
  }
}
