import CompletionAPI
import Fluent
import FluentSQL
import Foundation
import Testing
import Vapor

@testable import CompletionServer

/// Writes that wait together commit together on SQLite; each one still succeeds or fails alone.
@Suite("Group commit", .serialized)
struct GroupCommitTests {
  struct Boom: Error {}

  @Test("Concurrent writes on a SQLite file: the kept ones all land, a failed or lost one is undone alone")
  func concurrentWritesLandOrRollBackAlone() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-group-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    try await withTestApp(options: options) { _, app in
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

  @Test("When a group runs its writes again (one did not land), each new cryptogram game is still made once")
  func groupRunAgainCreatesEachGameOnce() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-group-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    try await withTestApp(options: options) { client, app in
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
/// the driver's kind, and a write lock held elsewhere is waited for.
@Suite("SQLite writer")
struct SQLiteWriterTests {
  /// A writer on a new file with one table, and the file's folder (removed by the caller).
  private func makeWriter() throws -> (SQLiteWriter, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-writer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let writer = SQLiteWriter(path: folder.appendingPathComponent("db.sqlite").path, synchronous: "FULL")
    _ = try writer.run("CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT UNIQUE, b BLOB)", [])
    return (writer, folder)
  }

  @Test("Values round-trip: integers, reals, text (any Unicode), blobs and NULL, with their column names")
  func valuesRoundTrip() async throws {
    let (writer, folder) = try makeWriter()
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = "Grüße 👨‍👩‍👧 \u{0301}"
    var blob = ByteBuffer()
    blob.writeBytes([0, 1, 2, 255])
    try await writer.begin()
    _ = try writer.run("INSERT INTO t (id, i, f, s, b) VALUES (?1, ?2, ?3, ?4, ?5)", [.integer(1), .integer(Int(Int64.min)), .float(0.1), .text(text), .blob(blob)])
    _ = try writer.run("INSERT INTO t (id, i, f, s, b) VALUES (?1, ?2, ?3, ?4, ?5)", [.integer(2), .null, .null, .null, .null])
    try await writer.commit()
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

  @Test("The writer's connection has the settings durability and integrity rely on: synchronous=FULL, foreign keys on")
  func settings() throws {
    let (writer, folder) = try makeWriter()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try writer.run("PRAGMA synchronous", []).first?.values == [.integer(2)])  // 2 is FULL
    #expect(try writer.run("PRAGMA foreign_keys", []).first?.values == [.integer(1)])
    let normal = SQLiteWriter(path: writer.path, synchronous: "NORMAL")
    #expect(try normal.run("PRAGMA synchronous", []).first?.values == [.integer(1)])
  }

  @Test("A broken rule is a constraint failure, as Fluent knows it; a rolled-back transaction keeps nothing")
  func errorsAndRollback() async throws {
    let (writer, folder) = try makeWriter()
    defer { try? FileManager.default.removeItem(at: folder) }
    try await writer.begin()
    _ = try writer.run("INSERT INTO t (id, s) VALUES (?1, ?2)", [.integer(1), .text("a")])
    #expect {
      _ = try writer.run("INSERT INTO t (id, s) VALUES (?1, ?2)", [.integer(2), .text("a")])
    } throws: { ($0 as? any DatabaseError)?.isConstraintFailure == true }
    // The failed statement was undone alone; the transaction goes on.
    _ = try writer.run("INSERT INTO t (id, s) VALUES (?1, ?2)", [.integer(3), .text("b")])
    writer.rollback()
    #expect(try writer.run("SELECT count(*) AS n FROM t", [])[0].value("n") == .integer(0))
    #expect(throws: SQLiteWriterError.self) { try writer.run("SELEKT 1", []) }
  }

  @Test("More statements than are kept prepared: each still runs, and with its own values")
  func manyStatements() throws {
    let (writer, folder) = try makeWriter()
    defer { try? FileManager.default.removeItem(at: folder) }
    for round in 0..<2 {
      for index in 0..<(SQLiteWriter.keptStatements + 20) {
        let rows = try writer.run("SELECT ?1 + \(index) AS n", [.integer(round)])
        #expect(rows.first?.value("n") == .integer(round + index))
      }
    }
  }

  @Test("A write lock held by another connection is waited for, and the group then commits")
  func waitsForAnotherWriter() async throws {
    let (writer, folder) = try makeWriter()
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try writer.run("PRAGMA journal_mode=WAL", [])
    let other = SQLiteWriter(path: writer.path, synchronous: "FULL")
    try await other.begin()
    _ = try other.run("INSERT INTO t (id, s) VALUES (1, 'other')", [])
    let waiting = Task {
      try await writer.begin()
      _ = try writer.run("INSERT INTO t (id, s) VALUES (2, 'writer')", [])
      try await writer.commit()
    }
    // The writer has found the lock taken (and waits on the thread pool) before the other commits.
    while writer.lockWaits.load(ordering: .relaxed) == 0 { await Task.yield() }
    try await other.commit()
    try await waiting.value
    let names = try writer.run("SELECT s FROM t ORDER BY id", []).map { $0.value("s") }
    #expect(names == [.text("other"), .text("writer")])
  }
}
