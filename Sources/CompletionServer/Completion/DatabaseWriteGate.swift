import Fluent
import FluentSQL
import Foundation
import Synchronization

/// How writes reach the database.
///
/// SQLite has one writer, and with `synchronous=FULL` every commit waits for the disk. So on SQLite the
/// writes that are waiting are committed *together*: the first waiting request becomes the leader, opens
/// one transaction on the writer's own connection (``SQLiteWriter``), runs every queued write in it (one
/// that fails or loses its version check is undone alone), commits once — one sync for the whole group —
/// and only then tells each caller its result. A write acknowledged to a client is therefore on disk, and the cost of
/// the sync is shared by everyone who was waiting. PostgreSQL handles concurrent writers (and groups its
/// own commits), so there each write is simply its own transaction.
struct DatabaseWriteGate: Sendable {
  /// How writes are let through.
  enum Mode {
    /// Writes waiting together share one transaction and one sync, on this connection (SQLite).
    case groupCommit(SQLiteWriter)
    /// One write transaction at a time, on this connection (SQLite, for measuring what grouping saves).
    case oneAtATime(SQLiteWriter)
    /// Every write is its own transaction, concurrently (PostgreSQL).
    case concurrent
  }

  private let group: GroupCommit?
  /// Normal (request) writes let through so far, on every database.
  private let requests = RequestCount()
  /// Where committed ledger entries and open write transactions are reported (nil: nowhere).
  let metrics: ServerMetrics?

  init(mode: Mode, metrics: ServerMetrics? = nil) {
    self.metrics = metrics
    switch mode {
    case .groupCommit(let writer): group = GroupCommit(maxGroup: .max, writer: writer)
    case .oneAtATime(let writer): group = GroupCommit(maxGroup: 1, writer: writer)
    case .concurrent: group = nil
    }
  }

  /// Groups committed and writes in them so far (nil without group commit).
  var groupCommitStats: (groups: Int, writes: Int)? { group?.stats.withLock { $0 } }
  /// The connection groups commit on (nil without group commit).
  var writer: SQLiteWriter? { group?.writer }
  /// Writes queued for the writer and not yet in a group (nil without group commit).
  var waiting: (normal: Int, background: Int)? { group?.waiting }
  /// Normal (request) writes this process let through so far: the feed copier paces itself by whether this moved.
  var requestWrites: Int { requests.value.load(ordering: .relaxed) }

  /// Runs `body` atomically and durably: its writes commit together or not at all. When `body` returns nil
  /// (a lost version check) or throws, nothing it wrote stays, and the nil or the error is passed on.
  /// `singleStatement` says that `body` writes with one statement at most, which is atomic by itself: it
  /// then needs no savepoint in a group, and no transaction of its own when it commits alone.
  ///
  /// `priority` ``WritePriority/background`` is for work nobody waits on (the feed copier's batches): on SQLite it
  /// runs in a group of its own, only when no other write is waiting (see ``GroupCommit``); on PostgreSQL every
  /// write is its own transaction anyway.
  func transaction<T: Sendable>(
    on db: any Database, singleStatement: Bool = false, priority: WritePriority = .normal,
    _ body: @escaping @Sendable (any Database) async throws -> T?
  ) async throws -> T? {
    guard let metrics else { return try await unmeasured(on: db, singleStatement: singleStatement, priority: priority, body) }
    // The ledger entries `body` records are counted only once its transaction has committed.
    let tally = LedgerTally()
    metrics.writeTransaction(1)
    defer { metrics.writeTransaction(-1) }
    let result = try await unmeasured(on: db, singleStatement: singleStatement, priority: priority) { db in
      // A group may run its writes twice (see GroupCommit): count only the run that commits.
      tally.reset()
      return try await LedgerTally.$current.withValue(tally) { try await body(db) }
    }
    if result != nil { metrics.ledgerCommitted(tally.all) }
    return result
  }

  private func unmeasured<T: Sendable>(
    on db: any Database, singleStatement: Bool, priority: WritePriority,
    _ body: @escaping @Sendable (any Database) async throws -> T?
  ) async throws -> T? {
    if priority == .normal { requests.value.add(1, ordering: .relaxed) }
    if let group { return try await group.submit(on: db, singleStatement: singleStatement, priority: priority, body) }
    if singleStatement { return try await body(db) }
    do {
      return try await db.transaction { db in
        guard let result = try await body(db) else { throw RolledBack() }
        return result
      }
    } catch is RolledBack {
      return nil
    }
  }
}

