/// How a finished puzzle counts. The rule, in one place: a solve within the mistake limit is a win; a solve
/// after "Continue" past the limit is *finished* — its own outcome, neither a win nor a loss. A finished puzzle
/// is shown and shared as finished (never "Solved … 3 mistakes"), pays no points, keeps no streak day and
/// leaves the best and average times alone; the stats count it on its own line.
public enum PuzzleOutcome: String, Hashable, Sendable, Codable, CaseIterable {
  /// Every letter found within the mistake limit: a win.
  case solved
  /// Every letter found after continuing past the mistake limit.
  case finished

  /// The outcome of a solve with `mistakes` mistakes. The same as ``Board/outcome``: a board that reached the
  /// limit without "Continue" failed, so only a continued board can be solved with that many.
  public static func ofSolve(mistakes: Int) -> PuzzleOutcome {
    mistakes >= Board.mistakeLimit ? .finished : .solved
  }

  /// Whether it counts as a win (points, streak, win rate, best and average time).
  public var isWin: Bool { self == .solved }

  /// The word the finish card and the share lead with: "Solved" or "Finished".
  public var word: String { self == .solved ? "Solved" : "Finished" }
}
