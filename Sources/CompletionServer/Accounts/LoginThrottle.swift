import FluentSQL
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Vapor

/// Slows password guessing down. Every sign-in attempt is counted *before* its password is checked, so a
/// burst of attempts arriving at once is held to the same budget as a slow trickle: at most
/// ``freeFailuresPerUsername`` passwords for one username and ``freeFailuresPerAddress`` from one client
/// address are checked; each further attempt must wait, twice as long each time (up to a quarter of an hour),
/// and is answered `429` with `Retry-After` until then — even with the right password, so a guesser learns
/// nothing. A success gives its attempt back (and clears the username's record); records of quiet keys are
/// forgotten. On SQLite (one server process) the counts live in memory; on PostgreSQL they live in the
/// `login_attempts` table, so several server processes share one budget instead of each having their own.
final class LoginThrottle: Sendable {
  /// Passwords checked for one username before the delays start.
  static let freeFailuresPerUsername = 5
  /// Passwords checked from one client address (which may be many people behind one router).
  static let freeFailuresPerAddress = 20
  /// The longest wait.
  static let maxDelay: TimeInterval = 15 * 60
  /// A key with no attempt for this long starts again from nothing.
  static let forgetAfter: TimeInterval = 60 * 60

  /// One key's count (a username or an address).
  struct Record: Sendable, Equatable {
    var attempts = 0
    var lastAttempt = Date.distantPast
    var blockedUntil = Date.distantPast

    /// Seconds to wait before another attempt may start, or nil when one may start now.
    func wait(at now: Date) -> Int? {
      guard blockedUntil > now else { return nil }
      return max(1, Int(blockedUntil.timeIntervalSince(now).rounded(.up)))
    }

    /// Counts an attempt that is about to check a password. Once the free attempts are used up, each one
    /// blocks the key for a while from now on: the next attempt, however soon it arrives, waits.
    mutating func count(free: Int, at now: Date) {
      if now.timeIntervalSince(lastAttempt) > LoginThrottle.forgetAfter { self = Record() }
      attempts += 1
      lastAttempt = now
      if attempts >= free {
        blockedUntil = now.addingTimeInterval(min(LoginThrottle.maxDelay, pow(2, Double(attempts - free))))
      }
    }

    /// Gives back an attempt that turned out to be the right password.
    mutating func release(free: Int) {
      attempts = max(0, attempts - 1)
      if attempts < free { blockedUntil = .distantPast }
    }
  }

  /// An attempt counted against its keys; hand it back to ``succeeded(_:on:)`` when the password was right.
  struct Reservation: Sendable {
    let username: String
    let address: String?
  }

  private let shared: Bool
  private let records = Mutex([String: Record]())

  /// `shared`: keep the counts in the database (PostgreSQL, where several processes may serve one site).
  init(shared: Bool = false) {
    self.shared = shared
  }

  /// Counts an attempt for `username` from `address` before its password is checked; throws
  /// ``AppError/tooManyAttempts(retryAfter:)`` when either key must wait (nothing is counted then).
  func reserve(username: String, address: String?, at now: Date, on db: any Database) async throws -> Reservation {
    let keys = Self.keys(username, address)
    let wait: Int?
    if shared {
      wait = try await Self.sharedUpdate(keys: keys, on: db) { records in Self.reserve(keys: keys, in: &records, at: now) }
    } else {
      wait = records.withLock { records in
        if records.count > 100_000 { records = records.filter { now.timeIntervalSince($0.value.lastAttempt) < Self.forgetAfter } }
        return Self.reserve(keys: keys, in: &records, at: now)
      }
    }
    if let wait { throw AppError.tooManyAttempts(retryAfter: wait) }
    return Reservation(username: username, address: address)
  }

  /// The right password: the username starts again from nothing, the address gets its attempt back.
  func succeeded(_ reservation: Reservation, on db: any Database) async throws {
    let keys = Self.keys(reservation.username, reservation.address)
    let apply: @Sendable (inout [String: Record]) -> Void = { records in
      records["user:" + reservation.username] = nil
      for (key, free) in keys.dropFirst() { records[key]?.release(free: free) }
    }
    if shared {
      try await Self.sharedUpdate(keys: keys, on: db) { records in apply(&records) }
    } else {
      records.withLock { apply(&$0) }
    }
  }

