import Foundation

/// Trust with an audit trail: a completion is believed when it is made; people who see it may report it;
/// enough reports hide it from feeds until an operator keeps it (shown again) or revokes it (hidden for
/// good, its points clawed back and the streak corrected).
public struct ModerationState: Hashable, Sendable, Codable {
  /// Whether feeds show the completion.
  public enum Status: String, Hashable, Sendable, Codable {
    case visible
    /// Hidden until an operator looks at it.
    case pendingReview = "pending_review"
    case revoked
  }

  public private(set) var status: Status
  /// Reports since the last review.
  public private(set) var reports: Int
  /// Whether an operator kept it: reports already seen do not hide it again.
  public private(set) var kept: Bool

  public init(status: Status = .visible, reports: Int = 0, kept: Bool = false) {
    self.status = status
    self.reports = max(reports, 0)
    self.kept = kept
  }

  /// What happens to a completion.
  public enum Event: Hashable, Sendable {
    /// Someone reported it (each person once: the caller drops a repeat before it gets here).
    case reported
    /// An operator looked and kept it.
    case kept
    /// An operator looked and revoked it.
    case revoked
  }

  /// What the caller must do.
  public enum Effect: Hashable, Sendable {
    /// Take it out of feeds (pending review).
    case hide
    /// Show it in feeds again.
    case show
    /// Pay back its points and recount the streak without it.
    case clawBack
  }

  /// Why an event was refused.
  public enum Refusal: Error, Hashable, Sendable {
    /// It was revoked already: nothing changes any more.
    case alreadyRevoked
  }

  /// Applies `event` under `threshold` (reports that hide it). A kept completion needs `threshold` new
  /// reports to be hidden again.
  public mutating func handle(_ event: Event, threshold: Int) throws(Refusal) -> [Effect] {
    guard status != .revoked else { throw .alreadyRevoked }
    switch event {
    case .reported:
      reports += 1
      if status == .visible, reports >= max(threshold, 1) {
        status = .pendingReview
        return [.hide]
      }
      return []
    case .kept:
      let wasHidden = status == .pendingReview
      status = .visible
      reports = 0
      kept = true
      return wasHidden ? [.show] : []
    case .revoked:
      let wasVisible = status == .visible
      status = .revoked
      return wasVisible ? [.hide, .clawBack] : [.clawBack]
    }
  }
}
