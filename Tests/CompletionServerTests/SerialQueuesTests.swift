import Foundation
import Testing

@testable import CompletionServer

/// The per-game and per-family queues: one body at a time per key, nothing lost, errors passed on.
@Suite("Serial queues")
struct SerialQueuesTests {
  /// A counter whose read-modify-write spans a suspension: safe only if the queue serializes.
  final class Counter: @unchecked Sendable {
    var value = 0
    var running = 0
    var mostAtOnce = 0
  }

  @Test("bodies for one key never overlap, so a read-modify-write across a suspension loses nothing")
  func oneKeyIsSerial() async throws {
    let queues = SerialQueues()
    let key = UUID()
    let counter = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<200 {
        group.addTask {
          try await queues.run(key) {
            counter.running += 1
            counter.mostAtOnce = max(counter.mostAtOnce, counter.running)
            let read = counter.value
            await Task.yield()
            counter.value = read + 1
            counter.running -= 1
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(counter.value == 200)
    #expect(counter.mostAtOnce == 1)
  }

  @Test("a failing body passes its error on and frees the key for the next one")
  func errorsFreeTheKey() async throws {
    struct Refused: Error {}
    let queues = SerialQueues()
    let key = UUID()
    await #expect(throws: Refused.self) { try await queues.run(key) { throw Refused() } }
    let after = try await queues.run(key) { 42 }
    #expect(after == 42)
  }

  @Test("a key held by one body does not hold up another key")
  func keysAreIndependent() async throws {
    let queues = SerialQueues()
    let (entered, signal) = AsyncStream.makeStream(of: Void.self)
    // The body on key A waits until a body on key B has run; if B queued behind A this would never finish.
    async let a: Void = queues.run(UUID()) {
      for await _ in entered { break }
    }
    try await queues.run(UUID()) { signal.yield() }
    try await a
  }
}
