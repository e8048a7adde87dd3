/// Plays a choreography against a clock (seed 002's `ChoreographyState`): start, reset, restart, and
/// which steps are active now. Time comes from an injected ``MotionClock`` so tests run in virtual time.
public struct ChoreographyState: Sendable {
  public let choreography: Choreography
  private let clock: any MotionClock
  /// Clock reading when the sequence started, or nil while idle.
  public private(set) var startedAt: Double?

  public init(
    _ choreography: Choreography, preference: MotionPreference = .full, clock: any MotionClock = SystemMotionClock()
  ) {
    self.choreography = choreography.adapted(to: preference)
    self.clock = clock
  }

  /// Starts the sequence now. Starting a running sequence changes nothing (use ``restart()``).
  public mutating func start() {
    if startedAt == nil { startedAt = clock.now() }
  }

  /// Hides every step again and stops.
  public mutating func reset() {
    startedAt = nil
  }

  /// Resets and starts again from the beginning.
  public mutating func restart() {
    reset()
    start()
  }

  /// Seconds since the start, or nil while idle.
  public var elapsed: Double? {
    startedAt.map { clock.now() - $0 }
  }

  /// Whether the step's delay has passed since the start.
  public func isActive(_ stepID: String) -> Bool {
    guard let elapsed, let step = choreography.step(stepID) else { return false }
    return elapsed >= step.delay
  }

  /// The step's progress now (0 while idle or unknown).
  public func progress(of stepID: String) -> Double {
    guard let elapsed, let step = choreography.step(stepID) else { return 0 }
    return step.progress(at: elapsed)
  }

  /// How the step's element looks now.
  public func appearance(of stepID: String) -> Appearance {
    guard let step = choreography.step(stepID) else { return .identity }
    guard let elapsed else { return step.from }
    return step.appearance(at: elapsed)
  }

  /// Whether every step has finished.
  public var isFinished: Bool {
    guard let elapsed else { return false }
    return elapsed >= choreography.totalDuration
  }
}
