import Challenges
import Fluent
import Foundation
import NIOConcurrencyHelpers
import Vapor

/// Copies posts waiting in the feed outbox into their followers' feeds (``FanOut/copyLater``): a batch of
/// followers per short background write through the one writer (``WritePriority/background``: it waits while any
/// other write waits and shares no group with them, so a request's write waits for one batch in flight at most),
/// and a completion's own transaction never grows with its author's followers. Until a post is copied, followers
/// merge it in when they read, so it is in their feeds from the moment the completion commits.
///
/// Woken after each completion, and every second anyway: a post another process wrote (PostgreSQL), or that a
/// killed process left half copied, is picked up where the outbox says it stopped. Several processes may copy
/// at once; the outbox's compare-and-set lets one batch land once.
final class FeedFanOut: LifecycleHandler, Sendable {
  /// How often the outbox is looked at without being woken.
  static let sweepInterval: Duration = .seconds(1)
  /// Batches written in one drain at most, so a drain always ends; the next wake goes on.
  static let batchesPerDrain = 4096
  /// How long the copier rests after a batch, as a multiple of the time the batch took: while requests write,
  /// and when nothing else writes. Each copy dirties a page of another follower's feed, so copying at full
  /// speed keeps the disk busy with pages that requests' commits then queue behind: with the copier holding
  /// the writer half the time, a plain write's p99 while 5,000-follower accounts posted was 4.3–8.5 ms against
  /// 3–4 ms without copying; resting 8 times as long, 3.4–5.1 ms; 24 times, 4.0–4.1 ms, and 3.6 ms at 400
  /// followers (`completionkit-bench fanout`, docs/PERFORMANCE.md). While requests write, a batch of 64 then
  /// takes about 75 ms, so a 5,000-follower post is copied in about 6 s; followers merge it on read meanwhile.
  static let pause = (busy: 24, idle: 1)

  private let wakes: AsyncStream<Void>
  private let wake: AsyncStream<Void>.Continuation
  private let running = NIOLockedValueBox<[Task<Void, Never>]>([])

  init() {
    (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
  }

  /// Asks for a drain soon (a completion may have left a post waiting). Cheap: wakes coalesce.
  func nudge() { wake.yield() }

  func didBootAsync(_ application: Application) async throws {
    let app = application
    let (wakes, wake) = (wakes, wake)
    let ticker = Task {
      while !Task.isCancelled {
        try? await Task.sleep(for: Self.sweepInterval)
        wake.yield()
      }
    }
    // One drain at a time in this process: wakes that come while it runs are one more round after it.
    let drainer = Task {
      for await _ in wakes {
        do {
          _ = try await Self.drain(app, paced: true)
        } catch {
          app.logger.warning("feed fan-out failed: \(String(reflecting: error))")
        }
      }
    }
    running.withLockedValue { $0 = [ticker, drainer] }
  }

  /// Stops the copier and waits for a batch in flight to end: the database goes away after this, and a batch
  /// reaching for it then would stop the process. What was not copied waits in the outbox for the next start.
  func shutdownAsync(_ application: Application) async {
    wake.finish()
    let tasks = running.withLockedValue { $0 }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }

  /// Copies waiting posts, oldest first, until none waits (or ``batchesPerDrain`` batches were written);
  /// returns the followers' feeds it copied into. `paced`: after each batch, rest ``pause`` times as long as it
  /// took — 24 times while requests write (the copier then holds the one writer about a 25th of the time),
  /// once when none wrote since the last batch began (about half the time) — so completions and every other
  /// write keep their turns and their disk; a post not yet copied is merged into its followers' reads meanwhile.
  @discardableResult
  static func drain(_ app: Application, paced: Bool = false) async throws -> Int {
    var copied = 0
    var batches = 0
    let writes = app.services.runner.writes
    var requestsSeen = writes.requestWrites
    while batches < batchesPerDrain, !Task.isCancelled {
      let waiting = try await SQLChallengesStore(app.db).waitingFanOuts(limit: 16)
      guard !waiting.isEmpty else { break }
      for post in waiting {
        var more = true
        while more, batches < batchesPerDrain, !Task.isCancelled {
          let started = ContinuousClock.now
          // Background: a batch waits while any other write waits, and never shares their group.
          let outcome = try await app.services.runner.write(on: app.db, priority: .background) { db in
            try await copyBatch(of: post, in: SQLChallengesStore(db)) { (writes.waiting?.normal ?? 0) > 0 }
          }
          batches += 1
          if paced {
            let requests = writes.requestWrites
            try? await Task.sleep(for: rest(after: started.duration(to: .now), requests: (requestsSeen, requests)))
            requestsSeen = requests
          }
          switch outcome {
          case .more(let count)?: copied += count
          case .finished(let count)?:
            copied += count
            more = false
          case .nothingWaiting?, nil: more = false
          }
        }
        if Task.isCancelled { return copied }
      }
    }
    return copied
  }

  /// How long to rest after a batch that took `batch`, given the request writes counted when the last batch began
  /// and now: ``pause`` busy when requests wrote between the two (its rest included), idle when none did.
  static func rest(after batch: Duration, requests: (before: Int, now: Int)) -> Duration {
    batch * (requests.now != requests.before ? pause.busy : pause.idle)
  }

  /// Copies up to ``FanOutBatch/size`` followers in steps of ``FanOutBatch/step``, in the caller's one transaction,
  /// and stops after a step when `requestWaiting` says a request's write queues for the writer: that write then
  /// waits for one step and this batch's commit, not for the whole batch (on SQLite's one writer). Each step
  /// moves the outbox by compare-and-set as a whole batch does, so stopping anywhere leaves it consistent.
  static func copyBatch(
    of post: UUID, in store: SQLChallengesStore, requestWaiting: @Sendable () -> Bool
  ) async throws -> FanOutBatch.Outcome {
    var copied = 0
    while true {
      switch try await store.copyFanOutBatch(of: post, size: min(FanOutBatch.step, FanOutBatch.size - copied)) {
      case .finished(let count): return .finished(copied: copied + count)
      case .nothingWaiting: return copied == 0 ? .nothingWaiting : .more(copied: copied)
      case .more(let count):
        copied += count
        if copied >= FanOutBatch.size || requestWaiting() { return .more(copied: copied) }
      }
    }
  }
}
