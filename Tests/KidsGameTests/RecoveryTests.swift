import Foundation
import Testing

@testable import KidsGame

/// A saved state and where the recovery rules bring it back to.
struct RecoveryCase: Sendable, CustomTestStringConvertible {
  let saved: GameState
  let setup: @Sendable () -> Game
  let restored: GameState

  var testDescription: String { "\(saved.name) → \(restored.name)" }
}

@Suite("Persistence and recovery")
struct RecoveryTests {
  static let cases: [RecoveryCase] = [
    .init(saved: .loading, setup: { Game() }, restored: .loading),
    .init(
      saved: .playerSelection,
      setup: { .reached { $0.toPlayerSelection() } }, restored: .playerSelection),
    .init(
      saved: .home,
      setup: { .reached { $0.toHome() } }, restored: .home),
    .init(
      saved: .activitySelection(.zahlen),
      setup: { .reached { $0.toActivitySelection() } }, restored: .activitySelection(.zahlen)),
    .init(
      saved: .playing(.zahlen, .wuerfel),
      setup: { .reached { $0.toPlaying() } }, restored: .activitySelection(.zahlen)),
    .init(
      saved: .playing(.zahlen, .waehleDieZahl),
      setup: { .reached { $0.toPlaying(.waehleDieZahl) } }, restored: .activitySelection(.zahlen)),
    .init(
      saved: .levelComplete,
      setup: { .reached { $0.toLevelComplete() } }, restored: .activitySelection(.zahlen)),
    .init(
      saved: .celebrationOverlay,
      setup: { .reached(coins: 4) { $0.toCelebration() } }, restored: .home),
    .init(
      saved: .treasureScreen,
      setup: { .reached(coins: 10) { $0.toTreasure() } }, restored: .treasureScreen),
    .init(
      saved: .videoSelection,
      setup: { .reached(coins: 10) { $0.toVideoSelection() } }, restored: .videoSelection),
    .init(
      saved: .videoPlaying,
      setup: { .reached(coins: 10) { $0.toVideoPlaying() } }, restored: .home),
    .init(
      saved: .parentGate,
      setup: { .reached { $0.toParentGate() } }, restored: .parentGate),
    .init(
      saved: .parentDashboard,
      setup: { .reached { $0.toParentDashboard() } }, restored: .parentGate),
  ]

