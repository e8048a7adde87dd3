import Challenges
import CompletionCore
import Fluent
import Foundation
import Imaging
import Vapor

/// Demo data for Challenges: people who follow each other, and some completions through the real
/// completion path (so their feeds, points and streaks are what the app itself would make).
enum ChallengesDemo {
  static let password = "demo-password"
  /// People who get completions (everyone else only follows).
  static let posters = 40

  static func fill(app: Application, users: Int, follows: Int) async throws -> String {
    let store = SQLChallengesStore(app.db)
    if try await store.hasDemoPeople() {
      throw LauncherError("This database has demo people already (demo1 exists). Use a fresh data folder or database.")
    }
    let hash = try await app.password.async.hash(password)
    let now = app.services.clock.now()
    let ids = (0..<users).map { _ in UUID() }

    // People, in bulk: the store's ordinary writes go one row at a time, too slow for thousands.
    try await store.insertPeople(
      ids.enumerated().map { index, id in (id, "Demo Cook \(index + 1)", "demo\(index + 1)") }, passwordHash: hash, at: now)

    // Follows: person i follows the next `follows` people round the circle, so everyone has as many
    // followers as they follow. Kept counts are written once at the end.
    let at = Micros.of(now.addingTimeInterval(-86_400))
    let perTransaction = 100  // people whose follows share one commit
    var written = 0
    for first in stride(from: 0, to: users, by: perTransaction) {
      let people = first..<min(first + perTransaction, users)
      let pairs = people.flatMap { index in (0..<follows).map { step in (follower: ids[index], followee: ids[(index + step + 1) % users]) } }
      try await app.db.transaction { try await SQLChallengesStore($0).insertFollows(pairs, at: at) }
      written += pairs.count
    }
    try await store.setFollowCounts(ids, followers: follows, following: follows)

    // Completions of today's challenges by the first few people, through the real path.
    let zone = TimeZone.gmt
    let today = CalendarDay(now, in: zone)
    let catalogue = try await store.catalogue()
    let offered = catalogue.challenges(on: today)
    let photo = JPEGEncoder.encode(demoPicture(), quality: 80)
    var completed = 0
    for index in 0..<min(posters, users) {
      let photoID = UUID()
      try await store.add(
        StoredPhoto(id: photoID, owner: ids[index], full: Data(photo), thumbnail: Data(photo), width: 640, height: 480, createdAt: now))
      let challenge = offered[index % offered.count]
      let moment = now.addingTimeInterval(Double(index - posters))
      _ = try await app.services.runner.write(on: app.db) { db in
        try await ChallengesController.record(
          challenge, userID: ids[index], photoID: photoID, story: "My take on \(challenge.title.lowercased()).", preference: .full, today: today,
          zone: zone, at: moment, fanOutLimit: app.serverOptions.fanOutLimit, services: app.services, on: db)
      }
      completed += 1
    }
    return "Made \(users) people (demo1…demo\(users), password “\(password)”), \(written) follows and \(completed) completions."
  }

  /// Adds `count` new people (guests, without sign-in) who all follow `username`: a very big account.
  static func addFollowers(app: Application, of username: String, count: Int) async throws {
    let store = SQLChallengesStore(app.db)
    guard let star = try await store.person(username: username) else { throw LauncherError("No one is called \(username).") }
    let now = app.services.clock.now()
    let at = Micros.of(now)
    for start in stride(from: 0, to: count, by: SQLChallengesStore.bulkBatch) {
      let ids = (start..<min(start + SQLChallengesStore.bulkBatch, count)).map { _ in UUID() }
      try await app.db.transaction { transaction in
        let store = SQLChallengesStore(transaction)
        try await store.insertGuests(ids, displayName: "Fan", at: now)
        try await store.insertFollows(ids.map { (follower: $0, followee: star.id) }, at: at)
      }
    }
    try await store.bumpCounts(star.id, followers: count, following: 0)
  }

  /// A warm plate-coloured picture (no text): a stand-in photo.
  static func demoPicture() -> RGBAImage {
    let width = 640
    let height = 480
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let dx = Double(x - width / 2)
        let dy = Double(y - height / 2)
        let distance = (dx * dx + dy * dy).squareRoot()
        let offset = (y * width + x) * 4
        if distance < 170 {
          pixels[offset] = 240
          pixels[offset + 1] = UInt8(150 + Int(distance) % 60)
          pixels[offset + 2] = 60
        } else if distance < 200 {
          pixels[offset] = 250
          pixels[offset + 1] = 250
          pixels[offset + 2] = 245
        } else {
          pixels[offset] = 118
          pixels[offset + 1] = UInt8(100 + y / 8)
          pixels[offset + 2] = 200
        }
      }
    }
    return RGBAImage(width: width, height: height, pixels: pixels)
  }
}
