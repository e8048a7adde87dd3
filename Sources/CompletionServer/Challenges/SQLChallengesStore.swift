import Challenges
import CompletionAPI
import CompletionCore
import FluentSQL
import Foundation

/// The Challenges store on SQL (SQLite, or PostgreSQL). Make one per transaction: `SQLChallengesStore(db)`
/// with the transaction's database. Every statement of the feature lives here; the controllers load,
/// run the rules (``Participation``, ``Post``) and save through it.
struct SQLChallengesStore: ChallengesStore {
  let sql: any SQLDatabase

  /// The store on `db` (a pooled connection, or a write transaction).
  init(_ db: any Database) {
    sql = db.sql
  }

  // MARK: Rows

  private struct ParticipationRow: Decodable {
    let challenge_id: String
    let status: String
    let progress: Double
    let joined_at: Date
    let completed_at: Date?
    let activity_id: UUID?

    var participation: Participation {
      Participation(
        challengeID: challenge_id, status: ParticipationStatus(rawValue: status) ?? .active, progress: progress, joinedAt: joined_at,
        completedAt: completed_at, post: activity_id)
    }

    static let columns = "challenge_id, status, progress, joined_at, completed_at, activity_id"
  }

  /// A post with its author, as one query reads it.
  private struct PostRow: Decodable {
    let id: UUID
    let user_id: UUID
    let type: String
    let at_micros: Int64
    let title: String
    let subtitle: String
    let photo_id: UUID?
    let story: String?
    let challenge_id: String?
    let challenge_title: String?
    let challenge_type: String?
    let points: Int?
    let completion_key: String?
    let recipient_id: UUID?
    let fanned_out: Bool
    let status: String
    let reports: Int
    let kept: Bool
    let congrats: Int
    let comments: Int
    let public_link: Bool
    let author_name: String
    let author_username: String?

    /// The columns, for `SELECT … FROM activities a JOIN users u ON u.id = a.user_id`.
    static let columns = """
      a.id, a.user_id, a.type, a.at_micros, a.title, a.subtitle, a.photo_id, a.story, a.challenge_id, a.challenge_title,
      a.challenge_type, a.points, a.completion_key, a.recipient_id, a.fanned_out, a.status, a.reports, a.kept, a.congrats, a.comments,
      a.public_link, u.display_name AS author_name, u.username AS author_username
      """

    var post: Post {
      let challenge = challenge_id.map { Post.ChallengeInfo(id: $0, title: challenge_title ?? "", type: challenge_type ?? "") }
      return Post(
        id: id, author: Person(id: user_id, username: author_username, displayName: author_name), kind: Post.Kind(rawValue: type) ?? .follow,
        at: at_micros, title: title, subtitle: subtitle, photo: photo_id, story: story, challenge: challenge, points: points,
        completionKey: completion_key, recipient: recipient_id, fannedOut: fanned_out,
        moderation: ModerationState(status: ModerationState.Status(rawValue: status) ?? .visible, reports: reports, kept: kept),
        congrats: congrats, comments: comments, publicLink: public_link)
    }
  }

  private struct PersonRow: Decodable {
    let id: UUID
    let display_name: String
    let username: String?

    var person: Person { Person(id: id, username: username, displayName: display_name) }
  }

  private struct CommentRow: Decodable {
    let id: UUID
    let activity_id: UUID
    let user_id: UUID
    let body: String
    let at_micros: Int64
    let display_name: String
    let username: String?

    var comment: PostComment {
      PostComment(id: id, post: activity_id, author: Person(id: user_id, username: username, displayName: display_name), body: body, at: at_micros)
    }

    static let columns = "c.id, c.activity_id, c.user_id, c.body, c.at_micros, u.display_name, u.username"
  }

  /// "AND (at < cursor OR (at = cursor AND id < cursor id))": the rows after `cursor` in feed order.
  private static func after(_ cursor: FeedPosition?, at: String, id: String, older: Bool = true) -> SQLQueryString {
    guard let cursor, let cursorID = UUID(uuidString: cursor.id) else { return "" }
    let sign = older ? "<" : ">"
    return "AND (\(unsafeRaw: at) \(unsafeRaw: sign) \(bind: cursor.at) OR (\(unsafeRaw: at) = \(bind: cursor.at) AND \(unsafeRaw: id) \(unsafeRaw: sign) \(bind: cursorID)))"
  }

  // MARK: Catalogue

  func importedTemplates() async throws -> [ChallengeTemplate] {
    struct Row: Decodable {
      let slug: String
      let type: String
      let title: String
      let description: String
      let requirements: String
      let date: String?
      let days: Int?
    }
    let rows = try await sql.raw("SELECT slug, type, title, description, requirements, date, days FROM challenge_templates ORDER BY slug")
      .allRows(decoding: Row.self)
    return rows.compactMap { row -> ChallengeTemplate? in
      guard let type = ChallengeType(rawValue: row.type),
        let requirements = try? JSONDecoder().decode([String].self, from: Data(row.requirements.utf8))
      else { return nil }
      return ChallengeTemplate(
        slug: row.slug, type: type, title: row.title, description: row.description, requirements: requirements,
        date: row.date.flatMap(MonthDay.init), days: row.days)
    }
  }

  func addTemplates(_ templates: [ChallengeTemplate], at now: Date) async throws {
    for template in templates {
      let requirements = String(decoding: try JSONEncoder().encode(template.requirements), as: UTF8.self)
      try await sql.raw(
        """
        INSERT INTO challenge_templates (slug, type, title, description, requirements, date, days, created_at)
        VALUES (\(bind: template.slug), \(bind: template.type.rawValue), \(bind: template.title), \(bind: template.description),
          \(bind: requirements), \(bind: template.date?.description), \(bind: template.days), \(bind: now))
        """
      ).run()
    }
  }

