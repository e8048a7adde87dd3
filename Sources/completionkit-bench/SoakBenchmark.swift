import AsyncHTTPClient
import Foundation
import Synchronization
import Vapor

/// A long run at a steady load against a server in another process (`completionkit serve`, release build):
/// 32 players guess at half the rate that saturates the server (measured first, unless given), open loop —
/// each player's turns are due on a fixed schedule, and a turn's latency counts from when it was due, so a
/// stall shows up instead of slowing the load down. Prints per minute the guesses, errors, p50/p99/max and
/// the server's resident memory; at the end, memory at the start and the end.
///
///   completionkit-bench soak http://127.0.0.1:8095 10 [guesses-per-second] [server-pid]
func runSoak(base: String, minutes: Double, rate givenRate: Double?, serverPID: Int32?) async throws {
  var configuration = HTTPClient.Configuration()
  configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1024
  let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
  let players = (0..<32).map { _ in Player(client: client, base: base) }
  for player in players { try await player.start() }

  let rate: Double
  if let givenRate {
    rate = givenRate
  } else {
    let saturated = try await saturate(seconds: 20) { index in _ = try await players[index].guess() }
    rate = (saturated / 2).rounded()
    print(String(format: "saturating guess rate %.0f /s: soaking at half, %.0f /s", saturated, rate))
  }
  let startMemory = residentMegabytes(serverPID)
  print(String(format: "soak: %.0f guesses/s for %g min, 32 players; server RSS at the start %@", rate, minutes, startMemory.map { String(format: "%.1f MB", $0) } ?? "n/a"))
  print("minute  guesses  errors   p50 ms   p99 ms   max ms   server RSS")

  let minuteCount = Int(minutes.rounded(.up))
  let results = SoakResults(minutes: minuteCount)
  let clock = ContinuousClock()
  let begin = clock.now + .milliseconds(200)
  let end = begin + .seconds(minutes * 60)
  let period = Duration.seconds(Double(players.count) / rate)

  // Reports each minute as it closes.
  let reporter = Task {
    for minute in 0..<minuteCount {
      try? await Task.sleep(until: begin + .seconds(60 * (minute + 1)) + period * 2, clock: clock)
      let row = results.rows.withLock { $0[minute] }
      let sorted = row.latencies.sorted()
      guard !sorted.isEmpty else { continue }
      print(
        String(
          format: "%6d  %7d  %6d  %7.2f  %7.2f  %7.2f   %@", minute + 1, sorted.count, row.errors, percentile(sorted, 0.5) * 1e3,
          percentile(sorted, 0.99) * 1e3, (sorted.last ?? 0) * 1e3, residentMegabytes(serverPID).map { String(format: "%.1f MB", $0) } ?? "n/a"))
    }
  }

  try await withThrowingTaskGroup(of: Void.self) { group in
    for (index, player) in players.enumerated() {
      group.addTask {
        // Players start spread over one period, so the load is even.
        var due = begin + period * (Double(index) / Double(players.count))
        while due < end {
          try await Task.sleep(until: due, clock: clock)
          var failed = false
          do {
            let status = try await player.guess()
            failed = status != .ok && status != .conflict
          } catch {
            failed = true
          }
          let latency = (clock.now - due).inSeconds
          let minute = min(minuteCount - 1, Int((due - begin).inSeconds / 60))
          results.rows.withLock {
            $0[minute].latencies.append(latency)
            if failed { $0[minute].errors += 1 }
          }
          due += period
        }
      }
    }
    try await group.waitForAll()
  }
  _ = await reporter.value
  let all = results.rows.withLock { $0 }
  let errors = all.map(\.errors).reduce(0, +)
  let total = all.map(\.latencies.count).reduce(0, +)
  let endMemory = residentMegabytes(serverPID)
  print(
    String(
      format: "total %d guesses, %d errors; server RSS start %@, end %@", total, errors,
      startMemory.map { String(format: "%.1f MB", $0) } ?? "n/a", endMemory.map { String(format: "%.1f MB", $0) } ?? "n/a"))
  try await client.shutdown()
}

/// Guesses and errors per minute of a soak, filled by every player.
final class SoakResults: Sendable {
  struct Minute: Sendable {
    var latencies: [Double] = []
    var errors = 0
  }

  let rows: Mutex<[Minute]>

  init(minutes: Int) {
    rows = Mutex([Minute](repeating: Minute(), count: minutes))
  }
}

/// The resident memory of process `pid` in MB, from /proc.
func residentMegabytes(_ pid: Int32?) -> Double? {
  guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
    let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
  else { return nil }
  return kilobytes / 1024
}
