import Fluent
import FluentSQL
import Foundation
import StreamingJSON
import Vapor

/// The one path every per-game request takes: load → handle (pure rules) → save with a version check →
/// respond. The version check is the guarantee: when another request (in this process or another one
/// sharing the database) saved first, the save finds a newer version, writes nothing, and the whole step
/// runs again on fresh data. An in-process queue per game only keeps requests of one game from racing
/// needlessly. With an idempotency key, the first committed response is stored in the same transaction
/// and replayed to every retry.
struct GameRunner: Sendable {
  /// What one attempt decided.
  enum Step<Output: Sendable>: Sendable {
    /// Nothing to save (a request that changed nothing).
    case respond(Output)
    /// Save with `commit`, which returns the response, or nil when its version check found that someone
    /// else saved first (then nothing may have been written, and the attempt runs again). `transaction`
    /// false is for a commit of one statement at most, which is atomic by itself. `committed` runs once
    /// the save is durable (to remember the row that is now stored).
    case save(
      transaction: Bool = true, commit: @Sendable (any Database) async throws -> Output?, committed: (@Sendable () -> Void)? = nil)
    /// The attempt acted on a remembered row and would answer without saving (a refusal, or nothing to
    /// save): no version check would catch a row that changed since, so decide again on a fresh load.
    case recheck
    /// Load, decide and save in one transaction: `decide` reads what it needs on the transaction's
    /// connection, handles, writes, and returns the response with what to run once the save is durable
    /// (nil: a version check failed; run again). For a load of a few rows found by key: on SQLite the
    /// writer runs them where it stands with its statements kept prepared, where a read of its own is a
    /// trip to the driver's thread pool and a statement prepared again each time. A thrown refusal rolls
    /// back and ends the request.
    case decideInWrite(@Sendable (any Database) async throws -> Decided<Output>?)
  }

  /// What ``Step/decideInWrite(_:)`` returns: the response, whether anything was written, and what to run
  /// once the save is durable (to tell open pages, say). A value, so a group commit that runs the step
  /// again replaces it.
  struct Decided<Output: Sendable>: Sendable {
    let output: Output
    /// Something was written: the answer is stored for a retry whatever its status, as a save's is. An
    /// answer that wrote nothing is stored only when it is not a refusal (a refusal is judged again).
    let wrote: Bool
    let committed: (@Sendable () -> Void)?

    /// An answer that wrote nothing.
    init(_ output: Output) {
      self.output = output
      wrote = false
      committed = nil
    }

    /// An answer to a change that was written.
    init(saved output: Output, committed: (@Sendable () -> Void)?) {
      self.output = output
      wrote = true
      self.committed = committed
    }
  }

  /// How often a step is tried before the request gives up with `busy`.
  static let attempts = 12

  let clock: AppClock
  let writes: DatabaseWriteGate
  private let queues = SerialQueues()

  init(clock: AppClock, writes: DatabaseWriteGate) {
    self.clock = clock
    self.writes = writes
  }

