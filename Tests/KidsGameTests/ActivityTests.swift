import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import KidsGame

@Suite("Würfel and Wähle die Zahl")
struct ActivityTests {
  // MARK: Würfel

  @Test("Property: a roll is 1…6 and the same seed rolls the same")
  func seededRolls() async {
    await propertyCheck(count: 200, input: Gen.uint64()) { seed in
      var first = SeededRandom(seed: seed)
      var second = SeededRandom(seed: seed)
      var a = DiceRound()
      var b = DiceRound()
      let rolledA = a.roll(at: t0, using: &first)
      #expect(rolledA == b.roll(at: t0, using: &second))
      guard case .rolled(let face) = rolledA else { Issue.record("no roll"); return }
      #expect(DiceRound.faces.contains(face))
    }
    var generator = SeededRandom(seed: 1)
    var faces = Set<Int>()
    for _ in 0..<200 {
      var round = DiceRound()
      if case .rolled(let face) = round.roll(at: t0, using: &generator) { faces.insert(face) }
    }
    #expect(faces == Set(1...6))
  }

  @Test("The die rolls once; buttons wait for the roll and its 0.5 s tumble")
  func rollRules() {
    var generator = SeededRandom(seed: 2)
    var round = DiceRound()
    #expect(value(round.tap(3, at: t0)) == .refused(.notRolled))
    guard case .rolled(let face) = round.roll(at: t0, using: &generator) else { Issue.record("no roll"); return }
    #expect(value(round.roll(at: at(1), using: &generator)) == .refused(.alreadyRolled))
    #expect(value(round.tap(face, at: at(0.3))) == .refused(.stillRolling))
    #expect(value(round.tap(7, at: at(1))) == .refused(.numberOutOfRange))
    #expect(value(round.tap(face, at: at(0.5))) == .correct(face))
  }

  @Test("Taps within 300 ms count once")
  func debounce() {
    var generator = SeededRandom(seed: 3)
    var round = DiceRound()
    guard case .rolled(let face) = round.roll(at: t0, using: &generator) else { return }
    let wrong = face % 6 + 1
    #expect(value(round.tap(wrong, at: at(1))) == .wrong(tapped: wrong, answer: face))
    #expect(value(round.tap(face, at: at(1.29))) == .refused(.debounced))
    #expect(value(round.tap(face, at: at(1.3))) == .correct(face))
    var debounce = TapDebounce()
    #expect(value(debounce.accept(at: t0)))
    #expect(!debounce.wouldAccept(at: at(0.1)))
    #expect(!value(debounce.accept(at: at(0.1))))
    // A rejected tap does not push the window on.
    #expect(value(debounce.accept(at: at(0.3))))
  }

  @Test("A wrong tap costs nothing: the right button glows and Bennie names the tapped number")
  func wrongTapCostsNothing() {
    var game = Game(coins: 3)
    game.toPlaying()
    let rolled = game.send(.rollDie(at: game.later()))
    guard case .dieRolled(let face) = rolled.first else { Issue.record("no roll"); return }
    #expect(rolled.spoken == ["Zeig mir die \(face)!"])
    let wrong = face % 6 + 1
    let effects = game.send(.tapNumber(wrong, at: game.later()))
    #expect(effects.contains(.highlightNumber(face)))
    #expect(effects.contains(.sound(.gentleBoop)))
    #expect(effects.spoken == ["Das ist die \(wrong). Probier es nochmal!"])
    #expect(effects.coinChanges.isEmpty)
    #expect(game.coins == 3)
    #expect(game.state == .playing(.zahlen, .wuerfel))
    game.send(.tapNumber(face, at: game.later()))
    #expect(game.coins == 4)
    #expect(game.state == .levelComplete)
  }

  @Test("A debounced tap in the machine is a refusal and changes nothing")
  func machineDebounce() {
    var game = Game()
    game.toPlaying()
    guard case .dieRolled(let face) = game.send(.rollDie(at: t0)).first else { return }
    game.send(.tapNumber(face % 6 + 1, at: at(1)))
    let before = game.machine
    #expect(game.send(.tapNumber(face, at: at(1.1))).refusals == [.debounced])
    #expect(game.machine == before)
  }

  @Test("Idle prompts: after the roll at 10, 20 and 30 s, once each")
  func idlePrompts() {
    var game = Game()
    game.toPlaying()
    #expect(game.send(.idle(seconds: 15)).isEmpty)
    guard case .dieRolled(let face) = game.send(.rollDie(at: game.later())).first else { return }
    #expect(game.send(.idle(seconds: 5)).isEmpty)
    #expect(game.send(.idle(seconds: 10)).spoken == ["Zähle die Punkte."])
    #expect(game.send(.idle(seconds: 12)).isEmpty)
    #expect(game.send(.idle(seconds: 20)).spoken == ["Du hast die \(face) gewürfelt."])
    #expect(game.send(.idle(seconds: 30)).spoken == ["Wo ist die \(face)?"])
    #expect(game.send(.idle(seconds: 90)).isEmpty)
    // Any input starts a new quiet spell.
    game.send(.tapNumber(face % 6 + 1, at: game.later()))
    #expect(game.send(.idle(seconds: 10)).spoken == ["Zähle die Punkte."])
  }

