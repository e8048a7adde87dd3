import FluentSQLiteDriver
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import VaporCSQLite

/// The SQLite connection group commit writes on: its statements run right where the group runs, and only
/// the commit (which waits for the disk) goes to a thread of its own.
///
/// Through the driver, every statement is a hand-off to SQLite's thread pool and back, with a wake-up on
/// each side, and is prepared again each time; a group of seven writes made about twenty such trips. Inside
/// a transaction that already holds SQLite's write lock a statement never waits (it reads and changes pages
/// in memory), so here it simply runs on the calling thread, and its prepared form is kept for the next
/// write. Two things may wait, and those are handed to the thread pool: the commit, which syncs the log to
/// disk, and a `BEGIN` that finds another connection holding the write lock.
///
/// It uses the SQLite library the driver bundles (SQLiteNIO's `sqlite_nio_` functions), so that one
/// process never holds two copies of SQLite's file locks. One group runs at a time (see ``GroupCommit``);
/// the lock below only makes that certain.
final class SQLiteWriter: Sendable {
  /// The open connection and the statements kept prepared on it.
  private struct Connection: ~Copyable {
    var handle: OpaquePointer?
    var statements: [String: PreparedStatement] = [:]

    deinit {
      for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
      if let handle { sqlite_nio_sqlite3_close_v2(handle) }
    }
  }

  /// A statement kept prepared, and its result's column names.
  private struct PreparedStatement {
    let handle: OpaquePointer
    let columns: [String]
  }

  /// How many statements stay prepared (the hot paths use about twenty; the rest come and go).
  static let keptStatements = 128
  /// How long a `BEGIN` or the commit waits for another connection's write lock before failing.
  static let lockWait: Int32 = 30_000

  /// The database file.
  let path: String
  /// `FULL` (every commit on disk before it returns) or `NORMAL`.
  let synchronous: String
  private let connection = Mutex(Connection())
  private let threads: NIOThreadPool
  /// How often a `BEGIN` found the write lock taken and waited for it on the thread pool.
  let lockWaits = Atomic<Int>(0)

  init(path: String, synchronous: String, threads: NIOThreadPool = .singleton) {
    self.path = path
    self.synchronous = synchronous
    self.threads = threads
  }

  /// One result row: the statement's column names and this row's values.
  struct Row: Sendable {
    let columns: [String]
    let values: [SQLiteData]

    /// The value of `column`, nil when the statement has no such column.
    func value(_ column: String) -> SQLiteData? {
      columns.firstIndex(of: column).map { values[$0] }
    }
  }

  /// Opens the write transaction. It runs here when the write lock is free (nearly always: the pooled
  /// connections rarely write outside group commit), and otherwise waits for it on the thread pool.
  func begin() async throws {
    let began = try connection.withLock { connection in
      let handle = try open(&connection)
      sqlite_nio_sqlite3_busy_timeout(handle, 0)
      defer { sqlite_nio_sqlite3_busy_timeout(handle, Self.lockWait) }
      let status = sqlite_nio_sqlite3_exec(handle, "BEGIN IMMEDIATE", nil, nil, nil)
      if status == SQLITE_OK { return true }
      if status & 0xff == SQLITE_BUSY { return false }
      throw SQLiteWriterError(status: status, handle: handle)
    }
    if !began {
      lockWaits.add(1, ordering: .relaxed)
      try await onThreadPool { try self.exec("BEGIN IMMEDIATE") }
    }
  }

  /// Commits the open transaction, on the thread pool: with `synchronous=FULL` it waits for the disk.
  func commit() async throws {
    try await onThreadPool { try self.exec("COMMIT") }
  }

  /// Undoes the open transaction (nothing to sync, so it runs here). Safe when none is open.
  func rollback() {
    connection.withLock { connection in
      guard let handle = connection.handle, sqlite_nio_sqlite3_get_autocommit(handle) == 0 else { return }
      _ = sqlite_nio_sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }
  }

  /// Runs `sql` with `binds` and returns its rows.
  func run(_ sql: String, _ binds: [SQLiteData]) throws -> [Row] {
    try connection.withLock { connection in
      let handle = try open(&connection)
      let statement = try prepared(sql, on: handle, in: &connection)
      // Reset in every case: a statement left mid-way keeps its read open and its values bound.
      defer {
        sqlite_nio_sqlite3_reset(statement.handle)
        sqlite_nio_sqlite3_clear_bindings(statement.handle)
      }
      for (offset, value) in binds.enumerated() {
        let status = bind(value, at: Int32(offset + 1), to: statement.handle)
        guard status == SQLITE_OK else { throw SQLiteWriterError(status: status, handle: handle) }
      }
      var rows: [Row] = []
      while true {
        let status = sqlite_nio_sqlite3_step(statement.handle)
        if status == SQLITE_DONE { return rows }
        guard status == SQLITE_ROW else { throw SQLiteWriterError(status: status, handle: handle) }
        rows.append(Row(columns: statement.columns, values: (0..<Int32(statement.columns.count)).map { value(at: $0, of: statement.handle) }))
      }
    }
  }

