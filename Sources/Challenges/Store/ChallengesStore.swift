import Foundation

/// The Challenges feature's persistence behind one boundary: the SQL store and the in-memory store
/// follow the same rules and pass the same tests.
///
/// The rules: every write takes values and returns values, so running it twice in a transaction that is
/// run again (SQLite's group commit) is safe by construction; a participation is saved by compare-and-set
/// against the one the rules were applied to, so two writers racing on one never both win; counts
/// (followers, following, congrats, comments) are kept by increments as rows come and go, never recounted;
/// a feed page is one read per list (copied entries, and the big accounts' posts merged on read).
public protocol ChallengesStore: Sendable {
  // MARK: Catalogue

  /// An operator's imported templates.
  func importedTemplates() async throws -> [ChallengeTemplate]
  /// Adds checked templates.
  func addTemplates(_ templates: [ChallengeTemplate], at now: Date) async throws

  // MARK: Participations

  func participation(of user: UUID, in challenge: String) async throws -> Participation?
  /// The person's participations among `challenges`, by challenge id (one read).
  func participations(of user: UUID, in challenges: [String]) async throws -> [String: Participation]
  /// The person's most recent participations not left, newest joined first.
  func recentParticipations(of user: UUID, limit: Int) async throws -> [Participation]
  /// Saves `participation` if the stored one is still `previous` (nil: none stored): false, and nothing
  /// written, when another write came first.
  func save(_ participation: Participation, of user: UUID, replacing previous: Participation?, at now: Date) async throws -> Bool
  /// The participation whose completion is `post`, with its person.
  func participation(ofPost post: UUID) async throws -> (user: UUID, participation: Participation)?

  // MARK: People and the social graph

  func person(_ id: UUID) async throws -> Person?
  func person(username: String) async throws -> Person?
  /// The kept counts.
  func followCounts(of user: UUID) async throws -> FollowCounts
  func follows(_ follower: UUID, _ followee: UUID) async throws -> Bool
  /// Adds the follow and moves both kept counts; false (nothing written) when it existed.
  func follow(_ follower: UUID, _ followee: UUID, at: Int64) async throws -> Bool
  /// Removes the follow, moves both kept counts, and takes the followee's posts (not notices) out of the
  /// follower's feed; false (nothing written) when there was none.
  func unfollow(_ follower: UUID, _ followee: UUID) async throws -> Bool
  /// Everyone following `user`.
  func followers(of user: UUID) async throws -> [UUID]
  /// One page of `user`'s followers or followed, newest follow first, after `cursor`.
  func people(of user: UUID, _ side: FollowSide, after cursor: FeedPosition?, limit: Int) async throws -> [FollowEntry]

  // MARK: Posts and feeds

  func post(_ id: UUID) async throws -> Post?
  /// Stores `post` (its author must be stored) and delivers it as `delivery` says, into the author's feed
  /// too (a notice: into its addressee's only). The post is kept as copied or merged on read as `delivery` says.
  func add(_ post: Post, delivery: FanOut) async throws
  /// Copies `followee`'s `limit` newest visible completions missing from `follower`'s feed into it: those
  /// copied to followers, and those still waiting in the outbox to be.
  func backfill(_ follower: UUID, from followee: UUID, limit: Int) async throws
  /// Posts waiting in the outbox to be copied into their followers' feeds, oldest first (at most `limit`).
  func waitingFanOuts(limit: Int) async throws -> [UUID]
  /// Copies `post` into the feeds of its author's next `size` followers (in follow order) that do not hold it
  /// yet, and moves the outbox's place; after the last, marks the post copied and takes it out of the outbox.
  /// Run in a write of its own: a batch that runs twice, or in two processes at once, copies once.
  func copyFanOutBatch(of post: UUID, size: Int) async throws -> FanOutBatch.Outcome
  /// The newest `limit + 1` posts of `kinds` after `cursor` from each of `viewer`'s two lists: entries
  /// copied into their feed (visible, or their own), and visible posts merged on read from the accounts
  /// they follow, with those of them `viewer` congratulated (read with the lists, not after them).
  /// ``ChallengesStore/feedPage(of:kinds:after:limit:)`` interleaves them.
  func feedLists(of viewer: UUID, kinds: [Post.Kind], after cursor: FeedPosition?, limit: Int) async throws -> FeedLists
  /// The visible posts showing `photo`.
  func visiblePosts(showing photo: UUID) async throws -> [Post]
  func setPublicLink(_ on: Bool, of post: UUID) async throws
  func saveModeration(_ state: ModerationState, of post: UUID) async throws
  /// Feeds holding more than `size` entries (at most `limit` of them).
  func overfullFeeds(over size: Int, limit: Int) async throws -> [UUID]
  /// Cuts `owner`'s feed back to its newest `cap` entries.
  func trimFeed(of owner: UUID, to cap: Int) async throws

