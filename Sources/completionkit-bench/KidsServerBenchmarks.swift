import CompletionAPI
import CompletionServer
import Foundation
import AsyncHTTPClient
import Vapor

/// A family playing Würfel over HTTP: roll, tap the number shown, let the level finish, over and over.
final class Family: @unchecked Sendable {
  let http: Player
  var step = 0
  var face = 1
  var lastSeconds = 0.0

  init(http: Player) {
    self.http = http
  }

  /// Sends `event` with a fresh event id, as the page sends every event (so its response is stored for retries).
  func send(_ event: KidsEventRequest) async throws -> KidsResponse? {
    var event = event
    if event.eventID == nil { event.eventID = UUID().uuidString }
    let clock = ContinuousClock()
    let started = clock.now
    let (status, body) = try await http.request(.POST, "/api/kids/events", body: event)
    lastSeconds = started.duration(to: clock.now).inSeconds
    guard status == .ok else { return nil }
    return try JSONDecoder().decode(KidsResponse.self, from: body)
  }

  func start() async throws {
    _ = try await http.request(.POST, "/api/kids/launch", body: KidsLaunchRequest(timeZone: "Europe/Berlin"))
    var tick = KidsEventRequest(type: "loadingTick")
    tick.seconds = 7
    _ = try await send(tick)
    for (type, fill) in [("selectPlayer", "alexander"), ("tapActivity", "zahlen"), ("tapSubActivity", "wuerfel")] {
      var event = KidsEventRequest(type: type)
      event.player = fill
      event.activity = fill
      event.game = fill
      _ = try await send(event)
    }
  }

  /// Goes home from the game and back into it (home → the Zahlen sign → Würfel): events that are always
  /// accepted and saved (the coin loop cannot run flat out: the die needs 0.5 s and a level 2 s).
  func walk() async throws {
    defer { step += 1 }
    switch step % 3 {
    case 0:
      _ = try await send(KidsEventRequest(type: "back"))
    case 1:
      var sign = KidsEventRequest(type: "tapActivity")
      sign.activity = "zahlen"
      _ = try await send(sign)
    default:
      var game = KidsEventRequest(type: "tapSubActivity")
      game.game = "wuerfel"
      _ = try await send(game)
    }
  }

  /// The next event of the loop; every one is saved (the coin with its ledger entry on the tap).
  func turn() async throws {
    defer { step += 1 }
    switch step % 3 {
    case 0:
      if let response = try await send(KidsEventRequest(type: "rollDie")) { face = response.view.level?.askedNumber ?? 1 }
    case 1:
      var tap = KidsEventRequest(type: "tapNumber")
      tap.number = face
      _ = try await send(tap)
    default:
      let finished = try await send(KidsEventRequest(type: "levelCompleteFinished"))
      guard finished?.view.screen == "celebrationOverlay" else { return }
      // Every fifth coin: "Weiter"; at ten and more that opens the treasure, so go back into the game.
      let after = try await send(KidsEventRequest(type: "tapWeiter"))
      guard after?.view.screen == "treasureScreen" else { return }
      _ = try await send(KidsEventRequest(type: "back"))
      var sign = KidsEventRequest(type: "tapActivity")
      sign.activity = "zahlen"
      _ = try await send(sign)
      var game = KidsEventRequest(type: "tapSubActivity")
      game.game = "wuerfel"
      _ = try await send(game)
    }
  }
}

/// Waldabenteuer budget: an event through the server including its save ≤ 10 ms at the 99th percentile on
/// SQLite. 32 families each send an event twice a second (open loop), on real HTTP on loopback.
func runKidsServerBenchmarks(seconds: Double) async throws {
  print("Waldabenteuer server benchmark — \(ProcessInfo.processInfo.activeProcessorCount) cores visible")
  let bench = try await BenchServer.start()
  let families = (0..<32).map { _ in Family(http: Player(client: bench.client, base: bench.base)) }
  for family in families { try await family.start() }
  let latencies = try await openLoop(families, seconds: seconds) { family in
    try await family.turn()
    return family.lastSeconds
  }
  report("event round trip incl. save, 32 × 2/s", latencies, note: "(\(latencies.count) events; budget p99 10 ms)")

  // Saturation: 32 families going home and back into the game as fast as they can (every event saved),
  // against /health with the same concurrency.
  let walkers = (0..<32).map { _ in Family(http: Player(client: bench.client, base: bench.base)) }
  for walker in walkers { try await walker.start() }
  let eventRate = try await saturate(seconds: seconds) { index in try await walkers[index].walk() }
  let healthClients = (0..<32).map { _ in Player(client: bench.client, base: bench.base) }
  let healthRate = try await saturate(seconds: seconds) { index in
    _ = try await healthClients[index].request(.GET, "/health", body: Optional<String>.none)
  }
  print(String(format: "most events per second (32 concurrent)     %7.0f /s   /health %7.0f /s   ratio %.2f", eventRate, healthRate, eventRate / healthRate))
  bench.reportGroupCommits()

  try await bench.stop()
}

/// The completion pipeline's budget: recording a completion adds at most 1 ms to a write at the p50
/// (SQLite file, synchronous=FULL, one write at a time).
func runRecorderBenchmark(rounds: Int) async throws {
  print("Completion recorder benchmark — \(rounds) rounds")
  let bench = try await BenchServer.start()
  let (plain, recorded) = try await RecorderBenchmark.measure(on: bench.app, rounds: rounds)
  report("a write that saves one row", plain, note: "")
  report("the same write recording a completion", recorded, note: "")
  print(String(format: "the recorder adds %.3f ms at the p50 (budget 1 ms)", (percentile(recorded, 0.5) - percentile(plain, 0.5)) * 1e3))
  try await bench.stop()
}
