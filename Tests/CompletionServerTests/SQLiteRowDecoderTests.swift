import FluentSQL
import FluentSQLiteDriver
import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("Rows read straight from SQLite's values")
struct SQLiteRowDecoderTests {
  /// Every kind of column the stores read: UUIDs and dates as the driver stores them, optionals present and
  /// NULL, a column the query does not have.
  struct Sample: Decodable, Equatable, Sendable {
    let id: UUID
    let other: UUID?
    let gone: UUID?
    let name: String
    let note: String?
    let count: Int
    let big: Int64
    let ratio: Double
    let flag: Bool
    let maybe: Bool?
    let at: Date
    let when: Date?
    let kind: Kind
    let missing: Int?

    enum Kind: String, Decodable, Sendable { case post }
  }

  /// Some of the same columns, read in another order than the statement names them.
  struct Shuffled: Decodable, Equatable, Sendable {
    let kind: Sample.Kind
    let name: String
    let missing: Int?
    let id: UUID
    let at: Date
    let note: String?
    let count: Int
    let flag: Bool

    enum CodingKeys: String, CodingKey { case kind, name, missing, id, at, note, count, flag }
  }

  static func query(on sql: any SQLDatabase, id: UUID, at: Date) -> SQLQueryString {
    """
    SELECT \(bind: id) AS id, \(bind: Optional<UUID>.none) AS other, NULL AS gone, \(bind: "Ada’s 🎉") AS name, NULL AS note,
      \(bind: 42) AS count, \(bind: Int64(1) << 40) AS big, \(bind: 0.25) AS ratio, \(bind: true) AS flag, \(bind: false) AS maybe,
      \(bind: at) AS at, NULL AS "when", 'post' AS kind
    """
  }

  @Test("A row decodes to the same value as through SQLKit, on a pooled connection and on the writer's")
  func sameAsSQLKit() async throws {
    try await GroupCommitTests.withFileApp { _, app in
      let id = UUID()
      let at = Date(timeIntervalSince1970: 1_790_000_000.123456)
      let sql = app.db.sql
      let pooled = try #require(try await sql.raw(Self.query(on: sql, id: id, at: at)).first())
      #expect(pooled.sqliteValues != nil)  // read from SQLite's values, not through SQLKit
      let fast = try pooled.decodeRow(Sample.self)
      #expect(fast == (try pooled.decode(model: Sample.self)))
      #expect(fast.id == id && fast.other == nil && fast.gone == nil && fast.note == nil && fast.maybe == false && fast.missing == nil)
      #expect(fast.name == "Ada’s 🎉" && fast.count == 42 && fast.big == 1 << 40 && fast.ratio == 0.25 && fast.flag && fast.at == at)
      let written = try await app.services.runner.write(on: app.db) { db -> [Sample]? in
        let row = try #require(try await db.sql.raw(Self.query(on: db.sql, id: id, at: at)).first())
        guard row.sqliteValues != nil else { return nil }
        #expect(try row.decodeRow(Shuffled.self) == (try row.decode(model: Shuffled.self)))
        #expect(try row.decodeRow(Shuffled.self).name == "Ada’s 🎉")
        return [try row.decodeRow(Sample.self), try row.decode(model: Sample.self)]
      }
      #expect(written?.count == 2 && written?.first == fast && written?.last == fast)
    }
  }

  @Test("A column of the wrong type is refused as through SQLKit")
  func wrongTypeIsRefused() async throws {
    struct Count: Decodable { let n: Int }
    struct Identified: Decodable { let n: UUID }
    try await GroupCommitTests.withFileApp { _, app in
      let row = try #require(try await app.db.sql.raw("SELECT 'many' AS n").first())
      #expect(throws: (any Error).self) { try row.decode(model: Count.self) }
      #expect(throws: DecodingError.self) { try row.decodeRow(Count.self) }
      #expect(throws: (any Error).self) { try row.decodeRow(Identified.self) }
      let missing = try #require(try await app.db.sql.raw("SELECT 1 AS m").first())
      #expect(throws: DecodingError.self) { try missing.decodeRow(Count.self) }
    }
  }
}

@Suite("Rows read column by column")
struct SQLColumnReaderTests {
  /// The columns of ``SQLiteRowDecoderTests/Sample`` that a reader reads (the row types of a task change use
  /// these kinds), read in the statement's order, one of them out of it, and one the statement lacks.
  struct Read: SQLRowReadable, Equatable, Sendable {
    let id: UUID
    let other: UUID?
    let name: String
    let note: String?
    let count: Int
    let flag: Bool
    let maybe: Bool?
    let at: Date
    let when: Date?
    let missing: Int?
    let idAgain: UUID