  @Test("Each saved state comes back as the rules say, with every coin", arguments: cases)
  func restoreEachState(_ recovery: RecoveryCase) throws {
    let game = recovery.setup()
    #expect(game.state == recovery.saved)
    let (restored, note) = GameMachine.restore(from: try game.machine.encoded(), seed: 5)
    #expect(restored.state == recovery.restored)
    #expect(note.savedState == recovery.saved)
    #expect(note.restoredState == recovery.restored)
    #expect(note.outcome == (recovery.saved == recovery.restored ? .restored : .movedToSafeState))
    #expect(note.problems.isEmpty)
    #expect(restored.data == game.machine.data)
    #expect(restored.consistencyProblems.isEmpty)
    if recovery.saved == recovery.restored { #expect(restored == game.machine) }
  }

  @Test("A restored game rolls on with the same random stream")
  func randomResumes() throws {
    var game = Game(seed: 77)
    game.toHome()
    let (restored, _) = GameMachine.restore(from: try game.machine.encoded(), seed: 1)
    var original = Game(machine: game.machine)
    var copy = Game(machine: restored)
    original.send(.tapActivity(.zahlen))
    copy.send(.tapActivity(.zahlen))
    original.send(.tapSubActivity(.waehleDieZahl))
    copy.send(.tapSubActivity(.waehleDieZahl))
    #expect(original.machine.activity?.askedNumber == copy.machine.activity?.askedNumber)
  }

  @Test("Nothing saved: a fresh game on the loading screen")
  func freshStart() {
    let (machine, note) = GameMachine.restore(from: nil, seed: 3)
    #expect(machine.state == .loading)
    #expect(note.outcome == .freshStart)
    #expect(machine.data == GameData())
  }

  @Test("Unreadable bytes: a new game at player selection, no crash")
  func garbage() {
    for bytes in [Data("nonsense".utf8), Data(), Data("[1,2,3]".utf8), Data("{}".utf8)] {
      let (machine, note) = GameMachine.restore(from: bytes, seed: 3)
      #expect(machine.state == .playerSelection)
      #expect(note.outcome == .unreadable)
      #expect(machine.consistencyProblems.isEmpty)
    }
  }

  /// The saved JSON as a dictionary, changed by `edit`, back as data.
  func edited(_ game: Game, _ edit: (inout [String: Any]) -> Void) throws -> Data {
    var object = try #require(try JSONSerialization.jsonObject(with: try game.machine.encoded()) as? [String: Any])
    edit(&object)
    return try JSONSerialization.data(withJSONObject: object)
  }

  @Test("A damaged screen state goes home and keeps the children's data")
  func damagedNavigation() throws {
    var game = Game(coins: 7)
    game.toPlaying()
    game.solveLevel()
    for damage in ["garbage", "{\"state\":{\"flying\":{}}}"] {
      let data = try edited(game) { object in
        object["navigation"] = damage == "garbage" ? "garbage" : try? JSONSerialization.jsonObject(with: Data(damage.utf8))
      }
      let (machine, note) = GameMachine.restore(from: data, seed: 3)
      #expect(machine.state == .home)
      #expect(note.outcome == .resetScreen)
      #expect(machine.activePlayer?.coins == 8)
      #expect(machine.data == game.machine.data)
    }
  }

  @Test("A screen state that does not fit the data goes home, data kept")
  func inconsistentNavigation() throws {
    // The celebration with 7 coins cannot happen.
    var game = Game(coins: 4)
    game.toCelebration()
    var data = try edited(game) { object in
      var root = object["data"] as? [String: Any] ?? [:]
      var players = root["players"] as? [[String: Any]] ?? []
      players[0]["coins"] = 7
      root["players"] = players
      object["data"] = root
    }
    var (machine, note) = GameMachine.restore(from: data, seed: 3)
    #expect(machine.state == .home)
    #expect(note.outcome == .resetScreen)
    #expect(note.problems.contains("celebration off a 5-coin milestone"))
    #expect(machine.activePlayer?.coins == 7)

    // Playing a game whose rules belong to another.
    var playing = Game()
    playing.toPlaying(.wuerfel)
    data = try edited(playing) { object in
      var navigation = object["navigation"] as? [String: Any] ?? [:]
      navigation["state"] = ["playing": ["_0": "zahlen", "_1": "waehleDieZahl"]]
      object["navigation"] = navigation
    }
    (machine, note) = GameMachine.restore(from: data, seed: 3)
    #expect(machine.state == .home)
    #expect(note.outcome == .resetScreen)
  }

  @Test("One damaged player record does not cost the other child's coins")
  func damagedPlayer() throws {
    var game = Game(coins: 9)
    game.toHome()
    let data = try edited(game) { object in
      var root = object["data"] as? [String: Any] ?? [:]
      var players = root["players"] as? [[String: Any]] ?? []
      players[1]["coins"] = "many"
      root["players"] = players
      object["data"] = root
    }
    let (machine, note) = GameMachine.restore(from: data, seed: 3)
    #expect(machine.state == .home)
    #expect(machine.activePlayer?.coins == 9)
    #expect(machine.data.players.map(\.id) == ["alexander"])
    #expect(note.problems.contains("1 unreadable player records dropped"))
  }

  @Test("Impossible counts are repaired, an unknown active child leads to player selection")
  func repairs() throws {
    var game = Game(coins: 3)
    game.toHome()
    var data = try edited(game) { object in
      var root = object["data"] as? [String: Any] ?? [:]
      var players = root["players"] as? [[String: Any]] ?? []
      players[0]["coins"] = -4
      root["players"] = players
      object["data"] = root
    }
    var (machine, note) = GameMachine.restore(from: data, seed: 3)
    #expect(machine.activePlayer?.coins == 0)
    #expect(!note.problems.isEmpty)
    #expect(machine.state == .home)

    data = try edited(game) { object in
      var root = object["data"] as? [String: Any] ?? [:]
      var settings = root["settings"] as? [String: Any] ?? [:]
      settings["lastActivePlayer"] = "ghost"
      root["settings"] = settings
      object["data"] = root
    }
    (machine, note) = GameMachine.restore(from: data, seed: 3)
    #expect(machine.state == .playerSelection)
    #expect(note.outcome == .resetScreen)
  }

  @Test("A saved daily limit that the dashboard does not offer is not accepted")
  func damagedLimit() throws {
    let json = Data("{\"minutes\":7}".utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(PlayTimeLimit.self, from: json) }
    let good = try JSONDecoder().decode(PlayTimeLimit.self, from: Data("{\"minutes\":45}".utf8))
    #expect(good.minutes == 45)
  }
}