  /// Runs `attempt` for the game `key` until its save lands. `attempt` gets the time to use and must
  /// load what it needs itself (a retry has to see the other writer's result). A thrown error (a refused
  /// move) ends the request with nothing saved.
  ///
  /// With `remembers`, the first attempt is told it may act on the row this process last loaded or
  /// committed instead of reading it (its second argument); every later attempt must load. A save on a
  /// remembered row is checked by its version like any other; an attempt that used one and would answer
  /// without saving, or refuse, returns `.recheck` instead, to be judged again on a fresh load.
  ///
  /// With an idempotency key, a key already answered replays its stored response and a key used with
  /// other parameters is refused. The response is stored in the transaction that saves the game, so a
  /// replay says exactly what was committed. A refusal is not stored: it changed nothing, so a retry is
  /// simply judged again.
  func run(
    game key: UUID, on db: any Database, idempotency: IdempotencyKey?, remembers: Bool = false,
    _ attempt: @escaping @Sendable (_ now: Date, _ mayUseRemembered: Bool) async throws -> Step<StoredResponse>
  ) async throws -> StoredResponse {
    try await queues.run(key) {
      var mayUseRemembered = remembers
      for round in 0..<Self.attempts {
        // No look-up before the first attempt: a retry whose first request committed finds its key taken
        // when it stores (or is refused by the state it left), and every such path replays below. So only
        // retries pay for the look-up, not every request.
        if round > 0, let stored = try await idempotency?.replay(on: db) { return stored }
        let now = clock.now()
        let step: Step<StoredResponse>
        do {
          step = try await attempt(now, mayUseRemembered)
        } catch {
          // A refusal may come from this very request's first attempt, committed by another server
          // between the replay check and the load (a retry that crossed over): then answer as it did.
          if let stored = try await idempotency?.replay(on: db) { return stored }
          throw error
        }
        // Whatever happens below, a further attempt loads what is stored.
        mayUseRemembered = false
        switch (step, idempotency) {
        case (.recheck, _):
          continue
        case (.respond(let response), nil):
          return response
        case (.respond(let response), let idempotency?) where response.status.code >= 300:
          return try await idempotency.replay(on: db) ?? response
        case (.respond(let response), let idempotency?):
          let stored = try await write(on: db) { db in try await idempotency.store(response, at: now, on: db) ? response : nil }
          if let stored { return stored }
        case (.save(let inTransaction, let commit, let committed), nil):
          // A single statement needs no transaction of its own; on SQLite it may share a commit with others.
          if let output = try await writes.transaction(on: db, singleStatement: !inTransaction, commit) {
            committed?()
            return output
          }
        case (.save(_, let commit, let committed), let idempotency?):
          let landed = try await write(on: db) { db -> StoredResponse? in
            guard let response = try await commit(db) else { return nil }
            // A lost race on the key means another attempt committed first: go round and replay it.
            return try await idempotency.store(response, at: now, on: db) ? response : nil
          }
          if let landed {
            committed?()
            return landed
          }
        case (.decideInWrite(let decide), let idempotency):
          let decided: Decided<StoredResponse>?
          do {
            decided = try await write(on: db) { db -> Decided<StoredResponse>? in
              guard let decided = try await decide(db) else { return nil }
              // A lost race on the key means another attempt committed first: go round and replay it.
              if let idempotency, decided.wrote || decided.output.status.code < 300, try await !idempotency.store(decided.output, at: now, on: db) {
                return nil
              }
              return decided
            }
          } catch {
            // As above: a refusal may be this very request's first attempt, committed by another server.
            if let stored = try await idempotency?.replay(on: db) { return stored }
            throw error
          }
          if let decided {
            decided.committed?()
            return decided.output
          }
        }
      }
      throw RunnerError.busy
    }
  }

  /// Runs `body` in one transaction (grouped with other waiting writes on SQLite). When `body` answers nil
  /// the transaction is rolled back and nil returned. `priority`: see ``WritePriority``.
  func write<T: Sendable>(
    on db: any Database, priority: WritePriority = .normal, _ body: @escaping @Sendable (any Database) async throws -> T?
  ) async throws -> T? {
    try await writes.transaction(on: db, priority: priority, body)
  }
}


/// Refusals of the runner itself.
enum RunnerError: APIErrorConvertible, Equatable {
  /// The game kept changing under this request; the client may retry.
  case busy

  // 503, as the game's own "busy" always was: a client retries it (the kids' page does so gently).
  var status: HTTPResponseStatus { .serviceUnavailable }
  var code: String { "busy" }
  var message: String { "That game was changing at the same moment. Please try again." }
}

/// A response as it is stored for replay: status and JSON body.
struct StoredResponse: Sendable {
  let status: HTTPResponseStatus
  let body: Data
  /// True when this is a replay of an earlier answer.
  var replayed = false

  /// Encodes `value` the way every JSON response is encoded.
  init(_ value: some Encodable, status: HTTPResponseStatus = .ok) throws {
    self.status = status
    body = Data(try StreamingJSONEncoder().encode(value))
  }

  init(status: HTTPResponseStatus, body: Data, replayed: Bool) {
    self.status = status
    self.body = body
    self.replayed = replayed
  }

  /// The HTTP response (a replay carries `Idempotent-Replayed: true`).
  var response: Response {
    var headers = HTTPHeaders()
    headers.contentType = .json
    if replayed { headers.add(name: "Idempotent-Replayed", value: "true") }
    return Response(status: status, headers: headers, body: .init(data: body))
  }
}
