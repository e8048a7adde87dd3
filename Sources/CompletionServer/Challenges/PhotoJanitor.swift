import Foundation
import Vapor

/// Removes what members no longer keep, now and then (``PeriodicWork``, like ``FeedJanitor``): photos picked but
/// never posted once they are a day old, photos of revoked or deleted posts (with revoked posts' share cards), and
/// share videos cached for posts that no longer stand.
///
/// Safe to kill at any point, and safe to run in several processes at once:
/// - A photo is a row (its bytes inside it). Each batch deletes rows, moves their owners' upload counts and lets
///   revoked posts drop their reference in one transaction, so a killed process leaves all of it or none: never a
///   photo counted but gone, nor a post pointing at a photo that is gone. A second process finds nothing left to do.
/// - Share videos are files. They are removed only after the database no longer has their post standing (that is
///   committed first), and each round looks at the folder itself rather than a list made earlier: a process killed
///   between the two leaves a file that nothing serves (the video routes ask for the post on every request) and the
///   next round removes it. A file is never removed while its post stands.
enum PhotoJanitor {
  /// How often it looks.
  static let interval: Duration = .seconds(3600)
  /// A photo picked but not posted is kept this long (a completion started yesterday evening can still be sent).
  static let unpostedLifetime: TimeInterval = 24 * 3600
  /// Rows per transaction, so a long backlog never holds the writer for long.
  static let batchSize = 200

  /// What one round removed.
  struct Sweep: Sendable, Equatable {
    var unpostedPhotos = 0
    var postPhotos = 0
    var videos = 0
  }

  /// The clean-up, every ``interval`` while the server runs.
  static var periodic: PeriodicWork {
    PeriodicWork(name: "photo clean-up", every: interval) { app in
      let swept = try await sweep(app)
      if swept != Sweep() {
        app.logger.info("removed \(swept.unpostedPhotos) unposted photo(s), \(swept.postPhotos) photo(s) of removed posts, \(swept.videos) share video(s)")
      }
    }
  }

  /// One round, at the app clock's time. `account` limits the photos looked at to one account's (tests sharing a
  /// database sweep only their own).
  static func sweep(_ app: Application, account: UUID? = nil) async throws -> Sweep {
    var swept = Sweep()
    let cutoff = app.services.clock.now().addingTimeInterval(-unpostedLifetime)
    while true {
      let removed = try await app.services.runner.write(on: app.db) { db -> Int? in
        try await SQLChallengesStore(db).removeUnposted(before: cutoff, limit: batchSize, owner: account)
      } ?? 0
      swept.unpostedPhotos += removed
      if removed < batchSize { break }
    }
    while true {
      let removed = try await app.services.runner.write(on: app.db) { db -> Int? in
        try await SQLChallengesStore(db).removePhotosOfRemovedPosts(limit: batchSize, owner: account)
      } ?? 0
      swept.postPhotos += removed
      if removed < batchSize { break }
    }
    swept.videos = try await removeVideosOfRemovedPosts(app)
    return swept
  }

  /// The post a cached challenge video belongs to, from its file name (`challenge-{post}-{fingerprint}.mp4`).
  static func post(ofVideo name: String) -> UUID? {
    let prefix = "challenge-"
    guard name.hasPrefix(prefix), name.hasSuffix(".mp4") else { return nil }
    return UUID(uuidString: String(name.dropFirst(prefix.count).prefix(36)))
  }

  /// Deletes cached share videos of posts that were revoked or deleted (after the database says so); returns how many.
  static func removeVideosOfRemovedPosts(_ app: Application) async throws -> Int {
    let folder = app.serverOptions.videosDirectory
    let files: [(name: String, post: UUID)] = try await app.threadPool.runIfActive {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).compactMap { name in post(ofVideo: name).map { (name, $0) } }
    }
    guard !files.isEmpty else { return 0 }
    var removed = 0
    for start in stride(from: 0, to: files.count, by: batchSize) {
      let batch = files[start..<min(start + batchSize, files.count)]
      let gone = try await SQLChallengesStore(app.db).removedPosts(among: Array(Set(batch.map { $0.post })))
      let doomed = batch.filter { gone.contains($0.post) }.map { $0.name }
      removed += try await app.threadPool.runIfActive {
        doomed.filter { (try? FileManager.default.removeItem(at: folder.appendingPathComponent($0))) != nil }.count
      }
    }
    return removed
  }
}
