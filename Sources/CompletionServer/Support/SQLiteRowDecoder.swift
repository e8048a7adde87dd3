import FluentSQLiteDriver
import Foundation
import StreamingJSON
import Synchronization

extension SQLRow {
  /// The row as `T`, as `decode(model:)` reads it, only faster on SQLite: each column is taken as SQLite's own
  /// value and converted here. SQLiteKit decodes a UUID through a nested decoder and a string, with two dynamic
  /// casts, and a missing optional through three lookups by name; a feed page decodes 51 rows of 24 columns and a
  /// task change its load and its saved row. Other databases (PostgreSQL) go through `decode(model:)`.
  func decodeRow<T: Decodable>(_ type: T.Type) throws -> T {
    if let values = sqliteValues { return try T(from: SQLiteValuesDecoder(row: values)) }
    return try decode(model: T.self)
  }

  /// The row's values as SQLite holds them: the writer's rows and a pooled connection's (nil on other databases).
  var sqliteValues: (any SQLiteValueRow)? {
    if let values = self as? any SQLiteValueRow { return values }
    return isSQLite ? PooledSQLiteRow(row: self) : nil
  }

  /// Whether the row came from SQLiteKit (a pooled connection's read): its type is private there, so it is known
  /// by name, looked at once per row type.
  private var isSQLite: Bool {
    let type = ObjectIdentifier(Swift.type(of: self))
    if let known = sqliteRowTypes.withLock({ $0[type] }) { return known }
    let isSQLite = String(describing: Swift.type(of: self)) == "SQLiteSQLRow"
    sqliteRowTypes.withLock { $0[type] = isSQLite }
    return isSQLite
  }
}

/// SQLiteKit's decoder, for the types converted there (made once: it holds a JSON decoder).
private let sqliteKitDecoder = SQLiteDataDecoder()

/// Row types seen so far, and whether each is SQLiteKit's.
private let sqliteRowTypes = Mutex<[ObjectIdentifier: Bool]>([:])

extension SQLQueryFetcher {
  /// All rows as `T` (see ``SQLRow/decodeRow(_:)``).
  func allRows<T: Decodable>(decoding type: T.Type) async throws -> [T] {
    try await all().map { try $0.decodeRow(T.self) }
  }

  /// The first row as `T`, if any (see ``SQLRow/decodeRow(_:)``).
  func firstRow<T: Decodable>(decoding type: T.Type) async throws -> T? {
    try await first()?.decodeRow(T.self)
  }
}

/// A row that hands out SQLite's own values by column name (nil: no such column).
protocol SQLiteValueRow {
  func sqliteValue(_ column: String) -> SQLiteData?
  /// The same, looking first at the column `hint` (a decoder reads a row's columns mostly in their order) and
  /// leaving `hint` at the column after the one found.
  func sqliteValue(_ column: String, from hint: inout Int) -> SQLiteData?
}

extension SQLiteValueRow {
  func sqliteValue(_ column: String, from hint: inout Int) -> SQLiteData? { sqliteValue(column) }
}

/// A pooled connection's row: its values come out of SQLiteKit's decoder unchanged, as ``RawSQLiteValue``s.
private struct PooledSQLiteRow: SQLiteValueRow {
  let row: any SQLRow

  func sqliteValue(_ column: String) -> SQLiteData? {
    try? row.decode(column: column, as: RawSQLiteValue.self).data
  }
}

/// SQLite's value as it is: SQLiteKit's decoder passes a type it can convert straight through.
private struct RawSQLiteValue: Decodable, SQLiteDataConvertible {
  let data: SQLiteData

  init?(sqliteData: SQLiteData) { data = sqliteData }
  var sqliteData: SQLiteData? { data }

  init(from decoder: any Decoder) throws {
    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "only SQLite rows hold raw values"))
  }
}

