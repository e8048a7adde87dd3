import Challenges
import CompletionAPI
import CompletionCore
import FluentSQL
import Foundation
import Imaging
import Vapor

/// Follows, the feed and what people do with its cards (congrats, comments, reports, the share card and
/// its public page). Only people who may see a post can act on it; to everyone else it does not exist.
struct SocialController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    let social = routes.grouped("api", "social")
    social.get("me", use: me)
    social.get("people", ":username", use: profile)
    social.post("follow") { req in try await IdempotentCreate.run(req) { try await self.follow(req: $0).encodeResponse(for: $0) } }
    social.delete("follow", ":username", use: unfollow)
    social.get("followers") { try await self.people($0, followers: true) }
    social.get("following") { try await self.people($0, followers: false) }

    routes.get("api", "feed", use: feed)
    routes.get("api", "feed", "events", use: events)

    let activities = routes.grouped("api", "activities", ":id")
    activities.patch(use: settings)
    activities.post("congrats") { try await self.congrats($0, on: true) }
    activities.delete("congrats") { try await self.congrats($0, on: false) }
    activities.get("comments", use: comments)
    activities.post("comments") { req in try await IdempotentCreate.run(req, self.addComment) }
    activities.post("report") { req in try await IdempotentCreate.run(req, self.report) }
    activities.get("card.png", use: card)
    routes.delete("api", "comments", ":id", use: deleteComment)

    routes.get("s", ":id", use: publicPage)
    routes.get("s", ":id", "card.png", use: publicCard)
  }

  static let pageLimit = 50

  // MARK: People

  static func profile(of person: ChallengeStore.PersonRow, viewer: UUID?, req: Request, on db: any SQLDatabase) async throws -> ProfileView {
    let zone = ChallengesController.zone(req)
    let today = CalendarDay(req.application.services.clock.now(), in: zone)
    async let counts = ChallengeStore.followCounts(person.id, on: db)
    async let stats = ChallengeStore.stats(person.id, today: today, zone: zone, on: db)
    let following = try await viewer.asyncMap { try await ChallengeStore.follows($0, person.id, on: db) } ?? false
    let (followers, followingCount) = try await counts
    return ProfileView(
      person: person.view, followers: followers, following: followingCount, stats: try await stats, isFollowing: following,
      isMe: viewer == person.id)
  }

  /// `GET /api/social/me`.
  @Sendable func me(req: Request) async throws -> ProfileView {
    let user = try await req.userOrVisitor()
    let id = try user.requireID()
    let db = ChallengeStore.sql(req.db)
    // A visitor without an account is shown as a new guest (nothing is stored for them).
    let person = try await ChallengeStore.person(id, on: db) ?? ChallengeStore.PersonRow(id: id, display_name: user.displayName, username: nil)
    return try await Self.profile(of: person, viewer: person.id, req: req, on: db)
  }

  /// `GET /api/social/people/{username}`.
  @Sendable func profile(req: Request) async throws -> ProfileView {
    let db = ChallengeStore.sql(req.db)
    let name = req.parameters.get("username") ?? ""
    guard let person = try await ChallengeStore.person(username: name, on: db) else { throw ChallengesError.personNotFound(String(name.prefix(40))) }
    return try await Self.profile(of: person, viewer: req.currentSession?.userID, req: req, on: db)
  }

  /// `POST /api/social/follow` `{username}`: follows (again: nothing changes) and tells them in their feed.
  @Sendable func follow(req: Request) async throws -> ProfileView {
    // A guest has no name to be followed back by, and guests cost nothing to make: counts would mean nothing.
    // (Read, not created: a visitor without an account is refused without making one first.)
    guard let user = try await req.currentUser(), !user.isGuest else { throw ChallengesError.guestCannotFollow }
    let me = try user.requireID()
    let name = try req.decodeJSON(FollowRequest.self).username.trimmingCharacters(in: .whitespaces)
    let db = ChallengeStore.sql(req.db)
    guard let person = try await ChallengeStore.person(username: name, on: db) else { throw ChallengesError.personNotFound(String(name.prefix(40))) }
    guard person.id != me else { throw ChallengesError.cannotFollowSelf }
    let services = req.application.services
    let now = services.clock.now()
    let announced = AfterCommit<FeedNotice>()
    let fanOutLimit = req.application.serverOptions.fanOutLimit
    _ = try await services.runner.write(on: req.db) { db -> Bool? in
      let sql = ChallengeStore.sql(db)
      let inserted = try await sql.raw(
        """
        INSERT INTO follows (follower_id, followee_id, at_micros) VALUES (\(bind: me), \(bind: person.id), \(bind: ChallengeStore.micros(now)))
        ON CONFLICT (follower_id, followee_id) DO NOTHING RETURNING follower_id
        """
      ).first()
      guard inserted != nil else { return true }
      try await ChallengeStore.bumpCounts(me, followers: 0, following: 1, on: sql)
      try await ChallengeStore.bumpCounts(person.id, followers: 1, following: 0, on: sql)
      try await ChallengeStore.backfill(me, from: person.id, on: sql)
      let activity = UUID()
      _ = try await ChallengeStore.insert(
        activity: activity, author: me, type: FeedActivityType.follow, at: ChallengeStore.micros(now), title: "\(user.displayName) started following you",
        subtitle: "", recipient: person.id, fanOutLimit: fanOutLimit, on: sql)
      let notice = FeedNotice(kind: .added, activity: activity)
      try await services.feedLive.announce(notice, on: sql)
      announced.set(notice)
      return true
    }
    if let notice = announced.value { services.feedLive.committed(notice) }
    return try await Self.profile(of: person, viewer: me, req: req, on: db)
  }

  /// `DELETE /api/social/follow/{username}`.
  @Sendable func unfollow(req: Request) async throws -> ProfileView {
    guard let me = req.currentSession?.userID else { throw AppError.unauthenticated }
    let name = req.parameters.get("username") ?? ""
    let db = ChallengeStore.sql(req.db)
    guard let person = try await ChallengeStore.person(username: name, on: db) else { throw ChallengesError.personNotFound(String(name.prefix(40))) }
    _ = try await req.application.services.runner.write(on: req.db) { db -> Bool? in
      let sql = ChallengeStore.sql(db)
      let deleted = try await sql.raw(
        "DELETE FROM follows WHERE follower_id = \(bind: me) AND followee_id = \(bind: person.id) RETURNING follower_id"
      ).first()
      guard deleted != nil else { return true }
      try await ChallengeStore.bumpCounts(me, followers: 0, following: -1, on: sql)
      try await ChallengeStore.bumpCounts(person.id, followers: -1, following: 0, on: sql)
      // Their posts leave this person's feed (their photos are no longer this person's to see).
      try await sql.raw(
        """
        DELETE FROM feed_entries WHERE owner_id = \(bind: me)
          AND activity_id IN (SELECT id FROM activities WHERE user_id = \(bind: person.id) AND recipient_id IS NULL)
        """
      ).run()
      return true
    }
    return try await Self.profile(of: person, viewer: me, req: req, on: db)
  }

  /// `GET /api/social/followers|following?cursor=`: newest first.
  func people(_ req: Request, followers: Bool) async throws -> PeoplePage {
    // The parameters are checked for everyone, a visitor without an account too.
    let cursor = try Self.cursor(req)
    guard let me = req.currentSession?.userID else { return PeoplePage(people: [], total: 0, next: nil) }
    let db = ChallengeStore.sql(req.db)
    let (mine, other) = followers ? ("followee_id", "follower_id") : ("follower_id", "followee_id")
    let after: SQLQueryString =
      if let cursor, let id = UUID(uuidString: cursor.id) {
        "AND (f.at_micros < \(bind: cursor.at) OR (f.at_micros = \(bind: cursor.at) AND f.\(unsafeRaw: other) < \(bind: id)))"
      } else { "" }
    struct Row: Decodable {
      let id: UUID
      let display_name: String
      let username: String?
      let at_micros: Int64
    }
    let rows = try await db.raw(
      """
      SELECT u.id, u.display_name, u.username, f.at_micros FROM follows f JOIN users u ON u.id = f.\(unsafeRaw: other)
      WHERE f.\(unsafeRaw: mine) = \(bind: me) \(after)
      ORDER BY f.at_micros DESC, f.\(unsafeRaw: other) DESC LIMIT \(unsafeRaw: String(Self.pageLimit + 1))
      """
    ).all(decoding: Row.self)
    let page = rows.prefix(Self.pageLimit)
    let counts = try await ChallengeStore.followCounts(me, on: db)
    return PeoplePage(
      people: page.map { PersonView(id: $0.id.uuidString, username: $0.username, displayName: $0.display_name) },
      total: followers ? counts.followers : counts.following,
      next: rows.count > Self.pageLimit ? page.last.map { FeedPosition(at: $0.at_micros, id: $0.id.uuidString).description } : nil)
  }

  static func cursor(_ req: Request) throws -> FeedPosition? {
    guard let raw = req.query[String.self, at: "cursor"], !raw.isEmpty else { return nil }
    guard let cursor = FeedPosition(cursor: raw), UUID(uuidString: cursor.id) != nil else { throw ChallengesError.invalidCursor }
    return cursor
  }

  // MARK: Feed

  /// `GET /api/feed?filter=&cursor=&limit=`.
  @Sendable func feed(req: Request) async throws -> FeedPage {
    // The parameters are checked for everyone, a visitor without an account too.
    let types = try ChallengeStore.types(for: req.query[String.self, at: "filter"] ?? "all")
    let limit = try MotionController.integer(req, "limit", default: 20, in: 1...Self.pageLimit)
    let cursor = try Self.cursor(req)
    guard let me = req.currentSession?.userID else { return FeedPage(items: [], next: nil) }
    let db = ChallengeStore.sql(req.db)
    let (rows, next) = try await ChallengeStore.feed(me, types: types, after: cursor, limit: limit, on: db)
    let congratulated = try await ChallengeStore.congratulated(me, among: rows.map(\.id), on: db)
    return FeedPage(items: rows.map { $0.view(for: me, congratulated: congratulated.contains($0.id)) }, next: next?.description)
  }

  /// `GET /api/feed/events`: new items as they are posted (see ``FeedLive``).
  @Sendable func events(req: Request) async throws -> Response {
    guard let me = req.currentSession?.userID else { throw AppError.unauthenticated }
    return try await req.application.services.feedLive.stream(for: me, on: req)
  }

  // MARK: Acting on a card

  static func activityID(_ req: Request) throws -> UUID {
    guard let raw = req.parameters.get("id"), let id = UUID(uuidString: raw) else { throw ChallengesError.activityNotFound }
    return id
  }

  /// `PATCH /api/activities/{id}` `{publicLink}`: the owner turns the public link on or off.
  @Sendable func settings(req: Request) async throws -> FeedItemView {
    guard let me = req.currentSession?.userID else { throw ChallengesError.activityNotFound }
    let id = try Self.activityID(req)
    let body = try req.decodeJSON(ActivitySettingsRequest.self)
    let db = ChallengeStore.sql(req.db)
    let activity = try await ChallengeStore.visibleActivity(id, viewer: me, on: db)
    guard activity.user_id == me else { throw ChallengesError.notYours }
    if body.publicLink == true, activity.status != "visible" { throw ChallengesError.postNotPublic }
    if let publicLink = body.publicLink {
      try await db.raw("UPDATE activities SET public_link = \(bind: publicLink) WHERE id = \(bind: id)").run()
    }
    guard let updated = try await ChallengeStore.activity(id, on: db) else { throw ChallengesError.activityNotFound }
    let congratulated = try await ChallengeStore.congratulated(me, among: [id], on: db).contains(id)
    return updated.view(for: me, congratulated: congratulated)
  }

  /// `POST|DELETE /api/activities/{id}/congrats`: one per person; the count is kept.
  func congrats(_ req: Request, on: Bool) async throws -> CongratsView {
    guard let me = req.currentSession?.userID else { throw ChallengesError.activityNotFound }
    let id = try Self.activityID(req)
    _ = try await ChallengeStore.visibleActivity(id, viewer: me, on: ChallengeStore.sql(req.db))
    let services = req.application.services
    let now = services.clock.now()
    let announced = AfterCommit<FeedNotice>()
    let count = try await services.runner.write(on: req.db) { db -> Int? in
      let sql = ChallengeStore.sql(db)
      let changed: SQLRow? =
        on
        ? try await sql.raw(
          """
          INSERT INTO congrats (activity_id, user_id, at_micros) VALUES (\(bind: id), \(bind: me), \(bind: ChallengeStore.micros(now)))
          ON CONFLICT (activity_id, user_id) DO NOTHING RETURNING user_id
          """
        ).first()
        : try await sql.raw("DELETE FROM congrats WHERE activity_id = \(bind: id) AND user_id = \(bind: me) RETURNING user_id").first()
      struct Row: Decodable { let congrats: Int }
      if changed != nil {
        try await services.feedLive.announce(FeedNotice(kind: .changed, activity: id), on: sql)
        announced.set(FeedNotice(kind: .changed, activity: id))
        return try await sql.raw("UPDATE activities SET congrats = congrats + \(bind: on ? 1 : -1) WHERE id = \(bind: id) RETURNING congrats")
          .first(decoding: Row.self)?.congrats
      }
      return try await sql.raw("SELECT congrats FROM activities WHERE id = \(bind: id)").first(decoding: Row.self)?.congrats
    }
    if let notice = announced.value { services.feedLive.committed(notice) }
    return CongratsView(congrats: count ?? 0, congratulated: on)
  }

  struct CommentRow: Decodable {
    let id: UUID
    let user_id: UUID
    let body: String
    let at_micros: Int64
    let display_name: String
    let username: String?

    func view(for viewer: UUID) -> CommentView {
      CommentView(
        id: id.uuidString, author: PersonView(id: user_id.uuidString, username: username, displayName: display_name), body: body,
        createdAt: Double(at_micros) / 1_000_000, isMine: user_id == viewer)
    }
  }

  /// `GET /api/activities/{id}/comments?cursor=`: oldest first.
  @Sendable func comments(req: Request) async throws -> CommentPage {
    guard let me = req.currentSession?.userID else { throw ChallengesError.activityNotFound }
    let id = try Self.activityID(req)
    let db = ChallengeStore.sql(req.db)
    let activity = try await ChallengeStore.visibleActivity(id, viewer: me, on: db)
    let cursor = try Self.cursor(req)
    let after: SQLQueryString =
      if let cursor, let commentID = UUID(uuidString: cursor.id) {
        "AND (c.at_micros > \(bind: cursor.at) OR (c.at_micros = \(bind: cursor.at) AND c.id > \(bind: commentID)))"
      } else { "" }
    let rows = try await db.raw(
      """
      SELECT c.id, c.user_id, c.body, c.at_micros, u.display_name, u.username FROM comments c JOIN users u ON u.id = c.user_id
      WHERE c.activity_id = \(bind: id) \(after) ORDER BY c.at_micros, c.id LIMIT \(unsafeRaw: String(Self.pageLimit + 1))
      """
    ).all(decoding: CommentRow.self)
    let page = rows.prefix(Self.pageLimit)
    return CommentPage(
      comments: page.map { $0.view(for: me) }, total: activity.comments,
      next: rows.count > Self.pageLimit ? page.last.map { FeedPosition(at: $0.at_micros, id: $0.id.uuidString).description } : nil)
  }

  /// `POST /api/activities/{id}/comments` `{body}`.
  @Sendable func addComment(req: Request) async throws -> Response {
    let user = try await req.userCreatingGuest()
    let me = try user.requireID()
    let id = try Self.activityID(req)
    let body = try req.decodeJSON(CommentRequest.self)
    guard let text = try ChallengesController.text(body.body, field: "comment", limit: ChallengeRules.commentLimit) else {
      throw ChallengesError.emptyComment
    }
    _ = try await ChallengeStore.visibleActivity(id, viewer: me, on: ChallengeStore.sql(req.db))
    let commentID = UUID()
    let at = ChallengeStore.micros(req.application.services.clock.now())
    let services = req.application.services
    _ = try await services.runner.write(on: req.db) { db -> Bool? in
      let sql = ChallengeStore.sql(db)
      try await sql.raw(
        "INSERT INTO comments (id, activity_id, user_id, body, at_micros) VALUES (\(bind: commentID), \(bind: id), \(bind: me), \(bind: text), \(bind: at))"
      ).run()
      try await sql.raw("UPDATE activities SET comments = comments + 1 WHERE id = \(bind: id)").run()
      try await services.feedLive.announce(FeedNotice(kind: .changed, activity: id), on: sql)
      return true
    }
    services.feedLive.committed(FeedNotice(kind: .changed, activity: id))
    let view = CommentView(
      id: commentID.uuidString, author: PersonView(id: me.uuidString, username: user.username, displayName: user.displayName), body: text,
      createdAt: Double(at) / 1_000_000, isMine: true)
    return try await view.encodeResponse(status: .created, for: req)
  }

  /// `DELETE /api/comments/{id}`: one's own comment, or any comment on one's own post.
  @Sendable func deleteComment(req: Request) async throws -> HTTPStatus {
    guard let me = req.currentSession?.userID, let raw = req.parameters.get("id"), let id = UUID(uuidString: raw) else {
      throw ChallengesError.commentNotFound
    }
    let services = req.application.services
    let announced = AfterCommit<FeedNotice>()
    let deleted = try await services.runner.write(on: req.db) { db -> Bool? in
      let sql = ChallengeStore.sql(db)
      struct Row: Decodable { let activity_id: UUID }
      guard
        let row = try await sql.raw(
          """
          DELETE FROM comments WHERE id = \(bind: id)
            AND (user_id = \(bind: me) OR activity_id IN (SELECT id FROM activities WHERE user_id = \(bind: me)))
          RETURNING activity_id
          """
        ).first(decoding: Row.self)
      else { return false }
      try await sql.raw("UPDATE activities SET comments = comments - 1 WHERE id = \(bind: row.activity_id)").run()
      let notice = FeedNotice(kind: .changed, activity: row.activity_id)
      try await services.feedLive.announce(notice, on: sql)
      announced.set(notice)
      return true
    }
    guard deleted == true else { throw ChallengesError.commentNotFound }
    if let notice = announced.value { services.feedLive.committed(notice) }
    return .noContent
  }

  /// `POST /api/activities/{id}/report` `{reason}`: each person once; enough reports hide the post.
  @Sendable func report(req: Request) async throws -> Response {
    guard let me = req.currentSession?.userID else { throw ChallengesError.activityNotFound }
    let id = try Self.activityID(req)
    let reason = try ChallengesController.text(try req.decodeJSON(ReportRequest.self).reason, field: "reason", limit: ChallengeRules.commentLimit)
    let activity = try await ChallengeStore.visibleActivity(id, viewer: me, on: ChallengeStore.sql(req.db))
    guard activity.user_id != me else { throw ChallengesError.cannotReportOwn }
    try await ChallengesModeration.report(id, by: me, reason: reason ?? "", app: req.application)
    return try await ["reported": true].encodeResponse(status: .ok, for: req)
  }

  // MARK: Share card

  /// `GET /api/activities/{id}/card.png`: the card, for whoever may see the post.
  @Sendable func card(req: Request) async throws -> Response {
    let id = try Self.activityID(req)
    let db = ChallengeStore.sql(req.db)
    let activity = try await ChallengeStore.visibleActivity(id, viewer: req.currentSession?.userID, on: db)
    // A revoked completion's points were paid back: no card says otherwise.
    guard activity.status != ModerationState.Status.revoked.rawValue else { throw ChallengesError.activityNotFound }
    return try await Self.cardResponse(activity, req: req, cache: "private, max-age=3600")
  }

  /// `GET /s/{id}/card.png`: the card, for anyone, while the public link is on.
  @Sendable func publicCard(req: Request) async throws -> Response {
    let activity = try await Self.publicActivity(req)
    return try await Self.cardResponse(activity, req: req, cache: "public, max-age=300")
  }

  static func publicActivity(_ req: Request) async throws -> ActivityRow {
    let id = try activityID(req)
    guard let activity = try await ChallengeStore.activity(id, on: ChallengeStore.sql(req.db)), activity.public_link,
      activity.status == ModerationState.Status.visible.rawValue, activity.type == FeedActivityType.challengeCompleted
    else { throw ChallengesError.activityNotFound }
    return activity
  }

  /// The card's PNG, made once (off the event loop) and kept.
  static func cardResponse(_ activity: ActivityRow, req: Request, cache: String) async throws -> Response {
    guard activity.type == FeedActivityType.challengeCompleted else { throw ChallengesError.activityNotFound }
    let db = ChallengeStore.sql(req.db)
    struct Row: Decodable { let png: Data }
    let png: Data
    if let stored = try await db.raw("SELECT png FROM share_cards WHERE activity_id = \(bind: activity.id)").first(decoding: Row.self) {
      png = stored.png
    } else {
      struct Photo: Decodable { let jpeg: Data }
      let photo = try await activity.photo_id.asyncMap {
        try await db.raw("SELECT full_jpeg AS jpeg FROM challenge_photos WHERE id = \(bind: $0)").first(decoding: Photo.self)
      } ?? nil
      let content = (photo: photo?.jpeg, title: activity.challenge_title ?? activity.title, points: activity.points ?? 0, name: activity.author_name,
        type: ChallengeType(rawValue: activity.challenge_type ?? "")?.displayName ?? "")
      let rendered: [UInt8] = try await req.application.threadPool.runIfActive {
        let image = content.photo.flatMap { try? ImageDecoder.decode(Array($0)).image }
        return ShareCard.render(
          ShareCardContent(photo: image, title: content.title, points: content.points, personName: content.name, challengeType: content.type,
            brand: "CompletionKit"),
          fonts: try CardFonts.shared())
      }
      png = Data(rendered)
      try await db.raw(
        "INSERT INTO share_cards (activity_id, png) VALUES (\(bind: activity.id), \(bind: png)) ON CONFLICT (activity_id) DO NOTHING"
      ).run()
    }
    var headers = HTTPHeaders()
    headers.contentType = .png
    headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
    headers.replaceOrAdd(name: .cacheControl, value: cache)
    return Response(status: .ok, headers: headers, body: .init(data: png))
  }

  /// `GET /s/{id}`: the public page of a completion, with Open Graph tags, for people without an account.
  @Sendable func publicPage(req: Request) async throws -> Response {
    let activity: ActivityRow
    do {
      activity = try await Self.publicActivity(req)
    } catch {
      return Self.html(SharePage.notFound(), status: .notFound)
    }
    let base = Self.origin(req)
    return Self.html(SharePage.render(activity, origin: base))
  }

  static func origin(_ req: Request) -> String {
    let host = req.headers.first(name: .host) ?? "localhost"
    let scheme = req.application.serverOptions.secureCookies ? "https" : "http"
    return "\(scheme)://\(host)"
  }

  static func html(_ body: String, status: HTTPResponseStatus = .ok) -> Response {
    var headers = HTTPHeaders()
    headers.contentType = .html
    headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
    return Response(status: status, headers: headers, body: .init(string: body))
  }
}

/// The share card's fonts, loaded once.
enum CardFonts {
  private static let loaded = Result { () throws -> ShareCardFonts in try ShareCardFonts() }

  static func shared() throws -> ShareCardFonts { try loaded.get() }
}
