import CompletionCore
import Foundation

/// A person's place in one challenge (the seed's `UserChallenge`), as a value: join, leave, complete,
/// and revoke (moderation) are commands; what the caller must do comes back as effects. A completion is
/// made at most once: a completed or revoked participation never completes again, so whatever the
/// sequence of commands, its points are paid once.
public struct Participation: Hashable, Sendable {
  public let challengeID: String
  public private(set) var status: ParticipationStatus
  /// 0…1: 1 exactly when completed (and standing).
  public private(set) var progress: Double
  public private(set) var joinedAt: Date
  public private(set) var completedAt: Date?
  /// The feed post of the completion.
  public private(set) var post: UUID?

  public init(challengeID: String, status: ParticipationStatus, progress: Double, joinedAt: Date, completedAt: Date? = nil, post: UUID? = nil) {
    self.challengeID = challengeID
    self.status = status
    self.progress = progress
    self.joinedAt = joinedAt
    self.completedAt = completedAt
    self.post = post
  }

  /// What a person (or moderation) does.
  public enum Command: Hashable, Sendable {
    /// Opt in (again, after leaving).
    case join(at: Date)
    case leave(at: Date)
    /// Complete at once (trust-based), shared as the feed post `post`.
    case complete(post: UUID, at: Date)
    /// Moderation took the completion back.
    case revoke
  }

  /// What the caller must do. No effect at all means nothing changed (a repeat).
  public enum Effect: Hashable, Sendable {
    case joined
    case left
    /// The first completion: pay `points`, count `streakDay` (dailies only), post `post` to the feed.
    case completed(points: Int, streakDay: CalendarDay?, post: UUID)
    /// Taken back: it no longer counts and cannot be completed again.
    case revoked
  }

  /// Whether it is completed and still counts, or was taken back: either way it is finished.
  public var isFinished: Bool { status == .completed || status == .revoked }

  /// Applies `command` to `participation` (nil: the person never joined) in `challenge`, on the person's
  /// `today`. Joining and completing need the challenge open on `today`; leaving and revoking do not.
  public static func handle(
    _ command: Command, _ participation: inout Participation?, in challenge: Challenge, today: CalendarDay
  ) throws(ChallengeRefusal) -> [Effect] {
    switch command {
    case .join(let now):
      try challenge.requireOpen(on: today)
      guard let current = participation else {
        participation = Participation(challengeID: challenge.id, status: .active, progress: 0, joinedAt: now)
        return [.joined]
      }
      guard current.status == .left else { return [] }
      participation?.status = .active
      participation?.joinedAt = now
      return [.joined]
    case .leave:
      guard let current = participation else { return [] }
      switch current.status {
      case .completed, .revoked: throw .alreadyCompleted
      case .left: return []
      case .active:
        participation?.status = .left
        participation?.progress = 0
        return [.left]
      }
    case .complete(let post, let now):
      try challenge.requireOpen(on: today)
      if let current = participation, current.isFinished { return [] }
      var completed = participation ?? Participation(challengeID: challenge.id, status: .active, progress: 0, joinedAt: now)
      completed.status = .completed
      completed.progress = 1
      completed.completedAt = now
      completed.post = post
      participation = completed
      return [.completed(points: challenge.points, streakDay: challenge.type == .daily ? challenge.start : nil, post: post)]
    case .revoke:
      return participation?.revoke() == true ? [.revoked] : []
    }
  }

  /// Takes a completion back (moderation): true when it was a standing completion. Needs no challenge
  /// or day, so a revoke works for any completion, however old.
  public mutating func revoke() -> Bool {
    guard status == .completed else { return false }
    status = .revoked
    progress = 0
    return true
  }
}

extension Challenge {
  /// Refuses unless it can be joined and completed on `day`.
  public func requireOpen(on day: CalendarDay) throws(ChallengeRefusal) {
    guard isOpen(on: day) else { throw start > day ? .challengeNotStarted : .challengeClosed }
  }
}

extension ChallengeCatalogue {
  /// The challenge `id` names: any this catalogue could have offered (one joined earlier too), with its dates.
  public func challenge(_ id: String?) throws(ChallengeRefusal) -> Challenge {
    guard let id, let parsed = ChallengeID(id), let template = template(parsed.slug), template.type == parsed.type,
      let offered = challenges(on: parsed.start).first(where: { $0.id == parsed.description })
    else { throw .challengeNotFound }
    return offered
  }
}
