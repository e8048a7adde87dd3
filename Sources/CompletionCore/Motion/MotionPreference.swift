/// How much movement a person wants.
public enum MotionPreference: String, CaseIterable, Hashable, Sendable, Codable {
  /// Springs, offsets, scale, waves, wiggles and confetti.
  case full
  /// No movement, scaling, wave, wiggle or confetti: content arrives with short cross-fades only.
  case reduced
  /// No animation at all: everything is shown at once.
  case off

  /// How long a reduced-motion cross-fade lasts.
  public static let crossFadeDuration = 0.2

  /// Whether decorative motion (wave, wiggle, confetti) may play.
  public var allowsDecorativeMotion: Bool { self == .full }
}