  /// Both keys are checked first and counted only when neither must wait, so a refused attempt costs nothing.
  private static func reserve(keys: [(key: String, free: Int)], in records: inout [String: Record], at now: Date) -> Int? {
    if let wait = keys.compactMap({ records[$0.key]?.wait(at: now) }).max() { return wait }
    for (key, free) in keys { records[key, default: Record()].count(free: free, at: now) }
    return nil
  }

  private static func keys(_ username: String, _ address: String?) -> [(key: String, free: Int)] {
    var keys = [("user:" + username, freeFailuresPerUsername)]
    if let address { keys.append(("addr:" + address, freeFailuresPerAddress)) }
    return keys
  }

  private struct Row: Codable {
    let key: String
    let attempts: Int
    let last_attempt: Date
    let blocked_until: Date
  }

  /// Reads the keys' rows under PostgreSQL advisory locks (taken in a fixed order, so two attempts never wait
  /// on each other), lets `change` decide, and writes the rows back, all in one transaction.
  @discardableResult
  private static func sharedUpdate<T: Sendable>(
    keys: [(key: String, free: Int)], on db: any Database, _ change: @escaping @Sendable (inout [String: Record]) -> T
  ) async throws -> T {
    try await db.transaction { db in
      let sql = db.sql
      let names = keys.map(\.key).sorted()
      for name in names {
        // Two 32-bit keys: a constant of the throttle's own ("LOGI"), so other advisory locks never meet it, and the key's hash.
        try await sql.raw("SELECT pg_advisory_xact_lock(1280264009, hashtext(\(bind: name)))").run()
      }
      let rows = try await sql.select().columns("key", "attempts", "last_attempt", "blocked_until").from(LoginAttempts.schema)
        .where("key", .in, SQLBind.group(names)).all(decoding: Row.self)
      var records = [String: Record]()
      for row in rows { records[row.key] = Record(attempts: row.attempts, lastAttempt: row.last_attempt, blockedUntil: row.blocked_until) }
      let before = records
      let result = change(&records)
      for name in names where records[name] != before[name] {
        if let record = records[name] {
          try await sql.raw(
            """
            INSERT INTO \(ident: LoginAttempts.schema) (key, attempts, last_attempt, blocked_until)
            VALUES (\(bind: name), \(bind: record.attempts), \(bind: record.lastAttempt), \(bind: record.blockedUntil))
            ON CONFLICT (key) DO UPDATE SET attempts = EXCLUDED.attempts, last_attempt = EXCLUDED.last_attempt,
            blocked_until = EXCLUDED.blocked_until
            """
          ).run()
        } else {
          try await sql.delete(from: LoginAttempts.schema).where("key", .equal, SQLBind(name)).run()
        }
      }
      return result
    }
  }

  /// Forgets the rows of keys quiet for longer than ``forgetAfter`` (PostgreSQL; run with guest pruning).
  static func prune(before now: Date, on db: any Database) async throws {
    let sql = db.sql
    try await sql.delete(from: LoginAttempts.schema).where("last_attempt", .lessThan, SQLBind(now.addingTimeInterval(-forgetAfter))).run()
  }
}

/// The shared sign-in counts (used on PostgreSQL; the table exists on SQLite too, empty).
struct LoginAttempts: AsyncMigration {
  static let schema = "login_attempts"

  func prepare(on database: any Database) async throws {
    try await database.schema(Self.schema)
      .field("key", .string, .identifier(auto: false))
      .field("attempts", .int, .required)
      .field("last_attempt", .datetime, .required)
      .field("blocked_until", .datetime, .required)
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(Self.schema).delete()
  }
}

