import Foundation
import Synchronization

/// A source of "now" in seconds. Animations read time from one so tests can run in virtual time.
public protocol MotionClock: Sendable {
  /// Seconds since an arbitrary, fixed origin; never goes backwards.
  func now() -> Double
}

/// The real, monotonic clock.
public struct SystemMotionClock: MotionClock {
  public init() {}
  public func now() -> Double { ProcessInfo.processInfo.systemUptime }
}

/// A clock that only moves when told to, for tests and for scrubbing timelines.
public final class ManualMotionClock: MotionClock {
  private let current: Mutex<Double>

  /// Creates a clock that reads `start` until advanced.
  public init(start: Double = 0) {
    current = Mutex(start)
  }

  public func now() -> Double { current.withLock { $0 } }

  /// Moves time forward by `seconds` (negative values are ignored: time never runs backwards).
  public func advance(by seconds: Double) {
    current.withLock { $0 += max(0, seconds) }
  }
}