  // MARK: Congrats

  /// Adds (`on`) or takes back `user`'s congrats of `post`, moving the kept count.
  func setCongrats(_ on: Bool, of post: UUID, by user: UUID, at: Int64) async throws -> CongratsChange
  /// Which of `posts` `viewer` congratulated (one read).
  func congratulated(by viewer: UUID, among posts: [UUID]) async throws -> Set<UUID>
  /// Which of `people` congratulated `post` (one read).
  func congratulators(of post: UUID, among people: [UUID]) async throws -> Set<UUID>

  // MARK: Comments

  /// One page of a thread, oldest first, after `cursor`, at most `limit` + 1 (to tell whether more follow).
  func comments(on post: UUID, after cursor: FeedPosition?, limit: Int) async throws -> [PostComment]
  func comment(_ id: UUID) async throws -> PostComment?
  /// Stores `comment` and moves its post's kept count.
  func add(_ comment: PostComment) async throws
  /// Deletes the comment and moves its post's kept count; false when it was gone.
  func deleteComment(_ id: UUID) async throws -> Bool

  // MARK: Reports and moderation

  /// Records `reporter`'s report; false (nothing written) when they reported it before.
  func addReport(on post: UUID, by reporter: UUID, reason: String, at: Int64) async throws -> Bool
  func log(_ event: ModerationEvent) async throws
  /// Completions waiting for review (or, with `all`, every reported one), most reported first, with the
  /// reasons given (two reads, whatever the number).
  func reportedPosts(all: Bool) async throws -> [ReportedPost]
  /// The recorded steps of one post, oldest first.
  func trail(of post: UUID) async throws -> [ModerationEvent]

  // MARK: Photos and share cards

  func add(_ photo: StoredPhoto) async throws
  func photoOwner(_ id: UUID) async throws -> UUID?
  /// The stored JPEG (full size or thumbnail).
  func photoJPEG(_ id: UUID, thumbnail: Bool) async throws -> Data?
  func shareCard(of post: UUID) async throws -> Data?
  /// Keeps a rendered card (a second one of the same post changes nothing).
  func saveShareCard(_ png: Data, of post: UUID) async throws
}

extension ChallengesStore {
  /// Whether `viewer` may see `post`: the post's rule, asking the social graph only when it must.
  public func isVisible(_ post: Post, to viewer: UUID?) async throws -> Bool {
    switch post.access(for: viewer) {
    case .allowed: return true
    case .denied: return false
    case .ifFollowing:
      guard let viewer else { return false }
      return try await follows(viewer, post.author.id)
    }
  }

  /// The post `id` if `viewer` may see it; otherwise refused as not found (whether it exists is not told).
  public func visiblePost(_ id: UUID, to viewer: UUID?) async throws -> Post {
    guard let post = try await post(id), try await isVisible(post, to: viewer) else { throw ChallengeRefusal.postNotFound }
    return post
  }

  /// The post `id` if it is shown to `viewer` anywhere: in their feed, or on its public page (what they may
  /// report); throws `postNotFound` otherwise.
  public func shownPost(_ id: UUID, to viewer: UUID?) async throws -> Post {
    guard let post = try await post(id) else { throw ChallengeRefusal.postNotFound }
    if post.isPublic { return post }
    guard try await isVisible(post, to: viewer) else { throw ChallengeRefusal.postNotFound }
    return post
  }

