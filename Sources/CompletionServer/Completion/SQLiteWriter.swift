import FluentSQLiteDriver
import Foundation
import NIOCore
import NIOPosix
import CSQLitePlans
import Synchronization
import VaporCSQLite

/// The SQLite connection group commit writes on: its statements run right where the group runs, and only
/// the commit (which waits for the disk) goes to a thread of its own.
///
/// Through the driver, every statement is a hand-off to SQLite's thread pool and back, with a wake-up on
/// each side, and is prepared again each time; a group of seven writes made about sixteen such trips. Inside
/// a transaction that already holds SQLite's write lock a statement never waits (it reads and changes pages
/// in memory), so here it simply runs on the calling thread, and its prepared form is kept for the next
/// write. Two things may wait, and those are handed to the writer's own thread: the commit, which syncs the
/// log to disk, and a `BEGIN` that finds another connection holding the write lock.
///
/// It uses the SQLite library the driver bundles (SQLiteNIO's `sqlite_nio_` functions), so that one
/// process never holds two copies of SQLite's file locks. One group runs at a time (see ``GroupCommit``);
/// the lock below only makes that certain.
///
/// The thread it waits on is its own, not the thread pool the driver's connections use: a pooled write
/// that finds the write lock taken keeps its pool thread until the lock is free, so with every pool thread
/// held that way a commit queued behind them would never run, and the lock never be freed.
final class SQLiteWriter: Sendable {
  /// The open connection and the statements kept prepared on it.
  private struct Connection: ~Copyable {
    var handle: OpaquePointer?
    var statements: [String: PreparedStatement] = [:]

    deinit {
      SQLiteWriter.release(handle, statements)
    }
  }

  /// A statement kept prepared, and its result's column names.
  private struct PreparedStatement {
    let handle: OpaquePointer
    let columns: [String]
  }

  /// How many statements stay prepared (the hot paths use about twenty; the rest come and go).
  static let keptStatements = 128
  /// How long a `BEGIN` or the commit waits for another connection's write lock (another process holding
  /// it, or a pooled write outside group commit) before the group fails with `busy`, in milliseconds.
  static let lockWait: Int32 = 30_000

  /// The settings every connection of this server that writes has, on top of WAL mode (which is kept in
  /// the file): the writer's own, and the driver's pooled ones (`prepareDatabase`).
  static func connectionSettings(synchronous: String) -> [String] {
    [
      // SQLiteKit turns foreign keys on for its connections.
      "PRAGMA foreign_keys = ON",
      "PRAGMA synchronous=\(synchronous)",
      // The log is copied back into the file in the background (SQLiteCheckpointer), not by the writer.
      "PRAGMA wal_autocheckpoint=\(SQLiteCheckpointer.writerFallbackPages)",
      "PRAGMA cache_size=-\(SQLiteCheckpointer.cacheKiB)",
      // Savepoints and multi-row statements keep the pages they change in a sub-journal; in a temporary
      // file that was a write() per page, 18 % of the server's CPU while challenge completions fanned out
      // 400 feed entries each. In memory it is a copy.
      "PRAGMA temp_store=MEMORY",
      // A connection that finds the write lock taken sleeps and retries, then fails with `busy`, instead of
      // retrying without a pause for ever (SQLiteNIO's handler), which kept a core and a pool thread.
      "PRAGMA busy_timeout=\(lockWait)",
    ]
  }

  /// SQLite's library is set up once, before the first connection opens (as SQLiteNIO does for its own).
  private static let libraryReady: Void = { _ = sqlite_nio_sqlite3_initialize() }()

  /// The database file.
  let path: String
  /// `FULL` (every commit on disk before it returns) or `NORMAL`.
  let synchronous: String
  private let connection = Mutex(Connection())
  private let threads: NIOThreadPool
  /// How often a `BEGIN` found the write lock taken and waited for it on the writer's thread.
  let lockWaits = Atomic<Int>(0)

  /// A writer for the SQLite file at `path`; nothing is opened until the first statement.
  init(path: String, synchronous: String) {
    self.path = path
    self.synchronous = synchronous
    threads = NIOThreadPool(numberOfThreads: 1)
    threads.start()
  }

  /// Closes the connection and stops the writer's thread (at shutdown; a later write opens it again, but
  /// has no thread to commit on and fails).
  func close() async {
    connection.withLock { Self.closeConnection(&$0) }
    try? await threads.shutdownGracefully()
  }

  private static func closeConnection(_ connection: inout Connection) {
    release(connection.handle, connection.statements)
    connection.statements.removeAll()
    connection.handle = nil
  }

