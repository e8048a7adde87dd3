import Foundation
import Synchronization

/// Slows password guessing down: after a few failed sign-ins for one username, or from one client address,
/// each further attempt must wait, twice as long each time (up to a quarter of an hour), and is answered
/// `429` with `Retry-After` until then — even with the right password, so a guesser learns nothing. A
/// success clears the username's record; records of quiet keys are forgotten. Kept per server process.
final class LoginThrottle: Sendable {
  /// Failures allowed for one username before the delays start.
  static let freeFailuresPerUsername = 5
  /// Failures allowed from one client address (which may be many people behind one router).
  static let freeFailuresPerAddress = 20
  /// The longest wait.
  static let maxDelay: TimeInterval = 15 * 60
  /// A key with no failure for this long starts again from nothing.
  static let forgetAfter: TimeInterval = 60 * 60

  private struct Record {
    var failures = 0
    var lastFailure = Date.distantPast
    var blockedUntil = Date.distantPast
  }

  private let records = Mutex([String: Record]())

  /// Seconds to wait before `username` may be tried from `address` again, or nil when it may be tried now.
  func wait(username: String, address: String?, at now: Date) -> Int? {
    records.withLock { records in
      let until = Self.keys(username, address).compactMap { records[$0.key]?.blockedUntil }.max() ?? .distantPast
      guard until > now else { return nil }
      return max(1, Int((until.timeIntervalSince(now)).rounded(.up)))
    }
  }

  /// Counts a failed attempt.
  func failed(username: String, address: String?, at now: Date) {
    records.withLock { records in
      if records.count > 100_000 { records = records.filter { now.timeIntervalSince($0.value.lastFailure) < Self.forgetAfter } }
      for (key, free) in Self.keys(username, address) {
        var record = records[key] ?? Record()
        if now.timeIntervalSince(record.lastFailure) > Self.forgetAfter { record = Record() }
        record.failures += 1
        record.lastFailure = now
        if record.failures > free {
          let delay = min(Self.maxDelay, pow(2, Double(record.failures - free - 1)))
          record.blockedUntil = now.addingTimeInterval(delay)
        }
        records[key] = record
      }
    }
  }

  /// A successful sign-in: the username starts again from nothing (the address keeps its count).
  func succeeded(username: String) {
    _ = records.withLock { $0.removeValue(forKey: "user:" + username) }
  }

  private static func keys(_ username: String, _ address: String?) -> [(key: String, free: Int)] {
    var keys = [("user:" + username, freeFailuresPerUsername)]
    if let address { keys.append(("addr:" + address, freeFailuresPerAddress)) }
    return keys
  }
}

/// At most a few password hashes at a time: bcrypt is slow on purpose, and a flood of sign-ins must not
/// take every core from everyone else. Requests beyond the queue's length are turned away (`503`).
final class PasswordWork: Sendable {
  private struct State {
    var running = 0
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  let limit: Int
  let maxWaiting: Int
  private let state = Mutex(State())
  private enum Entry { case now, wait, refuse }

  init(limit: Int = max(2, ProcessInfo.processInfo.activeProcessorCount), maxWaiting: Int = 64) {
    self.limit = limit
    self.maxWaiting = maxWaiting
  }

  /// How many are waiting for a slot now.
  var waitingCount: Int { state.withLock { $0.waiting.count } }

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
