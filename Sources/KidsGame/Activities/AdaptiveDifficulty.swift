import Foundation

/// How one finished level went, as the difficulty rules read it.
public struct LevelOutcome: Hashable, Sendable {
  /// Seconds from the level's start to its solution.
  public let solveSeconds: Double
  /// Wrong answers in the level.
  public let mistakes: Int
  /// Long pauses (an idle prompt was due) in the level.
  public let longPauses: Int
  /// When it was solved.
  public let at: Date

  /// A finished level.
  public init(solveSeconds: Double, mistakes: Int, longPauses: Int, at: Date) {
    self.solveSeconds = solveSeconds
    self.mistakes = mistakes
    self.longPauses = longPauses
    self.at = at
  }
}

/// One child's difficulty in one activity (the original's Phase 12 rules), as a value: the level a game is
/// made at, and what the last levels said about it. Changes are gathered level by level and applied at most
/// every 3 levels and at least 60 s apart, so a child never meets a game that changes under every answer.
///
/// How a change adds up: each level rates how it went (solve time, mistakes, long pauses), and a change moves
/// by the **average** of those ratings, plus the events that stand on their own (three clean wins +0.15, a quit
/// −0.3). Summing the ratings instead would move three quick levels by +0.45 and, with the clean-win bonus,
/// jump from the easiest to the hardest setting in one step; averaged, a quick child climbs one band at a
/// time (0.3 → 0.6 → 0.9).
public struct AdaptiveDifficulty: Hashable, Sendable, Codable {
  /// Where every child starts.
  public static let start = 0.3
  /// Mistakes in a level from which it counts as hard (−0.15) and brings a hint (Phase 12); the game gives
  /// the hint once, at the mistake that reaches this count.
  public static let hintAtMistakes = 3
  /// The level never leaves this range.
  public static let bounds = 0.1...0.9
  /// Where a game made from the level changes: the puzzle's grid band below 0.2 and from 0.7, the numbers
  /// and the labyrinth's paths at 0.4 and 0.7. The bands between them are the steps a child can feel; one
  /// change crosses at most one of these edges, whatever piled up before it.
  public static let bandEdges = [0.2, 0.4, 0.7]

  /// The band `level` lies in: 0 below the first edge, up to `bandEdges.count` from the last.
  public static func band(of level: Double) -> Int {
    bandEdges.count { level >= $0 }
  }
  /// Levels between two changes, at least.
  public static let levelsBetweenChanges = 3
  /// Seconds between two changes, at least.
  public static let secondsBetweenChanges = 60.0
  /// After this long away, the first levels back never lower the difficulty …
  public static let longAbsenceSeconds = 7 * 86_400.0
  /// … for this many levels.
  public static let protectedLevelsAfterAbsence = 3

  /// The difficulty, 0.1…0.9.
  public private(set) var level = Self.start
  /// The bonuses since the last change (three clean wins, quits), applied whole at the next allowed change.
  public private(set) var pending = 0.0
  /// The levels' own ratings since the last change, added up (their average is applied); nil in saves from
  /// before ratings were kept apart.
  public private(set) var ratings: Double?
  /// Levels finished since the last change.
  public private(set) var levelsSinceChange = 0
  /// When the difficulty last changed (nil: never).
  public private(set) var changedAt: Date?
  /// Clean wins (0–1 mistakes, no long pause) in a row.
  public private(set) var cleanWins = 0
  /// Levels still protected from a decrease after a long absence.
  public private(set) var protectedLevels = 0
  /// When the child last finished or left a level here.
  public private(set) var lastPlayedAt: Date?

  /// A child's first difficulty.
  public init() {}

  /// What recording a level did.
  public struct Step: Hashable, Sendable {
    /// The new level, when it changed.
    public let changedTo: Double?
    /// Three or more mistakes: the child gets a hint.
    public let offersHint: Bool
  }

