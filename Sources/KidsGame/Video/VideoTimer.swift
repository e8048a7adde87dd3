import CompletionCore
import Foundation

/// The clock of one paid video: the server holds it, and it alone decides when the video ends. It pauses
/// while the app is in the background. There is no way to extend, restart or seek it.
public struct VideoTimer: Hashable, Sendable, Codable {
  /// The warning comes with this many seconds left.
  public static let warningSeconds = 60.0
  /// After time up, "Zeit ist um!" stays this long before home.
  public static let timeUpHoldSeconds = 3.0

  /// What a tick found.
  public enum Signal: Hashable, Sendable {
    /// One minute left (once per video).
    case oneMinuteLeft
    /// No time left (once per video).
    case timeUp
  }

  /// Minutes paid for (5 or 12).
  public let grantedMinutes: Int
  /// When the video started.
  public let startedAt: Date
  /// Running time and pauses, kept by the core's session clock.
  public private(set) var session: PlaySession
  /// Whether the one-minute warning has been given.
  public private(set) var hasWarned = false
  /// Whether time is up.
  public private(set) var isFinished = false

  /// A clock of `grantedMinutes` that starts at `startedAt`.
  public init(grantedMinutes: Int, startedAt: Date) {
    self.grantedMinutes = grantedMinutes
    self.startedAt = startedAt
    var session = PlaySession()
    session.begin(at: startedAt)
    self.session = session
  }

  /// Seconds granted.
  public var grantedSeconds: Double { Double(grantedMinutes) * 60 }

  /// Seconds left at `date` (never below zero; paused time does not count).
  public func remaining(at date: Date) -> Double {
    max(0, grantedSeconds - session.elapsed(at: date))
  }

  /// Share of the time left, 1 → 0: the green arc of the clock.
  public func fractionRemaining(at date: Date) -> Double {
    grantedSeconds > 0 ? remaining(at: date) / grantedSeconds : 0
  }

  /// The hand's angle in degrees, clockwise from 12: a full turn over the granted time.
  public func handAngle(at date: Date) -> Double {
    (1 - fractionRemaining(at: date)) * 360
  }

  /// Whole minutes left, rounded up (what "Noch [X] Minuten" shows).
  public func minutesLeft(at date: Date) -> Int {
    Int((remaining(at: date) / 60).rounded(.up))
  }

  /// The label under the clock: "Noch 3 Minuten", "Noch 1 Minute", "Zeit ist um!".
  public func label(at date: Date) -> String {
    switch minutesLeft(at: date) {
    case 0: ScreenText.timeUp.text()
    case 1: ScreenText.oneMinuteLeft.text()
    case let minutes: ScreenText.minutesLeft.text(LineValues(x: minutes))
    }
  }

  /// Checks the clock at `date`: the one-minute warning once, then time up once. A clock that skipped
  /// past the warning straight to zero only reports time up.
  public mutating func tick(at date: Date) -> [Signal] {
    guard !isFinished else { return [] }
    let left = remaining(at: date)
    if left <= 0 {
      isFinished = true
      hasWarned = true
      session.complete(at: date)
      return [.timeUp]
    }
    if left <= Self.warningSeconds, !hasWarned {
      hasWarned = true
      return [.oneMinuteLeft]
    }
    return []
  }

  /// Stops the clock (app in the background).
  public mutating func pause(at date: Date) {
    session.pause(at: date)
  }

  /// Runs the clock on (app back in the foreground).
  public mutating func resume(at date: Date) {
    session.resume(at: date)
  }

  /// Whether the clock is paused (app in the background).
  public var isPaused: Bool { session.isPaused }
}
