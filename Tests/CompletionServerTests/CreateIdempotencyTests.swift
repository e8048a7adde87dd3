import CompletionAPI
import FluentSQL
import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("Idempotency-Key on creates: comments, follows, reports, photos, videos, tokens")
struct CreateIdempotencyTests {
  /// Sends `count` copies of one request at once.
  static func burst(_ count: Int, _ send: @escaping @Sendable () async throws -> TestResponse) async throws -> [TestResponse] {
    try await withThrowingTaskGroup(of: TestResponse.self) { group in
      for _ in 0..<count { group.addTask { try await send() } }
      return try await group.reduce(into: []) { $0.append($1) }
    }
  }

  static func rows(_ app: Application, _ query: String) async throws -> Int {
    struct Row: Decodable { let n: Int }
    let sql = try #require(app.db as? any SQLDatabase)
    return try await sql.raw(SQLQueryString(query)).first(decoding: Row.self)?.n ?? -1
  }

  @Test("20 comments and 10 photos sent at once with one key make one each; every answer is the first, retries marked replayed")
  func commentsAndPhotos() async throws {
    try await withTestApp { cook, app in
      let username = try await ChallengesAPITests.account(cook)
      let friend = cook.stranger()
      _ = try await ChallengesAPITests.account(friend, "friend")
      try await ChallengesAPITests.follow(friend, username)
      let daily = try #require(try await ChallengesAPITests.overview(cook).challenges.first { $0.type == "daily" })
      let done = try cook.decode(
        ChallengeCompletionView.self, from: try await ChallengesAPITests.complete(cook, daily, photo: try await ChallengesAPITests.upload(cook)))
      let post = done.activity.id

      let key: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let comments = try await Self.burst(20) {
        try await friend.send(.POST, "/api/activities/\(post)/comments", json: CommentRequest(body: "Looks great"), headers: key)
      }
      #expect(comments.allSatisfy { $0.status == .created || $0.status == .ok }, "\(comments.map(\.status))")
      let ids = Set(try comments.map { try friend.decode(CommentView.self, from: $0).id })
      #expect(ids.count == 1)
      #expect(comments.filter { $0.headers.first(name: "Idempotent-Replayed") == "true" }.count == 19)
      let thread = try friend.decode(CommentPage.self, from: try await friend.send(.GET, "/api/activities/\(post)/comments"))
      #expect(thread.comments.count == 1)
      // The same key with another request is refused; nothing changes.
      let other = try await friend.send(.POST, "/api/activities/\(post)/comments", json: CommentRequest(body: "Something else"), headers: key)
      #expect(other.status == .conflict)
      #expect(try friend.decode(APIErrorBody.self, from: other).code == "idempotency_key_reused")

      let me = try cook.decode(UserResponse.self, from: try await cook.send(.GET, "/api/me"))
      let photosBefore = try await Self.rows(app, "SELECT COUNT(*) AS n FROM challenge_photos WHERE user_id = '\(me.id)'")
      let photoKey: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let photos = try await Self.burst(10) {
        try await cook.send(.POST, "/api/photos", bytes: ChallengesAPITests.gpsPhoto, contentType: "image/jpeg", headers: photoKey)
      }
      #expect(photos.allSatisfy { $0.status == .created }, "\(photos.map(\.status))")
      #expect(Set(try photos.map { try cook.decode(PhotoView.self, from: $0).id }).count == 1)
      let photosAfter = try await Self.rows(app, "SELECT COUNT(*) AS n FROM challenge_photos WHERE user_id = '\(me.id)'")
      #expect(photosAfter == photosBefore + 1)
    }
  }

  @Test("A retried follow or report answers as the first did; a refused create is not stored, so its retry is judged again")
  func followsAndReports() async throws {
    try await withTestApp { cook, _ in
      let username = try await ChallengesAPITests.account(cook)
      let friend = cook.stranger()
      _ = try await ChallengesAPITests.account(friend, "friend")
      let key: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let follows = try await Self.burst(5) { try await friend.send(.POST, "/api/social/follow", json: FollowRequest(username: username), headers: key) }
      #expect(follows.allSatisfy { $0.status == .ok })
      #expect(follows.filter { $0.headers.first(name: "Idempotent-Replayed") == "true" }.count == 4)
      // A refusal (nobody by that name) is not kept: the same key for the same request is judged again.
      let missing: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      for _ in 0..<2 {
        let refused = try await friend.send(.POST, "/api/social/follow", json: FollowRequest(username: "nobody-\(UUID().uuidString.prefix(6))"), headers: missing)
        #expect(refused.status == .notFound)
      }

      let daily = try #require(try await ChallengesAPITests.overview(cook).challenges.first { $0.type == "daily" })
      let done = try cook.decode(
        ChallengeCompletionView.self, from: try await ChallengesAPITests.complete(cook, daily, photo: try await ChallengesAPITests.upload(cook)))
      let reportKey: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let reports = try await Self.burst(5) {
        try await friend.send(.POST, "/api/activities/\(done.activity.id)/report", json: ReportRequest(reason: "stock photo"), headers: reportKey)
      }
      let statuses = Set(reports.map(\.status))
      #expect(statuses.count == 1 && statuses.first.map { (200..<300).contains($0.code) } == true, "\(statuses)")
      #expect(reports.filter { $0.headers.first(name: "Idempotent-Replayed") == "true" }.count == 4)
    }
  }

  @Test("A retried video upload stores one video; a retried token request gets the same token, which the database does not hold in clear")
  func videosAndTokens() async throws {
    try await withTestApp(options: KidsAPITests.options) { client, app in
      let family = KidsAPITests.Family(client: client)
      try await UploadTests.openParentArea(family)
      let key: HTTPHeaders = ["Idempotency-Key": UUID().uuidString]
      let uploads = try await Self.burst(4) {
        try await client.send(.POST, "/api/kids/videos?title=once", bytes: VideoBytes.mp4, contentType: "video/mp4", headers: key)
      }
      #expect(uploads.allSatisfy { $0.status == .ok }, "\(uploads.map(\.status))")
      #expect(try await family.state().dashboard?.videos.count == 1)

      let account = client.stranger()
      _ = try await ChallengesAPITests.account(account, "tokens")
      let tokenKey = UUID().uuidString
      let tokens = try await Self.burst(3) {
        try await account.send(.POST, "/api/account/tokens", json: TokenRequest(expiresInDays: 7), headers: ["Idempotency-Key": tokenKey])
      }
      #expect(tokens.allSatisfy { $0.status == .created })
      let secrets = Set(try tokens.map { try account.decode(TokenResponse.self, from: $0).token })
      #expect(secrets.count == 1)
      let list = try account.decode(SignInList.self, from: try await account.send(.GET, "/api/account/tokens"))
      #expect(list.signIns.filter { $0.kind == "token" }.count == 1)
      let secret = try #require(secrets.first)
      let sql = try #require(app.db as? any SQLDatabase)
      struct Row: Decodable { let key: String; let body: String }
      let stored = try await sql.raw("SELECT \"key\", body FROM idempotency_records").all(decoding: Row.self)
      #expect(!stored.isEmpty)
      #expect(!stored.contains { $0.body.contains(secret) || $0.key.contains(tokenKey) }, "the token or its key is stored in clear")
    }
  }
}
