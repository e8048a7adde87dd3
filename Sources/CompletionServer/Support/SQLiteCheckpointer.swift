import FluentSQLiteDriver
import Foundation
import NIOPosix
import Vapor

/// Copies SQLite's write-ahead log back into the database file in the background.
///
/// Left to itself, SQLite checkpoints on the connection that commits once the log passes 1,000 pages —
/// so every few commits one writer, holding every request queued behind it, also copies a thousand pages
/// and syncs the database file. A completion that fans out to 400 followers writes about 400 pages, so on
/// the Challenges benchmark that stall came every two or three completions. Here a connection of its own,
/// on a thread of its own, runs a passive checkpoint (it never blocks a writer or a reader) a few times a
/// second, and the writers' own checkpoint is only a safety net for a log that grows past
/// ``writerFallbackPages`` anyway. Durability is unchanged: a commit is on disk in the log when it returns.
struct SQLiteCheckpointer: LifecycleHandler {
  /// How long the checkpointer rests between checkpoints.
  static let interval: Duration = .milliseconds(200)
  /// Log pages after which a committing connection checkpoints itself (SQLite's default is 1,000).
  static let writerFallbackPages = 16_000
  /// Pages of cache per connection, as SQLite's negative KiB: 32 MiB keeps a busy feed index in memory.
  static let cacheKiB = 32_768

  let path: String

  private final class Running: @unchecked Sendable {
    let lock = NSLock()
    var task: Task<Void, Never>?
    var connection: SQLiteConnection?
    var threads: NIOThreadPool?
  }

  private let running = Running()

  init(path: String) {
    self.path = path
  }

  func didBootAsync(_ application: Application) async throws {
    let app = application
    // Opened here, outside the task: a connection must be closed before it goes, and an open that a
    // cancellation interrupted would lose it.
    let threads = NIOThreadPool(numberOfThreads: 1)
    threads.start()
    let connection: SQLiteConnection
    do {
      connection = try await SQLiteConnection.open(storage: .file(path: path), threadPool: threads, logger: app.logger, on: app.eventLoopGroup.any())
    } catch {
      app.logger.warning("background checkpointing is off: \(String(reflecting: error))")
      try? await threads.shutdownGracefully()
      return
    }
    running.lock.withLock {
      running.connection = connection
      running.threads = threads
      running.task = Task {
        while !Task.isCancelled {
          try? await Task.sleep(for: Self.interval)
          guard !Task.isCancelled else { break }
          do {
            try await connection.query("PRAGMA wal_checkpoint(PASSIVE)", []) { _ in }
          } catch {
            if !Task.isCancelled { app.logger.warning("background checkpoint failed: \(String(reflecting: error))") }
          }
        }
      }
    }
  }

  func shutdownAsync(_ application: Application) async {
    let (task, connection, threads) = running.lock.withLock { (running.task, running.connection, running.threads) }
    task?.cancel()
    await task?.value
    try? await connection?.close()
    try? await threads?.shutdownGracefully()
  }
}
