import Foundation

/// One attempt at something: when it started (first input, not when the screen opened), paused time,
/// mistakes, hints, and when it finished.
public struct PlaySession: Hashable, Sendable, Codable {
  public private(set) var startedAt: Date?
  public private(set) var pausedAt: Date?
  /// Seconds spent paused so far (not counting a pause still running).
  public private(set) var pausedSeconds: Double = 0
  public private(set) var completedAt: Date?
  public private(set) var mistakes = 0
  public private(set) var hints = 0

  public init() {}

  /// Whether the clock has started.
  public var hasStarted: Bool { startedAt != nil }
  public var isPaused: Bool { pausedAt != nil }
  public var isCompleted: Bool { completedAt != nil }

  /// Starts the clock at the first input; later calls change nothing.
  public mutating func begin(at date: Date) {
    if startedAt == nil { startedAt = date }
  }

  /// Pauses a running session (ignored before the start, after completion, or when already paused).
  public mutating func pause(at date: Date) {
    guard hasStarted, !isPaused, !isCompleted else { return }
    pausedAt = date
  }

  /// Resumes a paused session; the paused time is excluded from the elapsed time.
  public mutating func resume(at date: Date) {
    guard let pausedAt else { return }
    pausedSeconds += max(0, date.timeIntervalSince(pausedAt))
    self.pausedAt = nil
  }

  /// Counts a mistake (and starts the clock if this is the first input).
  public mutating func recordMistake(at date: Date) {
    guard !isCompleted else { return }
    begin(at: date)
    mistakes += 1
  }

  /// Counts a hint (and starts the clock if this is the first input).
  public mutating func recordHint(at date: Date) {
    guard !isCompleted else { return }
    begin(at: date)
    hints += 1
  }

  /// Stops the clock for good; a paused session is resumed first so the pause is not counted.
  public mutating func complete(at date: Date) {
    guard !isCompleted else { return }
    begin(at: date)
    resume(at: date)
    completedAt = date
  }

  /// Playing time in seconds at `date`, excluding pauses; frozen once completed.
  public func elapsed(at date: Date) -> Double {
    guard let startedAt else { return 0 }
    let end = completedAt ?? pausedAt ?? date
    return max(0, end.timeIntervalSince(startedAt) - pausedSeconds)
  }

  /// `m:ss` for a number of seconds (whole seconds, rounded down; minutes are not capped).
  public static func formatted(seconds: Double) -> String {
    let total = seconds.isFinite ? max(0, Int(seconds)) : 0
    let minutes = total / 60
    let rest = total % 60
    return "\(minutes):" + (rest < 10 ? "0\(rest)" : "\(rest)")
  }
}
