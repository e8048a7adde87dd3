import CompletionAPI
import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import Vapor

/// Sets the app up: database, migrations, password hashing, routes, middleware. Does not migrate;
/// call ``prepareDatabase(_:)`` (the `serve` and `migrate` commands do).
public func configure(_ app: Application, options: ServerOptions) throws {
  // Group commit opens a connection of its own to the SQLite file, so even a throwaway database is a file
  // (SQLiteKit's in-memory databases are temporary files too, at a path it keeps to itself).
  let sqlitePath: String?
  switch options.database {
  case .sqliteFile(let path):
    try FileManager.default.createDirectory(at: options.dataDirectory, withIntermediateDirectories: true)
    sqlitePath = path
  case .sqliteMemory:
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("completionkit-throwaway-\(UUID().uuidString).sqlite").path
    app.lifecycle.use(ThrowawayDatabase(path: path))
    sqlitePath = path
  case .postgres(let url):
    try app.databases.use(.postgres(url: url), as: .psql)
    sqlitePath = nil
  }
  if let sqlitePath { app.databases.use(.sqlite(.file(sqlitePath)), as: .sqlite) }
  app.services = AppServices(options: options, sqlitePath: sqlitePath)
  if let writer = app.services.runner.writes.writer { app.lifecycle.use(SQLiteWriterShutdown(writer: writer)) }

  // In order; one line each on why it exists.
  app.migrations.add(CreateUser())  // accounts: guests and named users
  app.migrations.add(CreateAuthToken())  // cookie sessions and API tokens, stored hashed
  app.migrations.add(CreateLedgerEntry())  // the reward ledger every system pays into, idempotent by key
  app.migrations.add(CreateCryptogram())  // quotes, cryptogram games and per-person stats
  app.migrations.add(IndexCryptogramGames())  // the lookups every cryptogram request makes
  app.migrations.add(CreateKidsGame())  // Waldabenteuer: one saved game per family
  app.migrations.add(CreateLedgerBalances())  // kept balances, so a balance is read instead of summed
  app.migrations.add(CreateCompletions())  // the completion pipeline: completions, streaks, totals, celebration settings
  app.migrations.add(CreateIdempotencyRecords())  // first responses replayed to retries, for every domain
  app.migrations.add(AddCryptogramGameVersion())  // optimistic versions, so server processes sharing a database never lose a move
  app.migrations.add(AddKidsActiveTab())  // a second tab joins the game in play instead of relaunching it
  app.migrations.add(CreateProjects())  // projects and tasks with kept counts (seed 003)
  app.migrations.add(CreateChallenges())  // challenges, photos, follows, feeds, moderation (seed 004)
  app.migrations.add(LoginAttempts())  // sign-in attempts counted per username and address, shared by processes on PostgreSQL
  app.migrations.add(CreateLiveNotices())  // live notices the command-line tool leaves for the running server (SQLite)
  app.migrations.add(UploadHolds())  // uploads in flight held against their account's quota, shared by processes on PostgreSQL
  app.migrations.add(CreateRecoveryCodes())  // one-time codes that set a new password when the old one is forgotten
  app.migrations.add(AddSessionLastSeen())  // browser sessions end after 30 idle days, not only at their absolute limit
  app.migrations.add(CreateFeedOutbox())  // posts copied into followers' feeds after the completion, a batch per write
  app.migrations.add(AddPhotoKeeping())  // which photos are posted, and each account's unposted uploads as a kept count
  app.migrations.add(AddStreakFreezes())  // streak freezes bought with points, and the missed days they covered
  app.migrations.add(CreateProjectUndo())  // each person's last task changes, so an undo is done on the server and reaches every window
  app.migrations.add(AddProjectArchived())  // archived projects leave the sidebar's list and keep their counts
  app.migrations.add(CreateProjectHeadings())  // headings inside a project, each task under one of them or none
  app.migrations.add(AddProjectUndoHeading())  // a heading added, renamed or deleted is on the undo list too
  app.migrations.add(AddProjectUndoSlots())  // the undo list as a ring of slots: a step recorded is one statement

  app.passwords.use(.bcrypt(cost: options.passwordCost))
  // A connection that neither sends nor receives for this long is closed: a client that stalls (or opens
  // connections to hold them) cannot keep them forever. Live streams write a heartbeat every 15 s.
  app.http.server.configuration.idleTimeout = .milliseconds(Int64(options.idleTimeout * 1000))
  // The idle timeout is reset by every byte, so a request's head also has a deadline of its own; and a request
  // the HTTP parser refuses gets a 400 instead of a bare close (see GuardedServer).
  let guardSettings = ConnectionGuardSettings(
    headTimeout: .milliseconds(Int64(options.requestHeadTimeout * 1000)), connections: app.services.connections,
    closed: { [metrics = app.services.metrics] reason in metrics.connectionClosed(reason) }, logger: app.logger)
  app.servers.use { app in GuardedServer(inner: app.http.server.shared, settings: guardSettings) }
  // JSON responses are written as they are encoded instead of through Foundation's boxed tree (about 20×
  // faster for a cryptogram board; see docs/PERFORMANCE.md). Same output as Vapor's default encoder.
  ContentConfiguration.global.use(encoder: StreamingContentEncoder(), for: .json)
  app.routes.defaultMaxBodySize = ByteCount(value: options.maxBodySize)

  try app.register(collection: SiteController())
  try app.register(collection: AccountController())
  try app.register(collection: MotionController())
  try app.register(collection: CryptogramController())
  try app.register(collection: KidsController())
  try app.register(collection: ProjectsController())
  try app.register(collection: ChallengesController())
  try app.register(collection: SocialController())
  try app.register(collection: ShareVideoController())
  // Open live streams end first, so the server can stop without waiting for pages that never hang up.
  app.lifecycle.use(LiveStreamsShutdown())
  app.lifecycle.use(FeedJanitor.periodic)
  if options.copiesFeedsInBackground { app.lifecycle.use(app.services.feedFanOut) }
  app.lifecycle.use(PhotoJanitor.periodic)
  app.lifecycle.use(GuestPruning.periodic)
  if case .sqliteFile = options.database { app.lifecycle.use(LiveNoticeLog.watcher(startingAt: app.services.clock.now())) }
  app.lifecycle.use(SessionRevocations())
  app.lifecycle.use(PasswordWorkShutdown())
  app.lifecycle.use(UploadSweep())
  if case .sqliteFile(let path) = options.database { app.lifecycle.use(SQLiteCheckpointer(path: path)) }
  if options.testHooks {
    app.logger.warning("Test hooks are on: POST /api/test/clock moves the game clock. Never use this for real play.")
    try app.register(collection: TestHooksController())
  }

  // Middleware after routes, so the error middleware knows every route's methods (for 405s).
  app.middleware = Middlewares()
  app.middleware.use(MetricsMiddleware())
  app.middleware.use(RouteLoggingMiddleware())
  app.middleware.use(SecurityHeadersMiddleware())
  let methods = MethodIndex(routes: app.routes.all)
  app.middleware.use(APIErrorMiddleware(methodsByPath: methods))
  app.middleware.use(CrossSiteRequestMiddleware(methodsByPath: methods))
  app.middleware.use(StaticFilesMiddleware(publicDirectory: options.publicDirectory.path + "/"))
  app.middleware.use(SessionMiddleware())
}

