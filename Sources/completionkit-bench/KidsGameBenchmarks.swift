import Foundation
import KidsGame

/// KidsGame budget: one state transition in the core ≤ 1 µs.
func runKidsGameBenchmarks(rounds: Int) {
  print("KidsGame benchmarks — one event through GameMachine.handle, \(rounds) rounds")
  let start = Date(timeIntervalSince1970: 1_800_000_000)
  let data = GameData(
    players: [PlayerData(id: "alexander", name: "Alexander", coins: 3)], settings: AppSettings(parentSettings: ParentSettings()))
  var machine = GameMachine(seed: 1, data: data)
  _ = machine.handle(.loadingTick(elapsed: LoadingScreen.handOffAfter))
  _ = machine.handle(.selectPlayer("alexander", at: Date(timeIntervalSince1970: 0)))
  precondition(machine.state == .home, "the benchmark must start at home")

  // Navigation: home → activity selection → back home (two transitions a round).
  let clock = ContinuousClock()
  var samples: [Double] = []
  samples.reserveCapacity(rounds)
  var effects = 0
  for round in 0..<(rounds + 1_000) {
    let began = clock.now
    effects &+= machine.handle(.tapActivity(.zahlen)).count
    effects &+= machine.handle(.back).count
    let elapsed = began.duration(to: clock.now)
    if round >= 1_000 {
      samples.append((elapsed.inSeconds) / 2)
    }
  }
  precondition(machine.state == .home && effects > 0)
  samples.sort()
  print(
    String(
      format: "navigation transition (home ⇄ activity selection)  p50 %6.3f µs  p99 %6.3f µs  (budget 1 µs)",
      percentile(samples, 0.5) * 1e6, percentile(samples, 0.99) * 1e6))

  // Gameplay: in Würfel, roll the die and tap the right number (a level, a coin, sometimes a celebration).
  _ = machine.handle(.tapActivity(.zahlen))
  _ = machine.handle(.tapSubActivity(.wuerfel))
  var now = start
  samples.removeAll(keepingCapacity: true)
  var transitions = 0
  for _ in 0..<rounds {
    now = now.addingTimeInterval(5)
    let roll = machine.handle(.rollDie(at: now))
    var asked: Int?
    for case .speak(let line) in roll { if let n = line.text.compactMap(\.wholeNumberValue).first { asked = n } }
    now = now.addingTimeInterval(1)
    let began = clock.now
    let tap = machine.handle(.tapNumber(asked ?? 1, at: now))
    let elapsed = began.duration(to: clock.now)
    samples.append(elapsed.inSeconds)
    transitions += tap.count
    // Leave the level-complete moment (and any celebration) to keep playing.
    _ = machine.handle(.levelCompleteFinished)
    if machine.state == .celebrationOverlay { _ = machine.handle(.tapWeiter) }
    if machine.state == .treasureScreen { _ = machine.handle(.back); _ = machine.handle(.tapActivity(.zahlen)); _ = machine.handle(.tapSubActivity(.wuerfel)) }
  }
  samples.sort()
  print(
    String(
      format: "gameplay transition (right number → level complete)  p50 %6.3f µs  p99 %6.3f µs  (budget 1 µs; %d effects)",
      percentile(samples, 0.5) * 1e6, percentile(samples, 0.99) * 1e6, transitions))
}
