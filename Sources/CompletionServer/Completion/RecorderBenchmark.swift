import CompletionCore
import Cryptogram
import Fluent
import FluentSQL
import Foundation
import Vapor

/// What recording a completion costs, for `completionkit-bench recorder` (not used by the server).
public enum RecorderBenchmark {
  /// Seconds per write transaction, sorted: one that only saves a row (as a move does), and the same
  /// with a completion recorded in it (completion row, ledger entry and balance, streak, totals, profile).
  public static func measure(on app: Application, rounds: Int) async throws -> (plain: [Double], recorded: [Double]) {
    let runner = app.services.runner
    let db = app.db
    let clock = ContinuousClock()
    var plain: [Double] = []
    var recorded: [Double] = []
    for round in 0..<rounds {
      let user = User(displayName: "bench", isGuest: true)
      try await user.create(on: db)
      let userID = try user.requireID()
      try await CryptogramStats(userID: userID).create(on: db)
      let save: @Sendable (any Database) async throws -> Void = { db in
        let sql = db.sql
        try await sql.update(CryptogramStats.schema).set(SQLIdentifier("played"), to: SQLRaw("played + 1"))
          .where("user_id", .equal, SQLBind(userID)).run()
      }
      var start = clock.now
      _ = try await runner.write(on: db) { db -> Bool? in
        try await save(db)
        return true
      }
      plain.append(start.duration(to: clock.now).seconds)
      let completion = CryptogramCompletion.completion(
        gameID: "bench-\(round)", account: userID.uuidString, mode: "daily", dailyDate: CalendarDay(Date(), in: .gmt),
        timeZone: "UTC", at: Date(), stats: Completion.Stats(seconds: 60, mistakes: 0, hints: 0))
      start = clock.now
      _ = try await runner.write(on: db) { db -> Bool? in
        try await save(db)
        _ = try await CompletionRecorder.record(completion, rules: CryptogramCompletion.rules, preference: .full, on: db)
        return true
      }
      recorded.append(start.duration(to: clock.now).seconds)
    }
    return (plain.sorted(), recorded.sorted())
  }
}

