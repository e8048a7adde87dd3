import Foundation
import Vapor

/// Work the server does on its own every `interval` while it runs: started when the application boots,
/// cancelled when it shuts down. A round that fails is logged, and the next one comes as usual. Several
/// server processes may run the same work at once; each job is written so that doing it twice is harmless.
struct PeriodicWork: LifecycleHandler {
  /// What the log calls it.
  let name: String
  let interval: Duration
  let round: @Sendable (Application) async throws -> Void

  private final class Running: @unchecked Sendable {
    let lock = NSLock()
    var task: Task<Void, Never>?
  }

  private let running = Running()

  init(name: String, every interval: Duration, _ round: @escaping @Sendable (Application) async throws -> Void) {
    self.name = name
    self.interval = interval
    self.round = round
  }

  func didBootAsync(_ application: Application) async throws {
    let app = application
    let (name, interval, round) = (name, interval, round)
    running.lock.withLock {
      running.task = Task {
        while !Task.isCancelled {
          try? await Task.sleep(for: interval)
          guard !Task.isCancelled else { return }
          do {
            try await round(app)
          } catch {
            app.logger.warning("\(name) failed: \(String(reflecting: error))")
          }
        }
      }
    }
  }

  /// Cancels the work and waits for a round in flight to end: the database goes away after this, and a round
  /// reaching for it then would stop the process.
  func shutdownAsync(_ application: Application) async {
    let task = running.lock.withLock { running.task }
    task?.cancel()
    await task?.value
  }
}
