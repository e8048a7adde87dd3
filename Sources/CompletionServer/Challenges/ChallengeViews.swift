import Challenges
import CompletionCore
import CompletionAPI
import Foundation
import Vapor

/// How the feature's values look on the wire.
extension Participation {
  var view: ParticipationView {
    ParticipationView(
      status: status.rawValue, progress: progress, joinedAt: joinedAt.timeIntervalSince1970, completedAt: completedAt?.timeIntervalSince1970,
      activityId: post?.uuidString)
  }
}

extension Person {
  var view: PersonView { PersonView(id: id.uuidString, username: username, displayName: displayName) }
}

extension PostComment {
  func view(for viewer: UUID) -> CommentView {
    CommentView(id: id.uuidString, author: author.view, body: body, createdAt: Double(at) / 1_000_000, isMine: author.id == viewer)
  }
}

extension Post {
  /// The card as `viewer` sees it (`congratulated`: whether they did). A post out of feeds has no working
  /// public link; a revoked one no card and no points (they were paid back).
  func view(for viewer: UUID?, congratulated: Bool) -> FeedItemView {
    FeedItemView(
      id: id.uuidString, type: kind.rawValue, actor: author.view, createdAt: Double(at) / 1_000_000, title: title, subtitle: subtitle,
      photoUrl: photo.map { "/api/photos/\($0.uuidString)" }, thumbnailUrl: photo.map { "/api/photos/\($0.uuidString)?size=thumbnail" },
      story: story, challengeId: challenge?.id, challengeTitle: challenge?.title, challengeType: challenge?.type, points: shownPoints,
      congrats: congrats, congratulated: congratulated, comments: comments, isMine: viewer == author.id, publicLink: publicLink,
      shareUrl: offersShareLink ? "/s/\(id.uuidString)" : nil, cardUrl: hasCard ? "/api/activities/\(id.uuidString)/card.png" : nil,
      status: moderation.status.rawValue, share: sharable ? ShareText(post: self, viewer: viewer).map(\.view) : nil)
  }

  /// Whether a share sheet may offer it: a completion that is not revoked (a post under review is still
  /// its author's to share as a card; a revoked one has nothing left to share).
  private var sharable: Bool { moderation.status != .revoked }
}

extension ShareText {
  var view: ShareTextView { ShareTextView(headline: headline, hashtags: hashtags, caption: caption) }
}

extension ChallengesError {
  /// The HTTP refusal for a refusal of the rules.
  init(_ refusal: ChallengeRefusal) {
    switch refusal {
    case .challengeNotFound: self = .challengeNotFound
    case .challengeClosed: self = .challengeClosed
    case .challengeNotStarted: self = .challengeNotStarted
    case .alreadyCompleted: self = .alreadyCompleted
    case .guestCannotFollow: self = .guestCannotFollow
    case .cannotFollowSelf: self = .cannotFollowSelf
    case .postNotFound: self = .activityNotFound
    case .postNotPublic: self = .postNotPublic
    case .notYours: self = .notYours
    case .cannotReportOwn: self = .cannotReportOwn
    // A revoked post is out of everyone's feed but its author's, and its author cannot report it.
    case .alreadyRevoked: self = .activityNotFound
    case .commentNotFound: self = .commentNotFound
    case .emptyComment: self = .emptyComment
    case .tooLong(let field, let limit): self = .tooLong(field: field, limit: limit)
    case .invalidFilter(let filter): self = .invalidFilter(filter)
    }
  }
}

/// A refusal of the rules answers as its HTTP twin in ``ChallengesError``.
extension ChallengeRefusal: APIErrorConvertible {
  public var status: HTTPResponseStatus { ChallengesError(self).status }
  public var code: String { ChallengesError(self).code }
  public var message: String { ChallengesError(self).message }
}

extension Streak {
  /// The daily streak's freezes as they stand on `today`: days missed before today are covered (on a copy,
  /// nothing is saved), so "held" and "used on" are what a completion today would find.
  static func freezesView(_ streak: Streak, today: CalendarDay, zone: TimeZone, balance: Int) -> StreakFreezesView {
    let rule = ChallengeCompletion.streak
    let standing = streak.settled(on: today, in: zone, rule: rule)
    return StreakFreezesView(
      held: standing.freezes, max: rule.maxFreezes, price: ChallengeCompletion.freezePrice, usedOn: standing.frozenDays.map(\.description),
      unavailable: StreakFreezes.unavailable(standing, balance: balance, price: ChallengeCompletion.freezePrice, rule: rule))
  }
}
