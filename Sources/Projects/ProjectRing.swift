import CompletionCore

/// The completion ring's motion: the core's ``ProgressAnimator`` with its default duration and curve.
/// SwiftUI runs the animator itself; the web page gets the curve sampled (it cannot run Swift).
public enum ProjectRing {
  /// Seconds between two values (the seed's 0.4 s).
  public static let duration = ProgressAnimator.defaultDuration
  public static let curve = Curve.easeOut

  /// A new animator for a ring showing `value`.
  public static func animator(value: Double = 0, clock: any MotionClock = SystemMotionClock()) -> ProgressAnimator {
    ProgressAnimator(value: value, duration: duration, curve: curve, clock: clock)
  }

  /// The curve's progress at `count` equally spaced times from 0 to `duration` (first 0, last 1).
  public static func samples(count: Int = 41) -> [Double] {
    let count = max(count, 2)
    return (0..<count).map { i in
      i == count - 1 ? 1 : curve.value(elapsed: duration * Double(i) / Double(count - 1), duration: duration)
    }
  }

  /// The indicator's geometry, as fractions of its size (the seed's picture).
  public enum Geometry {
    /// The outer ring's stroke, in points.
    public static let outerStroke = 1.0
    /// The inner ring's diameter, shown once progress > 0.
    public static let innerRing = 0.6
    /// The pie slice's diameter.
    public static let pie = 0.56
    /// Sizes used: group headers 10, selector 12, sidebar 16, header 20.
    public static let sizes = (groupHeader: 10.0, selector: 12.0, sidebar: 16.0, header: 20.0)
  }
}
