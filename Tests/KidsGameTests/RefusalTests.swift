import Foundation
import Testing

@testable import KidsGame

/// One state with a fixture and the events it accepts; every other event of the catalogue must be refused.
struct StateCase: Sendable, CustomTestStringConvertible {
  let state: GameState
  let setup: @Sendable () -> Game
  let accepted: Set<String>

  var testDescription: String { state.name }
}

@Suite("Refusals: every event a state has no row for is refused and changes nothing")
struct RefusalTests {
  /// Events by name; the fixture times keep them clear of the debounce.
  static let catalogue: [(String, GameEvent)] = [
    ("loadingTick", .loadingTick(elapsed: 7)),
    ("selectPlayer", .selectPlayer("oliver", at: t0)),
    ("selectUnknownPlayer", .selectPlayer("nobody", at: t0)),
    ("tapRaetsel", .tapActivity(.raetsel)),
    ("tapZahlen", .tapActivity(.zahlen)),
    ("tapZeichnen", .tapActivity(.zeichnen)),
    ("tapWuerfel", .tapSubActivity(.wuerfel)),
    ("tapPuzzle", .tapSubActivity(.puzzleMatching)),
    ("tapChest", .tapChest),
    ("tapSettings", .tapSettings),
    ("changePlayer", .changePlayer),
    // Nobody in these fixtures has unwatched video time: refused everywhere.
    ("resumeFilm", .resumeUnwatchedVideo(online: true, at: at(506))),
    ("back", .back),
    ("home", .home),
    ("rollDie", .rollDie(at: at(500))),
    ("tapNumber", .tapNumber(3, at: at(501))),
    ("trace", .traceStroke(DigitStrokes.strokes(for: 1)[0], at: at(502))),
    ("idle", .idle(seconds: 5)),
    ("levelCompleteFinished", .levelCompleteFinished),
    ("tapWeiter", .tapWeiter),
    ("redeem", .redeem(.fiveMinutes, online: true)),
    ("chooseVideo", .chooseVideo(id: approvedID, online: true, at: at(503))),
    ("videoTick", .videoTick(at: at(10))),
    ("gateDigit", .gateDigit(1)),
    ("gateErase", .gateErase),
    ("gateConfirm", .gateConfirm),
    ("parentCommand", .parent(.setNumberChoiceMode(.tap, player: "alexander"))),
    ("deepLink", .openParentDeepLink),
    ("playTime", .playTimeUpdated(minutesToday: 1)),
    ("background", .appBackgrounded(at: at(504))),
    ("foreground", .appForegrounded(at: at(505))),
  ]

  /// Always fine: the app's lifecycle.
  static let lifecycle: Set<String> = ["background", "foreground"]
  /// Fine wherever a child is chosen.
  static let withPlayer: Set<String> = lifecycle.union(["playTime"])

  static let cases: [StateCase] = [
    // The parent's link from a cold start waits for the end of the loading screen.
    .init(state: .loading, setup: { Game() }, accepted: lifecycle.union(["loadingTick", "deepLink"])),
    .init(
      state: .playerSelection,
      setup: { .reached { $0.toPlayerSelection() } }, accepted: lifecycle.union(["selectPlayer", "deepLink"])),
    .init(
      state: .home,
      setup: { .reached(coins: 12) { $0.toHome() } },
      accepted: withPlayer.union(["tapRaetsel", "tapZahlen", "tapChest", "tapSettings", "changePlayer", "deepLink"])),
    .init(
      state: .activitySelection(.zahlen),
      setup: { .reached { $0.toActivitySelection() } }, accepted: withPlayer.union(["tapWuerfel", "back", "home", "deepLink"])),
    .init(
      state: .playing(.zahlen, .wuerfel),
      setup: { .reached { $0.toPlaying() } }, accepted: withPlayer.union(["rollDie", "idle", "back", "home", "deepLink"])),
    .init(
      state: .levelComplete,
      setup: { .reached { $0.toLevelComplete() } },
      accepted: withPlayer.union(["levelCompleteFinished", "back", "home", "deepLink"])),
    .init(
      state: .celebrationOverlay,
      setup: { .reached(coins: 4) { $0.toCelebration() } }, accepted: withPlayer.union(["tapWeiter"])),
    .init(
      state: .treasureScreen,
      setup: { .reached(coins: 12) { $0.toTreasure() } }, accepted: withPlayer.union(["redeem", "back", "home", "deepLink"])),
    .init(
      state: .videoSelection,
      setup: { .reached(coins: 12) { $0.toVideoSelection() } }, accepted: withPlayer.union(["chooseVideo", "back", "home"])),
    .init(
      state: .videoPlaying,
      setup: { .reached(coins: 12) { $0.toVideoPlaying() } }, accepted: withPlayer.union(["videoTick"])),
    .init(
      state: .parentGate,
      setup: { .reached { $0.toParentGate() } }, accepted: withPlayer.union(["gateDigit", "back", "home"])),
    .init(
      state: .parentDashboard,
      setup: { .reached { $0.toParentDashboard() } }, accepted: withPlayer.union(["parentCommand", "back", "home"])),
  ]

  @Test("Each state accepts its rows and refuses everything else, unchanged", arguments: cases)
  func matrix(_ stateCase: StateCase) {
    let fixture = stateCase.setup()
    #expect(fixture.state == stateCase.state)
    #expect(fixture.machine.consistencyProblems.isEmpty)
    for (name, event) in Self.catalogue {
      var game = fixture
      let effects = game.send(event)
      if stateCase.accepted.contains(name) {
        #expect(effects.refusals.isEmpty, "\(stateCase.state.name) should accept \(name): \(effects.refusals)")
      } else {
        #expect(!effects.refusals.isEmpty, "\(stateCase.state.name) should refuse \(name)")
        #expect(game.machine == fixture.machine, "\(stateCase.state.name) changed on refused \(name)")
        if let refusal = effects.first?.refusal {
          #expect(refusal.state == stateCase.state && refusal.event == event)
          #expect(refusal.description.hasPrefix("refused \(event.name) in \(stateCase.state.name)"))
        }
      }
    }
  }

  @Test("Bad numbers are refused, never trapped")
  func badNumbers() {
    var game = Game()
    #expect(game.send(.loadingTick(elapsed: .nan)).refusals == [.numberOutOfRange])
    #expect(game.send(.loadingTick(elapsed: -1)).refusals == [.numberOutOfRange])
    game.toPlaying(.waehleDieZahl)
    #expect(game.send(.idle(seconds: .infinity)).refusals == [.numberOutOfRange])
    #expect(game.send(.playTimeUpdated(minutesToday: -3)).refusals == [.numberOutOfRange])
    let nonsense = [TracePoint(x: .nan, y: 0.5), TracePoint(x: .infinity, y: -.infinity)]
    let effects = game.send(.traceStroke(nonsense, at: at(1)))
    #expect(effects.refusals.isEmpty || effects.refusals == [.emptyTrace])
    #expect(game.send(.traceStroke([], at: at(2))).refusals == [.emptyTrace])
    let huge = Array(repeating: TracePoint(x: 0.5, y: 0.5), count: NumberChoiceRound.maxPointsPerStroke + 1)
    #expect(game.send(.traceStroke(huge, at: at(3))).refusals == [.traceTooLong])
  }
}
