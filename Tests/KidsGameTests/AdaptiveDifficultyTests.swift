import Foundation
import PropertyBased
import Testing

@testable import KidsGame

@Suite("Adaptive difficulty (Phase 12 rules)")
struct AdaptiveDifficultyTests {
  /// A level solved `seconds` after `start` plus `offset`.
  static func solved(_ seconds: Double, mistakes: Int = 0, pauses: Int = 0, at offset: Double) -> LevelOutcome {
    LevelOutcome(solveSeconds: seconds, mistakes: mistakes, longPauses: pauses, at: at(offset))
  }

  @Test("Starts at 0.3; three quick clean wins raise it by one band (the levels' average plus the clean-win bonus)")
  func quickCleanWins() {
    var difficulty = AdaptiveDifficulty()
    #expect(difficulty.level == 0.3)
    #expect(difficulty.numberRange == 1...5)
    #expect(difficulty.record(Self.solved(5, at: 100)).changedTo == nil)
    #expect(difficulty.record(Self.solved(5, at: 110)).changedTo == nil)
    // The average level (+0.1 fast, +0.05 few mistakes) + 0.15 for three clean wins = +0.3: one band up.
    #expect(difficulty.record(Self.solved(5, at: 120)).changedTo == 0.6)
    #expect(difficulty.numberRange == 1...7)
    #expect(difficulty.labyrinthTolerance == 44)
    // Three more, a minute on: the next band, and never past the top.
    for offset in [180.0, 190] { #expect(difficulty.record(Self.solved(5, at: offset)).changedTo == nil) }
    #expect(difficulty.record(Self.solved(5, at: 200)).changedTo == 0.9)
    #expect(difficulty.numberRange == 1...10)
    #expect(difficulty.labyrinthTolerance == 36)
  }

  @Test("Slow levels with many mistakes lower it, with a hint for 3+ mistakes; never below 0.1")
  func struggling() {
    var difficulty = AdaptiveDifficulty()
    #expect(difficulty.record(Self.solved(70, mistakes: 3, at: 100)).offersHint)
    #expect(!difficulty.record(Self.solved(70, mistakes: 2, at: 200)).offersHint)
    let step = difficulty.record(Self.solved(70, mistakes: 4, pauses: 2, at: 300))
    #expect(step.offersHint)
    // Ratings −0.25, −0.1, −0.35: on average −0.23, so 0.3 → 0.07, held at the floor.
    #expect(step.changedTo == 0.1)
  }

  @Test("No change sooner than 3 levels or 60 s after the last one")
  func spacing() {
    var difficulty = AdaptiveDifficulty()
    for offset in [0.0, 5, 10] { _ = difficulty.record(Self.solved(5, at: offset)) }
    #expect(difficulty.level > 0.3)
    let raised = difficulty.level
    // Three more fast levels within the minute: gathered, not applied.
    for offset in [20.0, 30, 40] { #expect(difficulty.record(Self.solved(70, mistakes: 3, at: offset)).changedTo == nil) }
    #expect(difficulty.level == raised)
    // The next level after the minute applies all of it.
    #expect(difficulty.record(Self.solved(30, mistakes: 2, at: 75)).changedTo != nil)
    #expect(difficulty.level < raised)
  }

  @Test("A quit lowers it by 0.3 (at the next allowed change)")
  func quit() {
    var difficulty = AdaptiveDifficulty()
    _ = difficulty.record(Self.solved(30, mistakes: 2, at: 0))
    _ = difficulty.record(Self.solved(30, mistakes: 2, at: 10))
    #expect(difficulty.recordQuit(at: at(20)) == 0.1)
  }

  @Test("After 7 days away the first 3 levels never lower it; then the rules apply again")
  func welcomeBack() {
    var difficulty = AdaptiveDifficulty()
    for offset in [0.0, 5, 10] { _ = difficulty.record(Self.solved(5, at: offset)) }
    let before = difficulty.level
    let week = 7 * 86_400.0 + 10  // a week after the last level
    for offset in [0.0, 100, 200] { _ = difficulty.record(Self.solved(90, mistakes: 5, pauses: 1, at: week + offset)) }
    #expect(difficulty.level == before)
    for offset in [300.0, 400, 500] { _ = difficulty.record(Self.solved(90, mistakes: 5, at: week + offset)) }
    #expect(difficulty.level < before)
  }

  @Test("Bonuses piled up while changes wait, or quits at once, move one band and no further")
  func oneBandPerStep() {
    // Quick clean levels inside the 60 s lockout pile up bonuses: the wide paths (60 px) go to the middle
    // band (44 px), not straight to the narrowest (36 px).
    var climbing = AdaptiveDifficulty()
    for offset in [0.0, 5, 10] { _ = climbing.record(Self.solved(30, mistakes: 2, pauses: 1, at: offset)) }
    #expect(climbing.level == 0.25)
    #expect(climbing.labyrinthTolerance == 60)
    for index in 0..<12 { #expect(climbing.record(Self.solved(5, at: 11 + 5 * Double(index))).changedTo == nil) }
    #expect(climbing.record(Self.solved(5, at: 71)).changedTo == 0.69)
    #expect(climbing.labyrinthTolerance == 44)
    // Four quits piled up at the top: one band down (to 0.4, 44 px paths), not to the floor.
    var falling = AdaptiveDifficulty()
    for offset in [0.0, 5, 10] { _ = falling.record(Self.solved(5, at: offset)) }
    for offset in [70.0, 75, 80] { _ = falling.record(Self.solved(5, at: offset)) }
    #expect(falling.level == 0.9)
    for offset in [81.0, 82, 83] { #expect(falling.recordQuit(at: at(offset)) == nil) }
    #expect(falling.recordQuit(at: at(141)) == 0.4)
    #expect(falling.labyrinthTolerance == 44)
  }

  @Test("Property: over any run of levels and quits, each change crosses at most one band edge")
  func oneBandProperty() async {
    let step = zip(Gen.int(in: 0...120), Gen.int(in: 0...6), Gen.int(in: 0...3), Gen.int(in: 0...200), Gen.int(in: 0...4))
    await propertyCheck(count: 300, input: step.array(of: 1...120)) { steps in
      var difficulty = AdaptiveDifficulty()
      var now = 0.0
      for (seconds, mistakes, pauses, gap, kind) in steps {
        now += Double(gap)
        let before = AdaptiveDifficulty.band(of: difficulty.level)
        if kind == 0 {
          _ = difficulty.recordQuit(at: at(now))
        } else {
          _ = difficulty.record(Self.solved(Double(seconds), mistakes: mistakes, pauses: pauses, at: now))
        }
        #expect(abs(AdaptiveDifficulty.band(of: difficulty.level) - before) <= 1, "\(before) → \(difficulty.level)")
      }
    }
  }

  @Test("The parent's reset starts again at 0.3")
  func reset() {
    var difficulty = AdaptiveDifficulty()
    for offset in [0.0, 5, 10] { _ = difficulty.record(Self.solved(5, at: offset)) }
    difficulty.reset()
    #expect(difficulty == AdaptiveDifficulty())
  }

  @Test("Any run of levels and quits: always within 0.1–0.9, and never two changes closer than 3 levels or 60 s")
  func properties() async {
    let step = zip(Gen.int(in: 0...120), Gen.int(in: 0...6), Gen.int(in: 0...3), Gen.int(in: 0...200), Gen.int(in: 0...12))
    await propertyCheck(count: 300, input: step.array(of: 1...80)) { steps in
      var difficulty = AdaptiveDifficulty()
      var now = 0.0
      var levelsSince = 0
      var lastChange: Double?
      for (seconds, mistakes, pauses, gap, kind) in steps {
        now += Double(gap) * (kind == 12 ? 5_000 : 1)
        let changed: Double? =
          kind == 0
          ? difficulty.recordQuit(at: at(now))
          : difficulty.record(Self.solved(Double(seconds), mistakes: mistakes, pauses: pauses, at: now)).changedTo
        levelsSince += 1
        #expect(AdaptiveDifficulty.bounds.contains(difficulty.level))
        if let changed {
          #expect(changed == difficulty.level)
          #expect(levelsSince >= AdaptiveDifficulty.levelsBetweenChanges)
          if let lastChange { #expect(now - lastChange >= AdaptiveDifficulty.secondsBetweenChanges) }
          levelsSince = 0
          lastChange = now
        }
      }
    }
  }

  /// Solves Wähle die Zahl levels in tap mode, `seconds` apart, answering at once; returns the targets asked.
  static func playTapLevels(_ game: inout Game, count: Int, secondsApart: Double) -> [Int] {
    var targets: [Int] = []
    for _ in 0..<count {
      if game.state == .celebrationOverlay { game.send(.tapWeiter) }
      guard let target = game.machine.activity?.askedNumber else { break }
      targets.append(target)
      game.send(.tapNumber(target, at: game.later(secondsApart)))
      game.send(.levelCompleteFinished)
    }
    if game.state == .celebrationOverlay { game.send(.tapWeiter) }
    return targets
  }

  @Test("In the game: Wähle die Zahl asks 1–5 at first, up to 7 and then 10 after quick clean levels; the parent's reset brings back 1–5")
  func inTheGame() {
    var game = Game(mode: .tap)
    game.toPlaying(.waehleDieZahl)
    let first = Self.playTapLevels(&game, count: 3, secondsApart: 4)
    #expect(first.allSatisfy { (1...5).contains($0) })
    #expect(game.machine.activePlayer?.difficulty(in: .zahlen).level == 0.6)
    // Three more quick levels, once a minute has passed: the next band.
    _ = Self.playTapLevels(&game, count: 3, secondsApart: 25)
    #expect(game.machine.activePlayer?.difficulty(in: .zahlen).level == 0.9)
    var later: [Int] = []
    while later.count < 30 {
      if game.state == .treasureScreen {
        game.send(.back)
        game.send(.tapActivity(.zahlen))
        game.send(.tapSubActivity(.waehleDieZahl))
      }
      let played = Self.playTapLevels(&game, count: 30 - later.count, secondsApart: 4)
      later += played
      if played.isEmpty && game.state != .treasureScreen { break }
    }
    #expect(later.allSatisfy { (1...10).contains($0) })
    #expect(later.contains { $0 > 7 }, "\(later)")

    game.send(.home)
    game.toParentDashboardFromHome()
    game.send(.parent(.resetDifficulty(player: "alexander", activity: .zahlen)))
    #expect(game.machine.activePlayer?.difficulty(in: .zahlen) == AdaptiveDifficulty())
    #expect(game.machine.data.player("alexander")?.coins ?? 0 > 0)
  }

  @Test("In the game: leaving a started level is a quit; leaving before any input is not")
  func quitInTheGame() {
    var game = Game(mode: .tap)
    game.toPlaying(.waehleDieZahl)
    game.send(.back)
    #expect(game.machine.activePlayer?.difficulty(in: .zahlen).levelsSinceChange == 0)
    game.send(.tapActivity(.zahlen))
    game.send(.tapSubActivity(.waehleDieZahl))
    let target = game.machine.activity?.askedNumber ?? 1
    game.send(.tapNumber(target == 1 ? 2 : 1, at: game.later()))
    #expect(game.send(.back).spoken == ["Du hast toll geübt!"])
    let difficulty = game.machine.activePlayer?.difficulty(in: .zahlen)
    #expect(difficulty?.levelsSinceChange == 1)
    #expect(difficulty?.pending == -0.3)
  }

  @Test("A save from before difficulty was kept reads back at the start, 0.3")
  func oldSave() throws {
    var game = Game()
    game.toHome()
    var object = try #require(try JSONSerialization.jsonObject(with: try game.machine.encoded()) as? [String: Any])
    var root = try #require(object["data"] as? [String: Any])
    var players = try #require(root["players"] as? [[String: Any]])
    for index in players.indices { players[index].removeValue(forKey: "difficulties") }
    root["players"] = players
    object["data"] = root
    let (machine, note) = GameMachine.restore(from: try JSONSerialization.data(withJSONObject: object), seed: 1)
    #expect(note.problems.isEmpty)
    #expect(machine.activePlayer?.difficulty(in: .zahlen).level == 0.3)
  }
}
