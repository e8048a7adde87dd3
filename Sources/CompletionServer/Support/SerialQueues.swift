import Foundation

/// Runs work one at a time per key (one game, one person), in arrival order, so two requests for the same
/// game cannot interleave their read-modify-write. Different keys run in parallel.
actor SerialQueues {
  private var tails: [UUID: Task<Void, Never>] = [:]

  /// Runs `body` after every earlier body with the same key has finished.
  func run<T: Sendable>(_ key: UUID, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let previous = tails[key]
    // Actors are re-entrant: chain onto the previous task instead of awaiting inline.
    let work = Task<T, any Error> {
      await previous?.value
      return try await body()
    }
    let tail = Task<Void, Never> { _ = await work.result }
    tails[key] = tail
    let result = await work.result
    if tails[key] == tail { tails[key] = nil }
    return try result.get()
  }
}
