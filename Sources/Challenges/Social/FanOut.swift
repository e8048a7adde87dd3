import Foundation

/// Where a new post is delivered. An ordinary account's post is copied into every follower's feed when
/// it is written (fan-out on write); a very big account's is not (copying one post into millions of
/// feeds costs too much): its followers merge it in when they read (``FeedMerge``).
public enum FanOut: Hashable, Sendable {
  /// A notice for one person (a follow): into their feed only.
  case addressee(UUID)
  /// Into the author's feed and every follower's.
  case copyToFollowers
  /// Into the author's feed only; followers merge it in when they read.
  case mergeOnRead

  /// The delivery of a post to `recipient` (a notice) or, without one, to the followers of an author who
  /// has `followers` of them, when accounts with more than `limit` followers are merged on read.
  public static func decide(recipient: UUID?, followers: Int, limit: Int) -> FanOut {
    if let recipient { return .addressee(recipient) }
    return followers <= limit ? .copyToFollowers : .mergeOnRead
  }

  /// Whether the post was copied into the feeds it belongs in (false: followers merge it in on read).
  public var isCopied: Bool { self != .mergeOnRead }
}
