import AsyncHTTPClient
import CompletionAPI
import CompletionServer
import Cryptogram
import Foundation
import StreamingJSON
import Synchronization
import Vapor

/// One simulated player: a guest with a cookie and a random puzzle it plays by guessing letters in turn.
/// Its `request` is the HTTP client every server benchmark uses.
final class Player: @unchecked Sendable {
  let client: HTTPClient
  let base: String
  var cookie = ""
  var game: GameGlance?
  /// Cipher letters this player has solved in its game, and the game's progress after its last move.
  var solved: Set<String> = []
  var completed = 0
  var nextLetter = 0
  /// Guesses the server did not take (a player out of step with its game), over all players.
  static let rereads = Atomic<Int>(0)

  /// Prints how many guesses the server did not take (0 when the players kept in step).
  static func reportRereads() {
    print("guesses the server did not take (a player out of step with its game): \(rereads.load(ordering: .relaxed))")
  }
  /// Seconds from sending the last guess until its whole response body arrived (no client-side decoding).
  var lastGuessSeconds = 0.0

  init(client: HTTPClient, base: String) {
    self.client = client
    self.base = base
  }

  func request(_ method: HTTPMethod, _ path: String, body: (some Encodable)?) async throws -> (HTTPResponseStatus, ByteBuffer) {
    var request = HTTPClientRequest(url: base + path)
    request.method = method
    if !cookie.isEmpty { request.headers.add(name: "Cookie", value: "ck_session=\(cookie)") }
    request.headers.add(name: "X-CompletionKit", value: "1")  // as the site's pages send it
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(body)))
    }
    let response = try await client.execute(request, timeout: .seconds(30))
    if let setCookie = response.headers.first(name: "Set-Cookie"), setCookie.hasPrefix("ck_session=") {
      cookie = String(setCookie.dropFirst("ck_session=".count).prefix { $0 != ";" })
    }
    return (response.status, try await response.body.collect(upTo: 1 << 22))
  }

  func start() async throws {
    try await newGame()  // the first write makes the guest
  }

  func newGame() async throws {
    let (_, body) = try await request(.POST, "/api/cryptogram/games", body: NewCryptogramGameRequest(mode: "random", length: .medium))
    read(try JSONDecoder().decode(GameGlance.self, from: body))
  }

  /// Takes a whole game as the server sent it.
  private func read(_ game: GameGlance) {
    self.game = game
    solved = Set(game.cells.filter { $0.isLetter && $0.shown != nil }.compactMap(\.cipher))
    completed = game.progress.completed
  }

  /// One guess on the first cell whose cipher letter is not solved yet, cycling through the alphabet;
  /// starts a new puzzle when done.
  func guess() async throws -> HTTPResponseStatus {
    guard let game, let cell = game.cells.first(where: { $0.isLetter && !solved.contains($0.cipher ?? "") }) else {
      try await newGame()
      return .ok
    }
    let letter = String(Letters.letter(nextLetter % 26))
    nextLetter += 1
    let clock = ContinuousClock()
    let started = clock.now
    let (status, body) = try await request(.POST, "/api/cryptogram/games/\(game.id)/guesses", body: CryptogramGuessRequest(cell: cell.index, letter: letter))
    lastGuessSeconds = started.duration(to: clock.now).inSeconds
    if status == .ok {
      // The player keeps its own board: a right letter fills every cell of its cipher letter.
      let move = try JSONDecoder().decode(MoveGlance.self, from: body)
      if move.game.progress.completed > completed, let cipher = cell.cipher { solved.insert(cipher) }
      completed = move.game.progress.completed
      if move.game.status == "failed" {
        // Keep playing without a limit: the load stays on the guess path.
        let (_, body) = try await request(.POST, "/api/cryptogram/games/\(game.id)/continue", body: Optional<String>.none)
        read(try JSONDecoder().decode(FullMoveGlance.self, from: body).game)
      } else if move.game.status == "solved" {
        try await newGame()
      }
    } else {
      // Out of step with the server (never expected; counted and reported): read the whole game again.
      Player.rereads.add(1, ordering: .relaxed)
      let (_, body) = try await request(.GET, "/api/cryptogram/games/\(game.id)", body: Optional<String>.none)
      read(try JSONDecoder().decode(GameGlance.self, from: body))
    }
    return status
  }
}

/// A game's progress, as far as a player reads it.
struct Progress: Decodable {
  let completed: Int
}

/// What a player reads of a whole game: its cells, to choose guesses from.
struct GameGlance: Decodable {
  struct Cell: Decodable {
    let index: Int
    let isLetter: Bool
    let cipher: String?
    let shown: String?
  }

  let id: String
  let cells: [Cell]
  let progress: Progress
}