/// Makes the database ready: WAL mode for SQLite files, then every pending migration.
public func prepareDatabase(_ app: Application) async throws {
  // Two processes starting at once on a new SQLite file (`serve` and `play`, two `play`s) would both create
  // the tables; the second to start waits for the first to finish instead.
  let lock = try await MigrationFileLock.acquire(for: app.serverOptions.database)
  defer { lock?.release() }
  if app.serverOptions.database.kind == "sqlite" {
    let sql = app.db.sql
    // WAL lets readers carry on while one writer commits; the setting is stored in the file.
    try await sql.raw("PRAGMA journal_mode=WAL").run()
    // synchronous=FULL: every commit is on disk before it returns, so a reward the server acknowledged
    // survives a power cut. The writes waiting at the same moment share one commit (group commit, see
    // DatabaseWriteGate), which is what keeps this affordable. It is a per-connection setting, so set it on
    // the pooled connection of every event loop.
    for eventLoop in app.eventLoopGroup.makeIterator() {
      if let pooled = app.databases.database(.sqlite, logger: app.logger, on: eventLoop)?.sql {
        // The same settings as group commit's own connection (SQLiteWriter).
        for setting in SQLiteWriter.connectionSettings(synchronous: app.serverOptions.sqliteDurability.synchronous) {
          try await pooled.execute(sql: SQLRaw(setting)) { _ in }
        }
      }
    }
  }
  try await app.autoMigrate()
  // Stored responses are kept for 48 hours; older ones go at every start (and daily, see `serve`).
  try await IdempotencyKey.prune(before: app.services.clock.now(), on: app.db)
  // The bundled quotes join the database so games can refer to them (new ones arrive with upgrades).
  let added = try await QuoteStore.syncBundled(on: app.db)
  if added > 0 { app.logger.info("Added \(added) bundled quotes to the library.") }
}

/// Closes group commit's SQLite connection and stops its thread when the app shuts down.
private struct SQLiteWriterShutdown: LifecycleHandler {
  let writer: SQLiteWriter

  func shutdownAsync(_ application: Application) async {
    await writer.close()
  }
}

/// Removes a throwaway SQLite database's files when the app shuts down.
private struct ThrowawayDatabase: LifecycleHandler {
  let path: String

  func shutdown(_ application: Application) {
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }
}

/// An exclusive lock on a file beside a SQLite database, held while it is migrated.
final class MigrationFileLock: Sendable {
  private let descriptor: Int32

  private init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Waits for the lock of `database`'s file (nil for databases that are not a SQLite file).
  static func acquire(for database: ServerOptions.Database) async throws -> MigrationFileLock? {
    guard case .sqliteFile(let path) = database else { return nil }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let descriptor = open(path + ".migrate-lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return nil }
    // flock blocks: wait on a thread of its own, not an event loop.
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        _ = flock(descriptor, LOCK_EX)
        done.resume()
      }
    }
    return MigrationFileLock(descriptor: descriptor)
  }

  /// Lets the next process go on.
  func release() {
    _ = flock(descriptor, LOCK_UN)
    close(descriptor)
  }
}
