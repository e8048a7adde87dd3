import ArgumentParser
import CompletionAPI
import CompletionClient
import CompletionServer
import Cryptogram
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `completionkit play`: the cryptogram in a terminal, over the HTTP API like any other client.
struct PlayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract: "Play the cryptogram in this terminal.",
    discussion: """
      Type letters to fill the highlighted cell; Tab or the arrow keys move, ? gives a hint, Space pauses, \
      ! starts a new puzzle (after a yes when one is under way), Esc quits. Without --server it starts a server of its own on the data folder \
      (the same puzzles, stats and streak as `completionkit serve`). Colours are left out under NO_COLOR; \
      when the input is not a terminal, each line is a move (letters, or hint, pause, next, new, quit) and \
      the board is printed after it.
      """)

  @Option(help: "A running server's address (default: start one here on the data folder).")
  var server: String?

  @Option(help: "A bearer token from `completionkit login` (default $COMPLETIONKIT_TOKEN; without one you play as a guest).")
  var token: String?

  @Flag(help: "A random quote instead of today's daily.")
  var random = false

  @Option(help: "With --random: short, medium or long.")
  var length: QuoteLength?

  @OptionGroup var data: DataOptions

  func validate() throws {
    if length != nil, !random { throw ValidationError("--length goes with --random (the daily puzzle has its own length).") }
  }

  func run() async throws {
    let options = data.serverOptions()
    var started: Launcher.InProcessServer?
    let base: String
    if let server {
      base = server
    } else {
      started = try await Launcher.startInProcess(options: options)
      base = started!.base
    }
    // Short requests: a person is waiting in front of the screen.
    let probe = CompletionClient(server: base, timeout: .seconds(2))
    let sessions = TerminalSessions(folder: options.dataDirectory, server: server == nil ? "local" : probe.server)
    let token = token ?? ProcessInfo.processInfo.environment["COMPLETIONKIT_TOKEN"]
    let credential: ClientCredential =
      if let token, !token.isEmpty { .bearer(token) } else { sessions.load().map { .session($0) } ?? .none }
    let client = CompletionClient(server: base, credential: credential, timeout: .seconds(5))
    do {
      // Is anyone there? A refused connection is retried by the pool until the deadline, so ask briefly.
      _ = try await probe.health()
      if case .bearer = credential, (try await client.me()).username == nil {
        throw ClientTransportError(description: "That token is not valid (or has expired): run `completionkit login` for a new one.")
      }
    } catch {
      await started?.stop()
      FileHandle.standardError.write(Data("\((error as? APIError)?.message ?? "\(error)")\n".utf8))
      throw ExitCode.failure
    }
    let interactive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    let color = interactive && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
    let mode: CryptogramModel.Mode = random ? .random(length) : .daily
    // What brings this game back: the same server and data folder (the mode is added on leaving).
    let command = (["completionkit play"] + (server.map { ["--server", $0] } ?? []) + (data.dataDirectory.map { ["--data-dir", $0] } ?? []))
      .joined(separator: " ")
    let outcome: Result<Void, any Error> = await Task { @MainActor in
      let game = TerminalGame(client: client, color: color, interactive: interactive, command: command) { cookie in sessions.save(cookie) }
      do {
        try await game.play(mode: mode)
        return .success(())
      } catch {
        return .failure(error)
      }
    }.value
    await started?.stop()
    if case .failure(let error) = outcome {
      FileHandle.standardError.write(Data("\((error as? APIError)?.message ?? "\(error)")\n".utf8))
      throw ExitCode.failure
    }
  }
}

extension QuoteLength: ExpressibleByArgument {}

/// The guest session of `completionkit play`, kept in the data folder so the next game goes on with the
/// same puzzles, stats and streak.
struct TerminalSessions {
  let file: URL
  let server: String

  init(folder: URL, server: String) {
    file = folder.appendingPathComponent("terminal-sessions.json")
    self.server = server
  }

  func load() -> String? {
    guard let data = try? Data(contentsOf: file), let all = try? JSONDecoder().decode([String: String].self, from: data) else { return nil }
    return all[server]
  }

