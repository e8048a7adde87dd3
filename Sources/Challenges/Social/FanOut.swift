import Foundation

/// Where a new post is delivered. An account with few followers has its post copied into every follower's
/// feed in the completion's own transaction (fan-out on write); a bigger one's is written to an outbox with
/// the post and copied into its followers' feeds afterwards, a batch per short write, so a completion's cost
/// does not grow with its author's followers and other writes never wait behind one long copy; until copied,
/// its followers merge it in when they read (``FeedMerge``). A very big account's post is never copied
/// (millions of feeds cost too much): it is always merged on read.
public enum FanOut: Hashable, Sendable {
  /// A notice for one person (a follow): into their feed only.
  case addressee(UUID)
  /// Into the author's feed and every follower's, at once.
  case copyToFollowers
  /// Into the author's feed at once; into every follower's by ``FanOutBatch``es after the post is written,
  /// merged on read until then.
  case copyLater
  /// Into the author's feed only; followers merge it in when they read.
  case mergeOnRead

  /// Followers copied inside the completion's transaction: copying costs the single writer 6–8 µs a
  /// follower, so 100 keep a completion under a millisecond of copying; more go through the outbox.
  public static let copyAtOnceLimit = 100

  /// The delivery of a post to `recipient` (a notice) or, without one, to the followers of an author who
  /// has `followers` of them: copied at once up to `copyAtOnce`, later up to `limit`, merged on read beyond.
  public static func decide(recipient: UUID?, followers: Int, limit: Int, copyAtOnce: Int = copyAtOnceLimit) -> FanOut {
    if let recipient { return .addressee(recipient) }
    if followers <= min(copyAtOnce, limit) { return .copyToFollowers }
    return followers <= limit ? .copyLater : .mergeOnRead
  }

  /// Whether the post is in every feed it belongs in once written (false: followers merge it in on read
  /// until it is copied, or for good).
  public var isCopied: Bool {
    switch self {
    case .addressee, .copyToFollowers: true
    case .copyLater, .mergeOnRead: false
    }
  }
}

/// How the outbox's copying goes: followers a write. 64 keep a waiting completion's p99 within 20 ms at 1,600 and 5,000
/// followers (256 held the writer long enough to push it to 42 ms at 1,600; `completionkit-bench fanout`).
public enum FanOutBatch {
  /// Followers copied in one write at most.
  public static let size = 64
  /// Followers copied in one step of a write: between steps the write ends early when a request's write is
  /// waiting for the writer, so that write waits for one step (about a quarter of a batch) rather than a whole batch.
  public static let step = 16

  /// What one batch did.
  public enum Outcome: Hashable, Sendable {
    /// `copied` followers' feeds got the post; more remain.
    case more(copied: Int)
    /// The last followers got it (`copied` of them): the post counts as copied, and its outbox entry is gone.
    case finished(copied: Int)
    /// Nothing was waiting for this post (copied already, by this process or another, or deleted).
    case nothingWaiting
  }
}
