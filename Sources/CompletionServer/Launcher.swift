import Cryptogram
import Foundation
import NIOCore
import NIOPosix
import FluentSQL
import Vapor

/// A command-line failure with a message meant for a person.
public struct LauncherError: Error, CustomStringConvertible {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}

/// Starting and migrating the server from the command line, without the CLI importing Vapor.
public enum Launcher {
  /// Describes where data lives without printing secrets (a PostgreSQL URL's password is masked).
  public static func describe(_ database: ServerOptions.Database) -> String {
    switch database {
    case .sqliteFile(let path): return "SQLite at \(path)"
    case .sqliteMemory: return "a throwaway SQLite file"
    case .postgres(let url):
      guard let components = URLComponents(string: url), let host = components.host else { return "PostgreSQL" }
      let user = components.user.map { $0 + (components.password == nil ? "" : ":***") + "@" } ?? ""
      let port = components.port.map { ":\($0)" } ?? ""
      return "PostgreSQL at \(components.scheme ?? "postgres")://\(user)\(host)\(port)\(components.path)"
    }
  }

  /// Prints a progress line at once, even when stdout is a file or a pipe.
  static func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  /// Runs Swift concurrency's tasks on the server's event-loop threads instead of a second thread pool.
  ///
  /// A request then moves between the network code and the async route code without waking another
  /// thread; on a small machine each such wake-up costs more than the work itself (see
  /// docs/PERFORMANCE.md). Call it first thing in `main`, before any task runs; returns false if it was
  /// too late or is unsupported, in which case everything still works, just with more thread hops.
  @discardableResult
  public static func runTasksOnEventLoops() -> Bool {
    NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
  }

  /// Whether `level` names a log level (trace … critical).
  public static func isValidLogLevel(_ level: String) -> Bool {
    Logger.Level(rawValue: level) != nil
  }

  /// Builds a configured, migrated app, printing what it does (a first start can take a moment).
  static func makeApplication(
    options: ServerOptions, arguments: [String], logLevel: String, quiet: Bool = false
  ) async throws -> Application {
    var environment = Environment(name: ProcessInfo.processInfo.environment["COMPLETIONKIT_ENV"] ?? "production", arguments: ["completionkit"])
    environment.arguments = arguments
    let app = try await Application.make(environment)
    app.logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
    do {
      try configure(app, options: options)
      if !quiet { say("CompletionKit \(CompletionKitVersion.current): preparing the database (\(describe(options.database)))…") }
      try await prepareDatabase(app)
      return app
    } catch {
      try? await app.asyncShutdown()
      throw error
    }
  }

  /// A server running inside this process (for a command that needs one, like `completionkit play`).
  public final class InProcessServer: Sendable {
    /// Its address, e.g. `http://127.0.0.1:49152`.
    public let base: String
    private let app: Application

    init(base: String, app: Application) {
      self.base = base
      self.app = app
    }

    /// Stops serving and closes the database.
    public func stop() async {
      await app.endLiveStreams()
      await app.server.shutdown()
      try? await app.asyncShutdown()
    }
  }

  /// Migrates and serves on a free port of 127.0.0.1, silently (nothing is printed; only errors are logged).
  public static func startInProcess(options: ServerOptions) async throws -> InProcessServer {
    let app = try await makeApplication(options: options, arguments: ["completionkit"], logLevel: "error", quiet: true)
    do {
      try await app.asyncBoot()
      try await app.server.start(address: .hostname("127.0.0.1", port: 0))
      guard let port = app.http.server.shared.localAddress?.port else { throw LauncherError("The server started without a port.") }
      return InProcessServer(base: "http://127.0.0.1:\(port)", app: app)
    } catch {
      try? await app.asyncShutdown()
      throw error
    }
  }

  /// Migrates, then serves HTTP on `host:port` until interrupted.
  public static func serve(options: ServerOptions, host: String, port: Int, logLevel: String) async throws {
    let app = try await makeApplication(
      options: options, arguments: ["completionkit", "serve", "--hostname", host, "--port", String(port)], logLevel: logLevel)
    // Stored idempotent responses are kept 48 hours: prune once a day while serving (and at every start).
    let pruning = app.eventLoopGroup.next().scheduleRepeatedTask(initialDelay: .hours(24), delay: .hours(24)) { [app] _ in
      Task { _ = try? await IdempotencyKey.prune(before: app.services.clock.now(), on: app.db) }
    }
    defer { pruning.cancel() }
    say("CompletionKit is ready: open http://\(host):\(port)/  (Ctrl-C stops it)")
    do {
      try await app.execute()
    } catch {
      try? await app.asyncShutdown()
      throw error
    }
    try await app.asyncShutdown()
  }

