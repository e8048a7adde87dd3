import Foundation
import Synchronization

/// Runs work one at a time per key (one game, one person), in arrival order, so two requests for the same
/// game cannot interleave their read-modify-write. Different keys run in parallel.
///
/// A keyed async lock rather than a chain of tasks: when nobody else holds the key, the body runs inline on
/// the caller's task, so an uncontended request pays no task creation and no thread hop (each hop is a
/// wake-up of an idle core, which costs more than the work on a small VM).
final class SerialQueues: Sendable {
  /// For every key in use: the callers waiting for it, oldest first. A key with no entry is free.
  private let waiting = Mutex<[UUID: [CheckedContinuation<Void, Never>]]>([:])

  init() {}

  /// Runs `body` after every earlier body with the same key has finished.
  func run<T: Sendable>(_ key: UUID, _ body: @Sendable () async throws -> T) async throws -> T {
    await acquire(key)
    defer { release(key) }
    return try await body()
  }

  private func acquire(_ key: UUID) async {
    let isFree = waiting.withLock { waiting in
      guard waiting[key] == nil else { return false }
      waiting[key] = []
      return true
    }
    if isFree { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let takenMeanwhile = waiting.withLock { waiting in
        guard waiting[key] != nil else {
          waiting[key] = []
          return true
        }
        waiting[key]!.append(continuation)
        return false
      }
      if takenMeanwhile { continuation.resume() }
    }
  }

  /// Hands the key to the next waiter (who then holds it), or frees it.
  private func release(_ key: UUID) {
    let next = waiting.withLock { waiting -> CheckedContinuation<Void, Never>? in
      guard var queue = waiting[key], !queue.isEmpty else {
        waiting[key] = nil
        return nil
      }
      let next = queue.removeFirst()
      waiting[key] = queue
      return next
    }
    next?.resume()
  }
}
