import AsyncHTTPClient
import Challenges
import CompletionAPI
import CompletionCore
import FluentSQL
import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("Challenges API")
struct ChallengesAPITests {
  /// A phone photo carrying GPS coordinates, camera make and model, XMP and a comment.
  static let gpsPhoto: [UInt8] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/gps-photo.jpg")
    return Array((try? Data(contentsOf: url)) ?? Data())
  }()

  /// A saved account (so others can follow it by username).
  static func account(_ client: TestClient, _ prefix: String = "cook") async throws -> String {
    let username = uniqueUsername(prefix)
    let response = try await client.send(.POST, "/api/account/register", json: RegisterRequest(username: username, password: "password-123"))
    #expect(response.status == .created || response.status == .ok)
    return username
  }

  static func overview(_ client: TestClient) async throws -> ChallengesOverview {
    try client.decode(ChallengesOverview.self, from: try await client.send(.GET, "/api/challenges?tz=Europe/Berlin"))
  }

  static func upload(_ client: TestClient, _ bytes: [UInt8] = gpsPhoto) async throws -> PhotoView {
    let response = try await client.send(.POST, "/api/photos", bytes: bytes, contentType: "image/jpeg")
    #expect(response.status == .created)
    return try client.decode(PhotoView.self, from: response)
  }

  static func complete(
    _ client: TestClient, _ challenge: ChallengeView, photo: PhotoView, story: String? = "Crispy edges!", headers: HTTPHeaders = [:]
  ) async throws -> TestResponse {
    try await client.send(
      .POST, "/api/challenges/\(challenge.id)/complete?tz=Europe/Berlin", json: CompleteChallengeRequest(photoId: photo.id, story: story),
      headers: headers)
  }

  static func feed(_ client: TestClient, _ query: String = "") async throws -> FeedPage {
    try client.decode(FeedPage.self, from: try await client.send(.GET, "/api/feed?\(query)"))
  }

  static func follow(_ client: TestClient, _ username: String) async throws {
    #expect(try await client.send(.POST, "/api/social/follow", json: FollowRequest(username: username)).status == .ok)
  }

  static func points(_ app: Application, _ client: TestClient) async throws -> Int {
    let me = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
    return try await SQLLedgerStore.balance(userID: UUID(uuidString: me.id)!, currency: "points", on: try #require(app.db as? any SQLDatabase))
  }

  @Test("Join, complete with a photo, celebrate: points, count and streak at once; a follower's feed has it; a stranger's does not")
  func completeFlow() async throws {
    try await withTestApp { cook, app in
      let username = try await Self.account(cook)
      let friend = cook.stranger()
      _ = try await Self.account(friend, "friend")
      try await Self.follow(friend, username)
      let stranger = cook.stranger()
      _ = try await Self.account(stranger, "stranger")

      let overview = try await Self.overview(cook)
      #expect(overview.challenges.filter { $0.type == "daily" }.count == 2)
      let daily = try #require(overview.challenges.first { $0.type == "daily" })
      #expect(daily.points == 100 && daily.isOpen && daily.participation == nil && daily.storyPrompts.count == 3)

      let joined = try cook.decode(ChallengeView.self, from: try await cook.send(.POST, "/api/challenges/\(daily.id)/join?tz=Europe/Berlin"))
      #expect(joined.participation?.status == "active" && joined.participation?.progress == 0)

      let photo = try await Self.upload(cook)
      // The stored photo is upright (the fixture says "rotate 90°") and carries none of the phone's metadata.
      #expect(photo.width < photo.height)
      let stored = try await cook.send(.GET, photo.url)
      #expect(stored.status == .ok && stored.headers.contentType == .jpeg)
      #expect(stored.headers.first(name: "X-Content-Type-Options") == "nosniff")
      let bytes = Data(buffer: stored.body)
      for marker in ["Exif", "GPS", "TestCam", "Phone 1", "http://ns.adobe.com/xap"] {
        #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(marker) survived")
      }

      let response = try await Self.complete(cook, daily, photo: photo)
      #expect(response.status == .ok)
      let done = try cook.decode(ChallengeCompletionView.self, from: response)
      #expect(done.isFirst && done.pointsAwarded == 100)
      #expect(done.challenge.participation?.status == "completed" && done.challenge.participation?.progress == 1)
      #expect(done.stats.challengesCompleted == 1 && done.stats.totalPoints == 100 && done.stats.currentStreak == 1 && done.stats.longestStreak == 1)
      #expect(done.celebration?.name == "challengeComplete" && done.dismissAfter == 3)
      #expect(done.headline == "Challenge Complete! 🎉" && done.message == ChallengeCompletion.sharedMessage)
      #expect(done.activity.title == "Completed \(daily.title)! 🎉" && done.activity.subtitle == "100 points earned")
      // The share text comes from the server, in the sharer's voice: the author's own says "I just completed".
      let ownShare = try #require(done.activity.share)
      #expect(ownShare.headline == "🎉 I just completed the \(daily.title) challenge on CompletionKit!")
      #expect(ownShare.caption.contains("Crispy edges!") && ownShare.hashtags.contains("#CookingChallenge"))
      #expect(ownShare.hashtags.contains("#DailyChallenge"))

      let friendFeed = try await Self.feed(friend)
      let item = try #require(friendFeed.items.first { $0.type == "challenge_completed" })
      #expect(item.id == done.activity.id && item.story == "Crispy edges!" && item.points == 100 && !item.isMine)
      // A follower sharing it names the author instead.
      #expect(item.share?.headline.hasPrefix("🎉 \(item.actor.displayName) completed the \(daily.title) challenge") == true)
      #expect(try await friend.send(.GET, try #require(item.photoUrl)).status == .ok)
      #expect(try await Self.feed(stranger).items.isEmpty)
      #expect(try await stranger.send(.GET, photo.url).status == .notFound)
      #expect(try await stranger.send(.GET, "/api/activities/\(item.id)/card.png").status == .notFound)

      // The owner's overview shows it completed, with the figures kept.
      let after = try await Self.overview(cook)
      #expect(after.challenges.first { $0.id == daily.id }?.participation?.status == "completed")
      #expect(after.stats.totalPoints == 100 && after.stats.challengesCompleted == 1)
      // A completed challenge cannot be left.
      #expect(try await cook.send(.POST, "/api/challenges/\(daily.id)/leave?tz=Europe/Berlin").status == .conflict)
    }
  }

  @Test("20 identical submissions at the same moment pay once; a retry with the same Idempotency-Key replays the first answer")
  func submitsOnce() async throws {
    try await withTestApp { cook, app in
      _ = try await Self.account(cook)
      let challenges = try await Self.overview(cook).challenges
      let weekly = try #require(challenges.first { $0.type == "weekly" })
      let photo = try await Self.upload(cook)
      let results = try await withThrowingTaskGroup(of: ChallengeCompletionView.self) { group in
        for _ in 0..<20 { group.addTask { try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, weekly, photo: photo)) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.filter(\.isFirst).count == 1)
      #expect(results.map(\.pointsAwarded).reduce(0, +) == 500)
      #expect(Set(results.map(\.activity.id)).count == 1)
      #expect(try await Self.points(app, cook) == 500)
      #expect(try await Self.feed(cook).items.filter { $0.type == "challenge_completed" }.count == 1)

      let daily = try #require(challenges.first { $0.type == "daily" })
      var key = HTTPHeaders()
      key.add(name: "Idempotency-Key", value: UUID().uuidString)
      let first = try await Self.complete(cook, daily, photo: photo, headers: key)
      let retry = try await Self.complete(cook, daily, photo: photo, headers: key)
      #expect(retry.headers.first(name: "Idempotent-Replayed") == "true")
      #expect(Data(buffer: first.body) == Data(buffer: retry.body))
      #expect(try await Self.points(app, cook) == 600)
      // The same key with other parameters is refused.
      #expect(try await Self.complete(cook, daily, photo: photo, story: "other", headers: key).status == .conflict)
    }
  }

  @Test("Bad input gets a stable code and changes nothing; another account's photo or post is not found")
  func badInput() async throws {
    try await withTestApp { cook, app in
      let username = try await Self.account(cook)
      let other = cook.stranger()
      _ = try await Self.account(other, "other")
      let daily = try #require(try await Self.overview(cook).challenges.first { $0.type == "daily" })
      let photo = try await Self.upload(cook)

      func code(_ response: TestResponse) -> String { (try? cook.decode(APIErrorBody.self, from: response).code) ?? "" }
      let unknown = try await cook.send(.POST, "/api/challenges/daily.2026-11-23.no-such-thing/complete", json: CompleteChallengeRequest(photoId: photo.id))
      #expect(unknown.status == .notFound && (code(unknown)) == "challenge_not_found")
      let yesterday = try #require(ChallengeID(daily.id))
      let old = ChallengeCatalogue.builtIn.challenges(on: yesterday.start.adding(days: -1)).first { $0.type == .daily }!
      let closed = try await cook.send(.POST, "/api/challenges/\(old.id)/complete?tz=Europe/Berlin", json: CompleteChallengeRequest(photoId: photo.id))
      #expect(closed.status == .conflict && (code(closed)) == "challenge_closed")
      let theirs = try await Self.complete(other, daily, photo: photo)
      #expect(theirs.status == .notFound && (code(theirs)) == "photo_not_found")
      let long = try await Self.complete(cook, daily, photo: photo, story: String(repeating: "a", count: 501))
      #expect(long.status == .badRequest && (code(long)) == "too_long")

      let text = try await cook.send(.POST, "/api/photos", bytes: Array("hello, not a photo".utf8), contentType: "image/jpeg")
      #expect(text.status == .unsupportedMediaType && (code(text)) == "photo_unsupported")
      let truncated = try await cook.send(.POST, "/api/photos", bytes: Array(Self.gpsPhoto.prefix(400)), contentType: "image/jpeg")
      #expect(truncated.status == .unprocessableEntity && (code(truncated)) == "photo_unreadable")
      let big = try await cook.send(.POST, "/api/photos", bytes: [UInt8](repeating: 0xFF, count: (12 << 20) + 1), contentType: "image/jpeg")
      #expect(big.status == .payloadTooLarge && (code(big)) == "photo_too_large")

      let nobody = try await cook.send(.POST, "/api/social/follow", json: FollowRequest(username: "no_such_person_x"))
      #expect(nobody.status == .notFound && (code(nobody)) == "person_not_found")
      let me = try await cook.send(.POST, "/api/social/follow", json: FollowRequest(username: username))
      #expect(me.status == .badRequest && (code(me)) == "cannot_follow_self")
      #expect(code(try await cook.send(.GET, "/api/feed?filter=recipes")) == "invalid_filter")
      #expect(code(try await cook.send(.GET, "/api/feed?cursor=nonsense")) == "invalid_cursor")

      // Nothing was paid by any of it.
      #expect(try await Self.points(app, cook) == 0)
      // A guest (whom nobody can follow yet) is told how to share instead.
      let guest = cook.stranger()
      let guestDone = try guest.decode(ChallengeCompletionView.self, from: try await Self.complete(guest, daily, photo: try await Self.upload(guest)))
      #expect(guestDone.isFirst && guestDone.message == ChallengeCompletion.guestMessage)
      let done = try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, daily, photo: photo))
      let post = done.activity.id
      #expect(code(try await other.send(.POST, "/api/activities/\(post)/congrats")) == "activity_not_found")
      #expect(code(try await other.send(.GET, "/api/activities/\(post)/comments")) == "activity_not_found")
      #expect(code(try await cook.send(.POST, "/api/activities/\(post)/report", json: ReportRequest(reason: "mine")))
        == "cannot_report_own")
      #expect(code(try await other.send(.PATCH, "/api/activities/\(post)", json: ActivitySettingsRequest(publicLink: false)))
        == "activity_not_found")
    }
  }

  @Test("Congrats once per person (taken back too), a comment thread, and the share card: private, then public at /s/{id}, then off")
  func engagementAndShare() async throws {
    try await withTestApp { cook, _ in
      let username = try await Self.account(cook)
      let friends = [cook.stranger(), cook.stranger()]
      for friend in friends {
        _ = try await Self.account(friend, "friend")
        try await Self.follow(friend, username)
      }
      let daily = try #require(try await Self.overview(cook).challenges.first { $0.type == "daily" })
      let done = try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, daily, photo: try await Self.upload(cook)))
      let post = done.activity.id

      for friend in friends {
        let congrats = try friend.decode(CongratsView.self, from: try await friend.send(.POST, "/api/activities/\(post)/congrats"))
        #expect(congrats.congratulated)
      }
      let again = try friends[0].decode(CongratsView.self, from: try await friends[0].send(.POST, "/api/activities/\(post)/congrats"))
      #expect(again.congrats == 2)
      let back = try friends[1].decode(CongratsView.self, from: try await friends[1].send(.DELETE, "/api/activities/\(post)/congrats"))
      #expect(back.congrats == 1 && !back.congratulated)

      let comment = try friends[0].decode(
        CommentView.self, from: try await friends[0].send(.POST, "/api/activities/\(post)/comments", json: CommentRequest(body: "  Looks great!  ")))
      #expect(comment.body == "Looks great!" && comment.isMine)
      _ = try await cook.send(.POST, "/api/activities/\(post)/comments", json: CommentRequest(body: "Thank you"))
      let thread = try cook.decode(CommentPage.self, from: try await cook.send(.GET, "/api/activities/\(post)/comments"))
      #expect(thread.comments.map(\.body) == ["Looks great!", "Thank you"] && thread.total == 2)
      // Its author may delete a comment, and so may the post's owner; nobody else.
      let other = try friends[1].decode(
        CommentView.self, from: try await friends[1].send(.POST, "/api/activities/\(post)/comments", json: CommentRequest(body: "Meh")))
      #expect(try await friends[0].send(.DELETE, "/api/comments/\(other.id)").status == .notFound)
      #expect(try await cook.send(.DELETE, "/api/comments/\(other.id)").status == .noContent)
      #expect(try await friends[0].send(.DELETE, "/api/comments/\(comment.id)").status == .noContent)
      let empty = try await cook.send(.POST, "/api/activities/\(post)/comments", json: CommentRequest(body: "   "))
      #expect(empty.status == .badRequest)
      let card = try await friends[0].decode(FeedPage.self, from: try await friends[0].send(.GET, "/api/feed")).items.first { $0.id == post }
      #expect(card?.congrats == 1 && card?.congratulated == true && card?.comments == 1)

      // The card is made by the server: a 4:5 PNG.
      let png = try await cook.send(.GET, "/api/activities/\(post)/card.png")
      #expect(png.status == .ok && png.headers.contentType == .png)
      let bytes = Array(png.body.readableBytesView)
      #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
      let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
      #expect(width * 5 == height * 4)

      // A guest cannot follow anyone (no name to be followed back by; guests cost nothing to make).
      let guest = cook.stranger()
      let refused = try await guest.send(.POST, "/api/social/follow", json: FollowRequest(username: username))
      #expect(refused.status == .forbidden)
      #expect(try guest.decode(APIErrorBody.self, from: refused).code == "named_account_required")

      // Private by default: nobody without an account sees it until its author turns the public link on.
      let anonymous = cook.stranger()
      #expect(try await anonymous.send(.GET, "/s/\(post)").status == .notFound)
      #expect(try await anonymous.send(.GET, "/s/\(post)/card.png").status == .notFound)
      #expect(try await friends[0].decode(FeedPage.self, from: try await friends[0].send(.GET, "/api/feed")).items.first { $0.id == post }?.publicLink == false)
      let on = try cook.decode(FeedItemView.self, from: try await cook.send(.PATCH, "/api/activities/\(post)", json: ActivitySettingsRequest(publicLink: true)))
      #expect(on.publicLink && on.shareUrl == "/s/\(post)")
      // Then anyone may open the page, whose absolute links name the configured address, never the Host header.
      let page = try await anonymous.send(.GET, "/s/\(post)", headers: ["Host": "evil.example"])
      #expect(page.status == .ok)
      let html = String(buffer: page.body)
      #expect(html.contains("og:image") && html.contains("/s/\(post)/card.png") && html.contains(daily.title))
      #expect(!html.contains("evil.example"))
      // Whoever a post is shown to may report it: a signed-in stranger on its public page too (not its author).
      let visitor = cook.stranger()
      _ = try await Self.account(visitor, "visitor")
      #expect(try await visitor.send(.POST, "/api/activities/\(post)/report", json: ReportRequest(reason: "not food")).status == .ok)
      #expect(try await anonymous.send(.GET, "/s/\(post)/card.png").status == .ok)
      let off = try cook.decode(FeedItemView.self, from: try await cook.send(.PATCH, "/api/activities/\(post)", json: ActivitySettingsRequest(publicLink: false)))
      #expect(!off.publicLink)
      #expect(try await anonymous.send(.GET, "/s/\(post)").status == .notFound)
      #expect(try await anonymous.send(.GET, "/s/\(post)/card.png").status == .notFound)
      // With the link off, a stranger is shown nothing, and nothing to report.
      let another = cook.stranger()
      _ = try await Self.account(another, "visitor")
      #expect(try await another.send(.POST, "/api/activities/\(post)/report", json: ReportRequest(reason: "x")).status == .notFound)
    }
  }

  @Test("Comments come as a burst that refills: beyond it 429 too_many_comments with Retry-After, for that member only")
  func commentThrottle() async throws {
    var options = TestDatabase.options
    options.commentsPerMinute = 3
    try await withTestApp(options: options) { cook, app in
      app.services.clock.freeze()  // the refill is counted in the app's time
      defer { app.services.clock.thaw() }
      let username = try await Self.account(cook)
      let friend = cook.stranger()
      _ = try await Self.account(friend, "friend")
      try await Self.follow(friend, username)
      let daily = try #require(try await Self.overview(cook).challenges.first { $0.type == "daily" })
      let done = try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, daily, photo: try await Self.upload(cook)))
      let path = "/api/activities/\(done.activity.id)/comments"
      for index in 0..<3 {
        #expect(try await friend.send(.POST, path, json: CommentRequest(body: "Yum \(index)")).status == .created)
      }
      let refused = try await friend.send(.POST, path, json: CommentRequest(body: "One more"))
      #expect(refused.status == .tooManyRequests)
      #expect(try friend.decode(APIErrorBody.self, from: refused).code == "too_many_comments")
      #expect(refused.headers.first(name: "Retry-After").flatMap(Int.init) == 20)
      // Another member is not held up, and the refused comment was not stored.
      #expect(try await cook.send(.POST, path, json: CommentRequest(body: "Thanks!")).status == .created)
      let thread = try cook.decode(CommentPage.self, from: try await cook.send(.GET, path))
      #expect(thread.total == 4 && !thread.comments.contains { $0.body == "One more" })
      // Twenty seconds on, one more.
      app.services.clock.advance(by: 20)
      #expect(try await friend.send(.POST, path, json: CommentRequest(body: "One more")).status == .created)
      #expect(try await friend.send(.POST, path, json: CommentRequest(body: "And another")).status == .tooManyRequests)
    }
  }

  @Test("On SQLite, a decision made with the command-line tool while the server runs reaches open pages within seconds")
  func operatorDecisionFromAnotherProcess() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-live-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    options.guestsPerAddressPerHour = 0
    options.reportThreshold = 1
    try await withTestApp(options: options) { cook, _ in
      let username = try await Self.account(cook)
      let reader = cook.stranger()
      _ = try await Self.account(reader, "reader")
      try await Self.follow(reader, username)
      let daily = try #require(try await Self.overview(cook).challenges.first { $0.type == "daily" })
      let done = try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, daily, photo: try await Self.upload(cook)))
      let post = done.activity.id
      #expect(try await reader.send(.POST, "/api/activities/\(post)/report", json: ReportRequest(reason: "not food")).status == .ok)
      let authorPage = try await FeedEventReader(cook)
      let readerPage = try await FeedEventReader(reader)
      do {

        // "completionkit moderation keep ID" in another process: the reader's open feed gets the post back.
        let operatorOptions = options
        let kept = try await Launcher.moderationReview(options: operatorOptions, id: post, decision: .keep, note: "fine", logLevel: "error")
        #expect(kept.hasPrefix("Kept"))
        let back = try await readerPage.nextEvent()
        #expect(back.event == "activity")
        #expect(try JSONDecoder().decode(FeedItemView.self, from: back.data).id == post)
        let shown = try await authorPage.nextEvent()
        #expect(try JSONDecoder().decode(FeedItemView.self, from: shown.data).status == "visible")

        // "moderation revoke ID": the author's page shows it revoked at once, without its points.
        _ = try await Launcher.moderationReview(options: operatorOptions, id: post, decision: .revoke, note: "not the dish", logLevel: "error")
        let revoked = try JSONDecoder().decode(FeedItemView.self, from: try await authorPage.nextEvent().data)
        #expect(revoked.id == post && revoked.status == "revoked" && revoked.points == nil && revoked.share == nil)
        #expect(try await readerPage.nextEvent().event == "removed")
      } catch {
        try? await authorPage.close()
        try? await readerPage.close()
        throw error
      }
      try await authorPage.close()
      try await readerPage.close()
    }
  }

  /// Gives `username` `count` followers who never sign in (made directly: sign-ups through the API are slow).
  static func addSilentFollowers(_ count: Int, of username: String, on db: any Database) async throws {
    let store = SQLChallengesStore(db)
    let authorID = try #require(try await store.person(username: username)).id
    for index in 0..<count {
      let user = User(displayName: "Fan \(index)", username: uniqueUsername("fan"), isGuest: false)
      try await user.create(on: db)
      _ = try await store.follow(try user.requireID(), authorID, at: Int64(index))
    }
  }

  @Test("Feed: a post of an author with more followers than a completion copies at once is in every follower's feed when the completion answers, and the outbox copies it into each exactly once")
  func outboxFanOut() async throws {
    try await withTestApp { reader, app in
      let author = reader.stranger()
      let authorName = try await Self.account(author, "popular")
      _ = try await Self.account(reader, "reader")
      try await Self.follow(reader, authorName)
      // Enough followers that the completion leaves the copying to the outbox.
      let store = SQLChallengesStore(app.db)
      let extra = FanOut.copyAtOnceLimit + FanOutBatch.size  // more than one batch
      try await Self.addSilentFollowers(extra, of: authorName, on: app.db)
      let photo = try await Self.upload(author)
      let challenge = try #require(try await Self.overview(author).challenges.first { $0.type == "daily" })
      let done = try author.decode(ChallengeCompletionView.self, from: try await Self.complete(author, challenge, photo: photo))
      let postID = try #require(UUID(uuidString: done.activity.id))
      // Merged on read until copied: the reader sees it as soon as the completion has answered.
      #expect(try await Self.feed(reader, "filter=challenges").items.map(\.id) == [done.activity.id])
      // Two drains at once (and the server's own, if it runs) copy it once into each feed.
      async let first = FeedFanOut.drain(app)
      async let second = FeedFanOut.drain(app)
      _ = try await (first, second)
      let sql = app.db.sql
      struct Count: Decodable { let n: Int; let owners: Int }
      let count = try #require(
        try await sql.raw("SELECT COUNT(*) AS n, COUNT(DISTINCT owner_id) AS owners FROM feed_entries WHERE activity_id = \(bind: postID)")
          .first(decoding: Count.self))
      #expect(count.n == extra + 2 && count.owners == extra + 2)  // every follower, the reader and the author, once each
      #expect(try await store.post(postID)?.fannedOut == true)
      #expect(try await store.waitingFanOuts(limit: 10).isEmpty)
      #expect(try await Self.feed(reader, "filter=challenges").items.map(\.id) == [done.activity.id])
    }
  }

  @Test("Feed: a copy batch copies a whole batch while no request waits, and stops after one step when a request's write waits for the writer")
  func copyBatchGivesWayToRequests() async throws {
    try await withTestApp { author, app in
      let authorName = try await Self.account(author, "popular")
      let followers = FanOut.copyAtOnceLimit + FanOutBatch.size
      try await Self.addSilentFollowers(followers, of: authorName, on: app.db)
      let photo = try await Self.upload(author)
      let challenge = try #require(try await Self.overview(author).challenges.first { $0.type == "daily" })
      let done = try author.decode(ChallengeCompletionView.self, from: try await Self.complete(author, challenge, photo: photo))
      let postID = try #require(UUID(uuidString: done.activity.id))
      let runner = app.services.runner
      let yielded = try await runner.write(on: app.db, priority: .background) { db in
        try await FeedFanOut.copyBatch(of: postID, in: SQLChallengesStore(db)) { true }
      }
      #expect(yielded == .more(copied: FanOutBatch.step))
      let whole = try await runner.write(on: app.db, priority: .background) { db in
        try await FeedFanOut.copyBatch(of: postID, in: SQLChallengesStore(db)) { false }
      }
      #expect(whole == .more(copied: FanOutBatch.size))
      // The rest, and every follower holds the post once: a batch cut short left the outbox where it stopped.
      try await FeedFanOut.drain(app)
      struct Count: Decodable { let n: Int; let owners: Int }
      let count = try #require(
        try await app.db.sql.raw("SELECT COUNT(*) AS n, COUNT(DISTINCT owner_id) AS owners FROM feed_entries WHERE activity_id = \(bind: postID)")
          .first(decoding: Count.self))
      #expect(count.n == followers + 1 && count.owners == followers + 1)
      #expect(try await SQLChallengesStore(app.db).post(postID)?.fannedOut == true)
    }
  }

  @Test("Feed: the copier rests longer after a batch while requests write than when none did, and counts only request writes")
  func copierRestsLongerWhileRequestsWrite() async throws {
    let batch = Duration.milliseconds(3)
    #expect(FeedFanOut.rest(after: batch, requests: (before: 7, now: 9)) == batch * FeedFanOut.pause.busy)
    #expect(FeedFanOut.rest(after: batch, requests: (before: 9, now: 9)) == batch * FeedFanOut.pause.idle)
    #expect(FeedFanOut.pause.busy > FeedFanOut.pause.idle)
    try await GroupCommitTests.withFileApp { _, app in
      let writes = app.services.runner.writes
      let before = writes.requestWrites
      _ = try await app.services.runner.write(on: app.db, priority: .background) { _ in true }
      #expect(writes.requestWrites == before)
      _ = try await app.services.runner.write(on: app.db) { _ in true }
      #expect(writes.requestWrites == before + 1)
    }
    // Where every write is its own transaction (PostgreSQL), request writes are counted too.
    try await withTestApp { _, app in
      let gate = DatabaseWriteGate(mode: .concurrent)
      _ = try await gate.transaction(on: app.db, priority: .background) { _ in true }
      #expect(gate.requestWrites == 0)
      _ = try await gate.transaction(on: app.db) { _ in true }
      #expect(gate.requestWrites == 1)
    }
  }

  @Test("Feed: the server copies a waiting post into its followers' feeds by itself, woken by the completion")
  func outboxCopiedInBackground() async throws {
    var options = TestDatabase.options
    guard case .sqliteMemory = options.database else { return }  // see TestDatabase.options
    options.copiesFeedsInBackground = true
    try await withTestApp(options: options) { author, app in
      let authorName = try await Self.account(author, "popular")
      let store = SQLChallengesStore(app.db)
      let followers = FanOut.copyAtOnceLimit + 1
      try await Self.addSilentFollowers(followers, of: authorName, on: app.db)
      let photo = try await Self.upload(author)
      let challenge = try #require(try await Self.overview(author).challenges.first { $0.type == "daily" })
      let done = try author.decode(ChallengeCompletionView.self, from: try await Self.complete(author, challenge, photo: photo))
      let postID = try #require(UUID(uuidString: done.activity.id))
      // Wait (on the condition, not a clock) until the copier has emptied the outbox.
      let clock = ContinuousClock()
      let deadline = clock.now + .seconds(60)
      while try await store.post(postID)?.fannedOut != true, clock.now < deadline { await Task.yield() }
      #expect(try await store.post(postID)?.fannedOut == true)
      #expect(try await store.waitingFanOuts(limit: 10).isEmpty)
      struct Count: Decodable { let n: Int }
      let count = try await app.db.sql.raw("SELECT COUNT(*) AS n FROM feed_entries WHERE activity_id = \(bind: postID)").first(decoding: Count.self)
      #expect(count?.n == followers + 1)
    }
  }

  @Test("Feed: pages by cursor without repeats; a big account's posts are merged in when read; filters")
  func feedPagingAndMerge() async throws {
    var options = TestDatabase.options
    options.fanOutLimit = 1  // anyone with two or more followers counts as a big account
    try await withTestApp(options: options) { reader, app in
      let readerName = try await Self.account(reader, "reader")
      let small = reader.stranger()
      let smallName = try await Self.account(small, "small")
      let big = reader.stranger()
      let bigName = try await Self.account(big, "big")
      let fan = reader.stranger()
      _ = try await Self.account(fan, "fan")
      try await Self.follow(reader, smallName)
      try await Self.follow(reader, bigName)
      try await Self.follow(fan, bigName)  // two followers: big is over the limit
      try await Self.follow(small, readerName)

      // Completions spread over the days of a week, by both authors, so the reader's feed mixes both lists.
      let clock = app.services.clock
      let start = clock.now()
      var posted: [String] = []
      let photoSmall = try await Self.upload(small)
      let photoBig = try await Self.upload(big)
      for day in 0..<4 {
        clock.set(to: start.addingTimeInterval(Double(day) * 86_400))
        for (author, photo) in [(small, photoSmall), (big, photoBig)] {
          for challenge in try await Self.overview(author).challenges where challenge.type == "daily" {
            let done = try author.decode(ChallengeCompletionView.self, from: try await Self.complete(author, challenge, photo: photo))
            posted.append(done.activity.id)
          }
        }
      }
      let sql = try #require(app.db as? any SQLDatabase)
      struct Row: Decodable { let fanned_out: Bool }
      let flags = try await sql.raw("SELECT fanned_out FROM activities WHERE type = 'challenge_completed'").all(decoding: Row.self)
      #expect(flags.contains { $0.fanned_out } && flags.contains { !$0.fanned_out })

      var seen: [FeedItemView] = []
      var cursor: String?
      repeat {
        let page = try await Self.feed(reader, "filter=challenges&limit=3" + (cursor.map { "&cursor=\($0)" } ?? ""))
        #expect(page.items.count <= 3)
        seen += page.items
        cursor = page.next
      } while cursor != nil
      #expect(Set(seen.map(\.id)) == Set(posted) && seen.count == posted.count)
      #expect(seen.map(\.createdAt) == seen.map(\.createdAt).sorted(by: >))

      let social = try await Self.feed(small, "filter=social")
      #expect(social.items.map(\.type) == ["follow"] && social.items.first?.title.contains("started following you") == true)
      #expect(try await Self.feed(small, "filter=challenges").items.allSatisfy { $0.type == "challenge_completed" })

    }
  }

  @Test("A feed is trimmed back to its newest 800 entries once it has grown past the cap; a smaller one is left alone")
  func feedCap() async throws {
    try await withTestApp { reader, app in
      _ = try await Self.account(reader, "reader")
      let me = try reader.decode(UserResponse.self, from: try await reader.send(.GET, "/api/me"))
      let owner = try #require(UUID(uuidString: me.id))
      let sql = try #require(app.db as? any SQLDatabase)
      let author = UUID()
      try await sql.raw("INSERT INTO users (id, display_name, is_guest) VALUES (\(bind: author), 'Prolific', true)").run()
      // 950 posts straight into the reader's feed (older first), as a long fan-out history would leave it.
      for batch in stride(from: 0, to: 950, by: 50) {
        for index in batch..<(batch + 50) {
          let post = Post(
            id: UUID(), author: Person(id: author, username: nil, displayName: "Prolific"), kind: .follow, at: Int64(index), title: "Post \(index)",
            subtitle: "", recipient: owner)
          try await SQLChallengesStore(app.db).add(post, delivery: FanOut.decide(recipient: owner, followers: 0, limit: 10))
        }
      }
      #expect(try await FeedJanitor.sweep(app) == 1)
      struct Row: Decodable {
        let count: Int
        let oldest: Int64
      }
      let row = try #require(
        try await sql.raw("SELECT COUNT(*) AS count, MIN(at_micros) AS oldest FROM feed_entries WHERE owner_id = \(bind: owner)").first(decoding: Row.self))
      #expect(row.count == FeedSize.cap && row.oldest == 150)
      #expect(try await FeedJanitor.sweep(app) == 0)
      let page = try await Self.feed(reader, "filter=social&limit=1")
      #expect(page.items.first?.title == "Post 949")
    }
  }

  @Test("Reports hide a post at the threshold; revoke claws the points back and corrects the streak; the ledger stays clean")
  func moderation() async throws {
    var options = TestDatabase.options
    options.reportThreshold = 2
    try await withTestApp(options: options) { cook, app in
      let username = try await Self.account(cook)
      let readers = [cook.stranger(), cook.stranger(), cook.stranger()]
      for reader in readers {
        _ = try await Self.account(reader, "reader")
        try await Self.follow(reader, username)
      }
      let clock = app.services.clock
      let start = clock.now()
      let photo = try await Self.upload(cook)
      var posts: [ChallengeCompletionView] = []
      for day in 0..<3 {
        clock.set(to: start.addingTimeInterval(Double(day) * 86_400))
        let daily = try #require(try await Self.overview(cook).challenges.first { $0.type == "daily" })
        posts.append(try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, daily, photo: photo)))
      }
      #expect(posts.last?.stats.currentStreak == 3)
      #expect(try await Self.points(app, cook) == 300)

      let middle = posts[1].activity.id
      _ = try await readers[0].send(.POST, "/api/activities/\(middle)/report", json: ReportRequest(reason: "not cooked"))
      _ = try await readers[0].send(.POST, "/api/activities/\(middle)/report", json: ReportRequest(reason: "again"))  // once per person
      #expect(try await Self.feed(readers[2]).items.contains { $0.id == middle })
      let authorPage = try await FeedEventReader(cook)
      let readerPage = try await FeedEventReader(readers[2])
      _ = try await readers[1].send(.POST, "/api/activities/\(middle)/report", json: ReportRequest(reason: "stock photo"))
      #expect(!(try await Self.feed(readers[2]).items.contains { $0.id == middle }))
      // Open pages follow at once: a reader's loses the post; its author's shows it waiting for review.
      let gone = try await readerPage.nextEvent()
      #expect(gone.event == "removed" && String(decoding: gone.data, as: UTF8.self).contains(middle))
      let mine = try await authorPage.nextEvent()
      let state = try JSONDecoder().decode(FeedItemView.self, from: mine.data)
      #expect(mine.event == "changed" && state.id == middle && state.status == "pending_review")
      #expect(state.shareUrl == nil && state.cardUrl != nil && state.points == 100)  // under review: no public link
      try await readerPage.close()
      #expect(try await Self.feed(cook).items.first { $0.id == middle }?.status == "pending_review")

      // On PostgreSQL other tests' posts may wait for review in the same database: this test looks at its own.
      let pending = try await ChallengesModeration.list(all: false, on: app.db)
      let waiting = pending.filter { $0.id.uuidString == middle }
      #expect(waiting.count == 1 && waiting.first?.reasons == ["not cooked", "stock photo"])
      if case .sqliteMemory = app.serverOptions.database { #expect(pending.count == 1) }
      try await ChallengesModeration.review(UUID(uuidString: middle)!, decision: .revoke, operator: "test", note: "confirmed", app: app)
      let revokedLive = try JSONDecoder().decode(FeedItemView.self, from: try await authorPage.nextEvent().data)
      #expect(revokedLive.id == middle && revokedLive.status == "revoked")
      // Its points were paid back: no points, no card, no public link; it cannot be made public again.
      #expect(revokedLive.points == nil && revokedLive.cardUrl == nil && revokedLive.shareUrl == nil && revokedLive.share == nil)
      #expect(try await cook.send(.GET, "/api/activities/\(middle)/card.png").status == .notFound)
      let relink = try await cook.send(.PATCH, "/api/activities/\(middle)", json: ActivitySettingsRequest(publicLink: true))
      #expect(relink.status == .conflict)
      #expect(try cook.decode(APIErrorBody.self, from: relink).code == "post_not_public")
      try await authorPage.close()
      #expect(try await Self.points(app, cook) == 200)
      let afterRevoke = try await Self.overview(cook)
      let stats = afterRevoke.stats
      #expect(stats.challengesCompleted == 2 && stats.currentStreak == 1 && stats.longestStreak == 1)
      let revoked = try #require(afterRevoke.earlier.first { $0.participation?.activityId == middle })
      #expect(revoked.participation?.status == "revoked" && revoked.participation?.progress == 0)
      let trail = try await ChallengesModeration.trail(UUID(uuidString: middle)!, on: app.db)
      #expect(trail.map { $0.split(separator: " ")[1] } == ["reported", "reported", "hidden", "revoked"])
      // Reporters are named by their usernames, not by account ids.
      #expect(trail.filter { $0.contains(" reported by @reader") }.count == 2, "\(trail)")
      #expect(!trail.contains { $0.range(of: #"by [0-9A-F]{8}-"#, options: .regularExpression) != nil }, "\(trail)")
      await #expect(throws: ChallengesModeration.Refused.self) {
        try await ChallengesModeration.review(UUID(uuidString: middle)!, decision: .revoke, operator: "test", note: "", app: app)
      }
      let report = try await LedgerVerification.verify(on: app.db)
      #expect(report.differences.isEmpty && report.negative.isEmpty)

      // Keep: shown again.
      let last = posts[2].activity.id
      for reader in readers.prefix(2) { _ = try await reader.send(.POST, "/api/activities/\(last)/report", json: ReportRequest()) }
      #expect(!(try await Self.feed(readers[2]).items.contains { $0.id == last }))
      try await ChallengesModeration.review(UUID(uuidString: last)!, decision: .keep, operator: "test", note: "", app: app)
      #expect(try await Self.feed(readers[2]).items.contains { $0.id == last })
      #expect(try await Self.points(app, cook) == 200)
    }
  }

  @Test("Follow and unfollow keep the counts; lists page newest first")
  func follows() async throws {
    try await withTestApp { cook, _ in
      let username = try await Self.account(cook)
      var fans: [TestClient] = []
      for _ in 0..<3 {
        let fan = cook.stranger()
        _ = try await Self.account(fan, "fan")
        try await Self.follow(fan, username)
        try await Self.follow(fan, username)  // again: nothing changes
        fans.append(fan)
      }
      let me = try cook.decode(ProfileView.self, from: try await cook.send(.GET, "/api/social/me"))
      #expect(me.followers == 3 && me.following == 0 && me.isMe)

      // A new follower sees what they did lately; after unfollowing, their posts leave the feed.
      let daily = try #require(try await Self.overview(cook).challenges.first { $0.type == "daily" })
      let done = try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, daily, photo: try await Self.upload(cook)))
      let late = cook.stranger()
      _ = try await Self.account(late, "late")
      try await Self.follow(late, username)
      #expect(try await Self.feed(late, "filter=challenges").items.map(\.id) == [done.activity.id])
      #expect(try await late.send(.DELETE, "/api/social/follow/\(username)").status == .ok)
      #expect(try await Self.feed(late, "filter=challenges").items.isEmpty)
      let list = try cook.decode(PeoplePage.self, from: try await cook.send(.GET, "/api/social/followers"))
      #expect(list.total == 3 && list.people.count == 3)
      #expect(try await fans[0].send(.DELETE, "/api/social/follow/\(username)").status == .ok)
      let profile = try fans[0].decode(ProfileView.self, from: try await fans[0].send(.GET, "/api/social/people/\(username)"))
      #expect(profile.followers == 2 && !profile.isFollowing)
    }
  }

  @Test("Live: a follower's open feed receives a new completion, then others' congrats and comments, without a reload")
  func liveFeed() async throws {
    try await withTestApp { cook, _ in
      let username = try await Self.account(cook)
      let friend = cook.stranger()
      _ = try await Self.account(friend, "friend")
      try await Self.follow(friend, username)
      let stream = try await FeedEventReader(friend)
      do {
        let daily = try #require(try await Self.overview(cook).challenges.first { $0.type == "daily" })
        let done = try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, daily, photo: try await Self.upload(cook)))
        let item = try await stream.next()
        #expect(item.id == done.activity.id && !item.isMine && item.type == "challenge_completed")

        // Someone else's congrats and comment reach the open page as `changed` cards with the new counts.
        let neighbour = cook.stranger()
        _ = try await Self.account(neighbour, "neighbour")
        try await Self.follow(neighbour, username)
        _ = try await neighbour.send(.POST, "/api/activities/\(item.id)/congrats")
        var changed = try await stream.nextEvent()
        #expect(changed.event == "changed")
        var card = try JSONDecoder().decode(FeedItemView.self, from: changed.data)
        #expect(card.id == item.id && card.congrats == 1 && card.congratulated == false)
        _ = try await neighbour.send(.POST, "/api/activities/\(item.id)/comments", json: CommentRequest(body: "Looks great"))
        changed = try await stream.nextEvent()
        card = try JSONDecoder().decode(FeedItemView.self, from: changed.data)
        #expect(changed.event == "changed" && card.comments == 1)
        // The friend's own congrats, made in another tab, comes back saying so.
        let tab = cook.stranger()
        tab.sessionCookie = friend.sessionCookie
        _ = try await tab.send(.POST, "/api/activities/\(item.id)/congrats")
        card = try JSONDecoder().decode(FeedItemView.self, from: try await stream.nextEvent().data)
        #expect(card.congrats == 2 && card.congratulated == true)
      } catch {
        try await stream.close()
        throw error
      }
      try await stream.close()
    }
  }

  @Test("Two server processes on one PostgreSQL: a completion on one reaches a follower's feed open on the other")
  func liveFeedAcrossServers() async throws {
    let options = TestDatabase.options
    guard case .postgres = options.database else { return }  // SQLite runs one process; CI runs this on PostgreSQL
    try await withTestApp(options: options) { cook, _ in
      try await withTestApp(options: options) { other, _ in
        let username = try await Self.account(cook)
        let friend = other.stranger()
        _ = try await Self.account(friend, "friend")
        try await Self.follow(friend, username)
        let stream = try await FeedEventReader(friend)
        do {
          let daily = try #require(try await Self.overview(cook).challenges.first { $0.type == "daily" })
          let done = try cook.decode(ChallengeCompletionView.self, from: try await Self.complete(cook, daily, photo: try await Self.upload(cook)))
          let item = try await stream.next()
          #expect(item.id == done.activity.id)
        } catch {
          try await stream.close()
          throw error
        }
        try await stream.close()
      }
    }
  }

  @Test("`completionkit challenges import`: a good file is offered; a bad file is refused whole with a message per row")
  func importCommand() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-challenges-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let options = ServerOptions(database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    let good = folder.appendingPathComponent("good.json")
    try Data(
      """
      [{"slug":"pie-day","type":"special","title":"Pie Day","description":"Bake any pie, sweet or savoury, to mark the day.","requirements":["Make the crust yourself","Share a slice"],"date":"03-14","days":1}]
      """.utf8
    ).write(to: good)
    let bad = folder.appendingPathComponent("bad.json")
    try Data(#"[{"slug":"x","type":"daily"}, {"slug":"pie-day","type":"special","title":"Pie Again","description":"A second pie day is one too many pies.","requirements":["One","Two things"],"date":"03-14"}]"#.utf8)
      .write(to: bad)
    let report = try await Launcher.importChallenges(options: options, path: good.path, logLevel: "error")
    #expect(report == "Imported 1 challenge (1 special).")
    do {
      _ = try await Launcher.importChallenges(options: options, path: bad.path, logLevel: "error")
      Issue.record("a bad file was imported")
    } catch let error as LauncherError {
      #expect(error.description.contains("row 1:") && error.description.contains("row 2:") && error.description.contains("already in the catalogue"))
    }
  }
}