  /// Reads quotes from a JSON or CSV file and adds the new ones to the library. The whole file is checked
  /// first: a file with any bad row changes nothing, and the error lists every bad row.
  /// Returns a one-line report.
  public static func importQuotes(options: ServerOptions, path: String, format: String?, logLevel: String) async throws -> String {
    let chosen: QuoteImport.Format
    if let format {
      guard let parsed = QuoteImport.Format(rawValue: format.lowercased()) else { throw LauncherError("Unknown format '\(format)': use json or csv.") }
      chosen = parsed
    } else {
      guard let guessed = QuoteImport.Format(fileName: path) else {
        throw LauncherError("Cannot tell the format of \(path) from its name: add --format json or --format csv.")
      }
      chosen = guessed
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw LauncherError("Cannot read \(path): \(error.localizedDescription)")
    }
    let quotes: [Quote]
    do {
      quotes = try QuoteImport.parse(data, format: chosen)
    } catch {
      throw LauncherError(error.description)
    }
    let app = try await makeApplication(options: options, arguments: ["completionkit"], logLevel: logLevel)
    do {
      let result = try await QuoteStore.importQuotes(quotes, on: app.db)
      try await app.asyncShutdown()
      return "Imported \(result.added) new quote\(result.added == 1 ? "" : "s")"
        + (result.alreadyPresent > 0 ? " (\(result.alreadyPresent) already in the library)." : ".")
    } catch {
      try? await app.asyncShutdown()
      throw error
    }
  }

  /// What a check (`completionkit ledger verify`, `projects verify`) found.
  public struct LedgerReport: Sendable {
    /// One line per finding, then a summary line.
    public let lines: [String]
    /// True when every kept balance equals the sum of its entries and none is negative.
    public let isClean: Bool
  }

  /// Recomputes every ledger balance from its entries and compares it with the kept balance.
  public static func verifyLedger(options: ServerOptions, logLevel: String) async throws -> LedgerReport {
    try await withApplication(options: options, logLevel: logLevel) { app in
      let report = try await LedgerVerification.verify(on: app.db)
      var lines = report.differences.map { "mismatch: \($0)" } + report.negative.map { "negative: \($0)" }
      let clean = report.differences.isEmpty && report.negative.isEmpty
      lines.append(
        clean
          ? "Ledger is consistent: \(report.balancesChecked) balance\(report.balancesChecked == 1 ? " matches its" : "s match their") entries."
          : "Ledger has \(report.differences.count) mismatched and \(report.negative.count) negative balance(s).")
      return LedgerReport(lines: lines, isClean: clean)
    }
  }

  /// Removes guest accounts older than `idleDays` (default: the configured idle time) that never saved anything.
  public static func pruneGuests(options: ServerOptions, idleDays: Double?, logLevel: String) async throws -> String {
    try await withApplication(options: options, logLevel: logLevel) { app in
      let idle = idleDays.map { $0 * 86_400 } ?? options.guestIdleTime
      let removed = try await GuestPruning.prune(idle: idle, now: app.services.clock.now(), app: app)
      let days = idle / 86_400
      let age = days == days.rounded() ? String(Int(days)) : String(format: "%.1f", days)
      return "Removed \(removed) guest account\(removed == 1 ? "" : "s") older than \(age) day\(days == 1 ? "" : "s") that never saved anything."
    }
  }

  /// Recounts every project's and Inbox's tasks and compares them with the kept counts.
  public static func verifyProjects(options: ServerOptions, logLevel: String) async throws -> LedgerReport {
    try await withApplication(options: options, logLevel: logLevel) { app in
      let (checked, mismatches) = try await SQLProjectsStore(app.db).verify()
      var lines = mismatches.map { "mismatch: \($0)" }
      lines.append(
        mismatches.isEmpty
          ? "Project counts are consistent: \(checked) list\(checked == 1 ? "" : "s") match a recount."
          : "Project counts differ from a recount in \(mismatches.count) list(s).")
      return LedgerReport(lines: lines, isClean: mismatches.isEmpty)
    }
  }

  /// Runs `body` on a configured, migrated app and shuts it down, whatever happens.
  static func withApplication<T>(
    options: ServerOptions, logLevel: String, _ body: (Application) async throws -> T
  ) async throws -> T {
    let app = try await makeApplication(options: options, arguments: ["completionkit"], logLevel: logLevel)
    do {
      let result = try await body(app)
      try await app.asyncShutdown()
      return result
    } catch {
      try? await app.asyncShutdown()
      throw error
    }
  }

  /// Applies pending migrations and exits.
  public static func migrate(options: ServerOptions, logLevel: String) async throws {
    let app = try await makeApplication(options: options, arguments: ["completionkit"], logLevel: logLevel)
    try await app.asyncShutdown()
  }
}