  /// Finalizes the kept statements and closes the connection they were prepared on.
  private static func release(_ handle: OpaquePointer?, _ statements: [String: PreparedStatement]) {
    for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.handle) }
    if let handle { sqlite_nio_sqlite3_close_v2(handle) }
  }

  /// One result row: the statement's column names and this row's values.
  struct Row: Sendable {
    let columns: [String]
    let values: [SQLiteData]

    /// The value of `column`, nil when the statement has no such column.
    func value(_ column: String) -> SQLiteData? {
      columns.firstIndex(of: column).map { values[$0] }
    }

    /// The same, looking at the column `hint` first; `hint` is left at the column after the one found.
    func value(_ column: String, from hint: inout Int) -> SQLiteData? {
      if hint < columns.count, columns[hint] == column {
        hint += 1
        return values[hint - 1]
      }
      guard let index = columns.firstIndex(of: column) else { return nil }
      hint = index + 1
      return values[index]
    }
  }

  /// Whether a transaction is open on the connection. SQLite itself ends one on some errors (a full disk,
  /// an I/O error, `OR ROLLBACK`), after which a statement would commit on its own.
  var inTransaction: Bool {
    connection.withLock { connection in connection.handle.map { sqlite_nio_sqlite3_get_autocommit($0) == 0 } ?? false }
  }

  /// Opens the write transaction. It runs here when the write lock is free (nearly always: the pooled
  /// connections rarely write outside group commit), and otherwise waits for it on the writer's thread.
  /// `eventLoop` is where a wait completes.
  func begin(on eventLoop: any EventLoop) async throws {
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
      try await onOwnThread(eventLoop) { try self.exec("BEGIN IMMEDIATE") }
    }
  }

  /// Commits the open transaction, on the writer's thread: with `synchronous=FULL` it waits for the disk.
  /// Throws ``SQLiteWriterError/transactionEnded`` when SQLite ended the transaction itself (after an error
  /// it rolls back for, which a write may have caught): then nothing of it is kept, and the caller must hear so.
  func commit(on eventLoop: any EventLoop) async throws {
    try await onOwnThread(eventLoop) { try self.exec("COMMIT", inTransaction: true) }
  }

  /// Undoes the open transaction (nothing to sync, so it runs here). Safe when none is open. Should the
  /// rollback fail and leave the transaction open (holding the write lock), the connection is closed, which
  /// undoes it, and the next statement opens a new one.
  func rollback() {
    connection.withLock { connection in
      guard let handle = connection.handle, sqlite_nio_sqlite3_get_autocommit(handle) == 0 else { return }
      _ = sqlite_nio_sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
      if sqlite_nio_sqlite3_get_autocommit(handle) == 0 { Self.closeConnection(&connection) }
    }
  }

  /// Runs `sql` with `binds` and returns its rows. With `inTransaction`, refuses to run when no transaction
  /// is open (SQLite ended it after an error): the statement would otherwise commit on its own.
  func run(_ sql: String, _ binds: [SQLiteData], inTransaction: Bool = false) throws -> [Row] {
    try connection.withLock { connection in
      let handle = try open(&connection)
      if inTransaction { try Self.requireTransaction(on: handle) }
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
      var columns = statement.columns
      while true {
        let status = sqlite_nio_sqlite3_step(statement.handle)
        if status == SQLITE_DONE { return rows }
        guard status == SQLITE_ROW else { throw SQLiteWriterError(status: status, handle: handle) }
        // A kept statement is prepared again by SQLite when the schema changed (another process migrated):
        // its columns may have changed with it.
        if rows.isEmpty, sqlite_nio_sqlite3_column_count(statement.handle) != columns.count {
          columns = Self.columnNames(of: statement.handle)
          connection.statements[sql] = PreparedStatement(handle: statement.handle, columns: columns)
        }
        rows.append(Row(columns: columns, values: try (0..<Int32(columns.count)).map { try value(at: $0, of: statement.handle) }))
      }
    }
  }

  /// Runs `sql` (statements without values) on the connection; with `inTransaction`, only inside one.
  private func exec(_ sql: String, inTransaction: Bool = false) throws {
    try connection.withLock { connection in
      let handle = try open(&connection)
      if inTransaction { try Self.requireTransaction(on: handle) }
      let status = sqlite_nio_sqlite3_exec(handle, sql, nil, nil, nil)
      guard status == SQLITE_OK else { throw SQLiteWriterError(status: status, handle: handle) }
    }
  }

  /// Throws when no transaction is open: SQLite ended it after an error, and a statement would commit alone.
  private static func requireTransaction(on handle: OpaquePointer) throws {
    if sqlite_nio_sqlite3_get_autocommit(handle) != 0 { throw SQLiteWriterError.transactionEnded }
  }

  /// Runs `work` on the writer's thread. Not cancellable: a commit that was started is seen through.
  private func onOwnThread(_ eventLoop: any EventLoop, _ work: @escaping @Sendable () throws -> Void) async throws {
    try await threads.runIfActive(eventLoop: eventLoop, work).get()
  }

  /// The connection, opened with the settings every writing connection of this server has.
  private func open(_ connection: inout Connection) throws -> OpaquePointer {
    if let handle = connection.handle { return handle }
    Self.libraryReady
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_URI | SQLITE_OPEN_EXRESCODE
    let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK, let handle else {
      let error = SQLiteWriterError(status: status, handle: handle)
      sqlite_nio_sqlite3_close_v2(handle)
      throw error
    }
    for setting in Self.connectionSettings(synchronous: synchronous) {
      let status = sqlite_nio_sqlite3_exec(handle, setting, nil, nil, nil)
      guard status == SQLITE_OK else {
        let error = SQLiteWriterError(status: status, handle: handle)
        sqlite_nio_sqlite3_close_v2(handle)
        throw error
      }
    }
    // Plans that do not depend on bound values. Without it SQLite prepares a kept statement again whenever
    // a value bound to it changes if the planner looked at that value: a join whose terms share a bound
    // column, `NOT IN` over a subquery, a comparison it matched against a literal. The task toggle's load,
    // its undo list's trim and the completion recorder's read were prepared again on every run (about 0.1 ms
    // of a toggle's 1.8). Every plan here is chosen from the indexes; none needs the values.
    let planned = completionkit_sqlite_keep_plans(UnsafeMutableRawPointer(handle))
    guard planned == SQLITE_OK else {
      let error = SQLiteWriterError(status: planned, handle: handle)
      sqlite_nio_sqlite3_close_v2(handle)
      throw error
    }
    connection.handle = handle
    return handle
  }

  private func prepared(_ sql: String, on handle: OpaquePointer, in connection: inout Connection) throws -> PreparedStatement {
    if let statement = connection.statements[sql] { return statement }
    // Full: one kept statement makes room (any one; the hot ones come back on their next use).
    if connection.statements.count >= Self.keptStatements {
      let evicted = connection.statements.remove(at: connection.statements.startIndex)
      sqlite_nio_sqlite3_finalize(evicted.value.handle)
    }
    var statementHandle: OpaquePointer?
    let status = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statementHandle, nil)
    guard status == SQLITE_OK, let statementHandle else { throw SQLiteWriterError(status: status, handle: handle) }
    let statement = PreparedStatement(handle: statementHandle, columns: Self.columnNames(of: statementHandle))
    connection.statements[sql] = statement
    return statement
  }

  private static func columnNames(of statement: OpaquePointer) -> [String] {
    (0..<sqlite_nio_sqlite3_column_count(statement)).map { offset in
      sqlite_nio_sqlite3_column_name(statement, offset).map { String(cString: $0) } ?? ""
    }
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

  private func value(at column: Int32, of statement: OpaquePointer) throws -> SQLiteData {
    switch sqlite_nio_sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER:
      return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
    case SQLITE_FLOAT:
      return .float(sqlite_nio_sqlite3_column_double(statement, column))
    case SQLITE_TEXT:
      guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { throw SQLiteWriterError(status: SQLITE_NOMEM, handle: nil) }
      let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
      return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
    case SQLITE_BLOB:
      let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
      var buffer = ByteBufferAllocator().buffer(capacity: count)
      if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
        buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
      }
      return .blob(buffer)
    case SQLITE_NULL:
      return .null
    default:
      throw SQLiteWriterError(status: SQLITE_MISMATCH, handle: nil)
    }
  }
}

