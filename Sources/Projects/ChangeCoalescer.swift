/// Joins changes that arrive close together into one update (the seed's 100 ms debounce, done better:
/// the first change of a burst opens a window and the window's end sends everything it collected, so a
/// steady stream of changes still sends an update every window instead of never).
///
/// Pure: the caller supplies the time and runs the timer.
public struct ChangeCoalescer<Key: Hashable & Sendable>: Sendable {
  /// Seconds a window stays open (0.1, as in the seed).
  public let window: Double
  private var pending: Set<Key> = []
  private var deadline: Double?

  public static var defaultWindow: Double { 0.1 }

  public init(window: Double = Self.defaultWindow) {
    self.window = max(window, 0)
  }

  /// Notes a change of `key` at `now`. Returns the time to flush when this change opened a window (the
  /// caller starts one timer for it), nil when a window is already open.
  public mutating func note(_ key: Key, at now: Double) -> Double? {
    pending.insert(key)
    guard deadline == nil else { return nil }
    let due = now + window
    deadline = due
    return due
  }

  /// Whether a window is open.
  public var isWaiting: Bool { deadline != nil }

  /// Everything collected since the window opened; closes the window.
  public mutating func flush() -> Set<Key> {
    defer {
      pending.removeAll(keepingCapacity: true)
      deadline = nil
    }
    return pending
  }
}