/// What a player reads of a move: whether the guess was right and how the game stands. The server sends
/// the whole game either way. Decoding its ~90 cells with Foundation's Codable on every move cost the load
/// generator more CPU than the server spent on the guess, on the same two cores (a page's `JSON.parse`
/// is far cheaper), so the player keeps its own board instead.
struct MoveGlance: Decodable {
  struct Game: Decodable {
    let status: String
    let progress: Progress
  }

  let game: Game
}

/// A move response read whole (after continuing a failed game).
struct FullMoveGlance: Decodable {
  let game: GameGlance
}

func runCryptogramBenchmarks(seconds: Double) async throws {
  print("Cryptogram benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores visible")

  // 1. Making a puzzle (budget ≤ 1 ms), over every quote in the library.
  let quotes = QuoteLibrary.bundled.quotes
  let clock = ContinuousClock()
  var samples: [Double] = []
  for round in 0..<20 {
    for (index, quote) in quotes.enumerated() {
      let start = clock.now
      let puzzle = Puzzle(quote: quote, seed: UInt64(round * 10_000 + index))
      let elapsed = start.duration(to: clock.now)
      precondition(!puzzle.cells.isEmpty)
      samples.append(elapsed.inSeconds)
    }
  }
  samples.sort()
  print(String(format: "make a puzzle (%d quotes × 20)          p50 %6.1f µs  p99 %6.1f µs  max %6.1f µs  (budget 1000 µs)",
               quotes.count, percentile(samples, 0.5) * 1e6, percentile(samples, 0.99) * 1e6, (samples.last ?? 0) * 1e6))

  // 1b. The CPU a guess costs the server outside the database: decode the stored board, apply the guess,
  // encode the board again, encode the response (a medium quote).
  do {
    let quote = quotes.first { $0.length == .medium }!
    let puzzle = Puzzle(quote: quote, seed: 7)
    let stored = String(decoding: try JSONEncoder().encode(Board(puzzle: puzzle)), as: UTF8.self)
    let cell = puzzle.cells.first { $0.isLetter && !puzzle.prefilled.contains($0.index) }!
    var parts: [[Double]] = [[], [], [], [], [], []]
    for _ in 0..<2_000 {
      var start = clock.now
      var board = try JSONDecoder().decode(Board.self, from: Data(stored.utf8))
      parts[0].append(start.duration(to: clock.now).inSeconds)
      start = clock.now
      let effects = board.handle(.guess(cell: cell.index, letter: "E", at: Date()), in: puzzle)
      parts[1].append(start.duration(to: clock.now).inSeconds)
      start = clock.now
      _ = try JSONEncoder().encode(board)
      parts[2].append(start.duration(to: clock.now).inSeconds)
      start = clock.now
      let response = CryptogramMoveResponse(
        game: CryptogramGameView(id: "x", mode: "random", date: nil, puzzle: puzzle, board: board, elapsedSeconds: 1),
        effects: effects.map(CryptogramEffectView.init), celebration: nil, wiggle: nil)
      parts[3].append(start.duration(to: clock.now).inSeconds)
      start = clock.now
      _ = try JSONEncoder().encode(response)
      parts[4].append(start.duration(to: clock.now).inSeconds)
      start = clock.now
      _ = try StreamingJSONEncoder().encode(response)
      parts[5].append(start.duration(to: clock.now).inSeconds)
    }
    for (label, samples) in zip(["decode the stored board", "apply a guess", "encode the board", "build the move response", "encode it (Foundation JSONEncoder)", "encode it (StreamingJSONEncoder, used)"], parts) {
      let sorted = samples.sorted()
      print(label.padding(toLength: 40, withPad: " ", startingAt: 0)
        + String(format: " p50 %6.1f µs  p99 %6.1f µs", percentile(sorted, 0.5) * 1e6, percentile(sorted, 0.99) * 1e6))
    }
  }

  // 2. The server on SQLite, in this process, over real HTTP on loopback.
  let bench = try await BenchServer.start()
  let client = bench.client
  let base = bench.base

  // 2a. 32 players, each guessing twice a second (open loop: a turn is due every 0.5 s whatever the last took).
  let players = (0..<32).map { _ in Player(client: client, base: base) }
  for player in players { try await player.start() }
  let latencies = try await openLoop(players, seconds: seconds) { player in
    player.lastGuessSeconds = -1
    let status = try await player.guess()
    precondition(status == .ok || status == .conflict, "unexpected \(status)")
    // A turn that only started a new puzzle made no guess.
    return player.lastGuessSeconds >= 0 ? player.lastGuessSeconds : nil
  }
  report("guess round trip, 32 players × 2/s", latencies, note: "(\(latencies.count) guesses; budget p99 5 ms)")

  // 2a'. For comparison, the same open-loop load on a read (fetch the game) and on /health.
  for (label, path) in [("read a game (GET), 32 × 2/s", "game"), ("/health, 32 × 2/s", "/health")] {
    let reads = try await openLoop(players, seconds: seconds / 2) { player in
      let target = path == "game" ? "/api/cryptogram/games/\(player.game?.id ?? "")" : path
      let start = ContinuousClock.now
      _ = try await player.request(.GET, target, body: Optional<String>.none)
      return start.duration(to: .now).inSeconds
    }
    report(label, reads, note: "")
  }

  // 2b. Saturation: 32 players guessing as fast as they can, against /health with the same concurrency.
  let guessRate = try await saturate(seconds: seconds) { index in _ = try await players[index].guess() }
  let healthClients = (0..<32).map { _ in Player(client: client, base: base) }
  let healthRate = try await saturate(seconds: seconds) { index in
    _ = try await healthClients[index].request(.GET, "/health", body: Optional<String>.none)
  }
  print(String(format: "most guesses per second (32 concurrent)    %7.0f /s   /health %7.0f /s   ratio %.2f", guessRate, healthRate, guessRate / healthRate))
  Player.reportRereads()
  bench.reportGroupCommits()

  try await bench.stop()
}

