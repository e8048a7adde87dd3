/// Gentle prompts when a child has not touched anything for a while (10/20/30 s in Würfel, 10/20 s in
/// Wähle die Zahl, 10/20 s in the puzzle, 15 s in the labyrinth).
public enum IdlePrompts {
  /// The prompts of `game`: after how many idle seconds, and which line.
  public static func schedule(for game: SubActivity) -> [(seconds: Double, trigger: NarrationTrigger)] {
    switch game {
    case .wuerfel: [(10, .wuerfelIdle10), (20, .wuerfelIdle20), (30, .wuerfelIdle30)]
    case .waehleDieZahl: [(10, .waehleIdle10), (20, .waehleIdle20)]
    case .puzzleMatching: [(10, .puzzleIdle10), (20, .puzzleIdle20)]
    case .labyrinth: [(15, .labyrinthIdle15)]
    }
  }

  /// The next prompt once `idleSeconds` have passed and `given` prompts were already spoken, or nil when
  /// none is due (each prompt plays once per quiet spell, in order).
  public static func due(for game: SubActivity, idleSeconds: Double, given: Int) -> NarrationTrigger? {
    let schedule = schedule(for: game)
    guard given >= 0, given < schedule.count, idleSeconds >= schedule[given].seconds else { return nil }
    return schedule[given].trigger
  }
}
