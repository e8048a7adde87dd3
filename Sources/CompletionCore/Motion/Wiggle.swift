/// The letter-cell wiggle of a solved puzzle (seed 000): each cell springs sideways to a random offset
/// in −3…3 points, delayed by `(index % 5) × 0.05` s, with a loose spring (0.15 / 0.2) repeated three times
/// with autoreverse (out, back, out), then home, so it ends at rest without a jump when the seed switches the
/// wiggle off 0.6 s after the trigger.
///
/// Timing: the spring's whole motion, bounces and settling included, plays in each leg, and the legs share
/// the time between the last cell's start and the switch-off (4 legs of 0.1 s). Played at its own settling
/// time (about 0.8 s for 0.15 / 0.2) a leg would not even finish before 0.6 s: one swing, then a jump home.
public struct Wiggle: Hashable, Sendable {
  /// One cell's part: where it springs to and when it starts.
  public struct Cell: Hashable, Sendable, Codable {
    public let index: Int
    public let offset: Double
    public let delay: Double

    /// The cell at `index`, springing to `offset` points from `delay` seconds after the trigger.
    public init(index: Int, offset: Double, delay: Double) {
      self.index = index
      self.offset = offset
      self.delay = delay
    }
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

  /// The legs: the repeated spring, and one more home when the repeats end away from rest.
  public var legCount: Int {
    autoreverses && repeatCount % 2 == 0 ? repeatCount : repeatCount + 1
  }

  /// Seconds one leg lasts: the legs fit between the last cell's start and `resetAfter`.
  public var legDuration: Double {
    max(resetAfter - delay(for: delayGroup - 1), 0.001) / Double(legCount)
  }

  /// Horizontal offset of `cell` at `time` seconds after the trigger: out on even legs, back on odd ones,
  /// 0 before its start and after its last leg.
  public func offset(of cell: Cell, at time: Double) -> Double {
    let elapsed = time - cell.delay
    guard elapsed > 0 else { return 0 }
    let leg = legDuration
    let legIndex = Int(elapsed / leg)
    guard legIndex < legCount else { return 0 }
    let progress = spring.value(at: (elapsed - Double(legIndex) * leg) / leg * spring.settlingTime)
    let out = !autoreverses || legIndex % 2 == 0
    if legIndex == legCount - 1, legCount > repeatCount { return cell.offset * (1 - progress) }  // home
    return out ? cell.offset * progress : cell.offset * (1 - progress)
  }
}