/// Password hashing and checking, a few at a time on threads of their own: bcrypt is slow on purpose, and it
/// must neither take every core nor hold up the threads the database driver and everything else use. At most
/// ``limit`` run at once and ``maxWaiting`` wait; requests beyond that are turned away (`503 busy`).
final class PasswordWork: Sendable {
  private struct State {
    var running = 0
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  let limit: Int
  let maxWaiting: Int
  /// The cost of new hashes.
  let cost: Int
  private let state = Mutex(State())
  private enum Entry { case now, wait, refuse }
  /// The threads bcrypt runs on: ``limit`` of them, started when the first password is hashed or checked.
  private let threads: NIOThreadPool
  /// Where the threads are: a pool stopped at shutdown is never started again (NIO traps on that), so a
  /// sign-in still arriving then is turned away instead.
  private enum Phase { case idle, running, stopped }
  private let phase = Mutex(Phase.idle)
  /// How many passwords have been checked so far (the sign-in throttle's tests count them).
  private let checks = Atomic<Int>(0)

  init(limit: Int = max(2, ProcessInfo.processInfo.activeProcessorCount), maxWaiting: Int = 64, cost: Int = 12) {
    self.limit = limit
    self.maxWaiting = maxWaiting
    self.cost = cost
    threads = NIOThreadPool(numberOfThreads: limit)
  }

  /// How many are waiting for a slot now.
  var waitingCount: Int { state.withLock { $0.waiting.count } }

  /// Whether a new password check would be turned away now (every slot taken and the queue full).
  var isFull: Bool { state.withLock { $0.running >= limit && $0.waiting.count >= maxWaiting } }

  /// How many passwords have been checked since the server started.
  var checkCount: Int { checks.load(ordering: .relaxed) }

  /// A new bcrypt hash of `password`, made on the hashing threads.
  func hash(_ password: String) async throws -> String {
    let cost = cost
    return try await run { try await self.onThreads { try Bcrypt.hash(password, cost: cost) } }
  }

  /// Whether `password` matches `hash`, checked on the hashing threads. Without a hash (an unknown name) it
  /// is checked against a hash nobody knows the password of, so timing does not reveal which names exist.
  func verify(_ password: String, created hash: String?) async throws -> Bool {
    try await run {
      self.checks.add(1, ordering: .relaxed)
      return try await self.onThreads { try Bcrypt.verify(password, created: hash ?? AccountController.unknownUserHash) }
    }
  }

  /// Stops the hashing threads (the app is shutting down).
  func shutdown() async {
    let wasRunning = phase.withLock { phase in
      defer { phase = .stopped }
      return phase == .running
    }
    if wasRunning { try? await threads.shutdownGracefully() }
  }

  private func onThreads<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let usable = phase.withLock { phase -> Bool in
      switch phase {
      case .idle:
        threads.start()
        phase = .running
        return true
      case .running: return true
      case .stopped: return false
      }
    }
    guard usable else { throw AppError.busy }
    return try await threads.runIfActive(body)
  }

  /// Runs `body` when a slot is free; throws ``AppError/busy`` when too many are already waiting.
  func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    let entry = state.withLock { state -> Entry in
      if state.running < limit {
        state.running += 1
        return .now
      }
      return state.waiting.count < maxWaiting ? .wait : .refuse
    }
    switch entry {
    case .refuse: throw AppError.busy
    case .wait:
      await withCheckedContinuation { continuation in
        let runNow = state.withLock { state -> Bool in
          if state.running < limit {
            state.running += 1
            return true
          }
          state.waiting.append(continuation)
          return false
        }
        if runNow { continuation.resume() }
      }
    case .now: break
    }
    defer {
      let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
        // The slot passes straight to the next in line (running stays the same), or is given back.
        if state.waiting.isEmpty {
          state.running -= 1
          return nil
        }
        return state.waiting.removeFirst()
      }
      next?.resume()
    }
    return try await body()
  }
}

/// Stops the password threads when the app shuts down.
struct PasswordWorkShutdown: LifecycleHandler {
  func shutdownAsync(_ application: Application) async {
    await application.services.passwordWork.shutdown()
  }
}
