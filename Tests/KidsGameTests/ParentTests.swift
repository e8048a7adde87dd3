import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import KidsGame

@Suite("Parent gate, dashboard and daily play time")
struct ParentTests {
  @Test("Property: the question is A + B with A and B in 5…15")
  func questionRange() async {
    await propertyCheck(count: 200, input: Gen.uint64()) { seed in
      var generator = SeededRandom(seed: seed)
      let gate = ParentGate(using: &generator)
      #expect(ParentGate.operands.contains(gate.question.a) && ParentGate.operands.contains(gate.question.b))
      #expect(gate.question.text == "\(gate.question.a) + \(gate.question.b) = ?")
    }
  }

  @Test("At most two digits; erase; confirming nothing is refused")
  func input() {
    var generator = SeededRandom(seed: 4)
    var gate = ParentGate(question: .init(a: 7, b: 8))
    #expect(value(gate.confirm(using: &generator)) == .refused(.noInput))
    #expect(value(gate.enter(digit: 1)) == .input("1"))
    #expect(value(gate.enter(digit: 5)) == .input("15"))
    #expect(value(gate.enter(digit: 3)) == .refused(.inputFull))
    #expect(value(gate.enter(digit: 12)) == .refused(.numberOutOfRange))
    #expect(value(gate.erase()) == .input("1"))
    #expect(value(gate.erase()) == .input(""))
    #expect(value(gate.erase()) == .refused(.noInput))
  }

  @Test("Wrong clears the input; after 3 wrong a new question; never a lockout")
  func wrongAnswers() {
    var generator = SeededRandom(seed: 11)
    var gate = ParentGate(question: .init(a: 7, b: 8))
    for attempt in 1...2 {
      _ = gate.enter(digit: 9)
      #expect(value(gate.confirm(using: &generator)) == .wrong(newQuestion: nil))
      #expect(gate.input == "" && gate.wrongAnswers == attempt)
    }
    _ = gate.enter(digit: 9)
    guard case .wrong(let next?) = gate.confirm(using: &generator) else { Issue.record("no new question"); return }
    #expect(next != ParentGate.Question(a: 7, b: 8))
    #expect(gate.question == next && gate.wrongAnswers == 0)
    for _ in 0..<20 {
      _ = gate.enter(digit: 0)
      _ = gate.confirm(using: &generator)
    }
    for digit in String(gate.question.answer) { _ = gate.enter(digit: Int(String(digit)) ?? 0) }
    #expect(value(gate.confirm(using: &generator)) == .correct)
  }

  @Test("In the machine: a new question after three misses, shown to the caller")
  func machineGate() {
    var game = Game()
    game.toParentGate()
    let first = game.machine.navigation.gate?.question
    var last: [GameEffect] = []
    for _ in 0..<3 {
      game.enterGateAnswer(99)
      last = game.send(.gateConfirm)
    }
    let second = game.machine.navigation.gate?.question
    #expect(first != second)
    #expect(last.contains(.gateNewQuestion(second ?? .init(a: 0, b: 0))))
    #expect(game.state == .parentGate)
  }

  // MARK: Daily play time

  @Test("Limits: 30/45/60/75/90/120 only, 60 by default")
  func limits() {
    #expect(PlayTimeLimit.options.compactMap { PlayTimeLimit(minutes: $0)?.minutes } == [30, 45, 60, 75, 90, 120])
    #expect(PlayTimeLimit(minutes: 50) == nil)
    #expect(PlayTimeLimit.standard.minutes == 60)
    #expect(PlayerSettings().dailyLimit.minutes == 60)
  }

  @Test("Stages at 80 %, 95 % and 100 % for every limit; the dashboard bar's colours")
  func thresholds() throws {
    for minutes in PlayTimeLimit.options {
      let limit = try #require(PlayTimeLimit(minutes: minutes))
      let m = Double(minutes)
      #expect(limit.stage(minutesPlayed: 0) == .fine)
      #expect(limit.stage(minutesPlayed: m * 0.79) == .fine)
      #expect(limit.stage(minutesPlayed: m * 0.8) == .breakSoon)
      #expect(limit.stage(minutesPlayed: m * 0.94) == .breakSoon)
      #expect(limit.stage(minutesPlayed: m * 0.95) == .lastActivity)
      #expect(limit.stage(minutesPlayed: m - 0.01) == .lastActivity)
      #expect(limit.stage(minutesPlayed: m) == .finished)
      #expect(limit.stage(minutesPlayed: m * 3) == .finished)
      #expect(limit.band(minutesPlayed: m * 0.5) == .green)
      #expect(limit.band(minutesPlayed: m * 0.8) == .gold)
      #expect(limit.band(minutesPlayed: m) == .gold)
      #expect(limit.band(minutesPlayed: m + 1) == .red)
    }
    #expect(PlayTimeLimit.standard.stage(minutesPlayed: .nan) == .fine)
  }