  /// Records a solved level: solve time (< 10 s +0.1, > 60 s −0.1), mistakes (0–1 +0.05, 3+ −0.15 and a
  /// hint), −0.05 per long pause, +0.15 for three clean wins in a row.
  public mutating func record(_ outcome: LevelOutcome) -> Step {
    noteReturn(at: outcome.at)
    var rating = 0.0
    if outcome.solveSeconds < 10 { rating += 0.1 } else if outcome.solveSeconds > 60 { rating -= 0.1 }
    if outcome.mistakes <= 1 { rating += 0.05 } else if outcome.mistakes >= Self.hintAtMistakes { rating -= 0.15 }
    rating -= 0.05 * Double(max(0, outcome.longPauses))
    var bonus = 0.0
    if outcome.mistakes <= 1, outcome.longPauses == 0 {
      cleanWins += 1
      if cleanWins == 3 {
        bonus += 0.15
        cleanWins = 0
      }
    } else {
      cleanWins = 0
    }
    let changed = finishLevel(rating: rating, bonus: bonus, at: outcome.at)
    return Step(changedTo: changed, offersHint: outcome.mistakes >= Self.hintAtMistakes)
  }

  /// Records a level left unfinished (−0.3; the caller adds the encouragement).
  public mutating func recordQuit(at date: Date) -> Double? {
    noteReturn(at: date)
    cleanWins = 0
    return finishLevel(rating: 0, bonus: -0.3, at: date)
  }

  /// Starts again at 0.3 (the parent's reset).
  public mutating func reset() {
    self = AdaptiveDifficulty()
  }

  /// Numbers a Zahlen game asks for: 1–5, 1–7 or 1–10 (switching at 0.4 and 0.7).
  public var numberRange: ClosedRange<Int> {
    switch level {
    case ..<Self.bandEdges[1]: 1...5
    case ..<Self.bandEdges[2]: 1...7
    default: 1...10
    }
  }

  /// The labyrinth's path tolerance in points: 60, 44 or 36 (switching at 0.4 and 0.7).
  public var labyrinthTolerance: Double {
    switch level {
    case ..<Self.bandEdges[1]: 60
    case ..<Self.bandEdges[2]: 44
    default: 36
    }
  }

  /// A long absence protects the next levels from a decrease.
  private mutating func noteReturn(at date: Date) {
    if let last = lastPlayedAt, date.timeIntervalSince(last) >= Self.longAbsenceSeconds {
      protectedLevels = Self.protectedLevelsAfterAbsence
      pending = max(0, pending)
      ratings = max(0, ratings ?? 0)
    }
    lastPlayedAt = max(lastPlayedAt ?? date, date)
  }

  /// Adds a level's rating and bonus to what is pending and applies it when the rules allow a change
  /// (the ratings' average plus the bonuses); returns the new level.
  private mutating func finishLevel(rating: Double, bonus: Double, at date: Date) -> Double? {
    let isProtected = protectedLevels > 0
    if isProtected { protectedLevels -= 1 }
    ratings = (ratings ?? 0) + (isProtected ? max(0, rating) : rating)
    pending += isProtected ? max(0, bonus) : bonus
    levelsSinceChange += 1
    guard levelsSinceChange >= Self.levelsBetweenChanges else { return nil }
    if let changedAt, date.timeIntervalSince(changedAt) < Self.secondsBetweenChanges { return nil }
    let delta = (ratings ?? 0) / Double(levelsSinceChange) + pending
    var next = min(Self.bounds.upperBound, max(Self.bounds.lowerBound, level + delta))
    // One band per step: bonuses that piled up while changes had to wait (or four quits at once) move the
    // game into the next band, never past it.
    let band = Self.band(of: level)
    if band + 1 < Self.bandEdges.count { next = min(next, Self.bandEdges[band + 1] - 0.01) }
    if band >= 2 { next = max(next, Self.bandEdges[band - 2]) }
    pending = 0
    ratings = 0
    levelsSinceChange = 0
    // Rounded to hundredths: sums of tenths and twentieths should read 0.45, not 0.44999999999999996.
    let rounded = (next * 100).rounded() / 100
    guard rounded != level else { return nil }
    level = rounded
    changedAt = date
    return rounded
  }
}
