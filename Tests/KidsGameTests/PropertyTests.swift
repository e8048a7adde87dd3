import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import KidsGame

@Suite("Properties of the machine")
struct PropertyTests {
  /// Event 0 answers the level correctly (when one is open); the rest are taps a child or a caller might send.
  static let eventCount = 34
  /// Indices from `eventCount` up pick an event that fits the current state, so runs get deep into the game.
  static let choiceCount = 70

  /// An event that fits the current state (a likely next tap).
  static func likely(in game: inout Game, number: Int) -> [GameEvent] {
    switch game.state {
    case .loading: return [.loadingTick(elapsed: 7)]
    case .playerSelection: return [.selectPlayer(number.isMultiple(of: 3) ? "oliver" : "alexander", at: t0)]
    case .home: return [[GameEvent.tapActivity(.zahlen), .tapChest, .tapActivity(.zahlen), .tapSettings][number % 4]]
    case .activitySelection: return [.tapSubActivity(number.isMultiple(of: 2) ? .wuerfel : .waehleDieZahl)]
    case .playing:
      if number % 10 == 0 { return [.back] }
      if number % 10 == 1 { return [.tapNumber(number % 6 + 1, at: game.later())] }
      return event(0, in: &game, number: number)
    case .levelComplete: return [.levelCompleteFinished]
    case .celebrationOverlay: return [.tapWeiter]
    case .treasureScreen:
      return number % 5 == 0 ? [.back] : [.redeem(number.isMultiple(of: 2) ? .fiveMinutes : .twelveMinutes, online: true)]
    case .videoSelection: return number % 5 == 0 ? [.back] : [.chooseVideo(id: approvedID, online: true, at: game.now)]
    case .videoPlaying: return [.videoTick(at: game.later(Double(60 + number * 4)))]
    case .parentGate: return number % 5 == 0 ? [.back] : event(24, in: &game, number: 2 * number)
    case .parentDashboard: return number % 3 == 0 ? [.back] : event(25 + number % 9, in: &game, number: number)
    }
  }

  static func event(_ index: Int, in game: inout Game, number: Int) -> [GameEvent] {
    let now = game.later(0.4)
    switch index {
    case 0, 1, 2:
      return game.correctAnswer() + (game.machine.activity?.askedNumber).map { [.tapNumber($0, at: game.later())] }.orEmpty
    case 3: return [.loadingTick(elapsed: Double(number))]
    case 4: return [.selectPlayer(number.isMultiple(of: 2) ? "alexander" : "oliver", at: t0)]
    case 5: return [.tapActivity(ActivityType.allCases[number % 4])]
    case 6: return [.tapSubActivity(SubActivity.allCases[number % 4])]
    case 7: return [.tapChest]
    case 8: return [.tapSettings]
    case 9: return [.back]
    case 10: return [.home]
    case 11: return [.rollDie(at: now)]
    case 12: return [.tapNumber(number % 12, at: now)]
    case 13: return [.traceStroke(DigitStrokes.strokes(for: number % 10 + 1).first ?? [], at: now)]
    case 14: return [.idle(seconds: Double(number * 3))]
    case 15, 16: return [.levelCompleteFinished]
    case 17, 18: return [.tapWeiter]
    case 19: return [.redeem(number.isMultiple(of: 2) ? .fiveMinutes : .twelveMinutes, online: number % 7 != 0)]
    case 20: return [.chooseVideo(id: number.isMultiple(of: 3) ? "xxxxxxxxxxx" : approvedID, online: true, at: now)]
    case 21: return [.videoTick(at: game.later(Double(number * 20)))]
    case 22: return [.gateDigit(number % 11)]
    case 23: return [.gateErase]
    case 24:
      // Sometimes the right answer, sometimes not.
      if let gate = game.machine.navigation.gate, number.isMultiple(of: 2), gate.input.isEmpty {
        return String(gate.question.answer).compactMap { Int(String($0)) }.map(GameEvent.gateDigit) + [.gateConfirm]
      }
      return [.gateConfirm]
    case 25: return [.parent(.resetProgress(player: "alexander"))]
    case 26: return [.parent(.setDailyLimit(player: "alexander", minutes: [30, 45, 60, 7][number % 4]))]
    case 27: return [.parent(.setNumberChoiceMode(number.isMultiple(of: 2) ? .tap : .trace, player: "alexander"))]
    case 28: return [.parent(.addVideo(link: "https://youtu.be/abcdefghij\(number % 10)", title: "Video", at: now))]
    case 29: return [.playTimeUpdated(minutesToday: Double(number))]
    case 30: return [.openParentDeepLink]
    case 31: return [.appBackgrounded(at: now)]
    case 32: return [.appForegrounded(at: game.later(Double(number)))]
    default: return [.parent(.setActivity(.zahlen, enabled: !number.isMultiple(of: 5), player: "alexander"))]
    }
  }

