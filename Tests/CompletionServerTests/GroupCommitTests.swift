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