/// Decodes a row's columns by name from SQLite's values, converting them as SQLiteKit does.
private struct SQLiteValuesDecoder: Decoder {
  let row: any SQLiteValueRow
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    KeyedDecodingContainer(Columns<Key>(row: row))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Self.notARow(codingPath) }
  func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Self.notARow(codingPath) }

  static func notARow(_ path: [any CodingKey]) -> DecodingError {
    .dataCorrupted(.init(codingPath: path, debugDescription: "a row decodes into a keyed container only"))
  }
}

private struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let row: any SQLiteValueRow
  /// Where the next column is probably found: a type's properties are decoded in their order, which is the
  /// order its statement names the columns in, so each is found at the first look instead of by a search.
  private let cursor = Cursor()
  var codingPath: [any CodingKey] { [] }
  var allKeys: [Key] { [] }

  init(row: any SQLiteValueRow) {
    self.row = row
  }

  private final class Cursor {
    var next = 0
  }

  func contains(_ key: Key) -> Bool { row.sqliteValue(key.stringValue) != nil }

  /// The column's value; a missing column is an error, as in SQLiteKit.
  private func value(_ key: Key) throws -> SQLiteData {
    guard let value = row.sqliteValue(key.stringValue, from: &cursor.next) else {
      throw DecodingError.keyNotFound(key, .init(codingPath: [key], debugDescription: "no column \(key.stringValue)"))
    }
    return value
  }

  /// The column's value, nil for a missing column or NULL (what `decodeIfPresent` answers nil for).
  private func present(_ key: Key) -> SQLiteData? {
    guard let value = row.sqliteValue(key.stringValue, from: &cursor.next), value != .null else { return nil }
    return value
  }

  private func convert<T>(_ value: SQLiteData, _ key: Key, _ converted: T?) throws -> T {
    guard let converted else {
      throw DecodingError.typeMismatch(T.self, .init(codingPath: [key], debugDescription: "could not convert SQLite data \(value) to \(T.self)"))
    }
    return converted
  }

  func decodeNil(forKey key: Key) throws -> Bool { present(key) == nil }

  /// A column of a type SQLite's values convert to directly, as SQLiteKit converts it.
  private func direct<T: SQLiteDataConvertible>(_ key: Key) throws -> T {
    let value = try value(key)
    return try convert(value, key, T(sqliteData: value))
  }

  /// The same, nil for a missing column or NULL.
  private func directIfPresent<T: SQLiteDataConvertible>(_ key: Key) throws -> T? {
    try present(key).map { try convert($0, key, T(sqliteData: $0)) }
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try direct(key) }
  func decode(_ type: String.Type, forKey key: Key) throws -> String { try direct(key) }
  func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try direct(key) }
  func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try direct(key) }
  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try direct(key) }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try Self.decode(T.self, from: value(key), key)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try directIfPresent(key) }
  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try directIfPresent(key) }
  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try directIfPresent(key) }
  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try directIfPresent(key) }
  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try directIfPresent(key) }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try present(key).map { try Self.decode(T.self, from: $0, key) }
  }

  /// A UUID and a date converted here as SQLiteKit would (a UUID is stored as its text); anything else through SQLiteKit.
  private static func decode<T: Decodable>(_ type: T.Type, from value: SQLiteData, _ key: Key) throws -> T {
    if T.self == UUID.self, let uuid = UUID(sqliteColumn: value) {
      return unsafeBitCast(uuid, to: T.self)
    }
    if T.self == Date.self, let date = Date(sqliteColumn: value) {
      return unsafeBitCast(date, to: T.self)
    }
    return try sqliteKitDecoder.decode(T.self, from: value)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
    throw SQLiteValuesDecoder.notARow([key])
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw SQLiteValuesDecoder.notARow([key]) }
  func superDecoder() throws -> any Decoder { throw SQLiteValuesDecoder.notARow([]) }
  func superDecoder(forKey key: Key) throws -> any Decoder { throw SQLiteValuesDecoder.notARow([key]) }
}