  /// Runs `sql` (statements without values) on the connection.
  private func exec(_ sql: String) throws {
    try connection.withLock { connection in
      let handle = try open(&connection)
      let status = sqlite_nio_sqlite3_exec(handle, sql, nil, nil, nil)
      guard status == SQLITE_OK else { throw SQLiteWriterError(status: status, handle: handle) }
    }
  }

  private func onThreadPool(_ work: @escaping @Sendable () throws -> Void) async throws {
    try await threads.runIfActive(work)
  }

  /// The connection, opened with the settings every writing connection of this server has.
  private func open(_ connection: inout Connection) throws -> OpaquePointer {
    if let handle = connection.handle { return handle }
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
    let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK, let handle else {
      let error = SQLiteWriterError(status: status, handle: handle)
      sqlite_nio_sqlite3_close_v2(handle)
      throw error
    }
    sqlite_nio_sqlite3_busy_timeout(handle, Self.lockWait)
    // As the driver's connections are set up (SQLiteKit turns foreign keys on) and `prepareDatabase`
    // sets its pooled ones.
    let settings = [
      "PRAGMA foreign_keys = ON",
      "PRAGMA synchronous=\(synchronous)",
      "PRAGMA wal_autocheckpoint=\(SQLiteCheckpointer.writerFallbackPages)",
      "PRAGMA cache_size=-\(SQLiteCheckpointer.cacheKiB)",
      "PRAGMA temp_store=MEMORY",
    ]
    for setting in settings {
      let status = sqlite_nio_sqlite3_exec(handle, setting, nil, nil, nil)
      guard status == SQLITE_OK else {
        let error = SQLiteWriterError(status: status, handle: handle)
        sqlite_nio_sqlite3_close_v2(handle)
        throw error
      }
    }
    connection.handle = handle
    return handle
  }

  private func prepared(_ sql: String, on handle: OpaquePointer, in connection: inout Connection) throws -> PreparedStatement {
    if let statement = connection.statements[sql] { return statement }
    if connection.statements.count >= Self.keptStatements {
      for statement in connection.statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
      connection.statements.removeAll(keepingCapacity: true)
    }
    var statementHandle: OpaquePointer?
    let status = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statementHandle, nil)
    guard status == SQLITE_OK, let statementHandle else { throw SQLiteWriterError(status: status, handle: handle) }
    let count = sqlite_nio_sqlite3_column_count(statementHandle)
    let columns = (0..<count).map { offset in
      sqlite_nio_sqlite3_column_name(statementHandle, offset).map { String(cString: $0) } ?? ""
    }
    let statement = PreparedStatement(handle: statementHandle, columns: columns)
    connection.statements[sql] = statement
    return statement
  }

  private func bind(_ value: SQLiteData, at index: Int32, to statement: OpaquePointer) -> Int32 {
    switch value {
    case .integer(let integer):
      sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
    case .float(let double):
      sqlite_nio_sqlite3_bind_double(statement, index, double)
    case .text(let text):
      sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), transientValue, UInt8(SQLITE_UTF8))
    case .blob(let buffer):
      buffer.withUnsafeReadableBytes { bytes in
        sqlite_nio_sqlite3_bind_blob64(statement, index, bytes.baseAddress, UInt64(bytes.count), transientValue)
      }
    case .null:
      sqlite_nio_sqlite3_bind_null(statement, index)
    }
  }

  private func value(at column: Int32, of statement: OpaquePointer) -> SQLiteData {
    switch sqlite_nio_sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER:
      return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
    case SQLITE_FLOAT:
      return .float(sqlite_nio_sqlite3_column_double(statement, column))
    case SQLITE_TEXT:
      guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .null }
      let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
      var buffer = ByteBufferAllocator().buffer(capacity: count)
      if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
        buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
      }
      return .blob(buffer)
    default:
      return .null
    }
  }
}

/// SQLite copies a value bound with this destructor, so the Swift string or buffer may go right away.
private let transientValue = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// An error SQLite reported on the writer's connection.
struct SQLiteWriterError: Error, CustomStringConvertible, DatabaseError {
  /// SQLite's extended result code.
  let status: Int32
  let message: String

  init(status: Int32, handle: OpaquePointer?) {
    self.status = status
    message = handle.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "SQLite error \(status)"
  }

  var description: String { "SQLite error \(status): \(message)" }
  var isSyntaxError: Bool { status & 0xff == SQLITE_ERROR }
  var isConstraintFailure: Bool { status & 0xff == SQLITE_CONSTRAINT }
  var isConnectionClosed: Bool { status & 0xff == SQLITE_MISUSE || status & 0xff == SQLITE_CANTOPEN }
}
