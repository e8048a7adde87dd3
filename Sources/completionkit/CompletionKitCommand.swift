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
    subcommands: [Serve.self, Migrate.self, Quotes.self, LedgerCommand.self, ProjectsCommand.self, AccountsCommand.self, Login.self, PasswordCommand.self, RecoverCommand.self, TasksCommand.self, PlayCommand.self, ChallengesCommand.self, ModerationCommand.self, DemoCommand.self]
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

struct AccountsCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accounts", abstract: "Look after accounts.", subcommands: [Prune.self])

  struct Prune: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Remove guest accounts that never saved anything and are older than the idle time (the server also does this daily).")

    @OptionGroup var data: DataOptions

    @Option(help: "Days a guest must be old before it may go (default 30, or $COMPLETIONKIT_GUEST_IDLE_DAYS).")
    var idleDays: Double?

    func validate() throws {
      if let idleDays, !(idleDays >= 0) { throw ValidationError("--idle-days must be 0 or more.") }
    }

    func run() async throws {
      LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
      print(try await Launcher.pruneGuests(options: data.serverOptions(), idleDays: idleDays, logLevel: data.logLevel))
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

struct ChallengesCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "challenges", abstract: "Manage the Challenges catalogue.", subcommands: [Import.self])

  struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add challenges from a JSON file (the built-in catalogue's format). A file with any bad row changes nothing.")

    @OptionGroup var data: DataOptions
    @Argument(help: "The JSON file: an array of {slug, type, title, description, requirements, date?, days?}.")
    var file: String

    func run() async throws {
      LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
      do {
        print(try await Launcher.importChallenges(options: data.serverOptions(), path: file, logLevel: data.logLevel))
      } catch let error as LauncherError {
        FileHandle.standardError.write(Data((error.description + "\n").utf8))
        throw ExitCode.failure
      }
    }
  }
}

struct ModerationCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "moderation", abstract: "Review reported challenge completions.", subcommands: [List.self, Keep.self, Revoke.self])

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List completions hidden until reviewed, with their reports and history.")
    @OptionGroup var data: DataOptions
    @Flag(help: "Every reported completion, reviewed or not.") var all = false

    func run() async throws {
      LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
      for line in try await Launcher.moderationList(options: data.serverOptions(), all: all, logLevel: data.logLevel) { print(line) }
    }
  }

  struct Keep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Keep a completion: it shows in feeds again.")
    @OptionGroup var data: DataOptions
    @Argument(help: "The completion's id (from `moderation list`).") var id: String
    @Option(help: "Why (kept in the record).") var note = ""

    func run() async throws { try await review(.keep, id: id, note: note, data: data) }
  }

  struct Revoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Revoke a completion: hidden for good, its points paid back through the ledger, the streak counted again.")
    @OptionGroup var data: DataOptions
    @Argument(help: "The completion's id (from `moderation list`).") var id: String
    @Option(help: "Why (kept in the record).") var note = ""

    func run() async throws { try await review(.revoke, id: id, note: note, data: data) }
  }

  static func review(_ decision: ChallengesModeration.Decision, id: String, note: String, data: DataOptions) async throws {
    LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
    do {
      print(try await Launcher.moderationReview(options: data.serverOptions(), id: id, decision: decision, note: note, logLevel: data.logLevel))
    } catch let error as LauncherError {
      FileHandle.standardError.write(Data((error.description + "\n").utf8))
      throw ExitCode.failure
    }
  }
}

struct DemoCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo", abstract: "Fill a database with demo data.", subcommands: [Challenges.self])

  struct Challenges: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "People (demo1…demoN, password demo-password) who follow each other, and two weeks of their completions, congratulations and comments.")
    @OptionGroup var data: DataOptions
    @Option(help: "How many people.") var users = 200
    @Option(help: "How many people each one follows.") var follows = 20

    func run() async throws {
      LoggingSystem.bootstrap(RedactingLogHandler.standardOutput)
      do {
        print(try await Launcher.demoChallenges(options: data.serverOptions(), users: users, follows: follows, logLevel: data.logLevel))
      } catch let error as LauncherError {
        FileHandle.standardError.write(Data((error.description + "\n").utf8))
        throw ExitCode.failure
      }
    }
  }
}