/// A row type read column by column with a ``SQLColumnReader``: the rows of the paths every task change takes,
/// where `Decodable`'s containers cost more than reading the values (a toggle reads four rows).
protocol SQLRowReadable {
  init(reading row: inout SQLColumnReader) throws
}

extension SQLRow {
  /// The row as `T`, read column by column.
  func readRow<T: SQLRowReadable>(_ type: T.Type) throws -> T {
    var reader = SQLColumnReader(self)
    return try T(reading: &reader)
  }
}

extension SQLQueryFetcher {
  /// All rows as `T`, each read column by column.
  func allRows<T: SQLRowReadable>(reading type: T.Type) async throws -> [T] {
    try await all().map { try $0.readRow(T.self) }
  }

  /// The first row as `T`, if any, read column by column.
  func firstRow<T: SQLRowReadable>(reading type: T.Type) async throws -> T? {
    try await first()?.readRow(T.self)
  }
}

/// Reads a row's columns by name, expecting them in the statement's order (each is then found at the first
/// look). On SQLite the values are converted here as SQLiteKit converts them; other databases (PostgreSQL)
/// decode each column through the row.
struct SQLColumnReader {
  private let row: any SQLRow
  private let values: (any SQLiteValueRow)?
  /// Where the next column is probably found.
  private var next = 0

  init(_ row: any SQLRow) {
    self.row = row
    values = row.sqliteValues
  }

  /// The column's value; a missing column, NULL or a value of another type is an error.
  mutating func value<T: SQLColumnValue>(_ column: String) throws -> T {
    guard let values else { return try row.decode(column: column, as: T.self) }
    guard let data = values.sqliteValue(column, from: &next) else { throw SQLColumnError.missing(column) }
    return try Self.convert(data, column)
  }

  /// The column's value, nil for NULL or a missing column (as `decodeIfPresent` answers); another type is an error.
  mutating func optional<T: SQLColumnValue>(_ column: String) throws -> T? {
    guard let values else {
      guard row.contains(column: column), try !row.decodeNil(column: column) else { return nil }
      return try row.decode(column: column, as: T.self)
    }
    guard let data = values.sqliteValue(column, from: &next), data != .null else { return nil }
    return try Self.convert(data, column)
  }

  /// SQLite's value as `T`: directly, else as SQLiteKit's decoder would.
  private static func convert<T: SQLColumnValue>(_ data: SQLiteData, _ column: String) throws -> T {
    if let value = T(sqliteColumn: data) { return value }
    guard let value = try? sqliteKitDecoder.decode(T.self, from: data) else {
      throw SQLColumnError.mismatch(column, "\(data)", "\(T.self)")
    }
    return value
  }
}

/// Why a row could not be read.
enum SQLColumnError: Error, CustomStringConvertible {
  case missing(String)
  case mismatch(String, String, String)

  var description: String {
    switch self {
    case .missing(let column): "no column \(column)"
    case .mismatch(let column, let value, let type): "could not convert SQLite data \(value) of column \(column) to \(type)"
    }
  }
}

/// A column's type, converted from SQLite's value as SQLiteKit converts it (a UUID is stored as its text).
protocol SQLColumnValue: Decodable {
  init?(sqliteColumn: SQLiteData)
}

extension String: SQLColumnValue {
  init?(sqliteColumn: SQLiteData) { self.init(sqliteData: sqliteColumn) }
}

extension Int: SQLColumnValue {
  init?(sqliteColumn: SQLiteData) { self.init(sqliteData: sqliteColumn) }
}

extension Bool: SQLColumnValue {
  init?(sqliteColumn: SQLiteData) { self.init(sqliteData: sqliteColumn) }
}

extension Date: SQLColumnValue {
  init?(sqliteColumn: SQLiteData) { self.init(sqliteData: sqliteColumn) }
}

extension UUID: SQLColumnValue {
  init?(sqliteColumn: SQLiteData) {
    guard case .text(let text) = sqliteColumn, let id = UUID(uuidText: text) else { return nil }
    self = id
  }
}
