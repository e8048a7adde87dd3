import FluentSQL
import FluentSQLiteDriver
import Foundation
import StreamingJSON
import VaporCSQLite

/// The database a group commit's writes see on SQLite: Fluent and SQLKit on ``SQLiteWriter``, inside the
/// group's transaction. Values are encoded and decoded exactly as the driver does (`SQLiteDataEncoder`,
/// `SQLiteDataDecoder`, SQLite's dialect), so a write cannot tell it from the driver's database.
struct SQLiteWriterDatabase: Database, SQLDatabase {
  let writer: SQLiteWriter
  /// The leader's context: its logger and event loop.
  let context: DatabaseContext
  private let encoder = SQLiteDataEncoder()
  private let decoder = SQLiteDataDecoder()

  init(writer: SQLiteWriter, context: DatabaseContext) {
    self.writer = writer
    self.context = context
  }

  // MARK: SQLDatabase

  var dialect: any SQLDialect { SQLiteDialect() }

  func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
    for row in try run(query) { onRow(row) }
  }

  func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
    do {
      for row in try run(query) { onRow(row) }
      return eventLoop.makeSucceededVoidFuture()
    } catch {
      return eventLoop.makeFailedFuture(error)
    }
  }

  func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
    try await closure(self)
  }

  private func run(_ query: any SQLExpression) throws -> [WriterRow] {
    var serializer = SQLSerializer(database: self)
    query.serialize(to: &serializer)
    if let level = queryLogLevel, logger.logLevel <= level {
      logger.log(level: level, "\(serializer.sql) \(serializer.binds)")
    }
    let binds = try serializer.binds.map { try Self.sqliteData($0, encoder: encoder) }
    // Never outside the group's transaction: after SQLite ended it (an error it rolls back for), a statement
    // would commit on its own while the group's callers are told it failed.
    return try writer.run(serializer.sql, binds, inTransaction: true).map { WriterRow(row: $0, decoder: decoder) }
  }

  /// `value` as SQLite's value, exactly as SQLiteKit's encoder makes it (a test holds them equal): the types
  /// the hot statements bind are converted here, without the encoder's dynamic cast, and a UUID without `sprintf`.
  static func sqliteData(_ value: any Encodable, encoder: SQLiteDataEncoder) throws -> SQLiteData {
    try sqliteData(of: value, encoder: encoder)
  }

  /// The same for the value's own type, known by comparing types (a pointer comparison each) instead of by
  /// casting: a failed cast costs about as much as the conversion, and an absent value failed six of them.
  private static func sqliteData<T: Encodable>(of value: T, encoder: SQLiteDataEncoder) throws -> SQLiteData {
    if T.self == String.self { return .text(unsafeBitCast(value, to: String.self)) }
    if T.self == Int.self { return .integer(unsafeBitCast(value, to: Int.self)) }
    if T.self == UUID.self { return .text(unsafeBitCast(value, to: UUID.self).uuidText) }
    if T.self == Bool.self { return .integer(unsafeBitCast(value, to: Bool.self) ? 1 : 0) }
    if T.self == Double.self { return .float(unsafeBitCast(value, to: Double.self)) }
    if T.self == Date.self { return .float(unsafeBitCast(value, to: Date.self).timeIntervalSince1970) }
    if T.self == String?.self { return unsafeBitCast(value, to: String?.self).map { .text($0) } ?? .null }
    if T.self == Int?.self { return unsafeBitCast(value, to: Int?.self).map { .integer($0) } ?? .null }
    if T.self == UUID?.self { return unsafeBitCast(value, to: UUID?.self).map { .text($0.uuidText) } ?? .null }
    if T.self == Bool?.self { return unsafeBitCast(value, to: Bool?.self).map { .integer($0 ? 1 : 0) } ?? .null }
    if T.self == Double?.self { return unsafeBitCast(value, to: Double?.self).map { .float($0) } ?? .null }
    if T.self == Date?.self { return unsafeBitCast(value, to: Date?.self).map { .float($0.timeIntervalSince1970) } ?? .null }
    return (value as? any OptionalValue)?.isNone == true ? .null : try encoder.encode(value)
  }

  // MARK: Database (Fluent)

  var inTransaction: Bool { true }

  func execute(query: DatabaseQuery, onOutput: @escaping @Sendable (any DatabaseOutput) -> Void) -> EventLoopFuture<Void> {
    var expression = SQLQueryConverter(delegate: WriterConverterDelegate()).convert(query)
    // As the driver does: a create answers with the new row's id.
    if case .create = query.action, query.customIDKey != .some(.string("")) {
      expression = SQLList([expression, SQLReturning(.init((query.customIDKey ?? .id).description))], separator: SQLRaw(" "))
    }
    return execute(sql: expression) { onOutput(WriterOutput(row: $0, schema: nil)) }
  }

  func execute(schema: DatabaseSchema) -> EventLoopFuture<Void> {
    // Tables change in migrations, never in a group of writes.
    eventLoop.makeFailedFuture(SQLiteWriterError(status: SQLITE_MISUSE, handle: nil))
  }

  func execute(enum: DatabaseEnum) -> EventLoopFuture<Void> {
    eventLoop.makeSucceededVoidFuture()
  }

  func transaction<T>(_ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
    closure(self)
  }

  func withConnection<T>(_ closure: @escaping @Sendable (any Database) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
    closure(self)
  }
}

