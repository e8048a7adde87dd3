import Foundation

/// A feed post (the seed's `Activity`): a challenge completion, or a follow notice. Who may see it, its
/// public link, and its moderation are rules of the value; the counts are kept by the store.
public struct Post: Hashable, Sendable {
  /// The kinds of post.
  public enum Kind: String, CaseIterable, Hashable, Sendable {
    case challengeCompleted = "challenge_completed"
    case follow
  }

  /// The challenge a completion is of.
  public struct ChallengeInfo: Hashable, Sendable {
    public let id: String
    public let title: String
    public let type: String

    public init(id: String, title: String, type: String) {
      self.id = id
      self.title = title
      self.type = type
    }
  }

  public let id: UUID
  public let author: Person
  public let kind: Kind
  /// Microseconds since 1970 (the feed's order).
  public let at: Int64
  public let title: String
  public let subtitle: String
  public let photo: UUID?
  public let story: String?
  public let challenge: ChallengeInfo?
  /// The points the completion paid (shown while it stands).
  public let points: Int?
  /// The completion's key in the pipeline (what a revoke takes back).
  public let completionKey: String?
  /// A notice's one addressee.
  public let recipient: UUID?
  /// Whether it was copied into followers' feeds (false: they merge it in when they read).
  public internal(set) var fannedOut: Bool
  public internal(set) var moderation: ModerationState
  public internal(set) var congrats: Int
  public internal(set) var comments: Int
  public internal(set) var publicLink: Bool

  public init(
    id: UUID, author: Person, kind: Kind, at: Int64, title: String, subtitle: String, photo: UUID? = nil, story: String? = nil,
    challenge: ChallengeInfo? = nil, points: Int? = nil, completionKey: String? = nil, recipient: UUID? = nil, fannedOut: Bool = true,
    moderation: ModerationState = ModerationState(), congrats: Int = 0, comments: Int = 0, publicLink: Bool = false
  ) {
    self.id = id
    self.author = author
    self.kind = kind
    self.at = at
    self.title = title
    self.subtitle = subtitle
    self.photo = photo
    self.story = story
    self.challenge = challenge
    self.points = points
    self.completionKey = completionKey
    self.recipient = recipient
    self.fannedOut = fannedOut
    self.moderation = moderation
    self.congrats = congrats
    self.comments = comments
    self.publicLink = publicLink
  }

  /// Its place in feeds.
  public var position: FeedPosition { FeedPosition(at: at, id: id.uuidString) }
  public var isCompletion: Bool { kind == .challengeCompleted }
  public var isVisible: Bool { moderation.status == .visible }
  public var isRevoked: Bool { moderation.status == .revoked }

  // MARK: Who may see it

  /// Whether someone may see a post, as far as the post alone can tell.
  public enum Access: Hashable, Sendable {
    case allowed
    case denied
    /// Allowed when the viewer follows the author (the caller asks the social graph).
    case ifFollowing
  }

  /// Who may see it: its author always; others while it is visible, when it is addressed to them or they
  /// follow its author. Nobody without an account.
  public func access(for viewer: UUID?) -> Access {
    guard let viewer else { return .denied }
    if viewer == author.id { return .allowed }
    guard isVisible else { return .denied }
    if recipient == viewer { return .allowed }
    return .ifFollowing
  }

  /// Whether `viewer` may see it, `followsAuthor` telling the social graph's answer.
  public func isVisible(to viewer: UUID?, followsAuthor: Bool) -> Bool {
    switch access(for: viewer) {
    case .allowed: true
    case .denied: false
    case .ifFollowing: followsAuthor
    }
  }

  /// Whether its public page and public card work for anyone: a completion in feeds with its link on.
  public var isPublic: Bool { publicLink && isVisible && isCompletion }
  /// Whether it has a public share path to offer (a post out of feeds has no working link).
  public var offersShareLink: Bool { isCompletion && isVisible }
  /// Whether it has a share card: a revoked completion's points were paid back, and no card says otherwise.
  public var hasCard: Bool { isCompletion && !isRevoked }
  /// The points to show: none once revoked.
  public var shownPoints: Int? { isRevoked ? nil : points }

  // MARK: Commands

  /// What the author, readers and operators do to a post.
  public enum Command: Hashable, Sendable {
    /// The author turns the public link on or off.
    case setPublicLink(Bool, by: UUID)
    /// Someone who may see it reports it (each person once: the store drops a repeat before it gets here).
    case report(by: UUID, threshold: Int)
    /// An operator keeps it (shown again) or revokes it (hidden for good, points paid back).
    case review(ModerationDecision, threshold: Int)
  }

  /// What the caller must do.
  public enum Effect: Hashable, Sendable {
    case publicLinkChanged
    /// Out of feeds (pending review, or revoked).
    case hide
    /// In feeds again.
    case show
    /// Pay back its points, take back the participation and count the streak without it.
    case clawBack
  }

  /// Applies `command`.
  public mutating func handle(_ command: Command) throws(ChallengeRefusal) -> [Effect] {
    switch command {
    case .setPublicLink(let on, let user):
      try requireAuthor(user)
      if on && !isVisible { throw .postNotPublic }
      guard publicLink != on else { return [] }
      publicLink = on
      return [.publicLinkChanged]
    case .report(let reporter, let threshold):
      try requireReportable(by: reporter)
      return try moderate(.reported, threshold: threshold)
    case .review(let decision, let threshold):
      guard isCompletion else { throw .postNotFound }
      return try moderate(decision == .keep ? .kept : .revoked, threshold: threshold)
    }
  }

  /// Refuses anyone but its author (who alone may change its settings).
  public func requireAuthor(_ user: UUID) throws(ChallengeRefusal) {
    guard user == author.id else { throw .notYours }
  }

  /// Refuses a report by its author.
  public func requireReportable(by reporter: UUID) throws(ChallengeRefusal) {
    guard reporter != author.id else { throw .cannotReportOwn }
  }

  private mutating func moderate(_ event: ModerationState.Event, threshold: Int) throws(ChallengeRefusal) -> [Effect] {
    do throws(ModerationState.Refusal) {
      return try moderation.handle(event, threshold: threshold).map { effect in
        switch effect {
        case .hide: .hide
        case .show: .show
        case .clawBack: .clawBack
        }
      }
    } catch {
      throw .alreadyRevoked
    }
  }

  // MARK: Comments

  /// Whether `user` may delete a comment by `commenter` on a post by `postAuthor`: their own comment, or
  /// any comment on their own post.
  public static func mayDeleteComment(by user: UUID, commenter: UUID, postAuthor: UUID) -> Bool {
    user == commenter || user == postAuthor
  }
}

/// What an operator decides about a reported completion.
public enum ModerationDecision: String, Hashable, Sendable {
  case keep, revoke
}