  @Test("Gentle exit in the machine: each line once, then home at 100 %, and no new activity today")
  func gentleExit() {
    var game = Game()
    game.toPlaying()
    #expect(game.send(.playTimeUpdated(minutesToday: 10)).isEmpty)
    let soon = game.send(.playTimeUpdated(minutesToday: 48))
    #expect(soon.contains(.playTimeStage(.breakSoon)))
    #expect(soon.spoken == ["Bald machen wir eine Pause."])
    #expect(game.send(.playTimeUpdated(minutesToday: 50)).isEmpty)
    #expect(game.send(.playTimeUpdated(minutesToday: 57)).spoken == ["Noch ein Spiel. Dann machen wir Pause."])
    #expect(game.state == .playing(.zahlen, .wuerfel))
    let goodbye = game.send(.playTimeUpdated(minutesToday: 60))
    #expect(goodbye.spoken == ["Du hast heute so toll gespielt! Bis morgen! Sag Mama oder Papa Bescheid."])
    #expect(game.state == .home)
    #expect(game.machine.isDailyLimitReached)
    let refused = game.send(.tapActivity(.zahlen))
    #expect(refused.refusals == [.dailyLimitReached])
    #expect(refused.spoken.first == "Du hast heute so toll gespielt! Bis morgen! Sag Mama oder Papa Bescheid.")
    // A new day (less time than before) starts over.
    #expect(game.send(.playTimeUpdated(minutesToday: 0)).isEmpty)
    game.send(.tapActivity(.zahlen))
    #expect(game.state == .activitySelection(.zahlen))
  }

  @Test("The daily limit's lines are heard in full (a tap's line waits for them); no other line is")
  func heardInFull() {
    let full = Set(NarrationTrigger.allCases.filter(\.isHeardInFull))
    #expect(full == [.playTimeBreakSoon, .playTimeLastActivity, .playTimeGoodbye, .playTimeUpInFilm])
    for stage in PlayTimeStage.allCases { #expect(stage.trigger.map(\.isHeardInFull) ?? true) }
  }

  @Test("A paid video plays to its end past the limit; the goodbye comes after it")
  func limitDuringVideo() {
    var game = Game(coins: 10)
    game.toVideoPlaying()
    #expect(game.send(.playTimeUpdated(minutesToday: 61)).isEmpty)
    #expect(game.state == .videoPlaying)
    game.send(.videoTick(at: game.later(300)))
    #expect(game.state == .home)
    #expect(game.send(.playTimeUpdated(minutesToday: 62)).spoken.first?.hasPrefix("Du hast heute so toll gespielt!") == true)
  }

  @Test("At the limit, the level ends at home instead of a next level")
  func limitAfterLevel() {
    var game = Game()
    game.toPlaying()
    game.solveLevel()
    game.send(.playTimeUpdated(minutesToday: 60))
    #expect(game.state == .levelComplete)
    game.send(.levelCompleteFinished)
    #expect(game.state == .home)
  }

  // MARK: Dashboard

  @Test("Dashboard commands: limits, mode, videos newest first, reset")
  func dashboard() {
    var game = Game(coins: 13)
    game.toPlaying()
    game.solveLevel()
    game.send(.home)
    game.send(.tapSettings)
    game.enterGateAnswer(game.machine.navigation.gate?.question.answer ?? 0)
    game.send(.gateConfirm)
    #expect(game.send(.parent(.setDailyLimit(player: "alexander", minutes: 50))).refusals == [.invalidTimeLimit])
    #expect(game.send(.parent(.setDailyLimit(player: "nobody", minutes: 30))).refusals == [.unknownPlayer])
    #expect(game.send(.parent(.setNumberChoiceMode(.tap, player: "oliver"))).contains(.save))
    #expect(game.machine.data.settings.parentSettings.settings(for: "oliver").numberChoiceMode == .tap)

    let invalid = game.send(.parent(.addVideo(link: "https://vimeo.com/123", title: "x", at: t0)))
    #expect(invalid.refusals == [.invalidYouTubeLink])
    game.send(.parent(.addVideo(link: "https://youtu.be/AAAAAAAAAAA", title: "  Bären  ", at: at(1))))
    #expect(game.machine.data.settings.parentSettings.approvedVideos.map(\.id) == ["AAAAAAAAAAA", approvedID])
    #expect(game.machine.data.settings.parentSettings.approvedVideos.first?.title == "Bären")
    #expect(
      game.send(.parent(.addVideo(link: "youtube.com/watch?v=AAAAAAAAAAA", title: "again", at: at(2)))).refusals == [
        .duplicateVideo
      ])
    // A link without a title gets a readable name, not its raw id.
    game.send(.parent(.addVideo(link: "https://youtu.be/BBBBBBBBBBB", title: "  ", at: at(3))))
    #expect(game.machine.data.settings.parentSettings.approvedVideos.first?.title == "YouTube-Video 3")
    #expect(game.send(.parent(.removeVideo(id: "AAAAAAAAAAA"))).contains(.settingsChanged))
    #expect(game.send(.parent(.removeVideo(id: "AAAAAAAAAAA"))).refusals == [.unknownVideo])

    let reset = game.send(.parent(.resetProgress(player: "alexander")))
    #expect(reset.coinChanges.map(\.amount) == [-14])
    #expect(reset.coinChanges.first?.reason == .reset)
    #expect(game.machine.data.player("alexander")?.coins == 0)
    #expect(game.machine.data.player("alexander")?.completedLevels(in: .wuerfel) == 0)
    #expect(game.machine.data.player("alexander")?.totalPlayTimeToday == 0)
  }
}
