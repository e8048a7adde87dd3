import Challenges
import CompletionAPI
import CompletionCore
import FluentSQL
import Foundation
import Vapor

/// A person's row in a challenge.
struct ParticipationRow: Decodable, Sendable {
  let challenge_id: String
  let status: String
  let progress: Double
  let joined_at: Date
  let completed_at: Date?
  let activity_id: UUID?

  var view: ParticipationView {
    ParticipationView(
      status: status, progress: progress, joinedAt: joined_at.timeIntervalSince1970, completedAt: completed_at?.timeIntervalSince1970,
      activityId: activity_id?.uuidString)
  }

  static let columns = "challenge_id, status, progress, joined_at, completed_at, activity_id"
}

/// An activity with its author, as one query reads it for the feed.
struct ActivityRow: Decodable, Sendable {
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

  var author: PersonView { PersonView(id: user_id.uuidString, username: author_username, displayName: author_name) }
  var position: FeedPosition { FeedPosition(at: at_micros, id: id.uuidString) }
  var moderation: ModerationState {
    ModerationState(status: ModerationState.Status(rawValue: status) ?? .visible, reports: reports, kept: kept)
  }

  /// The card as `viewer` sees it (`congratulated`: whether they did).
  func view(for viewer: UUID?, congratulated: Bool) -> FeedItemView {
    let isCompletion = type == FeedActivityType.challengeCompleted
    // A post out of feeds has no working public link; a revoked one no card and no points (they were paid back).
    let revoked = status == ModerationState.Status.revoked.rawValue
    return FeedItemView(
      id: id.uuidString, type: type, actor: author, createdAt: Double(at_micros) / 1_000_000, title: title, subtitle: subtitle,
      photoUrl: photo_id.map { "/api/photos/\($0.uuidString)" }, thumbnailUrl: photo_id.map { "/api/photos/\($0.uuidString)?size=thumbnail" },
      story: story, challengeId: challenge_id, challengeTitle: challenge_title, challengeType: challenge_type, points: revoked ? nil : points,
      congrats: congrats, congratulated: congratulated, comments: comments, isMine: viewer == user_id, publicLink: public_link,
      shareUrl: isCompletion && status == "visible" ? "/s/\(id.uuidString)" : nil,
      cardUrl: isCompletion && !revoked ? "/api/activities/\(id.uuidString)/card.png" : nil,
      status: status)
  }
}

/// The kinds of feed activity.
enum FeedActivityType {
  static let challengeCompleted = "challenge_completed"
  static let follow = "follow"
}

/// Reads and writes of the Challenges system. Counts (followers, following, congrats, comments, feed
/// sizes) are kept and moved by increments in the transaction of each change, never recounted.
enum ChallengeStore {
  /// Most entries kept in one person's feed; ``FeedJanitor`` trims feeds that have grown past it by `feedSlack`.
  static let feedCap = 800
  static let feedSlack = 100

  static func sql(_ db: any Database) -> any SQLDatabase {
    guard let sql = db as? any SQLDatabase else { preconditionFailure("CompletionKit runs on SQL databases only") }
    return sql
  }

