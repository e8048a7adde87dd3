import Foundation

/// A ripple across items (seed 002's wave): each item bobs on a sine whose phase depends on its
/// position in the list, looping forever.
public struct Wave: Hashable, Sendable {
  /// Peak offset in points.
  public let amplitude: Double
  /// Seconds for the phase to go once round (0 → 2π).
  public let period: Double
  public let frequency: Double

  public init(amplitude: Double = 5, period: Double = 2, frequency: Double = 1) {
    self.amplitude = amplitude
    self.period = max(period, 0.001)
    self.frequency = frequency
  }

  /// The seed's wave: amplitude 5, a 2-second linear loop, frequency 1.
  public static let standard = Wave()

  /// The item's position in the list scaled to 0…1 (a single item is 0).
  public static func normalizedIndex(_ index: Int, count: Int) -> Double {
    Double(index) / Double(max(count - 1, 1))
  }

  /// The loop's phase at `time`: rises linearly from 0 to 2π every `period` seconds.
  public func phase(at time: Double) -> Double {
    let cycles = time / period
    return (cycles - cycles.rounded(.down)) * 2 * .pi
  }

  /// Vertical offset of the item at `index` among `count` items, `time` seconds into the loop.
  public func offset(index: Int, count: Int, at time: Double) -> Double {
    offset(index: index, count: count, phase: phase(at: time))
  }

  /// Vertical offset of the item at `index` when the loop's phase is `phase` (0…2π).
  public func offset(index: Int, count: Int, phase: Double) -> Double {
    let shift = Self.normalizedIndex(index, count: count) * 2 * .pi
    return sin((phase + shift) * frequency) * amplitude
  }

  /// One loop of the item's offsets, `samples + 1` values from t = 0 to t = period (for keyframe clients).
  public func keyframes(index: Int, count: Int, samples: Int = 16) -> [Double] {
    let n = max(samples, 1)
    return (0...n).map { offset(index: index, count: count, phase: 2 * .pi * Double($0) / Double(n)) }
  }
}