  /// The built-in catalogue plus an operator's imported challenges.
  func catalogue() async throws -> ChallengeCatalogue {
    let imported = try await importedTemplates()
    return imported.isEmpty ? .builtIn : ChallengeCatalogue.builtIn.adding(imported)
  }

  // MARK: Participations

  func participation(of user: UUID, in challenge: String) async throws -> Participation? {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: ParticipationRow.columns) FROM challenge_participations
      WHERE user_id = \(bind: user) AND challenge_id = \(bind: challenge)
      """
    ).firstRow(decoding: ParticipationRow.self)?.participation
  }

  func participations(of user: UUID, in challenges: [String]) async throws -> [String: Participation] {
    guard !challenges.isEmpty else { return [:] }
    let rows = try await sql.raw(
      """
      SELECT \(unsafeRaw: ParticipationRow.columns) FROM challenge_participations
      WHERE user_id = \(bind: user) AND challenge_id IN (\(binds: challenges))
      """
    ).allRows(decoding: ParticipationRow.self)
    return Dictionary(rows.map { ($0.challenge_id, $0.participation) }, uniquingKeysWith: { first, _ in first })
  }

  func recentParticipations(of user: UUID, limit: Int) async throws -> [Participation] {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: ParticipationRow.columns) FROM challenge_participations
      WHERE user_id = \(bind: user) AND status <> 'left' ORDER BY joined_at DESC LIMIT \(unsafeRaw: String(max(limit, 0)))
      """
    ).allRows(decoding: ParticipationRow.self).map(\.participation)
  }

  func save(_ participation: Participation, of user: UUID, replacing previous: Participation?, at now: Date) async throws -> Bool {
    let p = participation
    if let previous {
      return try await sql.raw(
        """
        UPDATE challenge_participations SET status = \(bind: p.status.rawValue), progress = \(bind: p.progress), joined_at = \(bind: p.joinedAt),
          completed_at = \(bind: p.completedAt), activity_id = \(bind: p.post), updated_at = \(bind: now)
        WHERE user_id = \(bind: user) AND challenge_id = \(bind: p.challengeID) AND status = \(bind: previous.status.rawValue)
        RETURNING challenge_id
        """
      ).first() != nil
    }
    return try await sql.raw(
      """
      INSERT INTO challenge_participations (id, user_id, challenge_id, status, progress, joined_at, completed_at, activity_id, updated_at)
      VALUES (\(bind: UUID()), \(bind: user), \(bind: p.challengeID), \(bind: p.status.rawValue), \(bind: p.progress), \(bind: p.joinedAt),
        \(bind: p.completedAt), \(bind: p.post), \(bind: now))
      ON CONFLICT (user_id, challenge_id) DO NOTHING RETURNING challenge_id
      """
    ).first() != nil
  }

  func participation(ofPost post: UUID) async throws -> (user: UUID, participation: Participation)? {
    struct Row: Decodable { let user_id: UUID }
    guard
      let row = try await sql.raw(
        "SELECT user_id, \(unsafeRaw: ParticipationRow.columns) FROM challenge_participations WHERE activity_id = \(bind: post)"
      ).first()
    else { return nil }
    return (try row.decodeRow(Row.self).user_id, try row.decodeRow(ParticipationRow.self).participation)
  }

  // MARK: People and the social graph

  func person(_ id: UUID) async throws -> Person? {
    try await sql.raw("SELECT id, display_name, username FROM users WHERE id = \(bind: id)").firstRow(decoding: PersonRow.self)?.person
  }

  func person(username: String) async throws -> Person? {
    try await sql.raw("SELECT id, display_name, username FROM users WHERE username = \(bind: username.lowercased())")
      .firstRow(decoding: PersonRow.self)?.person
  }

  func followCounts(of user: UUID) async throws -> FollowCounts {
    struct Row: Decodable {
      let followers: Int
      let following: Int
    }
    let row = try await sql.raw("SELECT followers, following FROM social_profiles WHERE user_id = \(bind: user)").firstRow(decoding: Row.self)
    return FollowCounts(followers: row?.followers ?? 0, following: row?.following ?? 0)
  }

  func follows(_ follower: UUID, _ followee: UUID) async throws -> Bool {
    try await sql.raw("SELECT 1 AS one FROM follows WHERE follower_id = \(bind: follower) AND followee_id = \(bind: followee)").first() != nil
  }

  /// Moves a person's kept follow counts.
  func bumpCounts(_ user: UUID, followers: Int, following: Int) async throws {
    try await sql.raw(
      """
      INSERT INTO social_profiles (user_id, followers, following) VALUES (\(bind: user), \(bind: max(followers, 0)), \(bind: max(following, 0)))
      ON CONFLICT (user_id) DO UPDATE SET followers = social_profiles.followers + \(bind: followers),
        following = social_profiles.following + \(bind: following)
      """
    ).run()
  }

  func follow(_ follower: UUID, _ followee: UUID, at: Int64) async throws -> Bool {
    let inserted = try await sql.raw(
      """
      INSERT INTO follows (follower_id, followee_id, at_micros) VALUES (\(bind: follower), \(bind: followee), \(bind: at))
      ON CONFLICT (follower_id, followee_id) DO NOTHING RETURNING follower_id
      """
    ).first()
    guard inserted != nil else { return false }
    try await bumpCounts(follower, followers: 0, following: 1)
    try await bumpCounts(followee, followers: 1, following: 0)
    return true
  }

  func unfollow(_ follower: UUID, _ followee: UUID) async throws -> Bool {
    let deleted = try await sql.raw(
      "DELETE FROM follows WHERE follower_id = \(bind: follower) AND followee_id = \(bind: followee) RETURNING follower_id"
    ).first()
    guard deleted != nil else { return false }
    try await bumpCounts(follower, followers: 0, following: -1)
    try await bumpCounts(followee, followers: -1, following: 0)
    try await sql.raw(
      """
      DELETE FROM feed_entries WHERE owner_id = \(bind: follower)
        AND activity_id IN (SELECT id FROM activities WHERE user_id = \(bind: followee) AND recipient_id IS NULL)
      """
    ).run()
    return true
  }

  func followers(of user: UUID) async throws -> [UUID] {
    struct Row: Decodable { let follower_id: UUID }
    return try await sql.raw("SELECT follower_id FROM follows WHERE followee_id = \(bind: user)").allRows(decoding: Row.self).map(\.follower_id)
  }

  func people(of user: UUID, _ side: FollowSide, after cursor: FeedPosition?, limit: Int) async throws -> [FollowEntry] {
    let (mine, other) = side == .followers ? ("followee_id", "follower_id") : ("follower_id", "followee_id")
    struct Row: Decodable {
      let id: UUID
      let display_name: String
      let username: String?
      let at_micros: Int64
    }
    return try await sql.raw(
      """
      SELECT u.id, u.display_name, u.username, f.at_micros FROM follows f JOIN users u ON u.id = f.\(unsafeRaw: other)
      WHERE f.\(unsafeRaw: mine) = \(bind: user) \(Self.after(cursor, at: "f.at_micros", id: "f.\(other)"))
      ORDER BY f.at_micros DESC, f.\(unsafeRaw: other) DESC LIMIT \(unsafeRaw: String(limit + 1))
      """
    ).allRows(decoding: Row.self).map { FollowEntry(person: Person(id: $0.id, username: $0.username, displayName: $0.display_name), at: $0.at_micros) }
  }

  // MARK: Posts and feeds

  func post(_ id: UUID) async throws -> Post? {
    try await sql.raw("SELECT \(unsafeRaw: PostRow.columns) FROM activities a JOIN users u ON u.id = a.user_id WHERE a.id = \(bind: id)")
      .firstRow(decoding: PostRow.self)?.post
  }

  func add(_ post: Post, delivery: FanOut) async throws {
    try await sql.raw(
      """
      INSERT INTO activities (id, user_id, type, at_micros, title, subtitle, photo_id, story, challenge_id, challenge_title, challenge_type,
        points, completion_key, recipient_id, fanned_out, status, reports, kept, congrats, comments, public_link)
      VALUES (\(bind: post.id), \(bind: post.author.id), \(bind: post.kind.rawValue), \(bind: post.at), \(bind: post.title), \(bind: post.subtitle),
        \(bind: post.photo), \(bind: post.story), \(bind: post.challenge?.id), \(bind: post.challenge?.title), \(bind: post.challenge?.type),
        \(bind: post.points), \(bind: post.completionKey), \(bind: post.recipient), \(bind: delivery.isCopied),
        \(bind: post.moderation.status.rawValue), \(bind: post.moderation.reports), \(bind: post.moderation.kept), \(bind: post.congrats),
        \(bind: post.comments), \(bind: post.publicLink))
      """
    ).run()
    // The feeds it goes into, in one statement (every follower's for an ordinary account).
    let owners: SQLQueryString =
      switch delivery {
      case .addressee(let recipient): "SELECT \(bind: recipient) AS owner_id"
      case .copyToFollowers:
        "SELECT \(bind: post.author.id) AS owner_id UNION ALL SELECT follower_id FROM follows WHERE followee_id = \(bind: post.author.id)"
      case .mergeOnRead, .copyLater: "SELECT \(bind: post.author.id) AS owner_id"
      }
    try await sql.raw(
      """
      INSERT INTO feed_entries (owner_id, activity_id, at_micros, type)
      SELECT owner_id, \(bind: post.id), \(bind: post.at), \(bind: post.kind.rawValue) FROM (\(owners)) AS recipients
      """
    ).run()
    if delivery == .copyLater {
      try await sql.raw(
        """
        INSERT INTO feed_outbox (activity_id, author_id, at_micros, copied)
        VALUES (\(bind: post.id), \(bind: post.author.id), \(bind: post.at), 0)
        """
      ).run()
    }
  }

  func waitingFanOuts(limit: Int) async throws -> [UUID] {
    struct Row: Decodable { let activity_id: UUID }
    return try await sql.raw(
      "SELECT activity_id FROM feed_outbox ORDER BY at_micros, activity_id LIMIT \(unsafeRaw: String(max(limit, 0)))"
    ).allRows(decoding: Row.self).map(\.activity_id)
  }

  func copyFanOutBatch(of post: UUID, size: Int) async throws -> FanOutBatch.Outcome {
    struct Waiting: Decodable {
      let user_id: UUID
      let at_micros: Int64
      let type: String
      let after_at: Int64?
      let after_follower: UUID?
      let copied: Int
    }
    struct Follower: Decodable {
      let follower_id: UUID
      let at_micros: Int64
    }
    guard
      let waiting = try await sql.raw(
        """
        SELECT a.user_id, a.at_micros, a.type, o.after_at, o.after_follower, o.copied
        FROM feed_outbox o JOIN activities a ON a.id = o.activity_id WHERE o.activity_id = \(bind: post)
        """
      ).firstRow(decoding: Waiting.self)
    else { return .nothingWaiting }
    let size = max(size, 1)
    // The next followers in the order of `follows_by_followee`, after the last one copied.
    let after: SQLQueryString =
      if let at = waiting.after_at, let follower = waiting.after_follower {
        "AND (at_micros > \(bind: at) OR (at_micros = \(bind: at) AND follower_id > \(bind: follower)))"
      } else { "" }
    let next = try await sql.raw(
      """
      SELECT follower_id, at_micros FROM follows WHERE followee_id = \(bind: waiting.user_id) \(after)
      ORDER BY at_micros, follower_id LIMIT \(unsafeRaw: String(size))
      """
    ).allRows(decoding: Follower.self)
    // The outbox moves first, by compare-and-set on the count copied: on PostgreSQL a second process copying the
    // same batch waits here for the first to commit, then finds the count moved and copies nothing.
    let finished = next.count < size
    let moved: SQLRow? =
      if finished {
        try await sql.raw(
          "DELETE FROM feed_outbox WHERE activity_id = \(bind: post) AND copied = \(bind: waiting.copied) RETURNING activity_id"
        ).first()
      } else if let last = next.last {
        try await sql.raw(
          """
          UPDATE feed_outbox SET after_at = \(bind: last.at_micros), after_follower = \(bind: last.follower_id), copied = copied + \(bind: next.count)
          WHERE activity_id = \(bind: post) AND copied = \(bind: waiting.copied) RETURNING activity_id
          """
        ).first()
      } else { nil }
    guard moved != nil else { return .nothingWaiting }
    if !next.isEmpty {
      // A follower who followed while the post waited may hold it already (``backfill(_:from:limit:)``).
      try await sql.raw(
        """
        INSERT INTO feed_entries (owner_id, activity_id, at_micros, type)
        SELECT f.follower_id, \(bind: post), \(bind: waiting.at_micros), \(bind: waiting.type) FROM follows f
        WHERE f.followee_id = \(bind: waiting.user_id) AND f.follower_id IN (\(binds: next.map(\.follower_id)))
          AND NOT EXISTS (
            SELECT 1 FROM feed_entries e
            WHERE e.owner_id = f.follower_id AND e.at_micros = \(bind: waiting.at_micros) AND e.activity_id = \(bind: post))
        """
      ).run()
    }
    guard finished else { return .more(copied: next.count) }
    try await sql.raw("UPDATE activities SET fanned_out = true WHERE id = \(bind: post)").run()
    return .finished(copied: next.count)
  }

  func backfill(_ follower: UUID, from followee: UUID, limit: Int) async throws {
    try await sql.raw(
      """
      INSERT INTO feed_entries (owner_id, activity_id, at_micros, type)
      SELECT \(bind: follower), id, at_micros, type FROM activities
      WHERE id IN (
        SELECT id FROM activities
        WHERE user_id = \(bind: followee) AND type = \(bind: Post.Kind.challengeCompleted.rawValue) AND status = 'visible'
          AND (fanned_out = true OR id IN (SELECT activity_id FROM feed_outbox WHERE author_id = \(bind: followee)))
          AND id NOT IN (SELECT activity_id FROM feed_entries WHERE owner_id = \(bind: follower))
        ORDER BY at_micros DESC LIMIT \(unsafeRaw: String(max(limit, 0))))
      """
    ).run()
  }

  func feedLists(of viewer: UUID, kinds: [Post.Kind], after cursor: FeedPosition?, limit: Int) async throws -> FeedLists {
    let types = kinds.map(\.rawValue)
    let fetch = String(limit + 1)
    // Both lists in one statement, so one snapshot: read apart, a post the outbox finished copying between the
    // two reads would be in neither (not yet copied for the first, no longer merged for the second).
    // The visibility rule of ``Post/access(for:)`` as a filter: others' posts while visible, one's own always.
    // In the merged half the status is compared as `status || ''` so that SQLite cannot answer it from the
    // index on status (nearly every post is visible): it would read every post of everyone and look each up
    // in the viewer's follows, where the people followed and their few posts waiting are a handful of lookups
    // (about 5 ms against 1.5 ms for a page of 50 on the benchmark's 10,000 people). And it first asks whether any
    // post anywhere waits to be merged: a question about no row of the viewer's, so both databases answer it once
    // per statement, and when every post is copied (the usual case) the follows are not walked at all
    // (0.17 → 0.02 ms for the merged half on the benchmark's data with the outbox empty). Whether the viewer
    // congratulated each post is a column of the same statement: a second read would cost the page another trip
    // to the database's thread.
    let congratulated: SQLQueryString =
      "EXISTS (SELECT 1 FROM congrats c WHERE c.activity_id = a.id AND c.user_id = \(bind: viewer)) AS congratulated"
    let rows = try await sql.raw(
      """
      SELECT * FROM (
        SELECT \(unsafeRaw: PostRow.columns), 0 AS merged_on_read, \(congratulated)
        FROM feed_entries f
        JOIN activities a ON a.id = f.activity_id JOIN users u ON u.id = a.user_id
        WHERE f.owner_id = \(bind: viewer) AND f.type IN (\(binds: types)) \(Self.after(cursor, at: "f.at_micros", id: "f.activity_id"))
          AND (a.status = 'visible' OR a.user_id = \(bind: viewer))
        ORDER BY f.at_micros DESC, f.activity_id DESC LIMIT \(unsafeRaw: fetch)) AS copied
      UNION ALL
      SELECT * FROM (
        SELECT \(unsafeRaw: PostRow.columns), 1 AS merged_on_read, \(congratulated)
        FROM follows fo
        JOIN activities a ON a.user_id = fo.followee_id AND a.fanned_out = false
        JOIN users u ON u.id = a.user_id
        WHERE fo.follower_id = \(bind: viewer) AND a.type IN (\(binds: types)) \(Self.after(cursor, at: "a.at_micros", id: "a.id"))
          AND a.status || '' = 'visible' AND EXISTS (SELECT 1 FROM activities waiting WHERE waiting.fanned_out = false)
        ORDER BY a.at_micros DESC, a.id DESC LIMIT \(unsafeRaw: fetch)) AS merged
      """
    ).all()
    var copied: [Post] = []
    var merged: [Post] = []
    var congratulatedIDs: Set<UUID> = []
    for row in rows {
      let post = try row.decodeRow(PostRow.self).post
      if try row.decode(column: "merged_on_read", as: Int.self) == 1 { merged.append(post) } else { copied.append(post) }
      if try row.decode(column: "congratulated", as: Bool.self) { congratulatedIDs.insert(post.id) }
    }
    return FeedLists(copied: copied, merged: merged, congratulated: congratulatedIDs)
  }

  func visiblePosts(showing photo: UUID) async throws -> [Post] {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: PostRow.columns) FROM activities a JOIN users u ON u.id = a.user_id
      WHERE a.photo_id = \(bind: photo) AND a.status = 'visible'
      """
    ).allRows(decoding: PostRow.self).map(\.post)
  }

  func setPublicLink(_ on: Bool, of post: UUID) async throws {
    try await sql.raw("UPDATE activities SET public_link = \(bind: on) WHERE id = \(bind: post)").run()
  }

  func saveModeration(_ state: ModerationState, of post: UUID) async throws {
    try await sql.raw(
      "UPDATE activities SET status = \(bind: state.status.rawValue), reports = \(bind: state.reports), kept = \(bind: state.kept) WHERE id = \(bind: post)"
    ).run()
  }

  func overfullFeeds(over size: Int, limit: Int) async throws -> [UUID] {
    struct Row: Decodable { let owner_id: UUID }
    return try await sql.raw(
      "SELECT owner_id FROM feed_entries GROUP BY owner_id HAVING COUNT(*) > \(bind: size) LIMIT \(unsafeRaw: String(max(limit, 0)))"
    ).allRows(decoding: Row.self).map(\.owner_id)
  }

  func trimFeed(of owner: UUID, to cap: Int) async throws {
    struct Row: Decodable {
      let at_micros: Int64
      let activity_id: UUID
    }
    guard
      let boundary = try await sql.raw(
        """
        SELECT at_micros, activity_id FROM feed_entries WHERE owner_id = \(bind: owner)
        ORDER BY at_micros DESC, activity_id DESC LIMIT 1 OFFSET \(unsafeRaw: String(max(cap - 1, 0)))
        """
      ).firstRow(decoding: Row.self)
    else { return }
    try await sql.raw(
      """
      DELETE FROM feed_entries WHERE owner_id = \(bind: owner)
        AND (at_micros < \(bind: boundary.at_micros) OR (at_micros = \(bind: boundary.at_micros) AND activity_id < \(bind: boundary.activity_id)))
      """
    ).run()
  }

  // MARK: Congrats

  func setCongrats(_ on: Bool, of post: UUID, by user: UUID, at: Int64) async throws -> CongratsChange {
    let changed: SQLRow? =
      on
      ? try await sql.raw(
        """
        INSERT INTO congrats (activity_id, user_id, at_micros) VALUES (\(bind: post), \(bind: user), \(bind: at))
        ON CONFLICT (activity_id, user_id) DO NOTHING RETURNING user_id
        """
      ).first()
      : try await sql.raw("DELETE FROM congrats WHERE activity_id = \(bind: post) AND user_id = \(bind: user) RETURNING user_id").first()
    struct Row: Decodable { let congrats: Int }
    guard changed != nil else {
      let count = try await sql.raw("SELECT congrats FROM activities WHERE id = \(bind: post)").firstRow(decoding: Row.self)?.congrats
      return CongratsChange(changed: false, count: count)
    }
    let count = try await sql.raw("UPDATE activities SET congrats = congrats + \(bind: on ? 1 : -1) WHERE id = \(bind: post) RETURNING congrats")
      .firstRow(decoding: Row.self)?.congrats
    return CongratsChange(changed: true, count: count)
  }

  func congratulated(by viewer: UUID, among posts: [UUID]) async throws -> Set<UUID> {
    guard !posts.isEmpty else { return [] }
    struct Row: Decodable { let activity_id: UUID }
    let rows = try await sql.raw("SELECT activity_id FROM congrats WHERE user_id = \(bind: viewer) AND activity_id IN (\(binds: posts))")
      .allRows(decoding: Row.self)
    return Set(rows.map(\.activity_id))
  }

  func congratulators(of post: UUID, among people: [UUID]) async throws -> Set<UUID> {
    guard !people.isEmpty else { return [] }
    struct Row: Decodable { let user_id: UUID }
    let rows = try await sql.raw("SELECT user_id FROM congrats WHERE activity_id = \(bind: post) AND user_id IN (\(binds: people))")
      .allRows(decoding: Row.self)
    return Set(rows.map(\.user_id))
  }

  // MARK: Comments

  func comments(on post: UUID, after cursor: FeedPosition?, limit: Int) async throws -> [PostComment] {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: CommentRow.columns) FROM comments c JOIN users u ON u.id = c.user_id
      WHERE c.activity_id = \(bind: post) \(Self.after(cursor, at: "c.at_micros", id: "c.id", older: false))
      ORDER BY c.at_micros, c.id LIMIT \(unsafeRaw: String(limit + 1))
      """
    ).allRows(decoding: CommentRow.self).map(\.comment)
  }

  func comment(_ id: UUID) async throws -> PostComment? {
    try await sql.raw("SELECT \(unsafeRaw: CommentRow.columns) FROM comments c JOIN users u ON u.id = c.user_id WHERE c.id = \(bind: id)")
      .firstRow(decoding: CommentRow.self)?.comment
  }

  func add(_ comment: PostComment) async throws {
    try await sql.raw(
      """
      INSERT INTO comments (id, activity_id, user_id, body, at_micros)
      VALUES (\(bind: comment.id), \(bind: comment.post), \(bind: comment.author.id), \(bind: comment.body), \(bind: comment.at))
      """
    ).run()
    try await sql.raw("UPDATE activities SET comments = comments + 1 WHERE id = \(bind: comment.post)").run()
  }

  func deleteComment(_ id: UUID) async throws -> Bool {
    struct Row: Decodable { let activity_id: UUID }
    guard let row = try await sql.raw("DELETE FROM comments WHERE id = \(bind: id) RETURNING activity_id").firstRow(decoding: Row.self) else {
      return false
    }
    try await sql.raw("UPDATE activities SET comments = comments - 1 WHERE id = \(bind: row.activity_id)").run()
    return true
  }

  // MARK: Reports and moderation

  func addReport(on post: UUID, by reporter: UUID, reason: String, at: Int64) async throws -> Bool {
    try await sql.raw(
      """
      INSERT INTO reports (activity_id, reporter_id, reason, at_micros) VALUES (\(bind: post), \(bind: reporter), \(bind: reason), \(bind: at))
      ON CONFLICT (activity_id, reporter_id) DO NOTHING RETURNING reporter_id
      """
    ).first() != nil
  }

  func log(_ event: ModerationEvent) async throws {
    try await sql.raw(
      """
      INSERT INTO moderation_events (id, activity_id, action, actor, note, at_micros)
      VALUES (\(bind: event.id), \(bind: event.post), \(bind: event.action.rawValue), \(bind: event.actor), \(bind: event.note), \(bind: event.at))
      """
    ).run()
  }

  func reportedPosts(all: Bool) async throws -> [ReportedPost] {
    struct Row: Decodable {
      let id: UUID
      let title: String
      let status: String
      let reports: Int
      let author_name: String
    }
    let rows = try await sql.raw(
      """
      SELECT a.id, a.title, a.status, a.reports, u.display_name AS author_name FROM activities a JOIN users u ON u.id = a.user_id
      WHERE \(unsafeRaw: all ? "a.id IN (SELECT activity_id FROM reports)" : "a.status = 'pending_review'")
      ORDER BY a.reports DESC, a.at_micros DESC
      """
    ).allRows(decoding: Row.self)
    guard !rows.isEmpty else { return [] }
    struct Reason: Decodable {
      let activity_id: UUID
      let reason: String
    }
    let reasons = try await sql.raw(
      "SELECT activity_id, reason FROM reports WHERE activity_id IN (\(binds: rows.map(\.id))) AND reason <> '' ORDER BY at_micros"
    ).allRows(decoding: Reason.self)
    let byPost = Dictionary(grouping: reasons, by: \.activity_id)
    return rows.map { row in
      ReportedPost(
        id: row.id, authorName: row.author_name, title: row.title, status: ModerationState.Status(rawValue: row.status) ?? .visible,
        reports: row.reports, reasons: byPost[row.id]?.map(\.reason) ?? [])
    }
  }

  func trail(of post: UUID) async throws -> [ModerationEvent] {
    struct Row: Decodable {
      let id: UUID
      let action: String
      let actor: String
      let note: String
      let at_micros: Int64
    }
    return try await sql.raw(
      "SELECT id, action, actor, note, at_micros FROM moderation_events WHERE activity_id = \(bind: post) ORDER BY at_micros, action"
    ).allRows(decoding: Row.self).compactMap { row in
      ModerationEvent.Action(rawValue: row.action).map {
        ModerationEvent(id: row.id, post: post, action: $0, actor: row.actor, note: row.note, at: row.at_micros)
      }
    }
  }

  // MARK: Photos and share cards

  /// Stores an unposted photo and counts it in its owner's ``uploadUsage(of:)``. Call it inside a transaction, so the
  /// photo and its count are kept together or not at all.
  func add(_ photo: StoredPhoto) async throws {
    try await sql.raw(
      """
      INSERT INTO challenge_photos (id, user_id, full_jpeg, thumbnail_jpeg, width, height, created_at, posted)
      VALUES (\(bind: photo.id), \(bind: photo.owner), \(bind: photo.full), \(bind: photo.thumbnail), \(bind: photo.width), \(bind: photo.height),
        \(bind: photo.createdAt), \(bind: false))
      """
    ).run()
    try await countUploads(of: photo.owner, files: 1, bytes: photo.full.count + photo.thumbnail.count)
  }

  /// What `user` keeps uploaded and not posted, from the kept counter (no recount).
  func uploadUsage(of user: UUID) async throws -> (files: Int, bytes: Int) {
    struct Row: Decodable {
      let files: Int
      let bytes: Int
    }
    let row = try await sql.raw("SELECT files, bytes FROM upload_usage WHERE user_id = \(bind: user)").firstRow(decoding: Row.self)
    return (row?.files ?? 0, row?.bytes ?? 0)
  }

  /// Moves `user`'s kept counter by `files` and `bytes` (negative to take away).
  private func countUploads(of user: UUID, files: Int, bytes: Int) async throws {
    try await sql.raw(
      """
      INSERT INTO upload_usage (user_id, files, bytes) VALUES (\(bind: user), \(bind: files), \(bind: bytes))
      ON CONFLICT (user_id) DO UPDATE SET files = upload_usage.files + EXCLUDED.files, bytes = upload_usage.bytes + EXCLUDED.bytes
      """
    ).run()
  }

  /// A photo's stored bytes, as the quota counts them.
  private static let photoBytes = "LENGTH(full_jpeg) + LENGTH(thumbnail_jpeg)"

  /// Marks `user`'s photo `id` as shown by a post: from then on it belongs to the post and stops counting against the
  /// quota. False when `user` has no such photo (removed in the meantime). Call it in the completion's transaction:
  /// the mark and the count move with the post, and one conditional statement decides, so two completions using the
  /// same photo at once take it off the count once.
  func markPosted(_ id: UUID, of user: UUID) async throws -> Bool {
    struct Row: Decodable { let bytes: Int }
    if let row = try await sql.raw(
      """
      UPDATE challenge_photos SET posted = \(bind: true) WHERE id = \(bind: id) AND user_id = \(bind: user) AND posted = \(bind: false)
      RETURNING \(unsafeRaw: Self.photoBytes) AS bytes
      """
    ).firstRow(decoding: Row.self) {
      try await countUploads(of: user, files: -1, bytes: -row.bytes)
      return true
    }
    return try await photoOwner(id) == user
  }

  /// What became of a request to delete a photo.
  enum PhotoRemoval: Sendable, Equatable {
    case removed
    /// A post shows it.
    case inUse
    /// Not `user`'s, or no such photo.
    case notFound
  }

  /// Deletes `user`'s photo `id` unless a post shows it, and takes it off the count, in one conditional statement
  /// (two deletes at once remove it once). Call it inside a transaction.
  func removeUnposted(_ id: UUID, of user: UUID) async throws -> PhotoRemoval {
    struct Row: Decodable { let bytes: Int }
    if let row = try await sql.raw(
      """
      DELETE FROM challenge_photos WHERE id = \(bind: id) AND user_id = \(bind: user) AND posted = \(bind: false)
      RETURNING \(unsafeRaw: Self.photoBytes) AS bytes
      """
    ).firstRow(decoding: Row.self) {
      try await countUploads(of: user, files: -1, bytes: -row.bytes)
      return .removed
    }
    return try await photoOwner(id) == user ? .inUse : .notFound
  }

  /// Deletes up to `limit` photos no post shows that were uploaded before `cutoff` (picked, then never posted), and
  /// takes them off their owners' counts (only `owner`'s, when given). Call it inside a transaction; returns how many
  /// it deleted.
  func removeUnposted(before cutoff: Date, limit: Int, owner: UUID? = nil) async throws -> Int {
    struct Row: Decodable {
      let user_id: UUID
      let bytes: Int
    }
    let rows = try await sql.raw(
      """
      DELETE FROM challenge_photos WHERE id IN (
        SELECT id FROM challenge_photos WHERE posted = \(bind: false) AND created_at < \(bind: cutoff)
          AND (\(bind: owner == nil) OR user_id = \(bind: owner ?? UUID())) LIMIT \(unsafeRaw: String(max(limit, 0))))
      AND posted = \(bind: false)
      RETURNING user_id, \(unsafeRaw: Self.photoBytes) AS bytes
      """
    ).allRows(decoding: Row.self)
    var freed: [UUID: (files: Int, bytes: Int)] = [:]
    for row in rows {
      let before = freed[row.user_id] ?? (0, 0)
      freed[row.user_id] = (before.files + 1, before.bytes + row.bytes)
    }
    for (user, amount) in freed { try await countUploads(of: user, files: -amount.files, bytes: -amount.bytes) }
    return rows.count
  }

  /// Deletes up to `limit` posted photos that no standing post shows any more: their posts were revoked (each such
  /// post lets go of its photo first, in the same statement's transaction) or deleted. A posted photo is not counted
  /// against the quota, so no count moves; revoked posts' share cards go too. Only `owner`'s, when given. Call it inside
  /// a transaction; returns how many photos it deleted.
  func removePhotosOfRemovedPosts(limit: Int, owner: UUID? = nil) async throws -> Int {
    let revoked = try await sql.raw(
      """
      SELECT id FROM activities WHERE status = \(bind: ModerationState.Status.revoked.rawValue) AND photo_id IS NOT NULL
        AND (\(bind: owner == nil) OR user_id = \(bind: owner ?? UUID())) LIMIT \(unsafeRaw: String(max(limit, 0)))
      """
    ).allRows(decoding: IDRow.self).map(\.id)
    if !revoked.isEmpty {
      try await sql.update("activities").set(SQLIdentifier("photo_id"), to: SQLLiteral.null).where("id", .in, SQLBind.group(revoked)).run()
      try await sql.delete(from: ChallengeTables.cards).where("activity_id", .in, SQLBind.group(revoked)).run()
    }
    return try await sql.raw(
      """
      DELETE FROM challenge_photos WHERE id IN (
        SELECT p.id FROM challenge_photos p WHERE p.posted = \(bind: true) AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.photo_id = p.id)
          AND (\(bind: owner == nil) OR p.user_id = \(bind: owner ?? UUID())) LIMIT \(unsafeRaw: String(max(limit, 0))))
      RETURNING id
      """
    ).allRows(decoding: IDRow.self).count
  }

  /// Of `posts`, those that no longer stand (deleted, or revoked): their cached share videos may go.
  func removedPosts(among posts: [UUID]) async throws -> Set<UUID> {
    guard !posts.isEmpty else { return [] }
    let standing = try await sql.select().column("id").from("activities").where("id", .in, SQLBind.group(posts))
      .where("status", .notEqual, SQLBind(ModerationState.Status.revoked.rawValue)).allRows(decoding: IDRow.self).map(\.id)
    return Set(posts).subtracting(standing)
  }

  func photoOwner(_ id: UUID) async throws -> UUID? {
    struct Row: Decodable { let user_id: UUID }
    return try await sql.raw("SELECT user_id FROM challenge_photos WHERE id = \(bind: id)").firstRow(decoding: Row.self)?.user_id
  }

  func photoJPEG(_ id: UUID, thumbnail: Bool) async throws -> Data? {
    struct Row: Decodable { let bytes: Data }
    return try await sql.raw(
      "SELECT \(unsafeRaw: thumbnail ? "thumbnail_jpeg" : "full_jpeg") AS bytes FROM challenge_photos WHERE id = \(bind: id)"
    ).firstRow(decoding: Row.self)?.bytes
  }

  func shareCard(of post: UUID) async throws -> Data? {
    struct Row: Decodable { let png: Data }
    return try await sql.raw("SELECT png FROM share_cards WHERE activity_id = \(bind: post)").firstRow(decoding: Row.self)?.png
  }

  func saveShareCard(_ png: Data, of post: UUID) async throws {
    try await sql.raw("INSERT INTO share_cards (activity_id, png) VALUES (\(bind: post), \(bind: png)) ON CONFLICT (activity_id) DO NOTHING").run()
  }

  // MARK: Beyond the boundary

  /// The person's figures, read from the completion pipeline's kept rows: completed challenges, points
  /// balance, and the daily streak as it stands today.
  func stats(of user: UUID, today: CalendarDay, zone: TimeZone) async throws -> ChallengeStatsView {
    async let totals = CompletionRecorder.totals(userID: user, domain: ChallengeCompletion.domain, on: sql)
    async let points = SQLLedgerStore.balance(userID: user, currency: ChallengeCompletion.currency, on: sql)
    async let streak = CompletionRecorder.loadStreak(userID: user, name: ChallengeCompletion.streak.name, on: sql)
    let counted = try await streak
    let balance = try await points
    return ChallengeStatsView(
      challengesCompleted: try await totals.completed, totalPoints: balance, currentStreak: counted.current(on: today, in: zone),
      longestStreak: counted.longest, freezes: Streak.freezesView(counted, today: today, zone: zone, balance: balance))
  }

  /// The points balance of the pipeline's ledger.
  func points(of user: UUID) async throws -> Int {
    try await SQLLedgerStore.balance(userID: user, currency: ChallengeCompletion.currency, on: sql)
  }

  /// Sends a PostgreSQL notification from inside the transaction (delivered at its commit, or never).
  func notify(_ channel: String, _ payload: String) async throws {
    try await sql.raw("SELECT pg_notify(\(bind: channel), \(bind: payload))").run()
  }

  // MARK: Demo data, in bulk

  /// Rows per statement of a bulk insert.
  static let bulkBatch = 400

  /// Whether the demo people were made already (`demo1` exists).
  func hasDemoPeople() async throws -> Bool {
    try await sql.raw("SELECT id FROM users WHERE username = 'demo1'").first() != nil
  }

  /// Named accounts in bulk: `(id, display name, username)`, all with `passwordHash`.
  func insertPeople(_ people: [(id: UUID, displayName: String, username: String)], passwordHash: String, at now: Date) async throws {
    for start in stride(from: 0, to: people.count, by: Self.bulkBatch) {
      let rows = people[start..<min(start + Self.bulkBatch, people.count)].map { person -> SQLQueryString in
        "(\(bind: person.id), \(bind: person.displayName), \(bind: person.username), \(bind: passwordHash), false, \(bind: now), \(bind: now))"
      }
      try await sql.raw(
        "INSERT INTO users (id, display_name, username, password_hash, is_guest, created_at, updated_at) VALUES \(rows.joined(separator: ", "))"
      ).run()
    }
  }

  /// Silent guests in bulk (no name, no sign-in), called `displayName`.
  func insertGuests(_ ids: [UUID], displayName: String, at now: Date) async throws {
    for start in stride(from: 0, to: ids.count, by: Self.bulkBatch) {
      let rows = ids[start..<min(start + Self.bulkBatch, ids.count)].map { id -> SQLQueryString in
        "(\(bind: id), \(bind: displayName), true, \(bind: now), \(bind: now))"
      }
      try await sql.raw("INSERT INTO users (id, display_name, is_guest, created_at, updated_at) VALUES \(rows.joined(separator: ", "))").run()
    }
  }

  /// Follows in bulk, without moving the kept counts (the caller writes them once: ``setFollowCounts(_:followers:following:)``
  /// or ``bumpCounts(_:followers:following:)``).
  func insertFollows(_ pairs: [(follower: UUID, followee: UUID)], at: Int64) async throws {
    for start in stride(from: 0, to: pairs.count, by: Self.bulkBatch) {
      let rows = pairs[start..<min(start + Self.bulkBatch, pairs.count)].map { pair -> SQLQueryString in
        "(\(bind: pair.follower), \(bind: pair.followee), \(bind: at))"
      }
      try await sql.raw("INSERT INTO follows (follower_id, followee_id, at_micros) VALUES \(rows.joined(separator: ", "))").run()
    }
  }

  /// First kept counts for people who have none yet, in bulk.
  func setFollowCounts(_ users: [UUID], followers: Int, following: Int) async throws {
    for start in stride(from: 0, to: users.count, by: Self.bulkBatch) {
      let rows = users[start..<min(start + Self.bulkBatch, users.count)].map { user -> SQLQueryString in
        "(\(bind: user), \(bind: followers), \(bind: following))"
      }
      try await sql.raw("INSERT INTO social_profiles (user_id, followers, following) VALUES \(rows.joined(separator: ", "))").run()
    }
  }
}

/// One `id` column.
private struct IDRow: Decodable {
  let id: UUID
}
