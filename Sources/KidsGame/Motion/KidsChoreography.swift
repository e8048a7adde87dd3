import CompletionCore

/// Waldabenteuer's movement, defined once here and sent to every client with the screen: the celebration
/// overlay, the coin's flight into the bar, the confetti, the die's tumble and the screen cross-fade.
/// Everything is calm (SPEC-NOTES: 0.3 s cross-fades, a soft spring for the card, no flashing); clients
/// play these values and under reduced motion their adapted form (``Choreography/adapted(to:)``).
public enum KidsChoreography {
  /// The celebration card's entrance: a spring that settles in about 0.4 s.
  public static let cardSpring = Spring(response: 0.4, dampingFraction: 0.8)

  /// The celebration overlay: the activity dims, the card springs in from 0.8, the confetti falls for 3 s.
  public static let celebration = Choreography(
    name: "kidsCelebration",
    steps: [
      .init(id: "dim", delay: 0, duration: 0.3, curve: .easeOut, from: .transparent),
      .init(id: "card", delay: 0, curve: .spring(cardSpring), from: Appearance(opacity: 0, scale: 0.8)),
      .init(id: "confetti", delay: 0, duration: 3, curve: .linear, from: .identity),
    ])

  /// The card leaving when "Weiter" is tapped.
  public static let celebrationExit = Choreography(
    name: "kidsCelebrationExit",
    steps: [.init(id: "card", delay: 0, duration: 0.3, curve: .easeIn, from: .identity, to: Appearance(opacity: 0, scale: 0.9))])

  /// A won level's coin: it rises, flies into its slot (0.8 s), and the slot gives a small bounce.
  public static let coinFlight = Choreography(
    name: "kidsCoinFlight",
    steps: [
      .init(id: "coin", delay: 0, duration: 0.8, curve: .easeInOut, from: Appearance(opacity: 0, scale: 1.3), to: Appearance(scale: 0.7)),
      .init(id: "slot", delay: 0.8, curve: .spring(Spring(response: 0.3, dampingFraction: 0.6)), from: Appearance(scale: 1.25)),
    ])

  /// The die's calm tumble before it shows its face (``DiceRound/tumbleSeconds``).
  public static let dieTumble = Choreography(
    name: "kidsDieTumble",
    steps: [.init(id: "die", delay: 0, duration: DiceRound.tumbleSeconds, curve: .easeOut, from: Appearance(scale: 1.06))])

  /// Going from one screen to the next: the new one fades in while the old one fades out (0.3 s).
  public static let crossFade = Choreography(
    name: "kidsCrossFade",
    steps: [
      .init(id: "incoming", delay: 0, duration: 0.3, curve: .easeOut, from: .transparent),
      .init(id: "outgoing", delay: 0, duration: 0.3, curve: .easeIn, from: .identity, to: .transparent),
    ])

  /// Bennie's speech bubble popping up.
  public static let speechBubble = Choreography(
    name: "kidsSpeechBubble",
    steps: [.init(id: "bubble", delay: 0, curve: .spring(.standard), from: Appearance(opacity: 0, scale: 0.92))])

  /// "Zeit ist um!" fading in over the paused video.
  public static let timeUp = Choreography(
    name: "kidsTimeUp", steps: [.init(id: "overlay", delay: 0, duration: 0.3, curve: .easeOut, from: .transparent)])

  /// The one-minute warning: the clock swells gently three times (each step goes to 1.05 and back).
  public static let clockWarning = Choreography(
    name: "kidsClockWarning",
    steps: (0..<3).map { .init(id: "pulse\($0 + 1)", delay: Double($0) * 0.5, duration: 0.5, curve: .easeInOut, from: .identity, to: Appearance(scale: 1.05)) })

  /// A labyrinth trace that did not reach ZIEL fades away (reduced motion: it simply goes).
  public static let traceFade = Choreography(
    name: "kidsTraceFade", steps: [.init(id: "trace", delay: 0, duration: 0.65, curve: .easeOut, from: .identity, to: .transparent)])

  /// Every kids' choreography, by name.
  public static let all: [Choreography] = [
    celebration, celebrationExit, coinFlight, dieTumble, crossFade, speechBubble, timeUp, clockWarning, traceFade,
  ]
}

/// How often a Waldabenteuer client reports by itself (defined here, sent to clients, never copied there).
public enum KidsClientTiming {
  /// A visible page sends a heartbeat this often, so play time counts while the child plays.
  public static let heartbeatSeconds = 15.0
  /// The most play time one heartbeat may add: a little more than the interval, so a slow network does
  /// not lose time, but a tab that slept does not count as playing.
  public static let maxHeartbeatGap = heartbeatSeconds + 5
  /// While a video plays, the client asks the server's video clock this often.
  public static let videoTickSeconds = 5.0
  /// The loading screen reports its progress this often.
  public static let loadingTickSeconds = 0.25
  /// Bennie's bubble types a line at this many seconds per character (every client alike).
  public static let typewriterSecondsPerCharacter = 0.035
  /// A parent-area "Gespeichert." stays this long.
  public static let parentNoticeSeconds = 2.5
  /// Bennie's bubble stays this long after his last line before it goes.
  public static let bubbleHoldSeconds = 2.5
}