/// A count shared by every copy of the gate.
private final class RequestCount: Sendable {
  let value = Atomic<Int>(0)
}

/// Whose turn a write takes on SQLite's one writer.
enum WritePriority: Sendable {
  /// Joins the next group with every other write waiting (a request's write).
  case normal
  /// Work nobody is waiting on: runs in a group of its own, and only when no normal write waits, so a request's
  /// write waits at most for the one background write in flight, never for a queue of them or inside their group.
  case background
}

/// Leader-follower group commit (see ``DatabaseWriteGate``).
///
/// Background writes (``WritePriority/background``) wait in a queue of their own and run one per group, when no
/// normal write waits. A pooled write that finds SQLite's write lock taken sleeps in SQLite's busy handler
/// (1, 2, 5, 10, 15, 20, 25 ms… between tries), so with the feed copier holding the writer half the time such a
/// write took 35–56 ms at p99; queued here, a write waits its turn without sleeping, behind one batch at most.
final class GroupCommit: Sendable {
  /// A queued write: runs inside the group's transaction and reports how it went once the group committed.
  private struct Job: Sendable {
    /// Runs the write; false means undo it (its savepoint is rolled back).
    let run: @Sendable (any Database) async -> Bool
    /// One statement at most: atomic by itself, so it needs no savepoint of its own.
    let singleStatement: Bool
    /// Hands the caller its result, or the commit's error.
    let finish: @Sendable ((any Error)?) -> Void
  }

  private struct State {
    var pending: [Job] = []
    /// Background writes, oldest first (see ``WritePriority/background``).
    var background: [Job] = []
    /// Groups of normal writes committed while the oldest background write waited.
    var passedOver = 0
    var leading = false

    var isEmpty: Bool { pending.isEmpty && background.isEmpty }
  }

  /// Groups of normal writes a background write lets go first before it runs anyway: a steady stream of
  /// requests slows the copier down but never stops it.
  static let backgroundPatience = 16

  private let state = Mutex(State())
  /// The most writes one commit takes (1: no grouping, each write commits alone, one at a time).
  private let maxGroup: Int
  /// The connection every group runs on.
  let writer: SQLiteWriter

  init(maxGroup: Int, writer: SQLiteWriter) {
    self.maxGroup = max(1, maxGroup)
    self.writer = writer
  }

  /// Counts groups and writes, for the benchmark's report.
  let stats = Mutex<(groups: Int, writes: Int)>((0, 0))

  /// Writes queued and not yet taken into a group, normal and background.
  var waiting: (normal: Int, background: Int) {
    state.withLock { ($0.pending.count, $0.background.count) }
  }

  /// Queues `body` and waits until the group it joined has committed.
  func submit<T: Sendable>(
    on db: any Database, singleStatement: Bool, priority: WritePriority = .normal,
    _ body: @escaping @Sendable (any Database) async throws -> T?
  ) async throws -> T? {
    let outcome = Outcome<T>()
    let job = Job(
      run: { db in
        do {
          let value = try await body(db)
          outcome.provisional(.success(value))
          return value != nil
        } catch {
          outcome.provisional(.failure(error))
          return false
        }
      },
      singleStatement: singleStatement,
      finish: { commitError in outcome.settle(commitError) })
    let leads = state.withLock { state -> Bool in
      switch priority {
      case .normal: state.pending.append(job)
      case .background: state.background.append(job)
      }
      if state.leading { return false }
      state.leading = true
      return true
    }
    if leads { await drain(on: db) }
    return try await outcome.value()
  }

