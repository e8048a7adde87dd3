import Foundation

/// How a value travels from 0 to 1: a timing curve stretched over a duration, or a physical spring.
public enum Curve: Hashable, Sendable {
  case linear
  case easeIn
  case easeOut
  case easeInOut
  case spring(Spring)

  /// How long the curve runs when asked for `duration`: timing curves take it as given; a spring
  /// ignores it (as in SwiftUI) and runs until it settles.
  public func activeDuration(nominal duration: Double) -> Double {
    switch self {
    case .spring(let spring): spring.settlingTime
    default: max(duration, 0)
    }
  }

  /// Progress (0…1, a spring may overshoot) after `elapsed` seconds of a run lasting `duration`.
  public func value(elapsed: Double, duration: Double) -> Double {
    if elapsed <= 0 { return 0 }
    switch self {
    case .spring(let spring):
      return spring.value(at: elapsed)
    default:
      guard duration > 0, elapsed < duration else { return 1 }
      return unitValue(elapsed / duration)
    }
  }

  /// The timing curve's value for a fraction `x` of its duration (springs answer for x = elapsed seconds / settling time).
  public func unitValue(_ x: Double) -> Double {
    let x = min(max(x, 0), 1)
    switch self {
    case .linear: return x
    case .easeIn: return CubicBezier.easeIn.value(at: x)
    case .easeOut: return CubicBezier.easeOut.value(at: x)
    case .easeInOut: return CubicBezier.easeInOut.value(at: x)
    case .spring(let spring): return spring.value(at: x * spring.settlingTime)
    }
  }

  /// A short, stable name for clients ("linear", "easeOut", "spring").
  public var kind: String {
    switch self {
    case .linear: "linear"
    case .easeIn: "easeIn"
    case .easeOut: "easeOut"
    case .easeInOut: "easeInOut"
    case .spring: "spring"
    }
  }

  /// A CSS easing that reproduces this curve: `cubic-bezier(…)` for timing curves, a sampled
  /// `linear(…)` for springs (so browsers play the same physics the core computes).
  public func cssEasing(samples: Int = 40) -> String {
    switch self {
    case .linear: return "linear"
    case .easeIn: return CubicBezier.easeIn.css
    case .easeOut: return CubicBezier.easeOut.css
    case .easeInOut: return CubicBezier.easeInOut.css
    case .spring:
      let count = max(samples, 2)
      var parts: [String] = []
      parts.reserveCapacity(count + 1)
      for i in 0...count {
        let value = i == count ? 1 : unitValue(Double(i) / Double(count))
        parts.append(String(format: "%.4f", value))
      }
      return "linear(" + parts.joined(separator: ", ") + ")"
    }
  }
}

/// A CSS-style cubic Bézier timing function through (0,0), (x1,y1), (x2,y2), (1,1).
public struct CubicBezier: Hashable, Sendable {
  public let x1: Double, y1: Double, x2: Double, y2: Double

  public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
    self.x1 = x1
    self.y1 = y1
    self.x2 = x2
    self.y2 = y2
  }

  /// The same control points SwiftUI and CSS use for their named curves.
  public static let easeIn = CubicBezier(0.42, 0, 1, 1)
  public static let easeOut = CubicBezier(0, 0, 0.58, 1)
  public static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)

  /// `cubic-bezier(x1, y1, x2, y2)`.
  public var css: String { "cubic-bezier(\(x1), \(y1), \(x2), \(y2))" }

  private func sample(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
    // B(t) = 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³
    let u = 1 - t
    return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
  }

  private func slope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
    let u = 1 - t
    return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
  }

  /// y for a given x in 0…1 (Newton's method, falling back to bisection where the slope is flat).
  public func value(at x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    var t = x
    for _ in 0..<8 {
      let error = sample(t, x1, x2) - x
      if abs(error) < 1e-7 { return sample(t, y1, y2) }
      let d = slope(t, x1, x2)
      if abs(d) < 1e-6 { break }
      t -= error / d
    }
    var low = 0.0
    var high = 1.0
    t = x
    for _ in 0..<40 {
      let current = sample(t, x1, x2)
      if abs(current - x) < 1e-7 { break }
      if current < x { low = t } else { high = t }
      t = (low + high) / 2
    }
    return sample(t, y1, y2)
  }
}
