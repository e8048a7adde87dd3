import Challenges
import CompletionAPI
import FluentSQL
import Foundation
import Testing
import Vapor

@testable import CompletionServer

/// Photos a member owns: deleting an unposted one, the background clean-up, and a quota that counts only what is kept
/// and not posted, so completing challenges every day never locks a member out.
@Suite("Photos a member owns")
struct PhotoKeepingTests {
  typealias API = ChallengesAPITests

  static func userID(_ client: TestClient) async throws -> UUID {
    let me = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
    return try #require(UUID(uuidString: me.id))
  }

  /// The kept counter, and the same figures counted from the rows: they must always agree.
  static func usage(_ app: Application, _ user: UUID) async throws -> (kept: (files: Int, bytes: Int), counted: (files: Int, bytes: Int)) {
    struct Row: Decodable {
      let files: Int
      let bytes: Int?
    }
    let sql = try #require(app.db as? any SQLDatabase)
    let row = try await sql.raw(
      """
      SELECT COUNT(*) AS files, SUM(LENGTH(full_jpeg) + LENGTH(thumbnail_jpeg)) AS bytes FROM challenge_photos
      WHERE user_id = \(bind: user) AND posted = \(bind: false)
      """
    ).first(decoding: Row.self)
    return (try await SQLChallengesStore(app.db).uploadUsage(of: user), (row?.files ?? 0, row?.bytes ?? 0))
  }

  static func photoCount(_ app: Application, _ user: UUID) async throws -> Int {
    struct Row: Decodable { let count: Int }
    let sql = try #require(app.db as? any SQLDatabase)
    return try await sql.raw("SELECT COUNT(*) AS count FROM challenge_photos WHERE user_id = \(bind: user)").first(decoding: Row.self)?.count ?? 0
  }

  static func code(_ client: TestClient, _ response: TestResponse) -> String? {
    try? client.decode(APIErrorBody.self, from: response).code
  }

  @Test("600 challenges completed over simulated days under the default quota, a photo each and one left unposted a day: uploads keep working")
  func activeMemberNeverLocksOut() async throws {
    let options = TestDatabase.options
    #expect(options.uploadQuotaFiles == 500)
    try await withTestApp(options: options) { cook, app in
      let username = try await API.account(cook)
      let user = try await Self.userID(cook)
      let clock = app.services.clock
      let start = clock.now()
      var completed = 0
      var day = 0
      while completed < 600 {
        clock.set(to: start.addingTimeInterval(Double(day) * 86_400))
        // A sign-in lasts months, not the simulated year: sign in again now and then, as a member would.
        if day > 0, day % 90 == 0 {
          let login = try await cook.send(.POST, "/api/account/login", json: LoginRequest(username: username, password: "password-123"))
          #expect(login.status == .ok)
        }
        // A photo picked and then not sent (the sheet closed): it is left for the clean-up.
        let abandoned = try await cook.send(.POST, "/api/photos", bytes: API.gpsPhoto, contentType: "image/jpeg")
        guard abandoned.status == .created else {
          Issue.record("day \(day), after \(completed) completions: a photo upload answered \(abandoned.status) \(Self.code(cook, abandoned) ?? "")")
          return
        }
        for challenge in try await API.overview(cook).challenges where challenge.isOpen && challenge.participation?.status != "completed" {
          guard completed < 600 else { break }
          let upload = try await cook.send(.POST, "/api/photos", bytes: API.gpsPhoto, contentType: "image/jpeg")
          guard upload.status == .created else {
            Issue.record("day \(day), after \(completed) completions: a photo upload answered \(upload.status) \(Self.code(cook, upload) ?? "")")
            return
          }
          let photo = try cook.decode(PhotoView.self, from: upload)
          let done = try await API.complete(cook, challenge, photo: photo)
          guard done.status == .ok else {
            Issue.record("day \(day): completing \(challenge.id) answered \(done.status) \(Self.code(cook, done) ?? "")")
            return
          }
          completed += 1
        }
        // The server's hourly clean-up, once a simulated day.
        _ = try await PhotoJanitor.sweep(app, account: user)
        day += 1
      }
      #expect(completed == 600)
      #expect(day < 365, "about two completions a day")
      let usage = try await Self.usage(app, user)
      #expect(usage.kept == usage.counted, "the kept count agrees with the rows")
      // Only the photos picked in the last day or two and never sent count; the 600 posted ones do not.
      #expect((1...2).contains(usage.kept.files), "\(usage.kept)")
      #expect(try await Self.photoCount(app, user) == 600 + usage.kept.files)
      #expect(try await API.overview(cook).stats.challengesCompleted == 600)
    }
  }

