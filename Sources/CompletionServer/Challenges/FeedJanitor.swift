import FluentSQL
import Foundation
import Vapor

/// Keeps every feed at most ``ChallengeStore/feedCap`` entries. Trimming is left out of the completion's
/// transaction (which writes one entry per follower and must stay quick); instead, now and then, feeds
/// that grew past the cap by ``ChallengeStore/feedSlack`` are cut back to their newest entries, each in
/// a short write of its own. Several server processes may sweep at once: trimming twice changes nothing.
struct FeedJanitor: LifecycleHandler {
  /// How often feeds are looked at.
  static let interval: Duration = .seconds(600)
  /// At most this many feeds are trimmed per sweep (the rest wait for the next one).
  static let feedsPerSweep = 500

  private final class Running: @unchecked Sendable {
    let lock = NSLock()
    var task: Task<Void, Never>?
  }

  private let running = Running()

  func didBootAsync(_ application: Application) async throws {
    let app = application
    running.lock.withLock {
      running.task = Task {
        while !Task.isCancelled {
          try? await Task.sleep(for: Self.interval)
          guard !Task.isCancelled else { return }
          do {
            _ = try await Self.sweep(app)
          } catch {
            app.logger.warning("feed trimming failed: \(String(reflecting: error))")
          }
        }
      }
    }
  }

  func shutdownAsync(_ application: Application) async {
    running.lock.withLock { running.task?.cancel() }
  }

  /// Trims the feeds over the cap; returns how many it trimmed.
  static func sweep(_ app: Application) async throws -> Int {
    let owners = try await ChallengeStore.overfullFeeds(limit: feedsPerSweep, on: ChallengeStore.sql(app.db))
    for owner in owners {
      _ = try await app.services.runner.write(on: app.db) { db -> Bool? in
        try await ChallengeStore.trimFeed(owner, on: ChallengeStore.sql(db))
        return true
      }
    }
    return owners.count
  }
}
