import Foundation
import Synchronization

/// A limit per key (a client address, a member): a bucket of `capacity` that refills evenly over `period`
/// seconds, so a burst up to the capacity goes at once while a steady flood is held to the refill rate.
/// Kept per server process. Used for new guests per address and for comments per member.
final class RefillingBuckets: Sendable {
  private struct Bucket {
    var tokens: Double
    var updated: Date
  }

  private let capacity: Int
  private let period: TimeInterval
  private let buckets = Mutex([String: Bucket]())

  /// `capacity` 0 means no limit.
  init(capacity: Int, period: TimeInterval) {
    self.capacity = capacity
    self.period = period
  }

  /// Takes one from `key`'s bucket; returns the seconds to wait when it is empty (nil: go ahead).
  func take(_ key: String?, at now: Date) -> Int? {
    guard capacity > 0, let key else { return nil }
    let capacity = Double(self.capacity)
    let perSecond = capacity / period
    return buckets.withLock { buckets in
      // Full buckets carry no information; dropping them bounds the memory a flood of keys can take.
      if buckets.count > 100_000 {
        buckets = buckets.filter { $0.value.tokens + now.timeIntervalSince($0.value.updated) * perSecond < capacity }
      }
      var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
      bucket.tokens = min(capacity, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * perSecond)
      bucket.updated = now
      guard bucket.tokens >= 1 else {
        buckets[key] = bucket
        return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
      }
      bucket.tokens -= 1
      buckets[key] = bucket
      return nil
    }
  }
}