  @Test("Delete: one's own unposted photo (204, it stops counting); another's or an unknown one is not found; a posted one is in use")
  func deleteOwnPhoto() async throws {
    try await withTestApp { cook, app in
      _ = try await API.account(cook)
      let user = try await Self.userID(cook)
      let other = cook.stranger()
      _ = try await API.account(other, "other")

      let picked = try await API.upload(cook)
      #expect(try await Self.usage(app, user).kept.files == 1)
      // Someone else cannot delete it, nor learn that it exists.
      let theirs = try await other.send(.DELETE, "/api/photos/\(picked.id)")
      #expect(theirs.status == .notFound && Self.code(other, theirs) == "photo_not_found")
      let signedOut = try await cook.send(.DELETE, "/api/photos/\(picked.id)", useCookie: false)
      #expect(signedOut.status == .notFound && Self.code(cook, signedOut) == "photo_not_found")
      #expect(try await cook.send(.GET, picked.url).status == .ok)
      for unknown in [UUID().uuidString, "not-a-photo"] {
        let response = try await cook.send(.DELETE, "/api/photos/\(unknown)")
        #expect(response.status == .notFound && Self.code(cook, response) == "photo_not_found")
      }

      let removed = try await cook.send(.DELETE, "/api/photos/\(picked.id)")
      #expect(removed.status == .noContent)
      #expect(try await cook.send(.GET, picked.url).status == .notFound)
      #expect(try await Self.usage(app, user).kept == (0, 0))
      let again = try await cook.send(.DELETE, "/api/photos/\(picked.id)")
      #expect(again.status == .notFound && Self.code(cook, again) == "photo_not_found")
      // A completion with the deleted photo is refused and pays nothing.
      let daily = try #require(try await API.overview(cook).challenges.first { $0.type == "daily" })
      let late = try await API.complete(cook, daily, photo: picked)
      #expect(late.status == .notFound && Self.code(cook, late) == "photo_not_found")
      #expect(try await API.points(app, cook) == 0)

      // A photo a post shows stays with the post.
      let shared = try await API.upload(cook)
      #expect(try await API.complete(cook, daily, photo: shared).status == .ok)
      #expect(try await Self.usage(app, user).kept == (0, 0), "a posted photo does not count")
      let inUse = try await cook.send(.DELETE, "/api/photos/\(shared.id)")
      #expect(inUse.status == .conflict && Self.code(cook, inUse) == "photo_in_use")
      #expect(try await cook.send(.GET, shared.url).status == .ok)
      let usage = try await Self.usage(app, user)
      #expect(usage.kept == usage.counted)
    }
  }

