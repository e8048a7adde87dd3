import Foundation

/// One level of the labyrinth: the maze, and the traces that left the path (they cost nothing).
public struct LabyrinthRound: Hashable, Sendable, Codable {
  /// More points than this in one trace is not a finger.
  public static let maxPoints = 4_000

  /// The maze of this level.
  public let maze: Labyrinth
  /// Traces that left the path or missed START.
  public private(set) var misses = 0

  /// A level with `maze`.
  public init(maze: Labyrinth) {
    self.maze = maze
  }

  /// Judges a finished trace and counts a miss.
  public mutating func trace(_ points: [MazePoint]) -> Labyrinth.Verdict {
    let verdict = maze.judge(points)
    switch verdict {
    case .leftPath, .notAtStart: misses += 1
    case .reachedGoal, .stoppedShort: break
    }
    return verdict
  }
}
