import Foundation
import KidsGame

/// A fixed start time for every test.
let t0 = Date(timeIntervalSince1970: 1_800_000_000)
/// The video every fixture has approved.
let approvedID = "dQw4w9WgXcQ"

/// `t0` plus `seconds`.
func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }

/// Game data with Alexander holding `coins` and one approved video.
func gameData(coins: Int = 0, mode: NumberChoiceMode = .trace) -> GameData {
  let players = [PlayerData(id: "alexander", name: "Alexander", coins: coins), PlayerData(id: "oliver", name: "Oliver")]
  let parent = ParentSettings(
    playerSettings: ["alexander": PlayerSettings(numberChoiceMode: mode)],
    approvedVideos: [ApprovedVideo(id: approvedID, title: "Waldlied", addedAt: t0)])
  return GameData(players: players, settings: AppSettings(parentSettings: parent))
}

/// A machine plus a clock that moves forward with every timed event, so taps never collide with the
/// debounce or the die's tumble unless a test wants them to.
struct Game {
  var machine: GameMachine
  var now = t0

  init(seed: UInt64 = 1, coins: Int = 0, mode: NumberChoiceMode = .trace) {
    machine = GameMachine(seed: seed, data: gameData(coins: coins, mode: mode))
  }

  init(machine: GameMachine) {
    self.machine = machine
  }

  var state: GameState { machine.state }
  var coins: Int { machine.activePlayer?.coins ?? -1 }

  @discardableResult
  mutating func send(_ event: GameEvent) -> [GameEffect] {
    machine.handle(event)
  }

  /// Moves the clock on and returns the new time.
  mutating func later(_ seconds: Double = 1) -> Date {
    now = now.addingTimeInterval(seconds)
    return now
  }

  // MARK: reaching states

  mutating func toPlayerSelection() {
    send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
  }

  mutating func toHome(player: String = "alexander") {
    toPlayerSelection()
    send(.selectPlayer(player, at: t0))
  }

  /// A new family's first level of a Rätsel game (Puzzle Matching or Labyrinth).
  static func atRaetsel(_ game: SubActivity) -> Game {
    var new = Game()
    new.toHome()
    new.send(.tapActivity(.raetsel))
    new.send(.tapSubActivity(game))
    return new
  }

  /// The puzzle under way, if any.
  var puzzle: PuzzleMatchingRound? {
    if case .puzzle(let puzzle)? = machine.activity?.round { puzzle } else { nil }
  }

  /// The labyrinth under way, if any.
  var labyrinth: LabyrinthRound? {
    if case .labyrinth(let labyrinth)? = machine.activity?.round { labyrinth } else { nil }
  }

  mutating func toActivitySelection() {
    toHome()
    send(.tapActivity(.zahlen))
  }

  mutating func toPlaying(_ game: SubActivity = .wuerfel) {
    toActivitySelection()
    send(.tapSubActivity(game))
  }

  mutating func toLevelComplete() {
    toPlaying()
    solveLevel()
  }

  /// From playing with 4, 9, 14… coins.
  mutating func toCelebration() {
    toLevelComplete()
    send(.levelCompleteFinished)
  }

  mutating func toTreasure() {
    toHome()
    send(.tapChest)
  }

  mutating func toVideoSelection(_ tier: VideoTier = .fiveMinutes) {
    toTreasure()
    send(.redeem(tier, online: true))
  }

  mutating func toVideoPlaying(_ tier: VideoTier = .fiveMinutes) {
    toVideoSelection(tier)
    send(.chooseVideo(id: approvedID, online: true, at: now))
  }

  mutating func toParentGate() {
    toHome()
    send(.tapSettings)
  }

  mutating func enterGateAnswer(_ value: Int) {
    for character in String(value) {
      send(.gateDigit(Int(String(character)) ?? 0))
    }
  }

  /// From home into the parent area.
  mutating func toParentDashboardFromHome() {
    send(.tapSettings)
    enterGateAnswer(machine.navigation.gate?.question.answer ?? 0)
    send(.gateConfirm)
  }

  mutating func toParentDashboard() {
    toParentGate()
    enterGateAnswer(machine.navigation.gate?.question.answer ?? 0)
    send(.gateConfirm)
  }

  // MARK: playing

  /// The events that answer the current level correctly.
  mutating func correctAnswer() -> [GameEvent] {
    guard let context = machine.activity else { return [] }
    switch context.round {
    case .dice(let dice):
      var events: [GameEvent] = []
      if dice.rolled == nil { events.append(.rollDie(at: later())) }
      return events
    case .numberChoice(let choice):
      switch choice.mode {
      case .tap: return [.tapNumber(choice.target, at: later())]
      case .trace: return DigitStrokes.strokes(for: choice.target).map { .traceStroke($0, at: later()) }
      }
    case .puzzle(let puzzle):
      return puzzle.target.enumerated().compactMap { cell, colour in colour.map { .paintCell(cell, $0, at: later()) } }
    case .labyrinth(let labyrinth):
      return [.traceLabyrinth(labyrinth.maze.solution.map(labyrinth.maze.centre(of:)), at: later())]
    }
  }

  /// Solves the current level; returns every effect along the way.
  @discardableResult
  mutating func solveLevel() -> [GameEffect] {
    var effects: [GameEffect] = []
    for event in correctAnswer() { effects += send(event) }
    if case .dice(let dice) = machine.activity?.round, let rolled = dice.rolled, machine.state != .levelComplete {
      effects += send(.tapNumber(rolled, at: later()))
    }
    return effects
  }
}

extension Array where Element == GameEffect {
  /// The texts of every spoken line.
  var spoken: [String] {
    compactMap { if case .speak(let line) = $0 { line.text } else { nil } }
  }

  /// The refusal reasons.
  var refusals: [RefusalReason] { compactMap(\.refusal?.reason) }

  var coinChanges: [CoinChange] {
    compactMap { if case .coinsChanged(let change) = $0 { change } else { nil } }
  }

  var transitions: [GameState] {
    compactMap { if case .transition(_, let to) = $0 { to } else { nil } }
  }
}

/// Returns its argument: lets `#expect` check the result of a mutating call.
func value<T>(_ value: T) -> T { value }

extension Game {
  /// A game with Alexander holding `coins`, after `steps`.
  static func reached(coins: Int = 0, mode: NumberChoiceMode = .trace, _ steps: (inout Game) -> Void) -> Game {
    var game = Game(coins: coins, mode: mode)
    steps(&game)
    return game
  }
}
