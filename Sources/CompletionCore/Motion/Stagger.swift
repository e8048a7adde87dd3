/// Timing for a list whose items appear one after another (seed 002's `StaggerConfig`).
public struct StaggerConfig: Hashable, Sendable {
  /// Delay of the first item, in seconds.
  public let baseDelay: Double
  /// Extra delay for each following item, in seconds.
  public let delayIncrement: Double
  /// How each item moves.
  public let curve: Curve
  /// Nominal duration for timing curves (springs run until they settle).
  public let duration: Double

  public init(baseDelay: Double, delayIncrement: Double, curve: Curve, duration: Double = 0.3) {
    self.baseDelay = baseDelay
    self.delayIncrement = delayIncrement
    self.curve = curve
    self.duration = duration
  }

  /// 0 + 0.03·i with the standard spring.
  public static let fast = StaggerConfig(baseDelay: 0, delayIncrement: 0.03, curve: .spring(.standard))
  /// 0 + 0.05·i with the standard spring.
  public static let standard = StaggerConfig(baseDelay: 0, delayIncrement: 0.05, curve: .spring(.standard))
  /// 0.1 + 0.08·i, ease-out over 0.4 s.
  public static let relaxed = StaggerConfig(baseDelay: 0.1, delayIncrement: 0.08, curve: .easeOut, duration: 0.4)

  /// The named configurations, for catalogues and clients.
  public static let named: [(name: String, config: StaggerConfig)] = [
    ("fast", .fast), ("standard", .standard), ("relaxed", .relaxed),
  ]

  /// Looks a named configuration up.
  public static func named(_ name: String) -> StaggerConfig? {
    named.first { $0.name == name }?.config
  }

  /// Delay for the item at `index`: base + index × increment.
  @inlinable
  public func delay(for index: Int) -> Double {
    baseDelay + Double(index) * delayIncrement
  }

  /// Seconds one item's animation lasts.
  public var itemDuration: Double { curve.activeDuration(nominal: duration) }
}

/// Which item leads the cascade.
public enum StaggerOrigin: String, CaseIterable, Hashable, Sendable, Codable {
  case first, last, center
}

/// Whether items are arriving or leaving.
public enum StaggerDirection: String, CaseIterable, Hashable, Sendable, Codable {
  /// From hidden (opacity 0, y +20, scale 0.95) to shown.
  case enter
  /// From shown to hidden, in the reverse order of entering.
  case exit
}

/// A whole staggered reveal of `count` items, evaluable at any time.
///
/// Items below `previouslyRevealed` are already on screen and do not animate, so adding three rows to a
/// list staggers only those three.
public struct StaggerTimeline: Sendable {
  public let config: StaggerConfig
  public let count: Int
  public let origin: StaggerOrigin
  public let direction: StaggerDirection
  public let previouslyRevealed: Int
  public let preference: MotionPreference
  /// Where animating items start and end.
  public let from: Appearance
  public let to: Appearance
  private let sampled: SampledCurve
  private let itemDuration: Double

  public init(
    config: StaggerConfig,
    count: Int,
    origin: StaggerOrigin = .first,
    direction: StaggerDirection = .enter,
    previouslyRevealed: Int = 0,
    preference: MotionPreference = .full
  ) {
    self.config = config
    self.count = max(count, 0)
    self.origin = origin
    self.direction = direction
    self.previouslyRevealed = direction == .exit ? 0 : min(max(previouslyRevealed, 0), max(count, 0))
    self.preference = preference
    let hidden: Appearance = preference == .full ? .staggerHidden : .transparent
    self.from = direction == .enter ? hidden : .identity
    self.to = direction == .enter ? .identity : hidden
    switch preference {
    case .full:
      sampled = SampledCurve(config.curve, duration: config.duration)
      itemDuration = config.itemDuration
    case .reduced:
      sampled = SampledCurve(.easeInOut, duration: MotionPreference.crossFadeDuration)
      itemDuration = MotionPreference.crossFadeDuration
    case .off:
      sampled = SampledCurve(.linear, duration: 0)
      itemDuration = 0
    }
  }

  /// Number of items that animate.
  public var animatedCount: Int { count - previouslyRevealed }

  /// The position of `index` in the cascade (0 goes first), or nil if the item does not animate.
  public func rank(of index: Int) -> Int? {
    guard index >= previouslyRevealed, index < count else { return nil }
    let local = index - previouslyRevealed
    let n = count - previouslyRevealed
    var rank: Int
    switch origin {
    case .first: rank = local
    case .last: rank = n - 1 - local
    case .center: rank = abs(2 * local - (n - 1)) / 2
    }
    if direction == .exit {
      // Leaving runs the entrance backwards: whoever entered last leaves first.
      let maxRank = origin == .center ? (n - 1) / 2 : n - 1
      rank = maxRank - rank
    }
    return rank
  }

  /// Start delay of the item at `index`, or nil if it does not animate. Reduced and off motion show all at once.
  public func delay(ofItem index: Int) -> Double? {
    guard let rank = rank(of: index) else { return nil }
    return preference == .full ? config.delay(for: rank) : 0
  }

  /// Seconds each animating item takes.
  public var duration: Double { itemDuration }

  /// Seconds until the last item has finished.
  public var totalDuration: Double {
    guard animatedCount > 0 else { return 0 }
    var longest = 0.0
    for index in previouslyRevealed..<count {
      if let delay = delay(ofItem: index) { longest = max(longest, delay) }
    }
    return longest + itemDuration
  }

  /// How the item at `index` looks `time` seconds after the reveal starts.
  public func appearance(ofItem index: Int, at time: Double) -> Appearance {
    guard let delay = delay(ofItem: index) else { return direction == .enter ? .identity : to }
    return from.interpolated(to: to, progress: progress(elapsed: time - delay))
  }

  func progress(elapsed: Double) -> Double {
    if elapsed < 0 { return 0 }
    return sampled.value(elapsed: elapsed)
  }

  /// Writes every item's appearance at `time` into `frame` (which must hold `count` elements).
  /// Allocates nothing: this is the per-frame path.
  public func evaluate(at time: Double, into frame: UnsafeMutableBufferPointer<Appearance>) {
    let n = min(frame.count, count)
    for index in 0..<n {
      frame[index] = appearance(ofItem: index, at: time)
    }
  }
}
