import ArgumentParser
import CompletionClient
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command that talks to a running server finds it, and who it acts as.
struct ServerOptionsGroup: ParsableArguments {
  @Option(help: "The server's address (default $COMPLETIONKIT_SERVER, or http://127.0.0.1:8080).")
  var server: String?

  @Option(help: "A bearer token from `completionkit login` (default $COMPLETIONKIT_TOKEN).")
  var token: String?

  var serverURL: String {
    server ?? ProcessInfo.processInfo.environment["COMPLETIONKIT_SERVER"] ?? "http://127.0.0.1:8080"
  }

  /// A client signed in with the token, or an error saying how to get one.
  func client() throws -> CompletionClient {
    guard let token = token ?? ProcessInfo.processInfo.environment["COMPLETIONKIT_TOKEN"], !token.isEmpty else {
      throw ClientTransportError(description: "No token: run `completionkit login --username NAME` and set COMPLETIONKIT_TOKEN, or pass --token.")
    }
    return CompletionClient(server: serverURL, credential: .bearer(token))
  }
}

/// Runs a client command: its output on standard output; a refusal from the server, or a server that is not
/// there, as one kind line on standard error and exit 1 (not the usage text: nothing was typed wrong).
func runClientCommand(_ body: () async throws -> String) async throws {
  do {
    print(try await body())
  } catch let error as APIError where error.needsSignIn {
    FileHandle.standardError.write(
      Data("Your token is unknown, revoked or expired: sign in again with `completionkit login --username NAME` and use the new token.\n".utf8))
    throw ExitCode.failure
  } catch let error as APIError {
    FileHandle.standardError.write(Data("\(error.message) (\(error.code))\n".utf8))
    throw ExitCode.failure
  } catch let error as ClientTransportError {
    FileHandle.standardError.write(Data("\(error.description)\n".utf8))
    throw ExitCode.failure
  } catch let error as TaskConsole.Problem {
    FileHandle.standardError.write(Data("\(error.description)\n".utf8))
    throw ExitCode.failure
  }
}

struct Login: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Sign in to a running server and print a bearer token for scripts and `completionkit tasks`.",
    discussion: "The password is read from $COMPLETIONKIT_PASSWORD, or from standard input (not echoed on a terminal).")

  @OptionGroup var target: ServerOptionsGroup
  @Option(help: "Your username.") var username: String

  func run() async throws {
    let password = readSecret("Password: ", environment: "COMPLETIONKIT_PASSWORD")
    let client = CompletionClient(server: target.serverURL)
    try await runClientCommand {
      try await client.login(username: username, password: password)
      let token = try await client.createToken()
      return """
        \(token.token)
        Signed in as \(token.user.username ?? username). Keep this token secret; use it with:
          export COMPLETIONKIT_TOKEN=\(token.token)
        """
    }
  }
}

/// A secret from the environment variable `environment`, else typed at the terminal (not echoed), else the next
/// line of standard input.
func readSecret(_ prompt: String, environment: String) -> String {
  if let fromEnvironment = ProcessInfo.processInfo.environment[environment] { return fromEnvironment }
  if isatty(STDIN_FILENO) == 1, let typed = getpass(prompt) { return String(cString: typed) }
  return readLine(strippingNewline: true) ?? ""
}

struct PasswordCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "password",
    abstract: "Change your password. Every other sign-in ends, this token too: sign in again afterwards.",
    discussion: """
      The current password is read from $COMPLETIONKIT_PASSWORD and the new one from $COMPLETIONKIT_NEW_PASSWORD, \
      or both from standard input (not echoed on a terminal).
      """)

  @OptionGroup var target: ServerOptionsGroup

  func run() async throws {
    let client = try target.client()
    let current = readSecret("Current password: ", environment: "COMPLETIONKIT_PASSWORD")
    let new = readSecret("New password: ", environment: "COMPLETIONKIT_NEW_PASSWORD")
    try await runClientCommand {
      let answer = try await client.changePassword(current: current, new: new)
      let others = answer.endedSignIns == 1 ? "1 other sign-in was" : "\(answer.endedSignIns) other sign-ins were"
      return answer.signedOut
        ? "Password changed; \(others) ended. This token has stopped working too: sign in again with `completionkit login --username NAME`."
        : "Password changed; \(others) ended."
    }
  }
}

struct RecoverCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "recover",
    abstract: "Set a new password with one of your recovery codes (a forgotten password), and print a new token.",
    discussion: """
      The code is read from $COMPLETIONKIT_RECOVERY_CODE and the new password from $COMPLETIONKIT_NEW_PASSWORD, or \
      both from standard input (not echoed on a terminal). Each code works once; every other sign-in ends.
      """)

  @OptionGroup var target: ServerOptionsGroup
  @Option(help: "Your username.") var username: String

  func run() async throws {
    let code = readSecret("Recovery code: ", environment: "COMPLETIONKIT_RECOVERY_CODE")
    let new = readSecret("New password: ", environment: "COMPLETIONKIT_NEW_PASSWORD")
    let client = CompletionClient(server: target.serverURL)
    try await runClientCommand {
      let answer = try await client.recover(username: username, code: code, newPassword: new)
      let token = try await client.createToken()
      let left = answer.recoveryCodesLeft == 1 ? "1 recovery code is" : "\(answer.recoveryCodesLeft) recovery codes are"
      return """
        \(token.token)
        New password set for \(answer.user.username ?? username); every other sign-in was ended and \(left) left.
        Keep this token secret; use it with:
          export COMPLETIONKIT_TOKEN=\(token.token)
        """
    }
  }
}

struct TasksCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tasks",
    abstract: "Your projects' tasks on a running server: list, add, complete, reopen, undo (open pages follow live).",
    subcommands: [List.self, Add.self, Done.self, Reopen.self, Undo.self], defaultSubcommand: List.self)

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The Inbox and every project, with each task's short id.")
    @OptionGroup var target: ServerOptionsGroup
    @Option(help: "Only this project (or \"inbox\").") var project: String?

    func run() async throws {
      try await runClientCommand {
        let console = TaskConsole(client: try target.client())
        return try await console.list(project: project)
      }
    }
  }

  struct Add: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Add a task to the Inbox or to a project.")
    @OptionGroup var target: ServerOptionsGroup
    @Option(help: "The project's name (default: the Inbox).") var project: String?
    @Argument(help: "The task's title.") var title: String

    func run() async throws {
      try await runClientCommand {
        let console = TaskConsole(client: try target.client())
        return try await console.add(title, project: project)
      }
    }
  }

  struct Done: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Complete a task, named by its id (or the start of it) or its title.")
    @OptionGroup var target: ServerOptionsGroup
    @Argument(help: "The task's id, the first characters of it, or its title.") var task: String

    func run() async throws {
      try await runClientCommand {
        let console = TaskConsole(client: try target.client())
        return try await console.setCompleted(task, true)
      }
    }
  }

  struct Reopen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark a completed task as not done.")
    @OptionGroup var target: ServerOptionsGroup
    @Argument(help: "The task's id, the first characters of it, or its title.") var task: String

    func run() async throws {
      try await runClientCommand {
        let console = TaskConsole(client: try target.client())
        return try await console.setCompleted(task, false)
      }
    }
  }

  struct Undo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Take back your last change of a task (from here or any page), as Undo on the page does.")
    @OptionGroup var target: ServerOptionsGroup

    func run() async throws {
      try await runClientCommand {
        let console = TaskConsole(client: try target.client())
        return try await console.undo()
      }
    }
  }
}
