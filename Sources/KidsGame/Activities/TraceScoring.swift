/// Judges a trace over a number: how much of the number's strokes the child's strokes pass close to
/// (coverage), and how much of what the child drew lies on the number (precision).
///
/// The playbook: success at ≥ 70 % coverage within 30 pt. The 30 pt are at the reference size of the number
/// box (300 pt), so the tolerance is 0.1 of the box at any size. Coverage alone would let a child colour the
/// whole box in; precision (≥ 85 % of the drawn line on the number) is what makes a scribble fail. A hand
/// that wobbles by up to 24 pt keeps about 99 % on the number; a dense scribble over an 8 (the easiest
/// number to scribble on) keeps under 80 %.
public enum TraceScoring {
  /// Side of the number box the tolerance was set for, in points.
  public static let referenceBoxSide = 300.0
  /// How far from a stroke a trace may wander at the reference size, in points.
  public static let tolerancePoints = 30.0
  /// The tolerance in box units (0.1).
  public static let tolerance = tolerancePoints / referenceBoxSide
  /// Share of the number that must be covered.
  public static let requiredCoverage = 0.7
  /// Share of the drawn line that must lie on the number.
  public static let requiredPrecision = 0.85
  /// Both polylines are measured at points this far apart (box units).
  public static let sampleSpacing = 0.01

  /// The two measures of one trace.
  public struct Score: Hashable, Sendable {
    /// Share (0…1) of the number's strokes within the tolerance of the trace.
    public let coverage: Double
    /// Share (0…1) of the trace within the tolerance of the number's strokes.
    public let precision: Double

    /// Whether the trace counts as writing the number.
    public var isSuccess: Bool { coverage >= requiredCoverage && precision >= requiredPrecision }
  }

  /// Scores `trace` (the child's strokes) against the strokes of `number`.
  public static func score(_ trace: [[TracePoint]], number: Int, tolerance: Double = tolerance) -> Score {
    score(trace, against: DigitStrokes.strokes(for: number), tolerance: tolerance)
  }

  /// Scores `trace` against any set of strokes.
  public static func score(_ trace: [[TracePoint]], against target: [[TracePoint]], tolerance: Double = tolerance) -> Score {
    let drawn = trace.map(sanitized).filter { !$0.isEmpty }
    let targetSamples = target.flatMap(resample)
    let traceSamples = drawn.flatMap(resample)
    guard !targetSamples.isEmpty, !traceSamples.isEmpty else { return Score(coverage: 0, precision: 0) }
    let covered = targetSamples.filter { distance(from: $0, to: drawn) <= tolerance }.count
    let onNumber = traceSamples.filter { distance(from: $0, to: target) <= tolerance }.count
    return Score(
      coverage: Double(covered) / Double(targetSamples.count),
      precision: Double(onNumber) / Double(traceSamples.count))
  }

  /// The points a client sent, made safe to measure: non-finite points are dropped and the rest held to a
  /// margin around the box, so a bad value can neither trap nor make the resampling huge.
  static func sanitized(_ polyline: [TracePoint]) -> [TracePoint] {
    polyline.compactMap { point in
      guard point.x.isFinite, point.y.isFinite else { return nil }
      return TracePoint(x: min(2, max(-1, point.x)), y: min(2, max(-1, point.y)))
    }
  }

  /// Points along `polyline` every ``sampleSpacing`` (its corners included), so long and short segments
  /// weigh by their length, not by how many points the client happened to send.
  static func resample(_ polyline: [TracePoint]) -> [TracePoint] {
    guard let first = polyline.first else { return [] }
    var samples = [first]
    for (a, b) in zip(polyline, polyline.dropFirst()) {
      let length = a.distance(to: b)
      let count = Int((length / sampleSpacing).rounded(.up))
      guard count > 0 else { continue }
      for step in 1...count {
        let t = Double(step) / Double(count)
        samples.append(TracePoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
      }
    }
    return samples
  }

  /// The shortest distance from `point` to any of the polylines (a lone point counts as itself).
  static func distance(from point: TracePoint, to polylines: [[TracePoint]]) -> Double {
    var best = Double.infinity
    for line in polylines {
      if line.count == 1, let only = line.first { best = min(best, point.distance(to: only)) }
      for (a, b) in zip(line, line.dropFirst()) { best = min(best, segmentDistance(point, a, b)) }
    }
    return best
  }

  private static func segmentDistance(_ p: TracePoint, _ a: TracePoint, _ b: TracePoint) -> Double {
    let dx = b.x - a.x
    let dy = b.y - a.y
    let lengthSquared = dx * dx + dy * dy
    guard lengthSquared > 0 else { return p.distance(to: a) }
    let t = min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared))
    return p.distance(to: TracePoint(x: a.x + t * dx, y: a.y + t * dy))
  }
}
