import Foundation

/// A damped harmonic oscillator described the way SwiftUI describes it.
///
/// `response` is the period of the undamped oscillation in seconds (stiffness = (2π / response)² for unit mass);
/// `dampingFraction` is the ratio to critical damping: below 1 it overshoots, 1 is critical, above 1 is overdamped.
/// The value animates from 0 to 1 starting at rest.
public struct Spring: Hashable, Sendable, Codable {
  /// Period of the undamped oscillation, in seconds.
  public let response: Double
  /// Damping relative to critical damping (1 = critically damped).
  public let dampingFraction: Double

  /// How close to the target (as a fraction of the distance) counts as settled.
  public static let settlingThreshold = 0.001

  /// Creates a spring; non-positive inputs are clamped to small positive values so the maths stays defined.
  public init(response: Double, dampingFraction: Double) {
    self.response = max(response, 0.001)
    self.dampingFraction = max(dampingFraction, 0.001)
  }

  /// Buttons and toggles (0.3 / 0.7).
  public static let standard = Spring(response: 0.3, dampingFraction: 0.7)
  /// Reveals (0.5 / 0.8).
  public static let gentle = Spring(response: 0.5, dampingFraction: 0.8)
  /// Sheets and pages (0.6 / 0.85).
  public static let page = Spring(response: 0.6, dampingFraction: 0.85)
  /// Success moments (0.4 / 0.5).
  public static let bounce = Spring(response: 0.4, dampingFraction: 0.5)

  /// The named springs, for catalogues and clients.
  public static let named: [(name: String, spring: Spring)] = [
    ("standard", .standard), ("gentle", .gentle), ("page", .page), ("bounce", .bounce),
  ]

  /// Undamped angular frequency ω₀ = 2π / response.
  public var angularFrequency: Double { 2 * .pi / response }

  /// Remaining displacement x(t) from the target, starting at 1 with zero velocity.
  @inlinable
  public func displacement(at time: Double) -> Double {
    guard time > 0 else { return 1 }
    let omega = 2 * Double.pi / response
    let zeta = dampingFraction
    if zeta < 1 {
      let decay = zeta * omega
      let damped = omega * (1 - zeta * zeta).squareRoot()
      return exp(-decay * time) * (cos(damped * time) + decay / damped * sin(damped * time))
    } else if zeta == 1 {
      return exp(-omega * time) * (1 + omega * time)
    } else {
      let root = (zeta * zeta - 1).squareRoot()
      let r1 = -omega * (zeta - root)
      let r2 = -omega * (zeta + root)
      return (r2 * exp(r1 * time) - r1 * exp(r2 * time)) / (r2 - r1)
    }
  }

  /// Animated value at `time` seconds: 0 at the start, 1 at rest (may overshoot when under-damped).
  @inlinable
  public func value(at time: Double) -> Double { 1 - displacement(at: time) }

  /// Seconds until the spring stays within ``settlingThreshold`` of its target for good.
  public var settlingTime: Double {
    let omega = angularFrequency
    let zeta = dampingFraction
    let epsilon = Self.settlingThreshold
    if zeta < 1 {
      // The motion is bounded by its envelope A·e^(−ζω₀t); solve envelope = ε.
      let decay = zeta * omega
      let damped = omega * (1 - zeta * zeta).squareRoot()
      let amplitude = (1 + (decay / damped) * (decay / damped)).squareRoot()
      return log(amplitude / epsilon) / decay
    }
    // Critically and over-damped springs approach monotonically: bisect on the displacement.
    var low = 0.0
    var high = response
    while displacement(at: high) > epsilon { high *= 2 }
    for _ in 0..<60 {
      let mid = (low + high) / 2
      if displacement(at: mid) > epsilon { low = mid } else { high = mid }
    }
    return high
  }
}
