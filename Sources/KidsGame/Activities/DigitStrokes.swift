import Foundation

/// A point of a trace or a stroke, in the number box's own coordinates: 0…1 across and 0…1 down
/// (y grows downwards, as on screen).
public struct TracePoint: Hashable, Sendable, Codable {
  /// Across: 0 is the left edge of the box, 1 the right.
  public var x: Double
  /// Down: 0 is the top edge of the box, 1 the bottom.
  public var y: Double

  /// A point in box units.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// A pointer position in screen points, mapped into a square number box at (`originX`, `originY`) with
  /// side `side` points.
  public init(screenX: Double, screenY: Double, boxOriginX: Double, boxOriginY: Double, boxSide: Double) {
    let side = boxSide > 0 ? boxSide : 1
    self.init(x: (screenX - boxOriginX) / side, y: (screenY - boxOriginY) / side)
  }

  /// Straight-line distance to `other`.
  public func distance(to other: TracePoint) -> Double {
    ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
  }
}

/// How to write the numbers 1…10 as strokes (polylines) in the 0…1 box; 10 is a "1" and a "0" side by side.
/// Curves are sampled finely enough that the polyline is within a hair of the curve.
public enum DigitStrokes {
  /// The numbers there are strokes for.
  public static let numbers = 1...10

  /// The strokes of `number` in writing order, or an empty list outside 1…10.
  public static func strokes(for number: Int) -> [[TracePoint]] {
    table[number] ?? []
  }

  private static let table: [Int: [[TracePoint]]] = [
    1: [points((0.36, 0.22), (0.54, 0.06), (0.54, 0.94))],
    // Top bow from the upper left over to the right, down the diagonal, along the base.
    2: [arc(cx: 0.5, cy: 0.3, r: 0.2, from: 200, to: 400) + points((0.3, 0.94), (0.72, 0.94))],
    // Two bows joined in the middle.
    3: [arc(cx: 0.5, cy: 0.29, r: 0.19, from: 210, to: 450) + arc(cx: 0.5, cy: 0.7, r: 0.22, from: 270, to: 510).dropFirst()],
    4: [points((0.58, 0.06), (0.24, 0.64), (0.8, 0.64)), points((0.62, 0.3), (0.62, 0.94))],
    // The stem and the belly in one stroke, then the flag on top.
    5: [points((0.34, 0.06)) + arc(cx: 0.5, cy: 0.67, r: 0.24, from: 225, to: 500), points((0.34, 0.06), (0.72, 0.06))],
    // A falling curve into a full loop at the bottom.
    6: [
      points((0.66, 0.08), (0.5, 0.16), (0.38, 0.3), (0.3, 0.46), (0.28, 0.6))
        + arc(cx: 0.5, cy: 0.69, r: 0.22, from: 180, to: -180)
    ],
    7: [points((0.26, 0.06), (0.74, 0.06), (0.42, 0.94))],
    // From the waist: round the top loop, then round the bottom loop the other way.
    8: [arc(cx: 0.5, cy: 0.28, r: 0.19, from: 90, to: -270) + arc(cx: 0.5, cy: 0.7, r: 0.23, from: -90, to: 270).dropFirst()],
    // The loop from its right side, then the tail down.
    9: [arc(cx: 0.48, cy: 0.3, r: 0.21, from: 0, to: -360) + points((0.64, 0.94))],
    10: [points((0.14, 0.22), (0.28, 0.06), (0.28, 0.94)), ellipse(cx: 0.64, cy: 0.5, rx: 0.2, ry: 0.43, from: 270, to: -90)],
  ]

  private static func points(_ pairs: (Double, Double)...) -> [TracePoint] {
    pairs.map { TracePoint(x: $0.0, y: $0.1) }
  }

  /// A circular arc; angles in degrees, 0 = right, 90 = down (screen coordinates), any direction.
  private static func arc(cx: Double, cy: Double, r: Double, from start: Double, to end: Double) -> [TracePoint] {
    ellipse(cx: cx, cy: cy, rx: r, ry: r, from: start, to: end)
  }

  private static func ellipse(cx: Double, cy: Double, rx: Double, ry: Double, from start: Double, to end: Double) -> [TracePoint]
  {
    // One point every 10°: the chord then strays from the curve by under 0.4 % of the radius.
    let steps = max(1, Int((abs(end - start) / 10).rounded(.up)))
    return (0...steps).map { step in
      let degrees = start + (end - start) * Double(step) / Double(steps)
      let radians = degrees * .pi / 180
      return TracePoint(x: cx + rx * cos(radians), y: cy + ry * sin(radians))
    }
  }
}