  @Test(
    "Property: random event sequences never reach an undefined state; coins never go negative; the celebration only shows on a multiple of 5; refusals change nothing"
  )
  func randomSequences() async {
    // Each step packs an event index and a number (0…60) into one value.
    let steps = Gen.int(in: 0...(Self.choiceCount * 61 - 1)).array(of: 1...150)
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 0...30), steps) { seed, coins, steps in
      var game = Game(seed: seed, coins: coins, mode: coins.isMultiple(of: 2) ? .tap : .trace)
      var ledger = RewardLedger()
      // The coins the fixture starts with, as opening entries.
      for player in game.machine.data.players where player.coins > 0 {
        ledger.record(
          LedgerEntry(
            key: "opening:\(player.id)", account: player.id, currency: CoinChange.currency, amount: player.coins,
            reason: "opening", recordedAt: t0))
      }
      for step in steps {
        let index = step % Self.choiceCount
        let number = step / Self.choiceCount
        let events =
          index < Self.eventCount ? Self.event(index, in: &game, number: number) : Self.likely(in: &game, number: number)
        for event in events {
          let before = game.machine
          let effects = game.send(event)
          #expect(game.machine.consistencyProblems.isEmpty, "\(game.machine.consistencyProblems) after \(event.name)")
          #expect(game.machine.data.players.allSatisfy { $0.coins >= 0 })
          if game.state == .celebrationOverlay { #expect(CoinRules.isMilestone(game.coins)) }
          for case .showCelebration(let shown) in effects { #expect(shown > 0 && shown % 5 == 0) }
          if !effects.refusals.isEmpty {
            #expect(game.machine == before, "refused \(event.name) changed the machine")
            #expect(effects.transitions.isEmpty)
          }
          for change in effects.coinChanges {
            guard case .recorded(_, let balance) = ledger.record(change.ledgerEntry(at: t0)) else {
              Issue.record("ledger refused \(change)")
              continue
            }
            #expect(balance == change.balance)
          }
        }
      }
      for player in game.machine.data.players {
        #expect(ledger.balance(of: player.id, in: CoinChange.currency) == player.coins)
      }
      // Whatever the state, saving and restoring gives a consistent game with the same data.
      if let saved = try? game.machine.encoded() {
        let (restored, _) = GameMachine.restore(from: saved, seed: 0)
        #expect(restored.consistencyProblems.isEmpty)
        #expect(restored.data == game.machine.data)
      } else {
        Issue.record("could not encode")
      }
    }
  }

  @Test("Property: the same seed and events give the same game")
  func deterministic() async {
    await propertyCheck(count: 100, input: Gen.uint64(), Gen.int(in: 0...5).array(of: 1...30)) { seed, choices in
      func run() -> (GameMachine, [GameEffect]) {
        var game = Game(seed: seed, coins: 3)
        game.toPlaying(choices.first.map { $0.isMultiple(of: 2) ? SubActivity.wuerfel : .waehleDieZahl } ?? .wuerfel)
        var effects: [GameEffect] = []
        for choice in choices {
          switch choice {
          case 0, 1: effects += game.solveLevel()
          case 2: effects += game.send(.levelCompleteFinished)
          case 3: effects += game.send(.tapWeiter)
          case 4: effects += game.send(.tapNumber(choice, at: game.later()))
          default: effects += game.send(.rollDie(at: game.later()))
          }
        }
        return (game.machine, effects)
      }
      let first = run()
      let second = run()
      #expect(first.0 == second.0)
      #expect(first.1 == second.1)
    }
  }

  @Test("Property: a saved generator resumes its sequence exactly where it stopped")
  func randomResumes() async throws {
    await propertyCheck(count: 100, input: Gen.uint64(), Gen.int(in: 1...40)) { seed, count in
      var reference = SeededRandom(seed: seed)
      var saved = SeededRandom(seed: seed)
      for _ in 0..<count {
        _ = reference.next()
        _ = saved.next()
      }
      guard let data = try? JSONEncoder().encode(saved), var restored = try? JSONDecoder().decode(SeededRandom.self, from: data) else {
        Issue.record("the generator must round-trip through JSON")
        return
      }
      for _ in 0..<5 { #expect(restored.next() == reference.next()) }
    }
  }
}

extension Optional where Wrapped == [GameEvent] {
  /// The events, or none.
  var orEmpty: [GameEvent] { self ?? [] }
}
