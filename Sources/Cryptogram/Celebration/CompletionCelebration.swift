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

  /// How often the wiggle's shape is sampled for clients (per second). Each leg plays the whole spring in a
  /// tenth of a second, so its swings come every few milliseconds: at 60 samples a second the overshoot fell
  /// between samples and the cells barely moved past their offset. A spring's turning points come every half
  /// damped period; four samples per half period (rounded to a whole number per leg, so every leg starts on a
  /// sample) land on them. The timing is unchanged: the same legs, the same length.
  public static let wiggleSamplesPerSecond: Double = {
    let spring = wiggle.spring
    let zeta = spring.dampingFraction
    guard zeta < 1 else { return 60 }
    let damped = spring.angularFrequency * (1 - zeta * zeta).squareRoot()
    let halfPeriodInLeg = Double.pi / damped * wiggle.legDuration / spring.settlingTime
    let perLeg = max((wiggle.legDuration / (halfPeriodInLeg / 4)).rounded(), 6)
    return perLeg / wiggle.legDuration
  }()
}