/// The real server on a fresh SQLite file in this process, and an HTTP client for it.
struct BenchServer {
  let app: Application
  let client: HTTPClient
  let base: String
  let folder: URL

  static func start() async throws -> BenchServer {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-bench-\(UUID().uuidString)")
    var options = ServerOptions(database: .sqliteFile(path: folder.appendingPathComponent("bench.sqlite").path), dataDirectory: folder)
    options.passwordCost = 4
    options.guestsPerAddressPerHour = 0  // every simulated player comes from 127.0.0.1
    // BENCH_SQLITE=full or normal measures what durability and group commit cost (default: full-group).
    if let mode = ProcessInfo.processInfo.environment["BENCH_SQLITE"].flatMap(ServerOptions.SQLiteDurability.init(rawValue:)) {
      options.sqliteDurability = mode
    }
    print("SQLite: \(options.sqliteDurability.rawValue)")
    var environment = Environment.production
    environment.arguments = ["bench"]
    let app = try await Application.make(environment)
    app.logger.logLevel = .error
    try configure(app, options: options)
    try await prepareDatabase(app)
    try await app.asyncBoot()  // the lifecycle handlers `serve` runs too (background checkpoints, feed trimming)
    try await app.server.start(address: .hostname("127.0.0.1", port: 0))
    guard let port = app.http.server.shared.localAddress?.port else { fatalError("no port") }
    // One connection per simulated player: the client's default of 8 per host would queue requests in the
    // load generator and count that wait as server latency.
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1024
    let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    return BenchServer(app: app, client: client, base: "http://127.0.0.1:\(port)", folder: folder)
  }

  /// How many writes shared each SQLite commit so far.
  func reportGroupCommits() {
    guard let stats = app.groupCommitStats, stats.groups > 0 else { return }
    print(String(format: "SQLite commits: %d for %d writes (%.2f writes per commit)", stats.groups, stats.writes,
                 Double(stats.writes) / Double(stats.groups)))
  }

  func stop() async throws {
    try await client.shutdown()
    await app.server.shutdown()
    try await app.asyncShutdown()
    // BENCH_KEEP=1 keeps the database for a look afterwards (a query plan on the benchmark's data).
    if ProcessInfo.processInfo.environment["BENCH_KEEP"] == nil {
      try? FileManager.default.removeItem(at: folder)
    } else {
      print("The database is kept in \(folder.path)")
    }
  }
}

