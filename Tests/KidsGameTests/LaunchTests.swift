import Foundation
import Testing

@testable import KidsGame

/// A saved screen and where the child who was playing comes back to after a launch.
struct LaunchCase: Sendable, CustomTestStringConvertible {
  let saved: GameState
  let setup: @Sendable () -> Game
  let resumed: GameState

  var testDescription: String { "\(saved.name) → loading → player selection → \(resumed.name)" }
}

@Suite("Every launch: loading, then \"Wer spielt heute?\"")
struct LaunchTests {
  static let cases: [LaunchCase] = [
    .init(saved: .home, setup: { .reached { $0.toHome() } }, resumed: .home),
    .init(saved: .activitySelection(.zahlen), setup: { .reached { $0.toActivitySelection() } }, resumed: .activitySelection(.zahlen)),
    .init(saved: .playing(.zahlen, .wuerfel), setup: { .reached { $0.toPlaying() } }, resumed: .activitySelection(.zahlen)),
    .init(saved: .levelComplete, setup: { .reached { $0.toLevelComplete() } }, resumed: .activitySelection(.zahlen)),
    .init(saved: .celebrationOverlay, setup: { .reached(coins: 4) { $0.toCelebration() } }, resumed: .home),
    .init(saved: .treasureScreen, setup: { .reached(coins: 10) { $0.toTreasure() } }, resumed: .treasureScreen),
    .init(saved: .videoSelection, setup: { .reached(coins: 10) { $0.toVideoSelection() } }, resumed: .videoSelection),
    // The seed's recovery table: a video goes home (its unwatched time waits there, see UnwatchedVideoTests).
    .init(saved: .videoPlaying, setup: { .reached(coins: 10) { $0.toVideoPlaying() } }, resumed: .home),
    .init(saved: .parentGate, setup: { .reached { $0.toParentGate() } }, resumed: .home),
    .init(saved: .parentDashboard, setup: { .reached { $0.toParentDashboard() } }, resumed: .home),
  ]

  /// Launches `game`'s saved state at `at(seconds)` and walks through loading to player selection.
  static func launch(_ game: Game, atSecond seconds: Double = 10) throws -> (Game, [GameEffect]) {
    let (machine, _) = GameMachine.launch(from: try game.machine.encoded(), seed: 9, at: at(seconds))
    var launched = Game(machine: machine)
    #expect(launched.state == .loading)
    #expect(machine.consistencyProblems.isEmpty)
    let effects = launched.send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    #expect(launched.state == .playerSelection)
    return (launched, effects)
  }

  @Test("Each saved screen: the loading screen and the player screen first, then the same child is back", arguments: cases)
  func sameChildResumes(_ launch: LaunchCase) throws {
    let game = launch.setup()
    #expect(game.state == launch.saved)
    var (launched, effects) = try Self.launch(game)
    #expect(effects.spoken.last == "Wie heißt du? Alexander oder Oliver?")
    let chosen = launched.send(.selectPlayer("alexander", at: at(20)))
    #expect(launched.state == launch.resumed)
    #expect(chosen.spoken.first == "Hallo Alexander! Los geht's!")
    if launch.saved == .videoPlaying {
      // The film went home; what it had left is the child's (UnwatchedVideoTests has the details).
      #expect(launched.machine.data.players.map(\.coins) == game.machine.data.players.map(\.coins))
      #expect(launched.machine.data.player("alexander")?.unwatchedVideo != nil)
    } else {
      #expect(launched.machine.data.players == game.machine.data.players)
    }
    #expect(launched.machine.consistencyProblems.isEmpty)
    #expect(launched.machine.navigation.resumeState == nil)
  }

  @Test("A milestone whose level-complete moment was left (home, or a reload) is celebrated before the next level")
  func missedCelebration() throws {
    var game = Game()
    game.toPlaying()
    for _ in 0..<4 {
      game.solveLevel()
      game.send(.levelCompleteFinished)
    }
    #expect(game.coins == 4)
    game.solveLevel()
    #expect(game.state == .levelComplete && game.coins == 5)
    game.send(.home)
    #expect(game.state == .home)
    game.send(.tapActivity(.zahlen))
    let next = game.send(.tapSubActivity(.wuerfel))
    #expect(game.state == .celebrationOverlay)
    #expect(next.contains(.showCelebration(coins: 5)) && next.contains(.confetti))
    game.send(.tapWeiter)
    #expect(game.state == .playing(.zahlen, .wuerfel))
    // Once only.
    game.send(.home)
    game.send(.tapActivity(.zahlen))
    game.send(.tapSubActivity(.wuerfel))
    #expect(game.state == .playing(.zahlen, .wuerfel))

    // The same after a reload in the level-complete moment of the tenth coin.
    for _ in 0..<4 {
      game.solveLevel()
      game.send(.levelCompleteFinished)
    }
    game.solveLevel()
    #expect(game.state == .levelComplete && game.coins == 10)
    var (launched, _) = try Self.launch(game)
    launched.send(.selectPlayer("alexander", at: at(20)))
    #expect(launched.state == .activitySelection(.zahlen))
    let after = launched.send(.tapSubActivity(.wuerfel))
    #expect(after.contains(.showCelebration(coins: 10)))
    launched.send(.tapWeiter)
    #expect(launched.state == .treasureScreen)
  }