    init(reading row: inout SQLColumnReader) throws {
      id = try row.value("id")
      other = try row.optional("other")
      name = try row.value("name")
      note = try row.optional("note")
      count = try row.value("count")
      flag = try row.value("flag")
      maybe = try row.optional("maybe")
      at = try row.value("at")
      when = try row.optional("when")
      missing = try row.optional("missing")
      idAgain = try row.value("id")
    }
  }

  @Test("A row reads as SQLKit decodes it, on a pooled connection and on the writer's")
  func sameAsSQLKit() async throws {
    try await GroupCommitTests.withFileApp { _, app in
      let id = UUID()
      let at = Date(timeIntervalSince1970: 1_790_000_000.123456)
      let query = SQLiteRowDecoderTests.query(on: app.db.sql, id: id, at: at)
      let pooled = try #require(try await app.db.sql.raw(query).first())
      let decoded = try pooled.decode(model: SQLiteRowDecoderTests.Sample.self)
      let read = try pooled.readRow(Read.self)
      #expect(read.id == decoded.id && read.idAgain == id && read.other == nil && read.name == decoded.name && read.note == nil)
      #expect(read.count == 42 && read.flag && read.maybe == false && read.at == decoded.at && read.when == nil && read.missing == nil)
      let written = try await app.services.runner.write(on: app.db) { db -> Read? in
        try await db.sql.raw(SQLiteRowDecoderTests.query(on: db.sql, id: id, at: at)).firstRow(reading: Read.self)
      }
      #expect(written == read)
    }
  }

  @Test("A missing column, a NULL where a value must be and a value of another type are refused")
  func badColumnsAreRefused() async throws {
    struct Count: SQLRowReadable {
      let n: Int
      init(reading row: inout SQLColumnReader) throws { n = try row.value("n") }
    }
    struct Identified: SQLRowReadable {
      let n: UUID
      init(reading row: inout SQLColumnReader) throws { n = try row.value("n") }
    }
    try await GroupCommitTests.withFileApp { _, app in
      let sql = app.db.sql
      await #expect(throws: (any Error).self) { try await sql.raw("SELECT 'many' AS n").firstRow(reading: Count.self) }
      await #expect(throws: (any Error).self) { try await sql.raw("SELECT 'not an id' AS n").firstRow(reading: Identified.self) }
      await #expect(throws: (any Error).self) { try await sql.raw("SELECT NULL AS n").firstRow(reading: Count.self) }
      await #expect(throws: (any Error).self) { try await sql.raw("SELECT 1 AS m").firstRow(reading: Count.self) }
      #expect(try await sql.raw("SELECT 7 AS n").firstRow(reading: Count.self)?.n == 7)
      let refused = try await app.services.runner.write(on: app.db) { db -> Bool? in
        do {
          _ = try await db.sql.raw("SELECT 'many' AS n").firstRow(reading: Count.self)
          return false
        } catch {
          return true
        }
      }
      #expect(refused == true)
    }
  }
}

@Suite("SQLite values bound by the writer")
struct SQLiteWriterBindTests {
  enum Kind: String, Codable { case one }
  struct Nested: Codable, Equatable { let a: Int }

  @Test("Every value is bound exactly as SQLiteKit's encoder binds it: the fast types, their optionals, and the rest")
  func sameAsSQLiteKit() throws {
    let encoder = SQLiteDataEncoder()
    let id = UUID()
    let values: [any Encodable & Sendable] = [
      "text", "", "É ✓ \u{0}", 0, -42, Int.max, Int.min, true, false, 1.5, -0.0, Double.greatestFiniteMagnitude, id,
      Date(timeIntervalSince1970: 1_764_000_000.123456), Date(timeIntervalSinceReferenceDate: 0),
      Optional("text"), String?.none, Optional(7), Int?.none, Optional(id), UUID?.none, Optional(true), Bool?.none,
      Optional(2.5), Double?.none, Optional(Date(timeIntervalSince1970: 5)), Date?.none,
      Int64(9), Int32(-3), Optional(Int64(4)), Kind.one, Optional(Kind.one), Kind?.none, Nested(a: 1), [1, 2], Data([1, 2, 3]),
    ]
    for value in values {
      #expect(try SQLiteWriterDatabase.sqliteData(value, encoder: encoder) == encoder.encode(value), "\(value)")
    }
  }
}
