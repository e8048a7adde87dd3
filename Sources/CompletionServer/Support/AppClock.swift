import NIOConcurrencyHelpers
import Vapor

/// The server's idea of "now". Real time, plus an offset that only the test hook can move, so browser
/// tests can run a five-minute video clock to its end without waiting five minutes.
final class AppClock: Sendable {
  private let offset = NIOLockedValueBox<TimeInterval>(0)

  /// The current time as the game rules see it.
  func now() -> Date { Date().addingTimeInterval(offset.withLockedValue { $0 }) }

  /// Moves the clock forward (test hook only).
  func advance(by seconds: TimeInterval) {
    offset.withLockedValue { $0 += seconds }
  }
}

extension Application {
  private struct AppClockKey: StorageKey {
    typealias Value = AppClock
  }

  /// The clock every game rule is given (set by `configure`).
  var clock: AppClock {
    get {
      guard let clock = storage[AppClockKey.self] else { preconditionFailure("configure(_:options:) sets the clock") }
      return clock
    }
    set { storage[AppClockKey.self] = newValue }
  }
}