  func save(_ cookie: String) {
    var all = (try? Data(contentsOf: file)).flatMap { try? JSONDecoder().decode([String: String].self, from: $0) } ?? [:]
    all[server] = cookie
    try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    if let data = try? JSONEncoder().encode(all) {
      try? data.write(to: file, options: [.atomic])
      chmod(file.path, 0o600)  // a session is a sign-in: only its owner reads it
    }
  }
}

/// One game in the terminal: raw keys in, frames out; or, when the input is not a terminal, lines in and
/// plain boards out.
@MainActor
final class TerminalGame {
  let model: CryptogramModel
  let clock = SystemModelClock()
  let color: Bool
  let interactive: Bool
  /// Keeps the session once the server has made one (a guest's first move), so a closed window loses nothing.
  let keepSession: (String) -> Void
  /// The command that started this game, less its mode, for the goodbye.
  let command: String
  private var savedSession: String?
  private var size = TerminalSize.standard
  private var saved = termios()
  private var frameTimer: ScheduledAction?

  init(client: CompletionClient, color: Bool, interactive: Bool, command: String, keepSession: @escaping (String) -> Void) {
    self.command = command
    self.color = color
    self.interactive = interactive
    self.keepSession = keepSession
    model = CryptogramModel(client: client, clock: clock, timeZone: .current)
  }

  func play(mode: CryptogramModel.Mode) async throws {
    if case .random = mode, let current = try? await model.client.currentCryptogram().game, current.mode == "random" {
      // An unfinished random puzzle is taken up again rather than left behind.
      await model.open().value
    } else {
      await model.start(mode).value
    }
    guard model.game != nil else { throw ClientTransportError(description: model.problem ?? "No puzzle could be opened.") }
    rememberSession()
    // Coming back is the app coming to the front: a puzzle paused on leaving runs on.
    await model.phaseChanged(to: .active).value
    if interactive { try await playInTerminal() } else { await playFromLines() }
    // Leaving is the app going to the back: the puzzle's clock stops until the next game.
    await model.phaseChanged(to: .background).value
    rememberSession()
  }

  private func rememberSession() {
    guard case .session(let cookie) = model.client.credential, cookie != savedSession else { return }
    savedSession = cookie
    keepSession(cookie)
  }

  // MARK: A terminal

  /// What the main loop hears: keys, a new window size, or the end (Esc, a closed window, a signal).
  private enum Event {
    case keys([TerminalKey])
    case resize
    case quit
  }

  private func playInTerminal() async throws {
    enterRawMode()
    defer { leaveRawMode() }
    let (events, continuation) = AsyncStream<Event>.makeStream()
    // Keys are read on a thread of their own: a blocking read must not hold the main actor.
    let reader = Thread {
      var buffer = [UInt8](repeating: 0, count: 64)
      while true {
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count <= 0 {
          continuation.yield(.quit)
          return
        }
        continuation.yield(.keys(TerminalKey.parse(Array(buffer[0..<count]))))
      }
    }
    reader.start()
    // A closed window (SIGHUP), a kill (SIGTERM) or Ctrl-C from elsewhere end the game like Esc: the terminal is
    // put back, the clock stopped, the session kept.
    var sources: [any DispatchSourceSignal] = []
    for (number, event) in [(SIGWINCH, Event.resize), (SIGHUP, .quit), (SIGTERM, .quit), (SIGINT, .quit)] {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler { continuation.yield(event) }
      source.resume()
      sources.append(source)
    }
    defer { for source in sources { source.cancel() } }
    // Moves are carried out one after another by a worker of their own, so Esc is heard even while the
    // server is slow to answer.
    let (moves, mover) = AsyncStream<TerminalKey>.makeStream()
    let worker = Task { @MainActor [self] in
      for await key in moves {
        let wasSolved = model.isSolved
        if await CryptogramTerminal.handle(key, on: model) == .quit {
          continuation.yield(.quit)
          return
        }
        rememberSession()
        if model.isSolved != wasSolved { scheduleFrames() }
        draw()
      }
    }
    defer {
      mover.finish()
      worker.cancel()
    }
    size = Self.currentSize()
    draw()
    scheduleFrames()
    for await event in events {
      switch event {
      case .quit: return
      case .resize:
        size = Self.currentSize()
        draw()
      case .keys(let keys):
        if keys.contains(.quit) { return }
        for key in keys { mover.yield(key) }
        // A move shows "waiting" at once if the server is slow.
        draw()
      }
    }
  }