  /// One page of `viewer`'s feed: both lists interleaved by time (``FeedMerge``), and which of its posts
  /// `viewer` congratulated.
  public func feedPage(
    of viewer: UUID, kinds: [Post.Kind], after cursor: FeedPosition?, limit: Int
  ) async throws -> (posts: [Post], next: FeedPosition?, congratulated: Set<UUID>) {
    let lists = try await feedLists(of: viewer, kinds: kinds, after: cursor, limit: limit)
    let byID = Dictionary((lists.copied + lists.merged).map { ($0.id.uuidString, $0) }, uniquingKeysWith: { first, _ in first })
    let page = FeedMerge.page(fannedOut: lists.copied.map(\.position), pulled: lists.merged.map(\.position), after: cursor, limit: limit)
    let posts = page.items.compactMap { byID[$0.id] }
    return (posts, page.next, lists.congratulated.intersection(posts.map(\.id)))
  }
}

/// The two lists one feed page is made of.
public struct FeedLists: Hashable, Sendable {
  /// Entries copied into the feed when they were posted.
  public let copied: [Post]
  /// Posts of very big accounts, merged in on read.
  public let merged: [Post]
  /// Those of both lists the viewer congratulated.
  public let congratulated: Set<UUID>

  public init(copied: [Post], merged: [Post], congratulated: Set<UUID>) {
    self.copied = copied
    self.merged = merged
    self.congratulated = congratulated
  }
}

/// Which side of a follow.
public enum FollowSide: Hashable, Sendable {
  /// People following the person.
  case followers
  /// People the person follows.
  case following
}

/// One row of a followers or following list.
public struct FollowEntry: Hashable, Sendable {
  public let person: Person
  /// When the follow was made (microseconds since 1970).
  public let at: Int64

  public init(person: Person, at: Int64) {
    self.person = person
    self.at = at
  }

  /// The list's cursor after this row.
  public var position: FeedPosition { FeedPosition(at: at, id: person.id.uuidString) }
}

/// What a congrats toggle did.
public struct CongratsChange: Hashable, Sendable {
  /// False when it was already as asked (nothing written).
  public let changed: Bool
  /// The post's kept count afterwards (nil: no such post).
  public let count: Int?

  public init(changed: Bool, count: Int?) {
    self.changed = changed
    self.count = count
  }
}

/// A comment on a post.
public struct PostComment: Hashable, Sendable {
  public let id: UUID
  public let post: UUID
  public let author: Person
  public let body: String
  /// Microseconds since 1970.
  public let at: Int64

  public init(id: UUID, post: UUID, author: Person, body: String, at: Int64) {
    self.id = id
    self.post = post
    self.author = author
    self.body = body
    self.at = at
  }

  /// The thread's cursor after this comment.
  public var position: FeedPosition { FeedPosition(at: at, id: id.uuidString) }
}

/// One recorded moderation step.
public struct ModerationEvent: Hashable, Sendable {
  public enum Action: String, Hashable, Sendable {
    case reported, hidden, kept, revoked
  }

  public let id: UUID
  public let post: UUID
  public let action: Action
  /// Who took it: a reporter's id, "system", or the operator's name.
  public let actor: String
  public let note: String
  /// Microseconds since 1970.
  public let at: Int64

  public init(id: UUID = UUID(), post: UUID, action: Action, actor: String, note: String, at: Int64) {
    self.id = id
    self.post = post
    self.action = action
    self.actor = actor
    self.note = note
    self.at = at
  }
}

/// A reported completion as the operator's list shows it.
public struct ReportedPost: Hashable, Sendable {
  public let id: UUID
  public let authorName: String
  public let title: String
  public let status: ModerationState.Status
  public let reports: Int
  /// The reasons given (empty ones left out), oldest first.
  public let reasons: [String]

  public init(id: UUID, authorName: String, title: String, status: ModerationState.Status, reports: Int, reasons: [String]) {
    self.id = id
    self.authorName = authorName
    self.title = title
    self.status = status
    self.reports = reports
    self.reasons = reasons
  }
}

/// A checked, re-encoded photo.
public struct StoredPhoto: Hashable, Sendable {
  public let id: UUID
  public let owner: UUID
  public let full: Data
  public let thumbnail: Data
  public let width: Int
  public let height: Int
  public let createdAt: Date

  public init(id: UUID, owner: UUID, full: Data, thumbnail: Data, width: Int, height: Int, createdAt: Date) {
    self.id = id
    self.owner = owner
    self.full = full
    self.thumbnail = thumbnail
    self.width = width
    self.height = height
    self.createdAt = createdAt
  }
}

/// Microseconds since 1970: how the feature's tables keep time.
public enum Micros {
  public static func of(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }
}