  @Test("Another child after a launch starts at home; paid time not yet used goes back to the child who paid")
  func anotherChildStartsAtHome() throws {
    let paid = Game.reached(coins: 12) { $0.toVideoSelection() }
    #expect(paid.machine.data.player("alexander")?.coins == 2)
    var (launched, _) = try Self.launch(paid)
    let effects = launched.send(.selectPlayer("oliver", at: at(20)))
    #expect(launched.state == .home)
    #expect(launched.machine.activePlayer?.id == "oliver")
    #expect(launched.machine.data.player("alexander")?.coins == 12)
    #expect(effects.coinChanges.map(\.reason) == [.refunded])
    #expect(launched.machine.navigation.redemption == nil)
    #expect(launched.machine.consistencyProblems.isEmpty)
  }

  @Test("A video cut short by a launch: its clock stops at the launch and the time left waits for its child")
  func videoClockAcrossALaunch() throws {
    let watching = Game.reached(coins: 10) { $0.toVideoPlaying() }
    let started = try #require(watching.machine.navigation.video?.timer.startedAt)
    // Twelve seconds in, the page reloads; choosing the child takes another 20 s of loading and tapping.
    let (machine, _) = GameMachine.launch(from: try watching.machine.encoded(), seed: 9, at: started.addingTimeInterval(12))
    var launched = Game(machine: machine)
    #expect(launched.machine.navigation.video == nil)
    #expect(launched.machine.data.player("alexander")?.unwatchedVideo?.timer.isPaused == true)
    launched.send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    let back = started.addingTimeInterval(32)
    launched.send(.selectPlayer("alexander", at: back))
    #expect(launched.state == .home)
    let effects = launched.send(.resumeUnwatchedVideo(online: true, at: back))
    #expect(effects.contains(.resumeVideoTimer))
    let timer = try #require(launched.machine.navigation.video?.timer)
    #expect(!timer.isPaused)
    #expect(timer.remaining(at: back) == 288)
    #expect(launched.send(.videoTick(at: back.addingTimeInterval(287))).transitions.isEmpty)
    let end = launched.send(.videoTick(at: back.addingTimeInterval(288)))
    #expect(end.transitions == [.home])
    #expect(end.contains(.videoTimeUp(holdSeconds: VideoTimer.timeUpHoldSeconds)))
  }

  @Test("Launched again before a child was chosen: the screen from before still waits")
  func launchDuringLoading() throws {
    let game = Game.reached(coins: 10) { $0.toTreasure() }
    let (first, _) = GameMachine.launch(from: try game.machine.encoded(), seed: 9, at: at(10))
    let (second, _) = GameMachine.launch(from: try first.encoded(), seed: 9, at: at(11))
    var again = Game(machine: second)
    again.send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    let (third, _) = GameMachine.launch(from: try again.machine.encoded(), seed: 9, at: at(12))
    var last = Game(machine: third)
    last.send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    last.send(.selectPlayer("alexander", at: at(13)))
    #expect(last.state == .treasureScreen)
  }

  @Test("The parent's link during player selection settles paid time first")
  func deepLinkSettles() throws {
    let paid = Game.reached(coins: 10) { $0.toVideoSelection() }
    var (launched, _) = try Self.launch(paid)
    let effects = launched.send(.openParentDeepLink)
    #expect(launched.state == .parentGate)
    #expect(effects.coinChanges.map(\.reason) == [.refunded])
    #expect(launched.machine.data.player("alexander")?.coins == 10)
    #expect(launched.machine.navigation.resumeState == nil)
    #expect(launched.machine.consistencyProblems.isEmpty)
  }

  @Test("A fresh family: loading, then the question names the family's own children")
  func freshFamily() {
    var game = Game()
    let effects = game.send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    #expect(effects.spoken == ["Wir sind gleich bereit zum Spielen.", "Wie heißt du? Alexander oder Oliver?"])
    #expect(Narration.nameList(["Mia"]) == "Mia")
    #expect(Narration.nameList(["Mia", "Ben"]) == "Mia oder Ben")
    #expect(Narration.nameList(["Mia", "Ben", "Lea"]) == "Mia, Ben oder Lea")
  }

  @Test("The loading screen shows for the seed's 2–3 s: full bar, the line, then player selection")
  func loadingTiming() {
    #expect(LoadingScreen.handOffAfter >= 2 && LoadingScreen.handOffAfter <= 3)
    #expect(LoadingScreen.progress(elapsed: LoadingScreen.fullAfter) == 100)
    #expect(LoadingScreen.progress(elapsed: LoadingScreen.fullAfter - 0.1) < 100)
    var game = Game()
    #expect(game.send(.loadingTick(elapsed: LoadingScreen.minimumDisplay - 0.01)).transitions.isEmpty)
    #expect(game.state == .loading)
  }
}
