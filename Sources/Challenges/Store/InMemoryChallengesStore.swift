import Foundation

/// The in-memory Challenges store (tests, previews, a device without a server). It keeps the same rows
/// the SQL store keeps and answers the same way.
public actor InMemoryChallengesStore: ChallengesStore {
  private struct StoredParticipation {
    var participation: Participation
    let user: UUID
  }

  private struct Edge: Hashable {
    let follower: UUID
    let followee: UUID
  }

  private struct FeedEntry: Hashable {
    let owner: UUID
    let post: UUID
  }

  private struct Report {
    let reason: String
    let at: Int64
  }

  private var templates: [String: ChallengeTemplate] = [:]
  private var participations: [String: StoredParticipation] = [:]
  private var people: [UUID: Person] = [:]
  private var follows: [Edge: Int64] = [:]
  private var counts: [UUID: FollowCounts] = [:]
  private var posts: [UUID: Post] = [:]
  private var feeds: Set<FeedEntry> = []
  private var congrats: [UUID: Set<UUID>] = [:]
  private var comments: [UUID: PostComment] = [:]
  private var reports: [UUID: [UUID: Report]] = [:]
  private var events: [ModerationEvent] = []
  private var photos: [UUID: StoredPhoto] = [:]
  private var cards: [UUID: Data] = [:]
  /// Posts waiting to be copied to followers, with the last follower copied (follow time, id).
  private var outbox: [UUID: (at: Int64, after: (at: Int64, follower: String)?)] = [:]

  public init() {}

  /// Adds someone (accounts are not this store's to make; the SQL store reads them from `users`).
  public func addPerson(_ person: Person) { people[person.id] = person }

  private static func key(_ user: UUID, _ challenge: String) -> String { "\(user.uuidString)|\(challenge)" }

  // MARK: Catalogue

  public func importedTemplates() -> [ChallengeTemplate] { templates.values.sorted { $0.slug < $1.slug } }

  public func addTemplates(_ more: [ChallengeTemplate], at now: Date) {
    for template in more { templates[template.slug] = template }
  }

  // MARK: Participations

  public func participation(of user: UUID, in challenge: String) -> Participation? {
    participations[Self.key(user, challenge)]?.participation
  }

  public func participations(of user: UUID, in challenges: [String]) -> [String: Participation] {
    var result: [String: Participation] = [:]
    for id in challenges { if let found = participations[Self.key(user, id)] { result[id] = found.participation } }
    return result
  }

  public func recentParticipations(of user: UUID, limit: Int) -> [Participation] {
    Array(
      participations.values.filter { $0.user == user && $0.participation.status != .left }.map(\.participation)
        .sorted { $0.joinedAt > $1.joinedAt }.prefix(max(limit, 0)))
  }

  public func save(_ participation: Participation, of user: UUID, replacing previous: Participation?, at now: Date) -> Bool {
    let key = Self.key(user, participation.challengeID)
    guard participations[key]?.participation.status == previous?.status else { return false }
    participations[key] = StoredParticipation(participation: participation, user: user)
    return true
  }

  public func participation(ofPost post: UUID) -> (user: UUID, participation: Participation)? {
    participations.values.first { $0.participation.post == post }.map { ($0.user, $0.participation) }
  }

  // MARK: People and the social graph

  public func person(_ id: UUID) -> Person? { people[id] }

  public func person(username: String) -> Person? {
    let name = username.lowercased()
    return people.values.first { $0.username == name }
  }

  public func followCounts(of user: UUID) -> FollowCounts { counts[user] ?? .zero }

  public func follows(_ follower: UUID, _ followee: UUID) -> Bool { follows[Edge(follower: follower, followee: followee)] != nil }

  private func bump(_ user: UUID, followers: Int, following: Int) {
    let now = counts[user] ?? .zero
    counts[user] = FollowCounts(followers: now.followers + followers, following: now.following + following)
  }

  public func follow(_ follower: UUID, _ followee: UUID, at: Int64) -> Bool {
    let edge = Edge(follower: follower, followee: followee)
    guard follows[edge] == nil else { return false }
    follows[edge] = at
    bump(follower, followers: 0, following: 1)
    bump(followee, followers: 1, following: 0)
    return true
  }

  public func unfollow(_ follower: UUID, _ followee: UUID) -> Bool {
    guard follows.removeValue(forKey: Edge(follower: follower, followee: followee)) != nil else { return false }
    bump(follower, followers: 0, following: -1)
    bump(followee, followers: -1, following: 0)
    feeds = feeds.filter { entry in
      guard entry.owner == follower, let post = posts[entry.post] else { return true }
      return !(post.author.id == followee && post.recipient == nil)
    }
    return true
  }

  public func followers(of user: UUID) -> [UUID] { follows.keys.filter { $0.followee == user }.map(\.follower) }

  public func people(of user: UUID, _ side: FollowSide, after cursor: FeedPosition?, limit: Int) -> [FollowEntry] {
    let entries = follows.compactMap { edge, at -> FollowEntry? in
      let (mine, other) = side == .followers ? (edge.followee, edge.follower) : (edge.follower, edge.followee)
      guard mine == user, let person = people[other] else { return nil }
      return FollowEntry(person: person, at: at)
    }
    return Array(Self.newestFirst(entries.map { ($0.position, $0) }, after: cursor).prefix(limit + 1))
  }

  /// Feed order (newest first, then by id as the SQL store's UUID order), after `cursor`.
  private static func newestFirst<T>(_ items: [(FeedPosition, T)], after cursor: FeedPosition?) -> [T] {
    // Ids compare as uppercase hex text, which orders them as the SQL store's 16-byte UUIDs.
    items.filter { cursor == nil || cursor! < $0.0 }.sorted { $0.0 < $1.0 }.map(\.1)
  }

  // MARK: Posts and feeds

  public func post(_ id: UUID) -> Post? { posts[id] }

  public func add(_ post: Post, delivery: FanOut) {
    var post = post
    post.fannedOut = delivery.isCopied
    posts[post.id] = post
    switch delivery {
    case .addressee(let recipient): feeds.insert(FeedEntry(owner: recipient, post: post.id))
    case .mergeOnRead: feeds.insert(FeedEntry(owner: post.author.id, post: post.id))
    case .copyToFollowers:
      feeds.insert(FeedEntry(owner: post.author.id, post: post.id))
      for follower in followers(of: post.author.id) { feeds.insert(FeedEntry(owner: follower, post: post.id)) }
    case .copyLater:
      feeds.insert(FeedEntry(owner: post.author.id, post: post.id))
      outbox[post.id] = (post.at, nil)
    }
  }

  public func waitingFanOuts(limit: Int) -> [UUID] {
    Array(outbox.sorted { ($0.value.at, $0.key.uuidString) < ($1.value.at, $1.key.uuidString) }.prefix(max(limit, 0)).map(\.key))
  }

  public func copyFanOutBatch(of postID: UUID, size: Int) -> FanOutBatch.Outcome {
    guard let waiting = outbox[postID], let post = posts[postID] else { return .nothingWaiting }
    let size = max(size, 1)
    let next = follows.filter { $0.key.followee == post.author.id }
      .map { (at: $0.value, follower: $0.key.follower) }
      .filter { edge in waiting.after.map { (edge.at, edge.follower.uuidString) > ($0.at, $0.follower) } ?? true }
      .sorted { ($0.at, $0.follower.uuidString) < ($1.at, $1.follower.uuidString) }
      .prefix(size)
    for edge in next { feeds.insert(FeedEntry(owner: edge.follower, post: postID)) }
    guard next.count == size, let last = next.last else {
      outbox[postID] = nil
      posts[postID]?.fannedOut = true
      return .finished(copied: next.count)
    }
    outbox[postID] = (waiting.at, (last.at, last.follower.uuidString))
    return .more(copied: next.count)
  }

  public func backfill(_ follower: UUID, from followee: UUID, limit: Int) {
    let missing = posts.values.filter {
      $0.author.id == followee && $0.kind == .challengeCompleted && ($0.fannedOut || outbox[$0.id] != nil) && $0.isVisible
        && !feeds.contains(FeedEntry(owner: follower, post: $0.id))
    }
    for post in missing.sorted(by: { $0.position < $1.position }).prefix(limit) { feeds.insert(FeedEntry(owner: follower, post: post.id)) }
  }

  public func feedLists(of viewer: UUID, kinds: [Post.Kind], after cursor: FeedPosition?, limit: Int) -> FeedLists {
    let copied = feeds.filter { $0.owner == viewer }.compactMap { posts[$0.post] }
      .filter { kinds.contains($0.kind) && ($0.isVisible || $0.author.id == viewer) }
    let followed = Set(follows.keys.filter { $0.follower == viewer }.map(\.followee))
    let merged = posts.values.filter { followed.contains($0.author.id) && !$0.fannedOut && kinds.contains($0.kind) && $0.isVisible }
    let copiedPage = Array(Self.newestFirst(copied.map { ($0.position, $0) }, after: cursor).prefix(limit + 1))
    let mergedPage = Array(Self.newestFirst(merged.map { ($0.position, $0) }, after: cursor).prefix(limit + 1))
    return FeedLists(
      copied: copiedPage, merged: mergedPage, congratulated: congratulated(by: viewer, among: (copiedPage + mergedPage).map(\.id)))
  }

  public func visiblePosts(showing photo: UUID) -> [Post] { posts.values.filter { $0.photo == photo && $0.isVisible } }

  public func setPublicLink(_ on: Bool, of post: UUID) { posts[post]?.publicLink = on }

  public func saveModeration(_ state: ModerationState, of post: UUID) { posts[post]?.moderation = state }

  public func overfullFeeds(over size: Int, limit: Int) -> [UUID] {
    Array(Dictionary(grouping: feeds, by: \.owner).filter { $0.value.count > size }.keys.prefix(limit))
  }

  public func trimFeed(of owner: UUID, to cap: Int) {
    let entries = feeds.filter { $0.owner == owner }.compactMap { posts[$0.post] }.sorted { $0.position < $1.position }
    for post in entries.dropFirst(cap) { feeds.remove(FeedEntry(owner: owner, post: post.id)) }
  }

  /// How many entries `owner`'s feed holds.
  public func feedSize(of owner: UUID) -> Int { feeds.filter { $0.owner == owner }.count }

  // MARK: Congrats

  public func setCongrats(_ on: Bool, of post: UUID, by user: UUID, at: Int64) -> CongratsChange {
    var given = congrats[post] ?? []
    let changed = on ? given.insert(user).inserted : given.remove(user) != nil
    congrats[post] = given
    if changed { posts[post]?.congrats += on ? 1 : -1 }
    return CongratsChange(changed: changed, count: posts[post]?.congrats)
  }

  public func congratulated(by viewer: UUID, among ids: [UUID]) -> Set<UUID> {
    Set(ids.filter { congrats[$0]?.contains(viewer) == true })
  }

  public func congratulators(of post: UUID, among people: [UUID]) -> Set<UUID> {
    Set(people.filter { congrats[post]?.contains($0) == true })
  }

  // MARK: Comments

  public func comments(on post: UUID, after cursor: FeedPosition?, limit: Int) -> [PostComment] {
    // Oldest first: the reverse of feed order.
    let thread = comments.values.filter { $0.post == post && (cursor == nil || $0.position < cursor!) }.sorted { $1.position < $0.position }
    return Array(thread.prefix(limit + 1))
  }

  public func comment(_ id: UUID) -> PostComment? { comments[id] }

  public func add(_ comment: PostComment) {
    comments[comment.id] = comment
    posts[comment.post]?.comments += 1
  }

  public func deleteComment(_ id: UUID) -> Bool {
    guard let removed = comments.removeValue(forKey: id) else { return false }
    posts[removed.post]?.comments -= 1
    return true
  }

  // MARK: Reports and moderation

  public func addReport(on post: UUID, by reporter: UUID, reason: String, at: Int64) -> Bool {
    guard reports[post]?[reporter] == nil else { return false }
    reports[post, default: [:]][reporter] = Report(reason: reason, at: at)
    return true
  }

  public func log(_ event: ModerationEvent) { events.append(event) }

  public func reportedPosts(all: Bool) -> [ReportedPost] {
    let chosen = posts.values.filter { all ? reports[$0.id] != nil : $0.moderation.status == .pendingReview }
      .sorted { ($0.moderation.reports, $0.at) > ($1.moderation.reports, $1.at) }
    return chosen.map { post in
      let reasons = (reports[post.id] ?? [:]).values.sorted { $0.at < $1.at }.map(\.reason).filter { !$0.isEmpty }
      return ReportedPost(
        id: post.id, authorName: post.author.displayName, title: post.title, status: post.moderation.status, reports: post.moderation.reports,
        reasons: reasons)
    }
  }

  public func trail(of post: UUID) -> [ModerationEvent] {
    events.filter { $0.post == post }.sorted { ($0.at, $0.action.rawValue) < ($1.at, $1.action.rawValue) }
  }

  // MARK: Photos and share cards

  public func add(_ photo: StoredPhoto) { photos[photo.id] = photo }

  public func photoOwner(_ id: UUID) -> UUID? { photos[id]?.owner }

  public func photoJPEG(_ id: UUID, thumbnail: Bool) -> Data? { thumbnail ? photos[id]?.thumbnail : photos[id]?.full }

  public func shareCard(of post: UUID) -> Data? { cards[post] }

  public func saveShareCard(_ png: Data, of post: UUID) {
    if cards[post] == nil { cards[post] = png }
  }
}
