import CompletionAPI
import Fluent
import FluentSQL
import FluentSQLiteDriver
import Foundation
import Synchronization
import Testing
import Vapor

@testable import CompletionServer

/// Writes that wait together commit together on SQLite; each one still succeeds or fails alone.
@Suite("Group commit", .serialized)
struct GroupCommitTests {
  struct Boom: Error {}

  /// A server on a SQLite file of its own (group commit runs on a file, not in memory), removed afterwards.
  static func withFileApp(_ body: (TestClient, Application) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-group-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    try await withTestApp(options: options, body)
  }

  @Test("Concurrent writes on a SQLite file: the kept ones all land, a failed or lost one is undone alone")
  func concurrentWritesLandOrRollBackAlone() async throws {
    try await Self.withFileApp { _, app in
      let runner = app.services.runner
      let db = app.db
      let prefix = "group-\(UUID().uuidString.prefix(8))"
      // Every third write throws after writing, every third answers nil (a lost version check) after writing.
      let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
        for index in 0..<30 {
          group.addTask {
            do {
              let kept = try await runner.write(on: db) { db -> Int? in
                try await User(displayName: "\(prefix)-\(index)", isGuest: true).create(on: db)
                if index % 3 == 1 { throw Boom() }
                return index % 3 == 2 ? nil : index
              }
              return (index, kept == nil ? "lost" : "kept")
            } catch is Boom {
              return (index, "failed")
            }
          }
        }
        return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
      }
      for index in 0..<30 {
        #expect(results[index] == ["kept", "failed", "lost"][index % 3], "write \(index)")
      }
      let stored = try await User.query(on: db).filter(\.$displayName ~~ prefix).all().map(\.displayName)
      #expect(Set(stored) == Set((0..<30).filter { $0 % 3 == 0 }.map { "\(prefix)-\($0)" }))
      // Single statements share groups without savepoints: a duplicate name fails alone.
      let taken = "\(prefix)-taken"
      try await User(displayName: taken, username: taken, isGuest: false).create(on: db)
      let singles = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
        for index in 0..<12 {
          group.addTask {
            let name = index % 4 == 0 ? taken : "\(prefix)-single-\(index)"
            do {
              let kept = try await runner.writes.transaction(on: db, singleStatement: true) { db -> Bool? in
                try await User(displayName: name, username: name, isGuest: false).create(on: db)
                return true
              }
              return (index, kept == true)
            } catch {
              return (index, false)
            }
          }
        }
        return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
      }
      for index in 0..<12 { #expect(singles[index] == (index % 4 != 0), "single \(index)") }
      let singleNames = try await User.query(on: db).filter(\.$displayName ~~ "\(prefix)-single-").count()
      #expect(singleNames == 9)
      let stats = app.services.runner.writes.groupCommitStats
      #expect(stats?.writes ?? 0 >= 30)
    }
  }

  @Test("A background write lets the writes waiting beside it go first, and runs in a group of its own", .timeLimit(.minutes(2)))
  func backgroundWriteLetsWaitingWritesGoFirst() async throws {
    try await Self.withFileApp { _, app in
      let runner = app.services.runner
      let db = app.db
      let ran = Ran()
      let (gate, open) = AsyncStream.makeStream(of: Void.self)
      let groupsBefore = try #require(runner.writes.groupCommitStats).groups
      // A first write holds the writer until the others are queued behind it.
      async let first = runner.write(on: db) { db -> Bool? in
        ran.add("first")
        for await _ in gate { break }
        try await User(displayName: "held", isGuest: true).create(on: db)
        return true
      }
      try await waitUntil("the first write runs") { ran.names.contains("first") }
      async let background = runner.write(on: db, priority: .background) { db -> Bool? in
        ran.add("background")
        try await User(displayName: "copied", isGuest: true).create(on: db)
        return true
      }
      try await waitUntil("the background write waits") { runner.writes.waiting?.background == 1 }
      // A request's write arrives after the background one, while it is still waiting.
      async let request = runner.write(on: db) { db -> Bool? in
        ran.add("request")
        try await User(displayName: "asked", isGuest: true).create(on: db)
        return true
      }
      try await waitUntil("the other write waits") { runner.writes.waiting?.normal == 1 }
      open.yield()
      open.finish()
      let landed = try await [first, background, request]
      #expect(landed == [true, true, true])
      #expect(ran.names == ["first", "request", "background"])
      // Three groups: the background write shared none, so the request never waited for its statements.
      #expect(try #require(runner.writes.groupCommitStats).groups - groupsBefore == 3)
      #expect(try await User.query(on: db).filter(\.$displayName ~~ ["held", "copied", "asked"]).count() == 3)
    }
  }

  @Test("The writer's kept statements stay prepared: changes that bind new values re-prepare none of them")
  func keptStatementsAreNotPreparedAgain() async throws {
    try await Self.withFileApp { client, app in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      let dig = try #require(try await ProjectsAPITests.task(client, "Dig", in: garden).task)
      let sow = try #require(try await ProjectsAPITests.task(client, "Sow", in: garden).task)
      // Each toggle binds another task, state and time (the last one finishes the project and records it).
      for (index, task) in [dig, sow, dig, sow, dig, sow].enumerated() {
        #expect(try await ProjectsAPITests.toggle(client, task.id, index % 4 < 2).status == .ok)
      }
      let writer = try #require(app.services.runner.writes.writer)
      // SQLite's own list of the connection's statements (the `sqlite_stmt` table): how often each was prepared again.
      let statements = try writer.run("SELECT sql, reprep, run FROM sqlite_stmt", [])
      var ranAgain = 0
      for row in statements {
        guard case .integer(let runs) = row.value("run"), runs > 1 else { continue }
        ranAgain += 1
        #expect(row.value("reprep") == .integer(0), "\(row.value("sql").map { "\($0)" } ?? "")")
      }
      #expect(ranAgain >= 4)  // the toggle's load, task, list and undo statements at least
    }
  }

  @Test("A background write is not held back for ever: it runs after a bounded number of other groups", .timeLimit(.minutes(2)))
  func backgroundWriteIsNotStarved() async throws {
    try await Self.withFileApp { _, app in
      let runner = app.services.runner
      let db = app.db
      let ran = Ran()
      let (gate, open) = AsyncStream.makeStream(of: Void.self)
      async let first = runner.write(on: db) { _ -> Bool? in
        ran.add("first")
        for await _ in gate { break }
        return true
      }
      try await waitUntil("the first write runs") { ran.names.contains("first") }
      async let background = runner.write(on: db, priority: .background) { _ -> Bool? in
        ran.add("background")
        return true
      }
      try await waitUntil("the background write waits") { runner.writes.waiting?.background == 1 }
      // Every write queues the next before its group ends: without a bound, another write would always be waiting.
      let patience = GroupCommit.backgroundPatience
      struct Next: Sendable { let task: Task<Void, any Error>? }
      @Sendable func chain(_ index: Int) async throws {
        let next = try await runner.write(on: db) { _ -> Next? in
          ran.add("request")
          guard index < patience * 2 else { return Next(task: nil) }
          let task = Task { try await chain(index + 1) }
          try await waitUntil("the next write waits") { runner.writes.waiting?.normal != 0 }
          return Next(task: task)
        }
        try await next?.task?.value
      }
      async let requests: Void = chain(0)
      try await waitUntil("the other write waits") { runner.writes.waiting?.normal == 1 }
      open.yield()
      open.finish()
      _ = try await (first, background, requests)
      let names = ran.names
      let position = try #require(names.firstIndex(of: "background"))
      #expect(position <= 1 + patience, "ran after \(position - 1) groups of other writes")
      #expect(names.filter { $0 == "request" }.count == patience * 2 + 1)
    }
  }

  @Test("When a group runs its writes again (one did not land), each new cryptogram game is still made once")
  func groupRunAgainCreatesEachGameOnce() async throws {
    try await Self.withFileApp { client, app in
      let request = NewCryptogramGameRequest(mode: "random", length: .short, timeZone: "UTC")
      #expect(try await client.send(.POST, "/api/cryptogram/games", json: request).status == .ok)
      let runner = app.services.runner
      let db = app.db
      // New games and writes that never land, all at once: the groups they share are run a second time.
      let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
        for index in 0..<24 {
          group.addTask {
            if index % 2 == 0 { return try await client.send(.POST, "/api/cryptogram/games", json: request).status == .ok }
            // Writes that never land, one after another for as long as the new games are being made.
            var allLost = true
            for round in 0..<40 {
              let landed = try await runner.write(on: db) { db -> Int? in
                try await User(displayName: "lost-\(index)-\(round)", isGuest: true).create(on: db)
                return nil
              }
              allLost = allLost && landed == nil
            }
            return allLost
          }
        }
        return try await group.reduce(into: [Bool]()) { $0.append($1) }
      }
      #expect(answers.allSatisfy { $0 })
      #expect(try await CryptogramGame.query(on: db).count() == 13)
      #expect(try await User.query(on: db).filter(\.$displayName ~~ "lost-").count() == 0)
    }
  }
}