  static func micros(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1_000_000).rounded()) }

  // MARK: Catalogue

  /// The built-in catalogue plus an operator's imported challenges.
  static func catalogue(on db: any SQLDatabase) async throws -> ChallengeCatalogue {
    struct Row: Decodable {
      let slug: String
      let type: String
      let title: String
      let description: String
      let requirements: String
      let date: String?
      let days: Int?
    }
    let rows = try await db.raw("SELECT slug, type, title, description, requirements, date, days FROM challenge_templates ORDER BY slug")
      .all(decoding: Row.self)
    guard !rows.isEmpty else { return .builtIn }
    let imported = rows.compactMap { row -> ChallengeTemplate? in
      guard let type = ChallengeType(rawValue: row.type),
        let requirements = try? JSONDecoder().decode([String].self, from: Data(row.requirements.utf8))
      else { return nil }
      return ChallengeTemplate(
        slug: row.slug, type: type, title: row.title, description: row.description, requirements: requirements,
        date: row.date.flatMap(MonthDay.init), days: row.days)
    }
    return ChallengeCatalogue.builtIn.adding(imported)
  }

  /// Adds checked templates (one transaction: all or none).
  static func importTemplates(_ templates: [ChallengeTemplate], at now: Date, on db: any Database) async throws {
    try await db.transaction { db in
      let sql = Self.sql(db)
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
  }

  // MARK: Participation

  static func participation(_ userID: UUID, challenge: String, on db: any SQLDatabase) async throws -> ParticipationRow? {
    try await db.raw(
      "SELECT \(unsafeRaw: ParticipationRow.columns) FROM challenge_participations WHERE user_id = \(bind: userID) AND challenge_id = \(bind: challenge)"
    ).first(decoding: ParticipationRow.self)
  }

  static func participations(_ userID: UUID, ids: [String], on db: any SQLDatabase) async throws -> [String: ParticipationRow] {
    guard !ids.isEmpty else { return [:] }
    let rows = try await db.raw(
      """
      SELECT \(unsafeRaw: ParticipationRow.columns) FROM challenge_participations
      WHERE user_id = \(bind: userID) AND challenge_id IN (\(binds: ids))
      """
    ).all(decoding: ParticipationRow.self)
    return Dictionary(rows.map { ($0.challenge_id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The person's most recent participations (joined or completed), newest first.
  static func recentParticipations(_ userID: UUID, limit: Int, on db: any SQLDatabase) async throws -> [ParticipationRow] {
    try await db.raw(
      """
      SELECT \(unsafeRaw: ParticipationRow.columns) FROM challenge_participations
      WHERE user_id = \(bind: userID) AND status <> 'left' ORDER BY joined_at DESC LIMIT \(unsafeRaw: String(limit))
      """
    ).all(decoding: ParticipationRow.self)
  }

  /// Joins (again, after leaving); a completed challenge stays completed.
  static func join(_ userID: UUID, challenge: String, at now: Date, on db: any SQLDatabase) async throws -> ParticipationRow {
    try await db.raw(
      """
      INSERT INTO challenge_participations (id, user_id, challenge_id, status, progress, joined_at, updated_at)
      VALUES (\(bind: UUID()), \(bind: userID), \(bind: challenge), 'active', 0, \(bind: now), \(bind: now))
      ON CONFLICT (user_id, challenge_id) DO UPDATE SET status = 'active', joined_at = excluded.joined_at, updated_at = excluded.updated_at
      WHERE challenge_participations.status = 'left'
      """
    ).run()
    guard let row = try await participation(userID, challenge: challenge, on: db) else { throw ChallengesError.challengeNotFound }
    return row
  }

  // MARK: Stats

  /// The person's figures: completed challenges, points balance, and the daily streak as it stands today.
  static func stats(_ userID: UUID, today: CalendarDay, zone: TimeZone, on db: any SQLDatabase) async throws -> ChallengeStatsView {
    async let totals = CompletionRecorder.totals(userID: userID, domain: ChallengeCompletion.domain, on: db)
    async let points = SQLLedgerStore.balance(userID: userID, currency: ChallengeCompletion.currency, on: db)
    async let streak = CompletionRecorder.loadStreak(userID: userID, name: ChallengeCompletion.streak.name, on: db)
    let counted = try await streak
    return ChallengeStatsView(
      challengesCompleted: try await totals.completed, totalPoints: try await points, currentStreak: counted.current(on: today, in: zone),
      longestStreak: counted.longest)
  }

  // MARK: People

  struct PersonRow: Decodable, Sendable {
    let id: UUID
    let display_name: String
    let username: String?

    var view: PersonView { PersonView(id: id.uuidString, username: username, displayName: display_name) }
  }

  static func person(_ id: UUID, on db: any SQLDatabase) async throws -> PersonRow? {
    try await db.raw("SELECT id, display_name, username FROM users WHERE id = \(bind: id)").first(decoding: PersonRow.self)
  }

  static func person(username: String, on db: any SQLDatabase) async throws -> PersonRow? {
    try await db.raw("SELECT id, display_name, username FROM users WHERE username = \(bind: username.lowercased())").first(decoding: PersonRow.self)
  }

  /// Follower and following counts (kept).
  static func followCounts(_ userID: UUID, on db: any SQLDatabase) async throws -> (followers: Int, following: Int) {
    struct Row: Decodable {
      let followers: Int
      let following: Int
    }
    let row = try await db.raw("SELECT followers, following FROM social_profiles WHERE user_id = \(bind: userID)").first(decoding: Row.self)
    return (row?.followers ?? 0, row?.following ?? 0)
  }

  static func follows(_ follower: UUID, _ followee: UUID, on db: any SQLDatabase) async throws -> Bool {
    try await db.raw("SELECT 1 AS one FROM follows WHERE follower_id = \(bind: follower) AND followee_id = \(bind: followee)").first() != nil
  }

  /// Moves a person's kept follow counts.
  static func bumpCounts(_ userID: UUID, followers: Int, following: Int, on db: any SQLDatabase) async throws {
    try await db.raw(
      """
      INSERT INTO social_profiles (user_id, followers, following) VALUES (\(bind: userID), \(bind: max(followers, 0)), \(bind: max(following, 0)))
      ON CONFLICT (user_id) DO UPDATE SET followers = social_profiles.followers + \(bind: followers),
        following = social_profiles.following + \(bind: following)
      """
    ).run()
  }

  // MARK: Activities

  static func activity(_ id: UUID, on db: any SQLDatabase) async throws -> ActivityRow? {
    try await db.raw("SELECT \(unsafeRaw: ActivityRow.columns) FROM activities a JOIN users u ON u.id = a.user_id WHERE a.id = \(bind: id)")
      .first(decoding: ActivityRow.self)
  }

  /// Whether `viewer` may see `activity`: its author always; others while it is visible and they follow
  /// the author (or it is addressed to them).
  static func canSee(_ activity: ActivityRow, viewer: UUID?, on db: any SQLDatabase) async throws -> Bool {
    guard let viewer else { return false }
    if activity.user_id == viewer { return true }
    guard activity.status == ModerationState.Status.visible.rawValue else { return false }
    if activity.recipient_id == viewer { return true }
    return try await follows(viewer, activity.user_id, on: db)
  }

  /// The activity `id` if `viewer` may see it; otherwise not found (whether it exists is not told).
  static func visibleActivity(_ id: UUID, viewer: UUID?, on db: any SQLDatabase) async throws -> ActivityRow {
    guard let row = try await activity(id, on: db), try await canSee(row, viewer: viewer, on: db) else { throw ChallengesError.activityNotFound }
    return row
  }

  /// Which of `ids` `viewer` congratulated.
  static func congratulated(_ viewer: UUID, among ids: [UUID], on db: any SQLDatabase) async throws -> Set<UUID> {
    guard !ids.isEmpty else { return [] }
    struct Row: Decodable { let activity_id: UUID }
    let rows = try await db.raw("SELECT activity_id FROM congrats WHERE user_id = \(bind: viewer) AND activity_id IN (\(binds: ids))")
      .all(decoding: Row.self)
    return Set(rows.map(\.activity_id))
  }

  /// Which of `people` congratulated `activity` (one query).
  static func congratulators(of activity: UUID, among people: [UUID], on db: any SQLDatabase) async throws -> Set<UUID> {
    guard !people.isEmpty else { return [] }
    struct Row: Decodable { let user_id: UUID }
    let rows = try await db.raw("SELECT user_id FROM congrats WHERE activity_id = \(bind: activity) AND user_id IN (\(binds: people))")
      .all(decoding: Row.self)
    return Set(rows.map(\.user_id))
  }

  /// Inserts an activity and delivers it: into the author's own feed, and into every follower's (one
  /// statement) unless the author has more followers than `fanOutLimit` — then followers merge it in when
  /// they read. A follow notice goes to its recipient only. (Feeds over their cap are trimmed later, off
  /// the request's path, by ``FeedJanitor``.)
  static func insert(
    activity: UUID, author: UUID, type: String, at: Int64, title: String, subtitle: String, photo: UUID? = nil, story: String? = nil,
    challenge: Challenge? = nil, points: Int? = nil, completionKey: String? = nil, recipient: UUID? = nil, fanOutLimit: Int,
    on db: any SQLDatabase
  ) async throws -> Bool {
    let followers = recipient == nil ? try await followCounts(author, on: db).followers : 0
    let fannedOut = recipient != nil || followers <= fanOutLimit
    try await db.raw(
      """
      INSERT INTO activities (id, user_id, type, at_micros, title, subtitle, photo_id, story, challenge_id, challenge_title, challenge_type,
        points, completion_key, recipient_id, fanned_out, status, reports, kept, congrats, comments, public_link)
      VALUES (\(bind: activity), \(bind: author), \(bind: type), \(bind: at), \(bind: title), \(bind: subtitle), \(bind: photo), \(bind: story),
        \(bind: challenge?.id), \(bind: challenge?.title), \(bind: challenge?.type.rawValue), \(bind: points), \(bind: completionKey),
        \(bind: recipient), \(bind: fannedOut), 'visible', 0, false, 0, 0, true)
      """
    ).run()
    let owners: SQLQueryString
    if let recipient {
      owners = "SELECT \(bind: recipient) AS owner_id"
    } else if fannedOut {
      owners = "SELECT \(bind: author) AS owner_id UNION ALL SELECT follower_id FROM follows WHERE followee_id = \(bind: author)"
    } else {
      owners = "SELECT \(bind: author) AS owner_id"
    }
    try await db.raw(
      """
      INSERT INTO feed_entries (owner_id, activity_id, at_micros, type)
      SELECT owner_id, \(bind: activity), \(bind: at), \(bind: type) FROM (\(owners)) AS recipients
      """
    ).run()
    return fannedOut
  }

  /// How many of someone's recent posts a new follower's feed gets at once.
  static let backfillCount = 20

  /// Copies `followee`'s most recent visible completions into `follower`'s feed (a new follow shows what
  /// they did lately, not only what comes next). Posts of very big accounts are merged in when read anyway.
  static func backfill(_ follower: UUID, from followee: UUID, on db: any SQLDatabase) async throws {
    try await db.raw(
      """
      INSERT INTO feed_entries (owner_id, activity_id, at_micros, type)
      SELECT \(bind: follower), id, at_micros, type FROM activities
      WHERE id IN (
        SELECT id FROM activities
        WHERE user_id = \(bind: followee) AND type = \(bind: FeedActivityType.challengeCompleted) AND fanned_out = true AND status = 'visible'
          AND id NOT IN (SELECT activity_id FROM feed_entries WHERE owner_id = \(bind: follower))
        ORDER BY at_micros DESC LIMIT \(unsafeRaw: String(backfillCount)))
      """
    ).run()
  }

  /// Feeds holding more than ``feedCap`` + ``feedSlack`` entries (a read: on SQLite it does not hold up writers).
  static func overfullFeeds(limit: Int, on db: any SQLDatabase) async throws -> [UUID] {
    struct Row: Decodable { let owner_id: UUID }
    return try await db.raw(
      "SELECT owner_id FROM feed_entries GROUP BY owner_id HAVING COUNT(*) > \(bind: feedCap + feedSlack) LIMIT \(unsafeRaw: String(limit))"
    ).all(decoding: Row.self).map(\.owner_id)
  }

  /// Cuts a feed back to its newest ``feedCap`` entries.
  static func trimFeed(_ owner: UUID, on db: any SQLDatabase) async throws {
    struct Row: Decodable {
      let at_micros: Int64
      let activity_id: UUID
    }
    guard
      let boundary = try await db.raw(
        """
        SELECT at_micros, activity_id FROM feed_entries WHERE owner_id = \(bind: owner)
        ORDER BY at_micros DESC, activity_id DESC LIMIT 1 OFFSET \(unsafeRaw: String(feedCap - 1))
        """
      ).first(decoding: Row.self)
    else { return }
    try await db.raw(
      """
      DELETE FROM feed_entries WHERE owner_id = \(bind: owner)
        AND (at_micros < \(bind: boundary.at_micros) OR (at_micros = \(bind: boundary.at_micros) AND activity_id < \(bind: boundary.activity_id)))
      """
    ).run()
  }

  // MARK: Feed

  /// Which activity types a feed filter shows.
  static func types(for filter: String) throws -> [String] {
    switch filter {
    case "all": [FeedActivityType.challengeCompleted, FeedActivityType.follow]
    case "challenges": [FeedActivityType.challengeCompleted]
    case "social": [FeedActivityType.follow]
    default: throw ChallengesError.invalidFilter(String(filter.prefix(40)))
    }
  }

  /// One page of `viewer`'s feed: their fanned-out entries and the merged-in activities of the big
  /// accounts they follow, interleaved by time (``FeedMerge``). Hidden and revoked items are left out.
  static func feed(_ viewer: UUID, types: [String], after cursor: FeedPosition?, limit: Int, on db: any SQLDatabase) async throws
    -> (items: [ActivityRow], next: FeedPosition?)
  {
    let before: SQLQueryString =
      if let cursor, let id = UUID(uuidString: cursor.id) {
        "AND (f.at_micros < \(bind: cursor.at) OR (f.at_micros = \(bind: cursor.at) AND f.activity_id < \(bind: id)))"
      } else { "" }
    let pulledBefore: SQLQueryString =
      if let cursor, let id = UUID(uuidString: cursor.id) {
        "AND (a.at_micros < \(bind: cursor.at) OR (a.at_micros = \(bind: cursor.at) AND a.id < \(bind: id)))"
      } else { "" }
    let fetch = String(limit + 1)
    async let fannedOut = db.raw(
      """
      SELECT \(unsafeRaw: ActivityRow.columns) FROM feed_entries f
      JOIN activities a ON a.id = f.activity_id JOIN users u ON u.id = a.user_id
      WHERE f.owner_id = \(bind: viewer) AND f.type IN (\(binds: types)) \(before) AND (a.status = 'visible' OR a.user_id = \(bind: viewer))
      ORDER BY f.at_micros DESC, f.activity_id DESC LIMIT \(unsafeRaw: fetch)
      """
    ).all(decoding: ActivityRow.self)
    async let pulled = db.raw(
      """
      SELECT \(unsafeRaw: ActivityRow.columns) FROM follows fo
      JOIN activities a ON a.user_id = fo.followee_id AND a.fanned_out = false
      JOIN users u ON u.id = a.user_id
      WHERE fo.follower_id = \(bind: viewer) AND a.type IN (\(binds: types)) \(pulledBefore) AND a.status = 'visible'
      ORDER BY a.at_micros DESC, a.id DESC LIMIT \(unsafeRaw: fetch)
      """
    ).all(decoding: ActivityRow.self)
    let ownRows = try await fannedOut
    let bigRows = try await pulled
    let byID = Dictionary((ownRows + bigRows).map { ($0.id.uuidString, $0) }, uniquingKeysWith: { first, _ in first })
    let page = FeedMerge.page(fannedOut: ownRows.map(\.position), pulled: bigRows.map(\.position), after: cursor, limit: limit)
    return (page.items.compactMap { byID[$0.id] }, page.next)
  }

  // MARK: Photos

  static func photoOwner(_ id: UUID, on db: any SQLDatabase) async throws -> UUID? {
    struct Row: Decodable { let user_id: UUID }
    return try await db.raw("SELECT user_id FROM challenge_photos WHERE id = \(bind: id)").first(decoding: Row.self)?.user_id
  }
}
