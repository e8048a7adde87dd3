import CAllocationCounter
import CompletionCore
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
  var allocations: UInt64 = 0
  for round in 0..<(rounds + 1_000) {
    let counted = ck_allocation_count()
    let began = clock.now
    effects &+= machine.handle(.tapActivity(.zahlen)).count
    effects &+= machine.handle(.back).count
    let elapsed = began.duration(to: clock.now)
    if round >= 1_000 {
      samples.append((elapsed.inSeconds) / 2)
      allocations &+= ck_allocation_count() &- counted
    }
  }
  precondition(machine.state == .home && effects > 0)
  samples.sort()
  print(
    String(
      format: "navigation transition (home ⇄ activity selection)  p50 %6.3f µs  p99 %6.3f µs  allocations %.1f  (budget 1 µs)",
      percentile(samples, 0.5) * 1e6, percentile(samples, 0.99) * 1e6, Double(allocations) / Double(2 * rounds)))

  // Gameplay: in Würfel, roll the die and tap the right number (a level, a coin, sometimes a celebration).
  _ = machine.handle(.tapActivity(.zahlen))
  _ = machine.handle(.tapSubActivity(.wuerfel))
  var now = start
  samples.removeAll(keepingCapacity: true)
  var transitions = 0
  allocations = 0
  var rolls: [Double] = []
  rolls.reserveCapacity(rounds)
  var rollAllocations: UInt64 = 0
  for _ in 0..<rounds {
    now = now.addingTimeInterval(5)
    let rollCounted = ck_allocation_count()
    let rollBegan = clock.now
    let roll = machine.handle(.rollDie(at: now))
    rolls.append(rollBegan.duration(to: clock.now).inSeconds)
    rollAllocations &+= ck_allocation_count() &- rollCounted
    var asked: Int?
    for case .speak(let line) in roll { if let n = line.text.compactMap(\.wholeNumberValue).first { asked = n } }
    now = now.addingTimeInterval(1)
    let counted = ck_allocation_count()
    let began = clock.now
    let tap = machine.handle(.tapNumber(asked ?? 1, at: now))
    let elapsed = began.duration(to: clock.now)
    allocations &+= ck_allocation_count() &- counted
    samples.append(elapsed.inSeconds)
    transitions += tap.count
    // Leave the level-complete moment (and any celebration) to keep playing.
    _ = machine.handle(.levelCompleteFinished)
    if machine.state == .celebrationOverlay { _ = machine.handle(.tapWeiter) }
    if machine.state == .treasureScreen { _ = machine.handle(.back); _ = machine.handle(.tapActivity(.zahlen)); _ = machine.handle(.tapSubActivity(.wuerfel)) }
  }
  samples.sort()
  rolls.sort()
  print(
    String(
      format: "gameplay transition (roll the die → \"Zeig mir die N!\")  p50 %6.3f µs  p99 %6.3f µs  allocations %.1f  (budget 1 µs)",
      percentile(rolls, 0.5) * 1e6, percentile(rolls, 0.99) * 1e6, Double(rollAllocations) / Double(rounds)))
  print(
    String(
      format: "gameplay transition (right number → level complete)  p50 %6.3f µs  p99 %6.3f µs  allocations %.1f  (budget 1 µs; %d effects)",
      percentile(samples, 0.5) * 1e6, percentile(samples, 0.99) * 1e6, Double(allocations) / Double(rounds), transitions))

  runLabyrinthBenchmarks(rounds: max(200, rounds / 20))
}

/// Labyrinth budgets: generating a maze ≤ 5 ms; judging a traced path of 2,000 points ≤ 1 ms.
func runLabyrinthBenchmarks(rounds: Int) {
  let clock = ContinuousClock()
  var random = SeededRandom(seed: 11)
  var generate: [Double] = []
  var judge: [Double] = []
  var reached = 0
  for tolerance in [60.0, 44, 36] {
    for _ in 0..<rounds {
      let began = clock.now
      let maze = Labyrinth(tolerance: tolerance, using: &random)
      generate.append(began.duration(to: clock.now).inSeconds)
      // A finger's 2,000 points along the way through, wobbling inside the corridor.
      let corners = maze.solution.map(maze.centre(of:))
      var points: [MazePoint] = []
      points.reserveCapacity(2_000)
      for index in 0..<2_000 {
        let position = Double(index) / 1_999 * Double(corners.count - 1)
        let from = corners[min(corners.count - 1, Int(position))]
        let to = corners[min(corners.count - 1, Int(position) + 1)]
        let t = position - position.rounded(.down)
        let wobble = (index.isMultiple(of: 2) ? 0.5 : -0.5) * tolerance
        points.append(MazePoint(x: from.x + (to.x - from.x) * t + (from.y == to.y ? 0 : wobble), y: from.y + (to.y - from.y) * t + (from.y == to.y ? wobble : 0)))
      }
      let judged = clock.now
      if maze.judge(points) == .reachedGoal { reached += 1 }
      judge.append(judged.duration(to: clock.now).inSeconds)
    }
  }
  generate.sort()
  judge.sort()
  print(
    String(
      format: "labyrinth: generate a maze  p50 %6.1f µs  p99 %6.1f µs  (budget 5 ms; %d mazes)",
      percentile(generate, 0.5) * 1e6, percentile(generate, 0.99) * 1e6, generate.count))
  print(
    String(
      format: "labyrinth: judge a 2,000-point trace  p50 %6.1f µs  p99 %6.1f µs  (budget 1 ms; %d of %d reached ZIEL)",
      percentile(judge, 0.5) * 1e6, percentile(judge, 0.99) * 1e6, reached, judge.count))
}