/// SQLite copies a value bound with this destructor, so the Swift string or buffer may go right away.
private let transientValue = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// An error SQLite reported on the writer's connection.
struct SQLiteWriterError: Error, Equatable, CustomStringConvertible, DatabaseError {
  /// SQLite's extended result code.
  let status: Int32
  let message: String

  init(status: Int32, handle: OpaquePointer?) {
    self.status = status
    message =
      handle.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) }
      ?? sqlite_nio_sqlite3_errstr(status).map { String(cString: $0) } ?? "SQLite error \(status)"
  }

  private init(status: Int32, message: String) {
    self.status = status
    self.message = message
  }

  /// SQLite ended the group's transaction itself after an error: nothing of it is kept.
  static let transactionEnded = SQLiteWriterError(
    status: SQLITE_ABORT, message: "the transaction was rolled back by SQLite after an error; nothing of it was kept")

  var description: String { "SQLite error \(status): \(message)" }
  var isSyntaxError: Bool { status & 0xff == SQLITE_ERROR || status & 0xff == SQLITE_SCHEMA }
  var isConstraintFailure: Bool { status & 0xff == SQLITE_CONSTRAINT }
  var isConnectionClosed: Bool { status & 0xff == SQLITE_MISUSE || status & 0xff == SQLITE_CANTOPEN }
}
