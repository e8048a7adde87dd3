import Challenges
import Fluent
import Foundation
import Vapor

/// Keeps every feed at most ``FeedSize/cap`` entries. Trimming is left out of the completion's
/// transaction (which writes one entry per follower and must stay quick); instead, now and then, feeds
/// that grew past the cap by ``FeedSize/slack`` are cut back to their newest entries, each in
/// a short write of its own. Several server processes may sweep at once: trimming twice changes nothing.
enum FeedJanitor {
  /// How often feeds are looked at.
  static let interval: Duration = .seconds(600)
  /// At most this many feeds are trimmed per sweep (the rest wait for the next one).
  static let feedsPerSweep = 500

  /// The sweep, every ``interval`` while the server runs.
  static var periodic: PeriodicWork {
    PeriodicWork(name: "feed trimming", every: interval) { _ = try await sweep($0) }
  }

  /// Trims the feeds over the cap; returns how many it trimmed.
  static func sweep(_ app: Application) async throws -> Int {
    let owners = try await SQLChallengesStore(app.db).overfullFeeds(over: FeedSize.cap + FeedSize.slack, limit: feedsPerSweep)
    for owner in owners {
      _ = try await app.services.runner.write(on: app.db) { db -> Bool? in
        try await SQLChallengesStore(db).trimFeed(of: owner, to: FeedSize.cap)
        return true
      }
    }
    return owners.count
  }
}
