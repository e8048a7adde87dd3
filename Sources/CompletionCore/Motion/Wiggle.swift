/// The letter-cell wiggle of a solved puzzle (seed 000): each cell springs sideways to a random offset
/// in −3…3 points, delayed by `(index % 5) × 0.05` s, with a loose spring (0.15 / 0.2) repeated three times
/// with autoreverse; 0.6 s after the trigger every cell snaps home.
public struct Wiggle: Hashable, Sendable {
  /// One cell's part: where it springs to and when it starts.
  public struct Cell: Hashable, Sendable, Codable {
    public let index: Int
    public let offset: Double
    public let delay: Double
  }

  public let maxOffset: Double
  public let delayStep: Double
  public let delayGroup: Int
  public let spring: Spring
  public let repeatCount: Int
  public let autoreverses: Bool
  /// Seconds after the trigger when the wiggle is switched off and cells return to rest.
  public let resetAfter: Double

  public init(
    maxOffset: Double = 3, delayStep: Double = 0.05, delayGroup: Int = 5,
    spring: Spring = Spring(response: 0.15, dampingFraction: 0.2), repeatCount: Int = 3, autoreverses: Bool = true,
    resetAfter: Double = 0.6
  ) {
    self.maxOffset = maxOffset
    self.delayStep = delayStep
    self.delayGroup = max(delayGroup, 1)
    self.spring = spring
    self.repeatCount = max(repeatCount, 1)
    self.autoreverses = autoreverses
    self.resetAfter = resetAfter
  }

  /// The seed's wiggle.
  public static let completion = Wiggle()

  /// Delay for the cell at `index`: `(index % 5) × 0.05` s.
  public func delay(for index: Int) -> Double {
    Double(index % delayGroup) * delayStep
  }

  /// Offsets and delays for `count` cells, random offsets drawn from `generator`.
  public func cells<G: RandomNumberGenerator>(count: Int, using generator: inout G) -> [Cell] {
    (0..<max(count, 0)).map { index in
      Cell(index: index, offset: Double.random(in: -maxOffset...maxOffset, using: &generator), delay: delay(for: index))
    }
  }

  /// Seconds one leg (there or back) of the repeated spring lasts.
  public var legDuration: Double { spring.settlingTime }

  /// Horizontal offset of `cell` at `time` seconds after the trigger.
  public func offset(of cell: Cell, at time: Double) -> Double {
    guard time < resetAfter else { return 0 }
    let elapsed = time - cell.delay
    guard elapsed > 0 else { return 0 }
    let leg = legDuration
    let legIndex = Int(elapsed / leg)
    if legIndex >= repeatCount {
      // An odd number of autoreversing legs ends at the target, as SwiftUI's repeatCount does.
      return autoreverses && repeatCount % 2 == 0 ? 0 : cell.offset
    }
    let progress = spring.value(at: elapsed - Double(legIndex) * leg)
    let goingBack = autoreverses && legIndex % 2 == 1
    return goingBack ? cell.offset * (1 - progress) : cell.offset * progress
  }
}
