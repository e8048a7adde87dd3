import Foundation

/// A pending action on a ``ModelClock``; cancelling it keeps it from running.
@MainActor
public final class ScheduledAction {
  fileprivate var action: (@MainActor () -> Void)?
  fileprivate let deadline: Date
  fileprivate let order: Int
  fileprivate var task: Task<Void, Never>?

  fileprivate init(deadline: Date, order: Int, action: @escaping @MainActor () -> Void) {
    self.deadline = deadline
    self.order = order
    self.action = action
  }

  /// Stops the action from running (nothing happens when it already ran).
  public func cancel() {
    action = nil
    task?.cancel()
    task = nil
  }

  /// Whether it is still waiting.
  public var isPending: Bool { action != nil }

  fileprivate func fire() {
    guard let action else { return }
    self.action = nil
    task = nil
    action()
  }
}

/// Where the models get the time: what time it is, and "do this in so many seconds". Models never call
/// `Date()` or `Task.sleep` themselves, so a test or a preview moves time itself (``ManualModelClock``).
@MainActor
public protocol ModelClock: AnyObject {
  /// Now.
  var now: Date { get }
  /// Runs `action` on the main actor `seconds` from now (at once, on the next turn, for 0 or less).
  @discardableResult
  func schedule(after seconds: Double, _ action: @escaping @MainActor () -> Void) -> ScheduledAction
}

/// Real time: the system's date and `Task.sleep`.
@MainActor
public final class SystemModelClock: ModelClock {
  private var count = 0

  public init() {}

  public var now: Date { Date() }

  @discardableResult
  public func schedule(after seconds: Double, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
    count += 1
    let scheduled = ScheduledAction(deadline: now.addingTimeInterval(seconds), order: count, action: action)
    let nanoseconds = UInt64(max(0, seconds) * 1_000_000_000)
    // The task keeps the action alive until it runs: a caller that does not keep the handle still gets it
    // run (the handle is only needed to cancel).
    scheduled.task = Task {
      try? await Task.sleep(nanoseconds: nanoseconds)
      guard !Task.isCancelled else { return }
      scheduled.fire()
    }
    return scheduled
  }
}

/// Time that moves only when told: ``advance(by:)`` runs every action that falls due, in deadline order,
/// before it returns (including actions those actions schedule within the span). For tests and previews.
/// Time is kept in whole nanoseconds, so steps that add up to a deadline reach it exactly.
@MainActor
public final class ManualModelClock: ModelClock {
  private let start: Date
  private var elapsed: Int64 = 0
  private var pending: [(deadline: Int64, order: Int, action: ScheduledAction)] = []
  private var count = 0

  /// A clock reading `start`.
  public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
    self.start = start
  }

  public var now: Date { start.addingTimeInterval(Double(elapsed) / 1_000_000_000) }

  @discardableResult
  public func schedule(after seconds: Double, _ action: @escaping @MainActor () -> Void) -> ScheduledAction {
    count += 1
    let deadline = elapsed + Self.nanoseconds(seconds)
    let scheduled = ScheduledAction(deadline: now.addingTimeInterval(max(0, seconds)), order: count, action: action)
    pending.append((deadline, count, scheduled))
    return scheduled
  }

  /// Moves time forward by `seconds`, running what falls due on the way at its own time.
  public func advance(by seconds: Double) {
    let end = elapsed + Self.nanoseconds(seconds)
    while true {
      pending.removeAll { !$0.action.isPending }
      guard let next = pending.filter({ $0.deadline <= end }).min(by: { ($0.deadline, $0.order) < ($1.deadline, $1.order) }) else { break }
      elapsed = max(elapsed, next.deadline)
      next.action.fire()
    }
    elapsed = end
  }

  /// How many actions are waiting.
  public var pendingCount: Int { pending.filter(\.action.isPending).count }

  private static func nanoseconds(_ seconds: Double) -> Int64 {
    Int64((max(0, seconds) * 1_000_000_000).rounded())
  }
}
