import Foundation

/// The level being played, kept while the level-complete moment and the celebration overlay sit on top of
/// it, so "Weiter" can return to the same game.
public struct ActivityContext: Hashable, Sendable, Codable {
  /// The game being played.
  public let game: SubActivity
  /// 1 for the first level of a game.
  public let level: Int
  /// The level's rules and progress.
  public internal(set) var round: ActivityRound
  /// Idle prompts already spoken since the last input.
  public internal(set) var idlePromptsGiven = 0
  /// The child's first and latest input in this level (the difficulty rules time the level from the first).
  public internal(set) var firstInputAt: Date?
  public internal(set) var lastInputAt: Date?
  /// Long pauses in this level (an idle prompt was due); nil in saves from before it was counted.
  public internal(set) var longPauses: Int?

  /// Level `level` of `game`.
  public init(game: SubActivity, level: Int, round: ActivityRound) {
    self.game = game
    self.level = level
    self.round = round
  }

  /// The sign the game belongs to.
  public var activity: ActivityType { game.activity }

  /// Wrong answers so far in this level.
  public var mistakes: Int {
    switch round {
    case .dice(let dice): dice.wrongTaps
    case .numberChoice(let choice): choice.wrongAttempts
    case .puzzle(let puzzle): puzzle.mistakes
    case .labyrinth(let labyrinth): labyrinth.misses
    }
  }

  /// How the level went, solved at `date`, for the difficulty rules.
  func outcome(solvedAt date: Date) -> LevelOutcome {
    LevelOutcome(
      solveSeconds: max(0, date.timeIntervalSince(firstInputAt ?? date)), mistakes: mistakes, longPauses: longPauses ?? 0, at: date)
  }

  /// The number the child is asked for, once known (after the roll, or from the start in Wähle die Zahl).
  public var askedNumber: Int? {
    switch round {
    case .dice(let dice): dice.rolled
    case .numberChoice(let choice): choice.target
    case .puzzle, .labyrinth: nil
    }
  }
}

/// The rules of the game being played.
public enum ActivityRound: Hashable, Sendable, Codable {
  case dice(DiceRound)
  case numberChoice(NumberChoiceRound)
  case puzzle(PuzzleMatchingRound)
  case labyrinth(LabyrinthRound)

  /// The game these rules belong to.
  public var game: SubActivity {
    switch self {
    case .dice: .wuerfel
    case .numberChoice: .waehleDieZahl
    case .puzzle: .puzzleMatching
    case .labyrinth: .labyrinth
    }
  }
}

/// When things happen around a level.
public enum LevelTiming {
  /// After a success, the next level (or the celebration) follows after this many seconds.
  public static let nextLevelDelay = 2.0
  /// How long a hint shows (the glowing cell, the way through the maze).
  public static let hintSeconds = 4.0
}