  /// Commits the waiting writes as one group. A leader whose own write is done does not keep serving
  /// later arrivals (its client would wait on strangers): when more are waiting, a task takes over.
  private func drain(on db: any Database, handOver: Bool = true) async {
    while true {
      let batch = state.withLock { state -> [Job] in
        let batch = Self.nextGroup(&state, maxGroup: maxGroup)
        if batch.isEmpty { state.leading = false }
        return batch
      }
      if batch.isEmpty { return }
      await commit(batch, on: db)
      if handOver {
        let more = state.withLock { state -> Bool in
          if state.isEmpty { state.leading = false }
          return !state.isEmpty
        }
        if more { Task { await self.drain(on: db, handOver: false) } }
        return
      }
    }
  }

  /// The next group: the normal writes waiting, or, when none waits (or the oldest background write has let
  /// ``backgroundPatience`` groups go first), one background write alone.
  private static func nextGroup(_ state: inout State, maxGroup: Int) -> [Job] {
    if !state.background.isEmpty, state.pending.isEmpty || state.passedOver >= backgroundPatience {
      state.passedOver = 0
      return [state.background.removeFirst()]
    }
    let batch = Array(state.pending.prefix(maxGroup))
    state.pending.removeFirst(batch.count)
    if !batch.isEmpty, !state.background.isEmpty { state.passedOver += 1 }
    return batch
  }

  /// Runs `batch` in one transaction on the writer's connection and tells every caller how it went.
  private func commit(_ batch: [Job], on db: any Database) async {
    stats.withLock {
      $0.groups += 1
      $0.writes += batch.count
    }
    let tx = SQLiteWriterDatabase(writer: writer, context: db.context)
    let eventLoop = db.eventLoop
    // First without savepoints: nearly always every write lands. If one does not, everything is undone and
    // the group runs again with a savepoint per write (below). So a write may run twice: it must make
    // anything it inserts (a Fluent model, which refuses to be created twice) inside its body, and nothing
    // it did is kept or reported until its group commits. A test runs new games beside writes that never land.
    do {
      try await writer.begin(on: eventLoop)
      var landed = true
      for job in batch {
        guard await job.run(tx) else {
          landed = false
          break
        }
      }
      if landed {
        try await writer.commit(on: eventLoop)
        for job in batch { job.finish(nil) }
        return
      }
      writer.rollback()
      // A group of one has its answer: its write was undone (a lost version check, or the error it threw).
      if batch.count == 1 {
        batch[0].finish(nil)
        return
      }
      try await writer.begin(on: eventLoop)
      for job in batch {
        // A single statement that fails or matches nothing leaves nothing behind: no savepoint needed.
        if job.singleStatement {
          _ = await job.run(tx)
          continue
        }
        _ = try writer.run("SAVEPOINT group_write", [], inTransaction: true)
        if !(await job.run(tx)) { _ = try writer.run("ROLLBACK TO SAVEPOINT group_write", [], inTransaction: true) }
        _ = try writer.run("RELEASE SAVEPOINT group_write", [], inTransaction: true)
      }
      try await writer.commit(on: eventLoop)
      for job in batch { job.finish(nil) }
    } catch {
      writer.rollback()
      for job in batch { job.finish(error) }
    }
  }
}

/// A write transaction that ran alone and was undone (its body answered nil).
private struct RolledBack: Error {}

/// One write's result: known provisionally when it ran, handed out once its group committed.
private final class Outcome<T: Sendable>: Sendable {
  private struct State {
    var provisional: Result<T?, any Error>?
    var final: Result<T?, any Error>?
    var waiter: CheckedContinuation<T?, any Error>?
  }

  private let state = Mutex(State())

  func provisional(_ result: Result<T?, any Error>) {
    state.withLock { $0.provisional = result }
  }

  /// The group committed (`commitError` nil) or failed: the result becomes final.
  func settle(_ commitError: (any Error)?) {
    let (waiter, result) = state.withLock { state -> (CheckedContinuation<T?, any Error>?, Result<T?, any Error>) in
      let result: Result<T?, any Error> =
        if let commitError { .failure(commitError) } else { state.provisional ?? .success(nil) }
      state.final = result
      defer { state.waiter = nil }
      return (state.waiter, result)
    }
    waiter?.resume(with: result)
  }

  /// Waits for the final result.
  func value() async throws -> T? {
    try await withCheckedThrowingContinuation { continuation in
      let ready = state.withLock { state -> Result<T?, any Error>? in
        if let final = state.final { return final }
        state.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(with: ready) }
    }
  }
}
