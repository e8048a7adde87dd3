import Foundation

/// Lets one write transaction at a time reach SQLite. SQLite has a single writer anyway, and the driver's
/// busy handler retries a locked database immediately, so two connections writing at once would spin a
/// CPU instead of waiting. Queueing writes here turns that spin into an orderly wait. PostgreSQL handles
/// concurrent writers itself, so there the gate lets everything straight through.
struct DatabaseWriteGate: Sendable {
  private static let key = UUID()
  private let queue: SerialQueues?

  init(serializes: Bool) {
    queue = serializes ? SerialQueues() : nil
  }

  /// Runs `body` after any write already in progress has finished (SQLite), or at once (PostgreSQL).
  func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    guard let queue else { return try await body() }
    return try await queue.run(Self.key, body)
  }
}