/// Saturation against a server in another process (`completionkit-bench serve` or `completionkit serve`), so
/// the server's own CPU per request can be read from its process (the in-process benchmark shares the
/// cores and the event loops with its load generator). Prints guesses/s, Waldabenteuer events/s and /health/s.
func runExternalLoad(base: String, seconds: Double, serverPID: Int32?) async throws {
  var configuration = HTTPClient.Configuration()
  configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1024
  let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
  let players = (0..<32).map { _ in Player(client: client, base: base) }
  for player in players { try await player.start() }
  /// The server's CPU seconds so far (user + system), from /proc.
  func serverCPU() -> Double? {
    guard let serverPID, let stat = try? String(contentsOfFile: "/proc/\(serverPID)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the command name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
  let guess: @Sendable (Int) async throws -> Void = { index in _ = try await players[index].guess() }
  let health: @Sendable (Int) async throws -> Void = { index in
    _ = try await players[index].request(.GET, "/health", body: Optional<String>.none)
  }
  // Waldabenteuer: families going home and back into the game (every event saved), as `kids-server` does. Its
  // client reads today's answers whole, so against an older commit's server leave it out (LOAD_KIDS=0).
  let withKids = ProcessInfo.processInfo.environment["LOAD_KIDS"] != "0"
  let families = (0..<(withKids ? 32 : 0)).map { _ in Family(http: Player(client: client, base: base)) }
  for family in families { try await family.start() }
  let event: @Sendable (Int) async throws -> Void = { index in try await families[index].walk() }
  // Projects: people ticking and unticking tasks of a 20-task project, as `projects` does.
  let planners = (0..<32).map { _ in Planner(http: Player(client: client, base: base)) }
  for planner in planners { try await planner.start() }
  let toggle: @Sendable (Int) async throws -> Void = { index in try await planners[index].toggle() }
  let phases = [("guess", guess)] + (withKids ? [("kids event", event)] : []) + [("task toggle", toggle), ("/health", health)]
  for (label, work) in phases {
    let before = serverCPU()
    let start = ContinuousClock.now
    let rate = try await saturate(seconds: seconds, work)
    let elapsed = start.duration(to: .now).inSeconds
    let cpu = before.flatMap { first in serverCPU().map { $0 - first } }
    let perRequest = cpu.map { String(format: "   server CPU %.3f ms per request (%.0f %% of a core)", $0 / (rate * elapsed) * 1e3, $0 / elapsed * 100) } ?? ""
    print(String(format: "%@ per second: %.0f", label, rate) + perRequest)
  }
  Player.reportRereads()
  try await client.shutdown()
}

/// Requests per second when 32 clients send `work` back to back for about half of `seconds` (at least 5 s).
func saturate(seconds: Double, _ work: @escaping @Sendable (Int) async throws -> Void) async throws -> Double {
  let clock = ContinuousClock()
  let window = Duration.seconds(max(seconds / 2, 5))
  let counts = try await withThrowingTaskGroup(of: Int.self) { group in
    for index in 0..<32 {
      group.addTask {
        var count = 0
        let end = clock.now + window
        while clock.now < end {
          try await work(index)
          count += 1
        }
        return count
      }
    }
    return try await group.reduce(0, +)
  }
  return Double(counts) / window.inSeconds
}

/// Runs the server (release build, SQLite in a temporary folder) until the process is stopped.
func serveForProbing(port: Int) async throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-probe-\(UUID().uuidString)")
  var options = ServerOptions(database: .sqliteFile(path: folder.appendingPathComponent("probe.sqlite").path), dataDirectory: folder)
  options.guestsPerAddressPerHour = 0  // the load generator's players all come from 127.0.0.1
  var environment = Environment.production
  environment.arguments = ["bench"]
  let app = try await Application.make(environment)
  app.logger.logLevel = .error
  try configure(app, options: options)
  try await prepareDatabase(app)
  try await app.asyncBoot()  // the lifecycle handlers `serve` runs too (background checkpoints, feed trimming)
  try await app.server.start(address: .hostname("127.0.0.1", port: port))
  print("serving on http://127.0.0.1:\(port)")
  try await Task.sleep(for: .seconds(3600))
}

/// Runs `turn` for every player twice a second for `seconds` (players spread over the half second so their
/// requests do not arrive together) and returns the sorted seconds each turn reported.
func openLoop<Client: Sendable>(
  _ players: [Client], seconds: Double, _ turn: @escaping @Sendable (Client) async throws -> Double?
) async throws -> [Double] {
  let clock = ContinuousClock()
  return try await withThrowingTaskGroup(of: [Double].self) { group in
    for (index, player) in players.enumerated() {
      group.addTask {
        var mine: [Double] = []
        let begin = clock.now
        var due = begin + .milliseconds(500 * index / players.count)
        while due < begin + .seconds(seconds) {
          try await Task.sleep(until: due, clock: clock)
          if let sample = try await turn(player) { mine.append(sample) }
          due += .milliseconds(500)
        }
        return mine
      }
    }
    return try await group.reduce(into: [Double]()) { $0 += $1 }.sorted()
  }
}

/// Prints p50, p99 and max in milliseconds.
func report(_ label: String, _ sorted: [Double], note: String) {
  print(
    label.padding(toLength: 42, withPad: " ", startingAt: 0)
      + String(format: "p50 %6.2f ms  p99 %6.2f ms  max %6.2f ms  ", percentile(sorted, 0.5) * 1e3, percentile(sorted, 0.99) * 1e3, (sorted.last ?? 0) * 1e3)
      + note)
}

extension Duration {
  /// The duration in seconds as a Double.
  var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
