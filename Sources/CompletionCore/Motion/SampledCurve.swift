/// A curve tabulated once so a frame can evaluate thousands of elements with a lookup, not maths.
///
/// Built when a timeline is made (one allocation); reading it allocates nothing.
public struct SampledCurve: Sendable {
  /// Seconds the curve runs for.
  public let duration: Double
  private let table: [Double]
  private let scale: Double

  /// Samples `curve` run for `duration` (springs: their settling time) at `resolution` points.
  public init(_ curve: Curve, duration: Double, resolution: Int = 1024) {
    let active = curve.activeDuration(nominal: duration)
    self.duration = active
    let count = max(resolution, 2)
    var values = [Double](repeating: 1, count: count + 1)
    if active > 0 {
      for i in 0...count {
        values[i] = i == count ? 1 : curve.value(elapsed: active * Double(i) / Double(count), duration: active)
      }
    }
    values[0] = active > 0 ? 0 : 1
    table = values
    scale = active > 0 ? Double(count) / active : 0
  }

  /// Progress after `elapsed` seconds: 0 before the start, 1 after the end, interpolated between.
  @inlinable
  public func value(elapsed: Double) -> Double {
    if elapsed <= 0 { return duration > 0 ? 0 : (elapsed < 0 ? 0 : 1) }
    if elapsed >= duration { return 1 }
    return lookup(elapsed)
  }

  @usableFromInline
  func lookup(_ elapsed: Double) -> Double {
    let position = elapsed * scale
    let index = Int(position)
    let fraction = position - Double(index)
    return table.withUnsafeBufferPointer { buffer in
      let upper = min(index + 1, buffer.count - 1)
      return buffer[index] + (buffer[upper] - buffer[index]) * fraction
    }
  }
}