  /// Redraws on the model's clock: every second for the timer, more often while the wiggle and the
  /// celebration play.
  private func scheduleFrames() {
    frameTimer?.cancel()
    let playing = model.isWiggling || (model.celebrationElapsed.map { $0 < (model.celebration?.totalDuration ?? 0) + 0.5 } ?? false)
    frameTimer = clock.schedule(after: playing ? 1.0 / 30 : 1) { [weak self] in
      guard let self else { return }
      self.draw()
      self.scheduleFrames()
    }
  }

  private func draw() {
    let lines = CryptogramTerminal.render(model, size: size, color: color)
    // Home, each line cleared to its end, then the rest of the screen cleared: no flicker, no leftovers.
    var frame = "\u{1B}[H"
    for (index, line) in lines.enumerated() {
      frame += line + "\u{1B}[K" + (index < lines.count - 1 ? "\r\n" : "")
    }
    frame += "\u{1B}[J"
    FileHandle.standardOutput.write(Data(frame.utf8))
  }

  private func enterRawMode() {
    tcgetattr(STDIN_FILENO, &saved)
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
    // The alternate screen keeps the shell's scrollback as it was; the cursor hides while playing.
    FileHandle.standardOutput.write(Data("\u{1B}[?1049h\u{1B}[?25l".utf8))
  }

  private func leaveRawMode() {
    frameTimer?.cancel()
    FileHandle.standardOutput.write(Data("\u{1B}[?25h\u{1B}[?1049l".utf8))
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    let parts = Calendar.current.dateComponents([.year, .month, .day], from: Date())
    let today = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    if let line = CryptogramTerminal.goodbye(model, command: command, today: today) {
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
  }

  static func currentSize() -> TerminalSize {
    var window = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else {
      return .standard
    }
    return TerminalSize(columns: Int(window.ws_col), rows: Int(window.ws_row))
  }

  // MARK: Lines (a script or a pipe)

  private func playFromLines() async {
    size = TerminalSize(
      columns: ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80,
      rows: ProcessInfo.processInfo.environment["LINES"].flatMap(Int.init) ?? 24)
    printBoard()
    while let line = readLine() {
      let wasSolved = model.isSolved
      for key in TerminalKey.parse(line: line) {
        if await CryptogramTerminal.handle(key, on: model) == .quit { return }
      }
      rememberSession()
      if model.isSolved, !wasSolved {
        await playCelebrationAsText()
      } else {
        printBoard()
      }
    }
  }

  /// Writes at once: a program reading the board waits for it before it sends the next move.
  private func write(_ text: String) {
    FileHandle.standardOutput.write(Data(text.utf8))
  }

  private func printBoard() {
    let lines = CryptogramTerminal.render(model, size: size, color: false, keys: .lines)
    // A pipe gets the board without the blank padding a window needs.
    write(lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.joined(separator: "\n") + "\n\n")
  }

  /// The solved sequence as text: each part printed at its step's time in the server's choreography.
  private func playCelebrationAsText() async {
    guard let celebration = model.celebration else { return printBoard() }
    var printed: [String] = []
    for step in celebration.steps.sorted(by: { $0.delay < $1.delay }) {
      let wait = step.delay - (model.celebrationElapsed ?? 0)
      if wait > 0 {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
          clock.schedule(after: wait) { done.resume() }
        }
      }
      let lines = CryptogramTerminal.render(model, size: size, color: false, keys: .lines)
        .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      for line in lines.dropFirst() where !printed.contains(line) && !line.hasPrefix("Lines:") {
        write(line + "\n")
        printed.append(line)
      }
    }
    write("\n")
  }
}