  @Test("Deleting one photo eight times at once removes it once: one 204, the rest 404, and the count moves once")
  func deleteTwiceAtOnce() async throws {
    try await withTestApp { cook, app in
      _ = try await API.account(cook)
      let user = try await Self.userID(cook)
      let kept = try await API.upload(cook)
      let photo = try await API.upload(cook)
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for _ in 0..<8 { group.addTask { try await cook.send(.DELETE, "/api/photos/\(photo.id)").status } }
        return try await group.reduce(into: [HTTPStatus]()) { $0.append($1) }
      }
      #expect(statuses.filter { $0 == .noContent }.count == 1, "\(statuses)")
      #expect(statuses.filter { $0 == .notFound }.count == 7, "\(statuses)")
      let usage = try await Self.usage(app, user)
      #expect(usage.kept.files == 1 && usage.kept == usage.counted)
      #expect(try await cook.send(.GET, kept.url).status == .ok)
    }
  }

  @Test("Completing with a photo while it is deleted: either the completion wins (the photo stays, in use) or the delete does (refused)")
  func deleteRacesCompletion() async throws {
    try await withTestApp { cook, app in
      _ = try await API.account(cook)
      let user = try await Self.userID(cook)
      let daily = try #require(try await API.overview(cook).challenges.first { $0.type == "daily" })
      let photo = try await API.upload(cook)
      async let completion = API.complete(cook, daily, photo: photo)
      async let deletion = cook.send(.DELETE, "/api/photos/\(photo.id)")
      let (done, deleted) = try await (completion, deletion)
      if done.status == .ok {
        #expect(deleted.status == .conflict)
        #expect(try await cook.send(.GET, photo.url).status == .ok)
      } else {
        #expect(deleted.status == .noContent && done.status == .notFound)
        #expect(try await API.points(app, cook) == 0)
      }
      let usage = try await Self.usage(app, user)
      #expect(usage.kept == (0, 0) && usage.counted == (0, 0))
    }
  }

  @Test("Clean-up: unposted photos a day old, photos of revoked and deleted posts (a photo another post shows stays), their cards and cached videos")
  func cleanUp() async throws {
    try await withTestApp { cook, app in
      _ = try await API.account(cook)
      let user = try await Self.userID(cook)
      let sql = try #require(app.db as? any SQLDatabase)
      let clock = app.services.clock
      let start = clock.now()

      let old = try await API.upload(cook)
      // Three completions over three days: the first two share a photo; the third has its own.
      let sharedPhoto = try await API.upload(cook)
      var posts: [ChallengeCompletionView] = []
      for day in 0..<3 {
        clock.set(to: start.addingTimeInterval(Double(day) * 86_400 + 3600))
        let daily = try #require(try await API.overview(cook).challenges.first { $0.type == "daily" })
        let photo = day < 2 ? sharedPhoto : try await API.upload(cook)
        posts.append(try cook.decode(ChallengeCompletionView.self, from: try await API.complete(cook, daily, photo: photo)))
      }
      let third = try #require(posts[2].activity.photoUrl)
      let young = try await API.upload(cook)
      #expect(try await Self.usage(app, user).kept.files == 2)  // `old` and `young`

      // Cards and videos made for the posts (videos are files in the cache folder, named by their post).
      for post in posts { #expect(try await cook.send(.GET, "/api/activities/\(post.activity.id)/card.png").status == .ok) }
      let videos = app.serverOptions.videosDirectory
      try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
      func videoFile(_ post: String) -> URL { videos.appendingPathComponent("challenge-\(post.lowercased())-0123456789abcdef.mp4") }
      for post in posts { try Data("mp4".utf8).write(to: videoFile(post.activity.id)) }
      let stranger = videos.appendingPathComponent("cryptogram-\(UUID().uuidString.lowercased())-0123456789abcdef.mp4")
      try Data("mp4".utf8).write(to: stranger)

      // Revoke the first post (its photo is shared with the second) and the third; delete the second post's row.
      for index in [0, 2] {
        try await ChallengesModeration.review(
          UUID(uuidString: posts[index].activity.id)!, decision: .revoke, operator: "test", note: "", app: app)
      }
      try await sql.raw("DELETE FROM activities WHERE id = \(bind: UUID(uuidString: posts[1].activity.id)!)").run()

      let swept = try await PhotoJanitor.sweep(app, account: user)
      #expect(swept.unpostedPhotos == 1, "only `old` is more than a day old")
      #expect(swept.postPhotos == 2, "the shared photo (its posts revoked and deleted) and the third post's")
      #expect(swept.videos == 3)
      #expect(try await cook.send(.GET, old.url).status == .notFound)
      #expect(try await cook.send(.GET, young.url).status == .ok)
      #expect(try await cook.send(.GET, sharedPhoto.url).status == .notFound)
      #expect(try await cook.send(.GET, third).status == .notFound)
      for post in posts { #expect(!FileManager.default.fileExists(atPath: videoFile(post.activity.id).path)) }
      #expect(FileManager.default.fileExists(atPath: stranger.path))
      struct Count: Decodable { let count: Int }
      let ids = posts.compactMap { UUID(uuidString: $0.activity.id) }
      let cards = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "count").from("share_cards")
        .where("activity_id", .in, SQLBind.group(ids)).first(decoding: Count.self)?.count
      #expect(cards == 0)
      // The revoked posts no longer point at a photo: the author's feed shows them without one.
      let mine = try await API.feed(cook)
      for index in [0, 2] {
        let item = try #require(mine.items.first { $0.id == posts[index].activity.id })
        #expect(item.status == "revoked" && item.photoUrl == nil)
      }
      let usage = try await Self.usage(app, user)
      #expect(usage.kept.files == 1 && usage.kept == usage.counted)
      #expect(try await PhotoJanitor.sweep(app, account: user) == PhotoJanitor.Sweep(), "a second round finds nothing")
    }
  }

  @Test("A photo kept by a standing post is never cleaned up, however old")
  func keepsPostedPhotos() async throws {
    try await withTestApp { cook, app in
      _ = try await API.account(cook)
      let user = try await Self.userID(cook)
      let clock = app.services.clock
      let start = clock.now()
      let photo = try await API.upload(cook)
      let daily = try #require(try await API.overview(cook).challenges.first { $0.type == "daily" })
      let done = try cook.decode(ChallengeCompletionView.self, from: try await API.complete(cook, daily, photo: photo))
      let videos = app.serverOptions.videosDirectory
      try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
      let video = videos.appendingPathComponent("challenge-\(done.activity.id.lowercased())-0123456789abcdef.mp4")
      try Data("mp4".utf8).write(to: video)
      clock.set(to: start.addingTimeInterval(20 * 86_400))
      #expect(try await PhotoJanitor.sweep(app, account: user) == PhotoJanitor.Sweep())
      #expect(try await cook.send(.GET, photo.url).status == .ok)
      #expect(FileManager.default.fileExists(atPath: video.path))
    }
  }

  /// Takes the migration back and runs it again over existing photos (on a private SQLite database only: on a shared
  /// PostgreSQL other tests use the tables meanwhile).
  @Test(
    "The migration marks the photos posts show as posted and starts each account's count from the rest",
    .enabled(if: ProcessInfo.processInfo.environment["DATABASE_URL"] == nil))
  func migrationStartsTheCounts() async throws {
    try await withTestApp { cook, app in
      _ = try await API.account(cook)
      let user = try await Self.userID(cook)
      let posted = try await API.upload(cook)
      let daily = try #require(try await API.overview(cook).challenges.first { $0.type == "daily" })
      #expect(try await API.complete(cook, daily, photo: posted).status == .ok)
      for _ in 0..<3 { _ = try await API.upload(cook) }
      let before = try await Self.usage(app, user)
      #expect(before.kept.files == 3 && before.kept == before.counted)

      // On one connection: another one's cached schema would not yet know the column is gone.
      try await app.db.transaction { db in
        try await AddPhotoKeeping().revert(on: db)
        try await AddPhotoKeeping().prepare(on: db)
      }
      let after = try await Self.usage(app, user)
      #expect(after.kept == before.kept && after.counted == before.counted)
      #expect(try await cook.send(.DELETE, "/api/photos/\(posted.id)").status == .conflict, "the posted photo is known as posted again")
    }
  }
}