/// Reads a feed's server-sent events.
final class FeedEventReader: @unchecked Sendable {
  private let client: HTTPClient
  private var lines: AsyncThrowingStream<String, any Error>.Iterator
  private let task: Task<Void, Never>

  init(_ test: TestClient) async throws {
    client = HTTPClient(eventLoopGroupProvider: .singleton)
    var request = HTTPClientRequest(url: test.base + "/api/feed/events")
    if let cookie = test.sessionCookie { request.headers.add(name: "Cookie", value: "ck_session=\(cookie)") }
    let response = try await client.execute(request, timeout: .seconds(30))
    let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream()
    task = Task {
      var pending = ""
      do {
        for try await chunk in response.body {
          pending += String(buffer: chunk)
          while let range = pending.range(of: "\n") {
            continuation.yield(String(pending[..<range.lowerBound]))
            pending.removeSubrange(..<range.upperBound)
          }
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    lines = stream.makeAsyncIterator()
  }

  /// The next event of any kind: its name and its data (a card, or `{"id"}` for `removed`).
  func nextEvent() async throws -> (event: String, data: Data) {
    var event = ""
    while let line = try await lines.next() {
      if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
      if line.hasPrefix("data: ") { return (event, Data(line.dropFirst(6).utf8)) }
    }
    throw Abort(.gone, reason: "the stream ended")
  }

  /// The next `activity` event's card (other events are passed over).
  func next() async throws -> FeedItemView {
    while true {
      let (event, data) = try await nextEvent()
      if event == "activity" { return try JSONDecoder().decode(FeedItemView.self, from: data) }
    }
  }

  func close() async throws {
    task.cancel()
    try await client.shutdown()
  }
}
