import Challenges
import CompletionAPI
import CompletionCore
import Fluent
import Foundation
import Imaging
import Vapor

/// Follows, the feed and what people do with its cards (congrats, comments, reports, the share card and
/// its public page). Only people who may see a post can act on it; to everyone else it does not exist.
struct SocialController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(.getMyProfile, use: me)
    routes.on(.getProfile, use: profile)
    routes.on(.follow) { req in try await IdempotentCreate.run(req) { try await self.follow(req: $0).encodeResponse(for: $0) } }
    routes.on(.unfollow, use: unfollow)
    routes.on(.listFollowers) { try await self.people($0, followers: true) }
    routes.on(.listFollowing) { try await self.people($0, followers: false) }

    routes.on(.getFeed, use: feed)
    routes.on(.feedEvents, use: events)

    routes.on(.updateActivity, use: settings)
    routes.on(.congratulate) { try await self.congrats($0, on: true) }
    routes.on(.uncongratulate) { try await self.congrats($0, on: false) }
    routes.on(.listComments, use: comments)
    routes.on(.addComment) { req in try await IdempotentCreate.run(req, self.addComment) }
    routes.on(.reportActivity) { req in try await IdempotentCreate.run(req, self.report) }
    routes.on(.getActivityCard, use: card)
    routes.on(.deleteComment, use: deleteComment)

    routes.on(.getSharePage, use: publicPage)
    routes.on(.getPublicCard, use: publicCard)
  }

  static let pageLimit = 50
  /// A feed page's items when the client names no `limit`: pages ask without one and follow `next`.
  static let feedPageSize = 20

  // MARK: People

  static func profile(of person: Person, viewer: UUID?, req: Request, store: SQLChallengesStore) async throws -> ProfileView {
    let zone = req.context.timeZoneOrUTC
    let today = CalendarDay(req.application.services.clock.now(), in: zone)
    async let counts = store.followCounts(of: person.id)
    async let stats = store.stats(of: person.id, today: today, zone: zone)
    var following = false
    if let viewer { following = try await store.follows(viewer, person.id) }
    let kept = try await counts
    let isMe = viewer == person.id
    var figures = try await stats
    if !isMe {
      // Freezes tell which days someone missed and what they may buy: theirs alone.
      figures = ChallengeStatsView(
        challengesCompleted: figures.challengesCompleted, totalPoints: figures.totalPoints, currentStreak: figures.currentStreak,
        longestStreak: figures.longestStreak, freezes: nil)
    }
    return ProfileView(
      person: person.view, followers: kept.followers, following: kept.following, stats: figures, isFollowing: following, isMe: isMe)
  }

  static func person(named name: String, in store: SQLChallengesStore) async throws -> Person {
    guard let person = try await store.person(username: name) else { throw ChallengesError.personNotFound(String(name.prefix(40))) }
    return person
  }

  /// `GET /api/social/me`.
  @Sendable func me(req: Request) async throws -> ProfileView {
    let user = try await req.userOrVisitor()
    let id = try user.requireID()
    let store = SQLChallengesStore(req.db)
    // A visitor without an account is shown as a new guest (nothing is stored for them).
    let person = try await store.person(id) ?? Person(id: id, username: nil, displayName: user.displayName)
    return try await Self.profile(of: person, viewer: person.id, req: req, store: store)
  }

  /// `GET /api/social/people/{username}`.
  @Sendable func profile(req: Request) async throws -> ProfileView {
    let store = SQLChallengesStore(req.db)
    let person = try await Self.person(named: req.parameters.get("username") ?? "", in: store)
    return try await Self.profile(of: person, viewer: req.currentSession?.userID, req: req, store: store)
  }

  /// `POST /api/social/follow` `{username}`: follows (again: nothing changes) and tells them in their feed.
  @Sendable func follow(req: Request) async throws -> ProfileView {
    // Read, not created: a visitor without an account is refused without making one first.
    guard let user = try await req.currentUser() else { throw ChallengesError.guestCannotFollow }
    try FollowRules.checkFollower(isGuest: user.isGuest)
    let me = try user.requireID()
    let name = try req.decodeJSON(FollowRequest.self).username.trimmingCharacters(in: .whitespaces)
    let store = SQLChallengesStore(req.db)
    let person = try await Self.person(named: name, in: store)
    try FollowRules.check(follower: me, isGuest: user.isGuest, followee: person.id)
    let services = req.application.services
    let now = services.clock.now()
    let fanOutLimit = req.application.serverOptions.fanOutLimit
    let author = Person(id: me, username: user.username, displayName: user.displayName)
    // The write answers what to announce once it committed (nothing when the follow was there already).
    let announced = try await services.runner.write(on: req.db) { db -> [FeedNotice]? in
      let store = SQLChallengesStore(db)
      guard try await store.follow(me, person.id, at: Micros.of(now)) else { return [] }
      try await store.backfill(me, from: person.id, limit: FollowRules.backfillCount)
      let notice = Post(
        id: UUID(), author: author, kind: .follow, at: Micros.of(now), title: FollowRules.noticeTitle(follower: user.displayName), subtitle: "",
        recipient: person.id)
      try await store.add(notice, delivery: FanOut.decide(recipient: person.id, followers: 0, limit: fanOutLimit))
      let announcement = FeedNotice(kind: .added, activity: notice.id)
      try await services.feedLive.announce(announcement, on: store)
      return [announcement]
    }
    for notice in announced ?? [] { services.feedLive.committed(notice) }
    return try await Self.profile(of: person, viewer: me, req: req, store: store)
  }

  /// `DELETE /api/social/follow/{username}`.
  @Sendable func unfollow(req: Request) async throws -> ProfileView {
    guard let me = req.currentSession?.userID else { throw AppError.unauthenticated }
    let store = SQLChallengesStore(req.db)
    let person = try await Self.person(named: req.parameters.get("username") ?? "", in: store)
    // Their posts leave this person's feed (their photos are no longer this person's to see).
    _ = try await req.application.services.runner.write(on: req.db) { db -> Bool? in
      _ = try await SQLChallengesStore(db).unfollow(me, person.id)
      return true
    }
    return try await Self.profile(of: person, viewer: me, req: req, store: store)
  }

  /// `GET /api/social/followers|following?cursor=`: newest first.
  func people(_ req: Request, followers: Bool) async throws -> PeoplePage {
    // The parameters are checked for everyone, a visitor without an account too.
    let cursor = try Self.cursor(req.context)
    guard let me = req.currentSession?.userID else { return PeoplePage(people: [], total: 0, next: nil) }
    let store = SQLChallengesStore(req.db)
    let rows = try await store.people(of: me, followers ? .followers : .following, after: cursor, limit: Self.pageLimit)
    let page = rows.prefix(Self.pageLimit)
    let counts = try await store.followCounts(of: me)
    return PeoplePage(
      people: page.map(\.person.view), total: followers ? counts.followers : counts.following,
      next: rows.count > Self.pageLimit ? page.last?.position.description : nil)
  }

  static func cursor(_ context: RequestContext) throws -> FeedPosition? {
    guard let raw = context.pageCursor else { return nil }
    guard let cursor = FeedPosition(cursor: raw), UUID(uuidString: cursor.id) != nil else { throw ChallengesError.invalidCursor }
    return cursor
  }

  // MARK: Feed

  /// `GET /api/feed?filter=&cursor=&limit=`.
  @Sendable func feed(req: Request) async throws -> FeedPage {
    // The parameters are checked for everyone, a visitor without an account too.
    let filter = try PostFilter(parsing: req.query[String.self, at: "filter"] ?? "all")
    let context = req.context
    let limit = try context.pageSize(standard: Self.feedPageSize, maximum: Self.pageLimit)
    let cursor = try Self.cursor(context)
    guard let me = req.currentSession?.userID else { return FeedPage(items: [], next: nil) }
    let store = SQLChallengesStore(req.db)
    let (posts, next, congratulated) = try await store.feedPage(of: me, kinds: filter.kinds, after: cursor, limit: limit)
    return FeedPage(items: posts.map { $0.view(for: me, congratulated: congratulated.contains($0.id)) }, next: next?.description)
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
    let store = SQLChallengesStore(req.db)
    var post = try await store.visiblePost(id, to: me)
    try post.requireAuthor(me)
    if let publicLink = body.publicLink, try post.handle(.setPublicLink(publicLink, by: me)).contains(.publicLinkChanged) {
      try await store.setPublicLink(publicLink, of: id)
    }
    let congratulated = try await store.congratulated(by: me, among: [id]).contains(id)
    return post.view(for: me, congratulated: congratulated)
  }

  /// `POST|DELETE /api/activities/{id}/congrats`: one per person; the count is kept.
  func congrats(_ req: Request, on: Bool) async throws -> CongratsView {
    guard let me = req.currentSession?.userID else { throw ChallengesError.activityNotFound }
    let id = try Self.activityID(req)
    _ = try await SQLChallengesStore(req.db).visiblePost(id, to: me)
    let services = req.application.services
    let now = services.clock.now()
    // The write answers the count and what to announce once it committed (nothing when nothing changed).
    let written = try await services.runner.write(on: req.db) { db -> (count: Int?, notice: FeedNotice?)? in
      let store = SQLChallengesStore(db)
      let change = try await store.setCongrats(on, of: id, by: me, at: Micros.of(now))
      guard change.changed else { return (change.count, nil) }
      let notice = FeedNotice(kind: .changed, activity: id)
      try await services.feedLive.announce(notice, on: store)
      return (change.count, notice)
    }
    if let notice = written?.notice { services.feedLive.committed(notice) }
    return CongratsView(congrats: written?.count ?? 0, congratulated: on)
  }

  /// `GET /api/activities/{id}/comments?cursor=`: oldest first.
  @Sendable func comments(req: Request) async throws -> CommentPage {
    guard let me = req.currentSession?.userID else { throw ChallengesError.activityNotFound }
    let id = try Self.activityID(req)
    let store = SQLChallengesStore(req.db)
    let post = try await store.visiblePost(id, to: me)
    let cursor = try Self.cursor(req.context)
    let rows = try await store.comments(on: id, after: cursor, limit: Self.pageLimit)
    let page = rows.prefix(Self.pageLimit)
    return CommentPage(
      comments: page.map { $0.view(for: me) }, total: post.comments, next: rows.count > Self.pageLimit ? page.last?.position.description : nil)
  }

  /// `POST /api/activities/{id}/comments` `{body}`.
  @Sendable func addComment(req: Request) async throws -> Response {
    let user = try await req.userCreatingGuest()
    let me = try user.requireID()
    let id = try Self.activityID(req)
    let body = try req.decodeJSON(CommentRequest.self)
    let text = try ChallengeText.comment(body.body)
    _ = try await SQLChallengesStore(req.db).visiblePost(id, to: me)
    let services = req.application.services
    let now = services.clock.now()
    // A member's comments come as a burst that refills evenly; a flood waits (a replayed retry is not counted).
    if let wait = services.commentLimiter.take(me.uuidString, at: now) { throw ChallengesError.tooManyComments(retryAfter: wait) }
    let comment = PostComment(
      id: UUID(), post: id, author: Person(id: me, username: user.username, displayName: user.displayName), body: text,
      at: Micros.of(now))
    _ = try await services.runner.write(on: req.db) { db -> Bool? in
      let store = SQLChallengesStore(db)
      try await store.add(comment)
      try await services.feedLive.announce(FeedNotice(kind: .changed, activity: id), on: store)
      return true
    }
    services.feedLive.committed(FeedNotice(kind: .changed, activity: id))
    return try await comment.view(for: me).encodeResponse(status: .created, for: req)
  }

  /// `DELETE /api/comments/{id}`: one's own comment, or any comment on one's own post.
  @Sendable func deleteComment(req: Request) async throws -> HTTPStatus {
    guard let me = req.currentSession?.userID, let raw = req.parameters.get("id"), let id = UUID(uuidString: raw) else {
      throw ChallengesError.commentNotFound
    }
    let services = req.application.services
    // The write answers what to announce once it committed: the post's change, or none when nothing was deleted.
    let announced = try await services.runner.write(on: req.db) { db -> [FeedNotice]? in
      let store = SQLChallengesStore(db)
      guard let comment = try await store.comment(id), let post = try await store.post(comment.post),
        Post.mayDeleteComment(by: me, commenter: comment.author.id, postAuthor: post.author.id),
        try await store.deleteComment(id)
      else { return [] }
      let notice = FeedNotice(kind: .changed, activity: post.id)
      try await services.feedLive.announce(notice, on: store)
      return [notice]
    }
    guard let notice = announced?.first else { throw ChallengesError.commentNotFound }
    services.feedLive.committed(notice)
    return .noContent
  }

  /// `POST /api/activities/{id}/report` `{reason}`: each person once; enough reports hide the post.
  @Sendable func report(req: Request) async throws -> Response {
    guard let me = req.currentSession?.userID else { throw ChallengesError.activityNotFound }
    let id = try Self.activityID(req)
    let reason = try ChallengeText.clean(try req.decodeJSON(ReportRequest.self).reason, field: "reason", limit: ChallengeRules.commentLimit)
    // Whoever is shown it may report it: a follower in their feed, anyone signed in on its public page.
    let post = try await SQLChallengesStore(req.db).shownPost(id, to: me)
    try post.requireReportable(by: me)
    try await ChallengesModeration.report(id, by: me, reason: reason ?? "", app: req.application)
    return try await ReportResponse().encodeResponse(status: .ok, for: req)
  }

  // MARK: Share card

  /// `GET /api/activities/{id}/card.png`: the card, for whoever may see the post.
  @Sendable func card(req: Request) async throws -> Response {
    try await Self.cardResponse(try await Self.shareableActivity(req), req: req, cache: "private, max-age=3600")
  }

  /// The post named in the path, for whoever may see it and not revoked: what the card (and the share video) show.
  static func shareableActivity(_ req: Request) async throws -> Post {
    let id = try activityID(req)
    let post = try await SQLChallengesStore(req.db).visiblePost(id, to: req.currentSession?.userID)
    // A revoked completion's points were paid back: no card says otherwise.
    guard post.hasCard else { throw ChallengesError.activityNotFound }
    return post
  }

  /// `GET /s/{id}/card.png`: the card, for anyone, while the public link is on.
  @Sendable func publicCard(req: Request) async throws -> Response {
    let activity = try await Self.publicActivity(req)
    return try await Self.cardResponse(activity, req: req, cache: "public, max-age=300")
  }

  static func publicActivity(_ req: Request) async throws -> Post {
    let id = try activityID(req)
    guard let post = try await SQLChallengesStore(req.db).post(id), post.isPublic else { throw ChallengesError.activityNotFound }
    return post
  }

  /// The card's PNG, made once (off the event loop) and kept.
  static func cardResponse(_ post: Post, req: Request, cache: String) async throws -> Response {
    guard post.isCompletion else { throw ChallengesError.activityNotFound }
    let store = SQLChallengesStore(req.db)
    let png: Data
    if let stored = try await store.shareCard(of: post.id) {
      png = stored
    } else {
      var photo: Data?
      if let photoID = post.photo { photo = try await store.photoJPEG(photoID, thumbnail: false) }
      let content = (photo: photo, title: post.challenge?.title ?? post.title, points: post.points ?? 0, name: post.author.displayName,
        type: ChallengeType(rawValue: post.challenge?.type ?? "")?.displayName ?? "")
      let rendered: [UInt8] = try await req.application.threadPool.runIfActive {
        let image = content.photo.flatMap { try? ImageDecoder.decode(Array($0)).image }
        return ShareCard.render(
          ShareCardContent(photo: image, title: content.title, points: content.points, personName: content.name, challengeType: content.type,
            brand: "CompletionKit"),
          fonts: try CardFonts.shared())
      }
      png = Data(rendered)
      try await store.saveShareCard(png, of: post.id)
    }
    var headers = HTTPHeaders()
    headers.contentType = .png
    headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
    headers.replaceOrAdd(name: .cacheControl, value: cache)
    return Response(status: .ok, headers: headers, body: .init(data: png))
  }

  /// `GET /s/{id}`: the public page of a completion, with Open Graph tags, for people without an account.
  @Sendable func publicPage(req: Request) async throws -> Response {
    let activity: Post
    do {
      activity = try await Self.publicActivity(req)
    } catch {
      return Self.html(SharePage.notFound(), status: .notFound)
    }
    return Self.html(SharePage.render(activity, origin: req.application.publicOrigin))
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