/// The connection group commit writes on: values go in and come back as the driver's would, errors are
/// the driver's kind, SQLite's own end of a transaction is never written past, and a write lock held
/// elsewhere is waited for.
@Suite("SQLite writer")
struct SQLiteWriterTests {
  private let eventLoop = MultiThreadedEventLoopGroup.singleton.any()

  /// A writer on a new file with one table, and the file's folder; closes it and removes the folder after.
  private func withWriter(_ body: (SQLiteWriter) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-writer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let writer = SQLiteWriter(path: folder.appendingPathComponent("db.sqlite").path, synchronous: "FULL")
    do {
      _ = try writer.run("PRAGMA journal_mode=WAL", [])
      _ = try writer.run("CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT UNIQUE, b BLOB)", [])
      try await body(writer)
    } catch {
      await writer.close()
      throw error
    }
    await writer.close()
  }

  @Test("Values round-trip: integers, reals, text (any Unicode), blobs and NULL, with their column names")
  func valuesRoundTrip() async throws {
    try await withWriter { writer in
      let text = "Grüße 👨‍👩‍👧 \u{0301}"
      var blob = ByteBuffer()
      blob.writeBytes([0, 1, 2, 255])
      try await writer.begin(on: eventLoop)
      _ = try writer.run(
        "INSERT INTO t (id, i, f, s, b) VALUES (?1, ?2, ?3, ?4, ?5)", [.integer(1), .integer(Int(Int64.min)), .float(0.1), .text(text), .blob(blob)],
        inTransaction: true)
      _ = try writer.run("INSERT INTO t (id, i, f, s, b) VALUES (?1, ?2, ?3, ?4, ?5)", [.integer(2), .null, .null, .null, .null], inTransaction: true)
      try await writer.commit(on: eventLoop)
      let rows = try writer.run("SELECT id, i, f, s, b FROM t ORDER BY id", [])
      #expect(rows.count == 2)
      #expect(rows[0].columns == ["id", "i", "f", "s", "b"])
      #expect(rows[0].value("i") == .integer(Int(Int64.min)))
      #expect(rows[0].value("f") == .float(0.1))
      #expect(rows[0].value("s") == .text(text))
      #expect(rows[0].value("b") == .blob(blob))
      #expect(rows[1].values == [.integer(2), .null, .null, .null, .null])
      #expect(rows[0].value("missing") == nil)
    }
  }

