import CompletionCore

/// The solved-puzzle celebration of seed 000, as data every client plays.
///
/// Times are seconds after the last letter: the cells wiggle at once; the completion view fades in over the
/// puzzle from 0.7 s (ease-out 0.5 s); the trophy and quote arrive at 0.4 s (spring 0.6/0.8, from scale 0.8
/// and 0.9), the attribution and source at 1.2 s (ease-in-out 0.5 s), the stats at 1.8 s (spring 0.5/0.7,
/// rising 20) and "Next Puzzle" at 2.3 s (rising 15) — all from the solve, as the seed means them: its
/// `withAnimation(.easeOut(duration: 0.5).delay(0.7))` inserts the view at once and delays only its fade, and
/// the view's `onAppear` (which starts the others) runs at insertion.
public enum CompletionCelebration {
  /// When the completion view starts to fade in.
  public static let overlayDelay = 0.7

  /// The whole sequence, one timeline from the moment of solving.
  public static let choreography: Choreography = {
    let reveal = Spring(response: 0.6, dampingFraction: 0.8)
    let stats = Spring(response: 0.5, dampingFraction: 0.7)
    return Choreography(
      name: "cryptogramCompletion",
      steps: [
        .init(id: "overlay", delay: overlayDelay, duration: 0.5, curve: .easeOut, from: .transparent),
        .init(id: "trophy", delay: 0.4, curve: .spring(reveal), from: Appearance(opacity: 0, scale: 0.8)),
        .init(id: "quote", delay: 0.4, curve: .spring(reveal), from: Appearance(opacity: 0, scale: 0.9)),
        .init(id: "attribution", delay: 1.2, duration: 0.5, curve: .easeInOut, from: .transparent),
        .init(id: "source", delay: 1.2, duration: 0.5, curve: .easeInOut, from: .transparent),
        .init(id: "stats", delay: 1.8, curve: .spring(stats), from: Appearance(opacity: 0, offsetY: 20)),
        .init(id: "next", delay: 2.3, curve: .spring(stats), from: Appearance(opacity: 0, offsetY: 15)),
      ])
  }()

  /// The letter-cell wiggle (seed 000), from the core.
  public static let wiggle = Wiggle.completion
}