  // MARK: Wähle die Zahl

  @Test("Property: the next target is 1…10 and never the previous one")
  func targetNeverRepeats() async {
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 0...10)) { seed, previous in
      var generator = SeededRandom(seed: seed)
      let last: Int? = previous == 0 ? nil : previous
      let next = NumberChoiceRound.nextTarget(after: last, using: &generator)
      #expect(NumberChoiceRound.numbers.contains(next))
      #expect(next != last)
    }
  }

  @Test("Property: in the machine, level after level, the number asked never repeats back to back")
  func machineTargets() async {
    await propertyCheck(count: 60, input: Gen.uint64()) { seed in
      var game = Game(seed: seed, mode: .tap)
      game.toPlaying(.waehleDieZahl)
      var asked: [Int] = []
      for _ in 0..<25 {
        asked.append(game.machine.activity?.askedNumber ?? 0)
        game.solveLevel()
        game.send(.levelCompleteFinished)
        if game.state == .celebrationOverlay { game.send(.tapWeiter) }
        if game.state == .treasureScreen {
          game.send(.back)
          game.send(.tapActivity(.zahlen))
          game.send(.tapSubActivity(.waehleDieZahl))
        }
      }
      for (a, b) in zip(asked, asked.dropFirst()) { #expect(a != b) }
      #expect(Set(asked).count > 3)
    }
  }

  @Test("Tap mode: a wrong tap shows the answer for 1.5 s, then the same number is asked again")
  func tapMode() {
    var game = Game(mode: .tap)
    game.toPlaying(.waehleDieZahl)
    let target = game.machine.activity?.askedNumber ?? 0
    let wrong = target % 10 + 1
    let effects = game.send(.tapNumber(wrong, at: game.later()))
    #expect(effects.contains(.showAnswer(target, seconds: 1.5)))
    #expect(effects.spoken == ["Das ist die \(wrong). Probier es nochmal!"])
    #expect(game.machine.activity?.askedNumber == target)
    #expect(game.coins == 0)
    #expect(game.send(.traceStroke(DigitStrokes.strokes(for: target)[0], at: game.later())).refusals == [.wrongMode])
    #expect(game.send(.tapNumber(11, at: game.later())).refusals == [.numberOutOfRange])
    game.send(.tapNumber(target, at: game.later()))
    #expect(game.state == .levelComplete)
  }

  @Test("Trace mode: the target glows; a poor trace clears with encouragement (\"Fast! Mal die 5 nochmal.\"); the same number stays")
  func traceMode() {
    var game = Game()
    game.toActivitySelection()
    let start = game.send(.tapSubActivity(.waehleDieZahl))
    let target = game.machine.activity?.askedNumber ?? 0
    #expect(start.contains(.highlightNumber(target)))
    #expect(start.spoken == ["Mal die \(target) nach!"])
    // A short dash in a corner, far from every number.
    let miss = game.send(.traceStroke([TracePoint(x: 0.95, y: 0.95), TracePoint(x: 0.99, y: 0.99)], at: game.later()))
    #expect(miss.contains(.clearTrace))
    #expect(miss.spoken == ["Fast! Mal die \(target) nochmal."])
    #expect(game.machine.activity?.askedNumber == target)
    if case .numberChoice(let round) = game.machine.activity?.round { #expect(round.strokes.isEmpty && round.wrongAttempts == 1) }
    #expect(game.send(.tapNumber(target, at: game.later())).refusals == [.wrongMode])
    game.solveLevel()
    #expect(game.state == .levelComplete)
    #expect(game.coins == 1)
  }

  @Test("Two-stroke numbers wait for the second stroke")
  func multiStroke() {
    // The "1" of a 10 alone is not enough: the round waits, and the "0" completes it.
    var ten = NumberChoiceRound(target: 10, mode: .trace)
    let tenStrokes = DigitStrokes.strokes(for: 10)
    guard case .traceContinues(let coverage) = ten.addStroke(tenStrokes[0]) else { Issue.record("should wait"); return }
    #expect(coverage < TraceScoring.requiredCoverage)
    #expect(ten.strokes.count == 1)
    #expect(value(ten.addStroke(tenStrokes[1])) == .correct(10))
    // Every number written stroke by stroke ends in success by its last stroke.
    for number in DigitStrokes.numbers {
      var round = NumberChoiceRound(target: number, mode: .trace)
      let outcomes = DigitStrokes.strokes(for: number).map { round.addStroke($0) }
      #expect(outcomes.contains(.correct(number)), "number \(number): \(outcomes)")
      #expect(!outcomes.contains(where: { if case .traceRetry = $0 { true } else { false } }))
    }
  }

  @Test("Half a one-stroke number is a miss once the stroke is done")
  func partialSingleStroke() {
    var round = NumberChoiceRound(target: 7, mode: .trace)
    let stroke = TraceScoring.resample(DigitStrokes.strokes(for: 7)[0])
    let half = Array(stroke.prefix(stroke.count / 2))
    guard case .traceRetry(let coverage) = round.addStroke(half) else { Issue.record("should be a miss"); return }
    #expect(coverage < 0.7)
    #expect(round.strokes.isEmpty)
  }
}

@Suite("Trace scoring")
struct TraceTests {
  @Test("Every number traced exactly succeeds, with full coverage and precision")
  func exactTraces() {
    for number in DigitStrokes.numbers {
      let score = TraceScoring.score(DigitStrokes.strokes(for: number), number: number)
      #expect(score.coverage == 1 && score.precision == 1, "number \(number)")
      #expect(score.isSuccess)
    }
  }

  @Test("Strokes stay inside the 0…1 box; 10 is a 1 and a 0")
  func strokesInBox() {
    for number in DigitStrokes.numbers {
      let strokes = DigitStrokes.strokes(for: number)
      #expect(!strokes.isEmpty)
      for point in strokes.flatMap({ $0 }) {
        #expect((0...1).contains(point.x) && (0...1).contains(point.y), "number \(number): \(point)")
      }
    }
    #expect(DigitStrokes.strokes(for: 10).count == 2)
    #expect(DigitStrokes.strokes(for: 0).isEmpty && DigitStrokes.strokes(for: 11).isEmpty)
  }

  @Test("70 % coverage within 0.1 of the box (30 pt at 300 pt) is the line between success and a miss")
  func threshold() {
    let line = [[TracePoint(x: 0, y: 0.5), TracePoint(x: 1, y: 0.5)]]
    // Tracing 0…0.65 covers up to 0.75 with the tolerance; 0…0.55 only up to 0.65.
    let enough = TraceScoring.score([[TracePoint(x: 0, y: 0.52), TracePoint(x: 0.65, y: 0.52)]], against: line)
    let short = TraceScoring.score([[TracePoint(x: 0, y: 0.52), TracePoint(x: 0.55, y: 0.52)]], against: line)
    #expect(enough.coverage >= 0.7 && enough.isSuccess)
    #expect(short.coverage < 0.7 && !short.isSuccess)
    // 30 pt off is still on; 40 pt off is not.
    #expect(TraceScoring.score([[TracePoint(x: 0, y: 0.6), TracePoint(x: 1, y: 0.6)]], against: line).coverage == 1)
    #expect(TraceScoring.score([[TracePoint(x: 0, y: 0.64), TracePoint(x: 1, y: 0.64)]], against: line).coverage == 0)
    #expect(TraceScoring.tolerance == 0.1)
  }

  /// A zig-zag over the whole box, and a tighter one over the middle.
  static let scribbles: [[TracePoint]] = [
    (0...20).map { TracePoint(x: $0.isMultiple(of: 2) ? 0.02 : 0.98, y: Double($0) / 20) },
    (0...24).map { TracePoint(x: $0.isMultiple(of: 2) ? 0.22 : 0.78, y: 0.04 + 0.92 * Double($0) / 24) },
  ]

  @Test("A scribble over the box fails for every number, though it covers all of it")
  func scribbleFails() {
    for number in DigitStrokes.numbers {
      for scribble in Self.scribbles {
        let score = TraceScoring.score([scribble], number: number)
        #expect(score.coverage == 1)
        #expect(!score.isSuccess, "scribble passed for \(number)")
      }
    }
  }

  @Test("Property: a wobbly hand (up to ±0.08, about 24 pt) still writes the number")
  func wobblyTrace() async {
    await propertyCheck(count: 100, input: Gen.uint64(), Gen.int(in: 1...10)) { seed, number in
      var generator = SeededRandom(seed: seed)
      let wobbly = DigitStrokes.strokes(for: number).map { stroke in
        TraceScoring.resample(stroke).enumerated().filter { $0.offset.isMultiple(of: 4) }.map { _, point in
          TracePoint(
            x: point.x + Double.random(in: -0.08...0.08, using: &generator),
            y: point.y + Double.random(in: -0.08...0.08, using: &generator))
        }
      }
      #expect(TraceScoring.score(wobbly, number: number).isSuccess)
    }
  }

  @Test("Screen points map into the number box")
  func screenMapping() {
    let point = TracePoint(screenX: 250, screenY: 400, boxOriginX: 100, boxOriginY: 100, boxSide: 300)
    #expect(point == TracePoint(x: 0.5, y: 1))
  }
}
