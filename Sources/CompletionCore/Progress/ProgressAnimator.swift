/// Animates a displayed progress value toward a target that may change at any moment.
///
/// A new target starts from wherever the value is now (no jump), a target of 0 animates down like any
/// other, and cancelling freezes the value where it is. Time comes from the injected clock.
public struct ProgressAnimator: Sendable {
  /// Default seconds to reach a new target.
  public static let defaultDuration = 0.4

  public let duration: Double
  public let curve: Curve
  private let clock: any MotionClock
  private var origin: Double
  /// The value the animator is heading for.
  public private(set) var target: Double
  private var startedAt: Double

  public init(
    value: Double = 0, duration: Double = ProgressAnimator.defaultDuration, curve: Curve = .easeOut,
    clock: any MotionClock = SystemMotionClock()
  ) {
    let clamped = Self.clamp(value)
    self.duration = max(duration, 0)
    self.curve = curve
    self.clock = clock
    self.origin = clamped
    self.target = clamped
    self.startedAt = clock.now()
  }

  private static func clamp(_ value: Double) -> Double {
    value.isFinite ? min(max(value, 0), 1) : 0
  }

  /// The value to show now.
  public var value: Double {
    let elapsed = clock.now() - startedAt
    let progress = curve.value(elapsed: elapsed, duration: duration)
    return origin + (target - origin) * progress
  }

  /// Whether the value is still moving.
  public var isAnimating: Bool {
    origin != target && clock.now() - startedAt < curve.activeDuration(nominal: duration)
  }

  /// Heads for `newTarget` (clamped to 0…1), starting from the current value.
  public mutating func retarget(to newTarget: Double) {
    origin = value
    target = Self.clamp(newTarget)
    startedAt = clock.now()
  }

  /// Stops where the value is now.
  public mutating func cancel() {
    let current = value
    origin = current
    target = current
  }

  /// Jumps to `value` without animating (the thing being measured changed, say another project).
  public mutating func reset(to value: Double) {
    origin = Self.clamp(value)
    target = origin
    startedAt = clock.now()
  }
}
