import ArgumentParser
import Foundation
import CompletionServer
import Logging

/// The program's entry: moves Swift concurrency onto the event loops before anything async runs, then
/// parses the command line.
@main
enum Entry {
  static func main() async {
    if ProcessInfo.processInfo.environment["COMPLETIONKIT_SEPARATE_TASK_THREADS"] != "1" {
      Launcher.runTasksOnEventLoops()
    }
    await CompletionKitCommand.main()
  }
}

/// `completionkit`: run the server, migrate its database.
struct CompletionKitCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "completionkit",
    abstract: "CompletionKit: puzzles, kids' games, projects and challenges, and the moment you finish them.",
    version: CompletionKitVersion.current,
    subcommands: [Serve.self, Migrate.self, Quotes.self, LedgerCommand.self, ProjectsCommand.self]
  )
}

/// Options shared by every command that opens the database.
struct DataOptions: ParsableArguments {
  @Option(
    name: .customLong("data-dir"),
    help: "Folder for the SQLite database and uploads (default ./.completionkit, or $COMPLETIONKIT_DATA).")
  var dataDirectory: String?

  @Option(help: "Log level: trace, debug, info, notice, warning, error or critical.")
  var logLevel: String = "info"

  func validate() throws {
    guard Launcher.isValidLogLevel(logLevel) else { throw ValidationError("Unknown log level '\(logLevel)'.") }
  }

  /// The server options: these flags first, then the environment (`DATABASE_URL`, `COMPLETIONKIT_DATA`).
  func serverOptions() -> ServerOptions {
    ServerOptions.fromEnvironment(dataDirectory: dataDirectory)
  }
}

struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Start the web server (migrates the database first).")

  @OptionGroup var data: DataOptions

  @Option(help: "Address to listen on.")
  var host: String = "127.0.0.1"

  @Option(help: "Port to listen on.")
  var port: Int = 8080

  func validate() throws {
    guard (1...65535).contains(port) else { throw ValidationError("The port must be between 1 and 65535.") }
  }

  func run() async throws {
    LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
    try await Launcher.serve(options: data.serverOptions(), host: host, port: port, logLevel: data.logLevel)
  }
}

struct Migrate: AsyncParsableCommand {
  static let configuration = CommandConfiguration(abstract: "Apply pending database migrations and exit.")

  @OptionGroup var data: DataOptions

  func run() async throws {
    LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
    try await Launcher.migrate(options: data.serverOptions(), logLevel: data.logLevel)
    print("Migrations are up to date.")
  }
}

struct Quotes: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Manage the cryptogram quote library.", subcommands: [Import.self])

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add quotes from a JSON or CSV file. A file with any bad row is refused whole; nothing stored is lost.",
      discussion: """
        JSON: an array of objects {"text": "...", "author": "...", "year": 1859, "source": "..."} (year and source optional).
        CSV: a header line naming the columns text and author, optionally year and source.
        """)

    @OptionGroup var data: DataOptions

    @Argument(help: "The file to import (.json or .csv).")
    var file: String

    @Option(help: "json or csv (default: from the file name).")
    var format: String?

    func run() async throws {
      LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
      do {
        let report = try await Launcher.importQuotes(options: data.serverOptions(), path: file, format: format, logLevel: data.logLevel)
        print(report)
      } catch let error as LauncherError {
        // A refused file is not a usage mistake: say what is wrong, without the usage text.
        FileHandle.standardError.write(Data((error.description + "\n").utf8))
        throw ExitCode.failure
      }
    }
  }
}

struct LedgerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ledger", abstract: "Check the reward ledger.", subcommands: [Verify.self])

  struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Recompute every balance from the ledger's entries and report any difference (exit 1 if there is one).")

    @OptionGroup var data: DataOptions

    func run() async throws {
      try await printReport(Launcher.verifyLedger, data: data)
    }
  }
}

struct ProjectsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "projects", abstract: "Check the Projects system's data.", subcommands: [Verify.self])

  struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Recount every project's and Inbox's tasks and report any difference from the kept counts (exit 1 if there is one).")

    @OptionGroup var data: DataOptions

    func run() async throws {
      try await printReport(Launcher.verifyProjects, data: data)
    }
  }
}

/// Runs a check, prints its lines, and exits 1 when it found a difference.
func printReport(_ check: (ServerOptions, String) async throws -> Launcher.LedgerReport, data: DataOptions) async throws {
  LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
  let report = try await check(data.serverOptions(), data.logLevel)
  for line in report.lines { print(line) }
  if !report.isClean { throw ExitCode.failure }
}
