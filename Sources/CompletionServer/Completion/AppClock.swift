import NIOConcurrencyHelpers
import Vapor

/// The server's idea of "now". Real time, plus an offset that only the test hook can move, so browser
/// tests can run a five-minute video clock to its end without waiting five minutes. The hook can also stop
/// real time from counting, so a test that adds up play time gets exact sums however slow the machine is.
final class AppClock: Sendable {
  private struct State {
    var offset: TimeInterval = 0
    /// When set, real time no longer moves the clock; only ``advance(by:)`` does.
    var frozenAt: Date?
  }

  private let state = NIOLockedValueBox(State())

  /// The current time as the game rules see it.
  func now() -> Date {
    state.withLockedValue { ($0.frozenAt ?? Date()).addingTimeInterval($0.offset) }
  }

  /// Moves the clock forward (test hook only).
  func advance(by seconds: TimeInterval) {
    state.withLockedValue { $0.offset += seconds }
  }

  /// Moves the clock to `date` (test hook only; it may move backwards, for tests that replay a day).
  func set(to date: Date) {
    state.withLockedValue { state in state.offset = date.timeIntervalSince(state.frozenAt ?? Date()) }
  }

  /// Stops real time from moving the clock (test hook only); the clock keeps the time it shows now.
  func freeze() {
    state.withLockedValue { state in
      if state.frozenAt == nil { state.frozenAt = Date() }
    }
  }

  /// Lets real time move the clock again (test hook only), from the time it shows now: no jump.
  func thaw() {
    state.withLockedValue { state in
      guard let frozenAt = state.frozenAt else { return }
      let shown = frozenAt.addingTimeInterval(state.offset)
      state.frozenAt = nil
      state.offset = shown.timeIntervalSince(Date())
    }
  }
}