  @Test("Its connection has the settings durability and integrity rely on, the same as the driver's pooled ones get")
  func settings() async throws {
    try await withWriter { writer in
      let expected: [String: SQLiteData] = [
        "synchronous": .integer(2),  // FULL
        "foreign_keys": .integer(1),
        "wal_autocheckpoint": .integer(SQLiteCheckpointer.writerFallbackPages),
        "cache_size": .integer(-SQLiteCheckpointer.cacheKiB),
        "temp_store": .integer(2),  // MEMORY
        "busy_timeout": .integer(Int(SQLiteWriter.lockWait)),
      ]
      #expect(SQLiteWriter.connectionSettings(synchronous: "FULL").count == expected.count)
      for (name, value) in expected {
        let row = try writer.run("PRAGMA \(name)", []).first
        #expect(row?.values == [value], "\(name)")
      }
      let normal = SQLiteWriter(path: writer.path, synchronous: "NORMAL")
      let synchronous = try normal.run("PRAGMA synchronous", []).first
      #expect(synchronous?.values == [.integer(1)])
      await normal.close()
    }
  }

  @Test("A broken rule is a constraint failure, as Fluent knows it; a rolled-back transaction keeps nothing")
  func errorsAndRollback() async throws {
    try await withWriter { writer in
      try await writer.begin(on: eventLoop)
      _ = try writer.run("INSERT INTO t (id, s) VALUES (?1, ?2)", [.integer(1), .text("a")], inTransaction: true)
      #expect {
        _ = try writer.run("INSERT INTO t (id, s) VALUES (?1, ?2)", [.integer(2), .text("a")], inTransaction: true)
      } throws: { ($0 as? any DatabaseError)?.isConstraintFailure == true }
      // The failed statement was undone alone; the transaction goes on.
      _ = try writer.run("INSERT INTO t (id, s) VALUES (?1, ?2)", [.integer(3), .text("b")], inTransaction: true)
      writer.rollback()
      #expect(!writer.inTransaction)
      #expect(try writer.run("SELECT count(*) AS n FROM t", [])[0].value("n") == .integer(0))
      #expect(throws: SQLiteWriterError.self) { try writer.run("SELEKT 1", []) }
    }
  }

  @Test("When SQLite ends the transaction itself, a further statement of the group is refused, not committed alone")
  func transactionEndedBySQLite() async throws {
    try await withWriter { writer in
      _ = try writer.run("INSERT INTO t (id, s) VALUES (1, 'taken')", [])
      try await writer.begin(on: eventLoop)
      _ = try writer.run("INSERT INTO t (id, s) VALUES (2, 'kept?')", [], inTransaction: true)
      // OR ROLLBACK: the conflict ends the whole transaction, as a full disk or an I/O error does.
      #expect(throws: SQLiteWriterError.self) {
        try writer.run("INSERT OR ROLLBACK INTO t (id, s) VALUES (3, 'taken')", [], inTransaction: true)
      }
      #expect(!writer.inTransaction)
      #expect(throws: SQLiteWriterError.transactionEnded) {
        try writer.run("INSERT INTO t (id, s) VALUES (4, 'alone')", [], inTransaction: true)
      }
      #expect(try writer.run("SELECT s FROM t ORDER BY id", []).map { $0.value("s") } == [.text("taken")])
    }
  }

  @Test("More statements than are kept prepared: each still runs, and with its own values")
  func manyStatements() async throws {
    try await withWriter { writer in
      for round in 0..<2 {
        for index in 0..<(SQLiteWriter.keptStatements + 20) {
          let rows = try writer.run("SELECT ?1 + \(index) AS n", [.integer(round)])
          #expect(rows.first?.value("n") == .integer(round + index))
        }
      }
    }
  }

  @Test("A write lock held by one of the driver's connections is waited for, and the group then commits")
  func waitsForAnotherWriter() async throws {
    try await withWriter { writer in
      let other = try await SQLiteConnection.open(storage: .file(path: writer.path))
      _ = try await other.query("BEGIN IMMEDIATE")
      _ = try await other.query("INSERT INTO t (id, s) VALUES (1, 'other')")
      let waiting = Task {
        try await writer.begin(on: eventLoop)
        _ = try writer.run("INSERT INTO t (id, s) VALUES (2, 'writer')", [], inTransaction: true)
        try await writer.commit(on: eventLoop)
      }
      // The writer has found the lock taken (and waits on its own thread) before the other commits.
      while writer.lockWaits.load(ordering: .relaxed) == 0 { await Task.yield() }
      _ = try await other.query("COMMIT")
      try await other.close()
      try await waiting.value
      let names = try writer.run("SELECT s FROM t ORDER BY id", []).map { $0.value("s") }
      #expect(names == [.text("other"), .text("writer")])
    }
  }
}