/// A row of the writer's, read as SQLKit reads rows (and by ``SQLRow/decodeRow(_:)`` straight from its values).
private struct WriterRow: SQLRow, SQLiteValueRow {
  let row: SQLiteWriter.Row
  let decoder: SQLiteDataDecoder

  var allColumns: [String] { row.columns }
  func sqliteValue(_ column: String) -> SQLiteData? { row.value(column) }
  func sqliteValue(_ column: String, from hint: inout Int) -> SQLiteData? { row.value(column, from: &hint) }
  func contains(column: String) -> Bool { row.columns.contains(column) }
  func decodeNil(column: String) throws -> Bool { (row.value(column) ?? .null) == .null }
  func decode<D: Decodable>(column: String, as: D.Type) throws -> D {
    guard let value = row.value(column) else { throw MissingColumn(column: column) }
    return try decoder.decode(D.self, from: value)
  }

  struct MissingColumn: Error {
    let column: String
  }
}

/// A row of the writer's, read as Fluent reads a model's fields (a joined model's fields carry its schema
/// as a prefix).
private struct WriterOutput: DatabaseOutput {
  let row: any SQLRow
  let schema: String?

  var description: String { "\(row.allColumns)" }

  private func column(_ key: FieldKey) -> String {
    (schema.map { FieldKey.prefix(.prefix(.string($0), "_"), key) } ?? key).description
  }

  func schema(_ schema: String) -> any DatabaseOutput { WriterOutput(row: row, schema: schema) }
  func contains(_ key: FieldKey) -> Bool { row.contains(column: column(key)) }
  func decodeNil(_ key: FieldKey) throws -> Bool { try row.decodeNil(column: column(key)) }
  func decode<T: Decodable>(_ key: FieldKey, as type: T.Type) throws -> T { try row.decode(column: column(key), as: T.self) }
}

/// Fluent's types as SQLite's columns, as the driver maps them.
private struct WriterConverterDelegate: SQLConverterDelegate {
  func customDataType(_ dataType: DatabaseSchema.DataType) -> (any SQLExpression)? {
    switch dataType {
    case .string, .enum: SQLRaw("TEXT")
    case .datetime: SQLRaw("REAL")
    case .int64: SQLRaw("INTEGER")
    default: nil
    }
  }
}

/// An optional, asked whether it holds nothing (an absent value is bound as NULL, as SQLiteKit binds it).
private protocol OptionalValue {
  var isNone: Bool { get }
}

extension Optional: OptionalValue {
  var isNone: Bool { self == nil }
}