/// Group commit beside the driver's own connections, through the app.
@Suite("Group commit beside pooled writes", .serialized)
struct GroupCommitBesidePooledWritesTests {
  @Test(
    "Many new visitors at once (each a pooled write of a guest, then a grouped game): every one is served",
    .timeLimit(.minutes(2)))
  func manyNewVisitorsAtOnce() async throws {
    // Pooled writes that find the write lock taken used to hold every thread of the pool the group's commit
    // waited for, and nothing moved again.
    var options = TestDatabase.options
    options.guestsPerAddressPerHour = 1_000_000
    try await withTestApp(options: options) { client, app in
      guard app.serverOptions.database.kind == "sqlite" else { return }
      let request = NewCryptogramGameRequest(mode: "random", length: .short, timeZone: "UTC")
      for _ in 0..<5 {
        let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
          for _ in 0..<32 {
            group.addTask { try await client.stranger().send(.POST, "/api/cryptogram/games", json: request).status.code }
          }
          return try await group.reduce(into: [UInt]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 32))
      }
    }
  }

  @Test("A write that catches the error SQLite rolled its transaction back for, and writes on, keeps nothing")
  func writePastAnEndedTransaction() async throws {
    try await withTestApp { _, app in
      guard app.serverOptions.database.kind == "sqlite", let sql = app.db as? any SQLDatabase else { return }
      try await sql.raw("CREATE TABLE scratch (name TEXT UNIQUE)").run()
      try await sql.raw("INSERT INTO scratch (name) VALUES ('taken')").run()
      await #expect(throws: SQLiteWriterError.transactionEnded) {
        _ = try await app.services.runner.write(on: app.db) { db -> Int? in
          let sql = db as! any SQLDatabase
          try await sql.raw("INSERT INTO scratch (name) VALUES ('before')").run()
          do {
            try await sql.raw("INSERT OR ROLLBACK INTO scratch (name) VALUES ('taken')").run()
          } catch {
            // Carries on as if the conflict were harmless.
          }
          try await sql.raw("INSERT INTO scratch (name) VALUES ('after')").run()
          return 1
        }
      }
      let names = try await sql.raw("SELECT name FROM scratch ORDER BY name").all(decodingColumn: "name", as: String.self)
      #expect(names == ["taken"])
    }
  }
}

/// Names of writes in the order they ran.
private final class Ran: Sendable {
  private let list = Mutex<[String]>([])

  func add(_ name: String) { list.withLock { $0.append(name) } }
  var names: [String] { list.withLock { $0 } }
}

/// Yields until `condition` holds; records an issue and throws (instead of spinning for ever) after a minute.
private func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + .seconds(60)
  while !condition() {
    guard ContinuousClock.now < deadline else {
      Issue.record("never happened: \(what)")
      throw CancellationError()
    }
    try Task.checkCancellation()
    await Task.yield()
  }
}
