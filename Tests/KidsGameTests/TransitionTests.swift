import Foundation
import Testing

@testable import KidsGame

/// One row of seed 001's transition tables (Part 2.3, the special rules, back and home rules).
struct TransitionRow: Sendable, CustomTestStringConvertible {
  let name: String
  let setup: @Sendable () -> Game
  let event: @Sendable (inout Game) -> GameEvent
  let expected: GameState

  var testDescription: String { name }
}

@Suite("Transitions: every row of the seed's tables")
struct TransitionTests {
  static let rows: [TransitionRow] = [
    .init(
      name: "loading → playerSelection at 100 % (after the 2 s hand-off)", setup: { Game() },
      event: { _ in .loadingTick(elapsed: 7) }, expected: .playerSelection),
    .init(
      name: "playerSelection → home (tap player)",
      setup: { .reached { $0.toPlayerSelection() } }, event: { _ in .selectPlayer("alexander", at: t0) }, expected: .home),
    .init(
      name: "home → activitySelection (tap activity)",
      setup: { .reached { $0.toHome() } }, event: { _ in .tapActivity(.zahlen) }, expected: .activitySelection(.zahlen)),
    .init(
      name: "home → treasureScreen (tap chest, coins ≥ 10)",
      setup: { .reached(coins: 10) { $0.toHome() } }, event: { _ in .tapChest }, expected: .treasureScreen),
    .init(
      name: "home → parentGate (tap settings)",
      setup: { .reached { $0.toHome() } }, event: { _ in .tapSettings }, expected: .parentGate),
    .init(
      name: "activitySelection → playing (Würfel)",
      setup: { .reached { $0.toActivitySelection() } }, event: { _ in .tapSubActivity(.wuerfel) },
      expected: .playing(.zahlen, .wuerfel)),
    .init(
      name: "activitySelection → playing (Wähle die Zahl)",
      setup: { .reached { $0.toActivitySelection() } }, event: { _ in .tapSubActivity(.waehleDieZahl) },
      expected: .playing(.zahlen, .waehleDieZahl)),
    .init(
      name: "playing → levelComplete (success, Würfel)",
      setup: {
        .reached { game in
          game.toPlaying()
          game.send(.rollDie(at: game.later()))
        }
      },
      event: { g in .tapNumber(g.machine.activity?.askedNumber ?? 0, at: g.later()) }, expected: .levelComplete),
    .init(
      name: "playing → levelComplete (success, Wähle die Zahl by tap)",
      setup: { .reached(mode: .tap) { $0.toPlaying(.waehleDieZahl) } },
      event: { g in .tapNumber(g.machine.activity?.askedNumber ?? 0, at: g.later()) }, expected: .levelComplete),
    .init(
      name: "playing → levelComplete (success, Wähle die Zahl by trace)",
      setup: {
        var g = Game()
        g.toPlaying(.waehleDieZahl)
        for stroke in DigitStrokes.strokes(for: g.machine.activity?.askedNumber ?? 1).dropLast() {
          g.send(.traceStroke(stroke, at: g.later()))
        }
        return g
      },
      event: { g in .traceStroke(DigitStrokes.strokes(for: g.machine.activity?.askedNumber ?? 1).last ?? [], at: g.later()) },
      expected: .levelComplete),
    .init(
      name: "levelComplete → celebrationOverlay (coins % 5 == 0)",
      setup: { .reached(coins: 4) { $0.toLevelComplete() } }, event: { _ in .levelCompleteFinished },
      expected: .celebrationOverlay),
    .init(
      name: "levelComplete → playing (coins % 5 != 0)",
      setup: { .reached(coins: 2) { $0.toLevelComplete() } }, event: { _ in .levelCompleteFinished },
      expected: .playing(.zahlen, .wuerfel)),
    .init(
      name: "celebrationOverlay → treasureScreen (Weiter, coins ≥ 10)",
      setup: { .reached(coins: 9) { $0.toCelebration() } }, event: { _ in .tapWeiter }, expected: .treasureScreen),
    .init(
      name: "celebrationOverlay → playing (Weiter, coins < 10)",
      setup: { .reached(coins: 4) { $0.toCelebration() } }, event: { _ in .tapWeiter }, expected: .playing(.zahlen, .wuerfel)),
    .init(
      name: "treasureScreen → videoSelection (5 min)",
      setup: { .reached(coins: 10) { $0.toTreasure() } }, event: { _ in .redeem(.fiveMinutes, online: true) },
      expected: .videoSelection),
    .init(
      name: "treasureScreen → videoSelection (10+2 min)",
      setup: { .reached(coins: 20) { $0.toTreasure() } }, event: { _ in .redeem(.twelveMinutes, online: true) },
      expected: .videoSelection),
    .init(
      name: "videoSelection → videoPlaying (tap video)",
      setup: { .reached(coins: 10) { $0.toVideoSelection() } },
      event: { g in .chooseVideo(id: approvedID, online: true, at: g.now) }, expected: .videoPlaying),
    .init(
      name: "videoPlaying → home (time up)",
      setup: { .reached(coins: 10) { $0.toVideoPlaying() } }, event: { g in .videoTick(at: g.later(300)) }, expected: .home),
    .init(
      name: "parentGate → parentDashboard (correct answer)",
      setup: {
        .reached { game in
          game.toParentGate()
          game.enterGateAnswer(game.machine.navigation.gate?.question.answer ?? 0)
        }
      }, event: { _ in .gateConfirm }, expected: .parentDashboard),
    // Back rules: activities go home, never to the activity selection.
    .init(
      name: "back: activitySelection → home",
      setup: { .reached { $0.toActivitySelection() } }, event: { _ in .back }, expected: .home),
    .init(
      name: "back: playing → home (not activity selection)",
      setup: { .reached { $0.toPlaying() } }, event: { _ in .back }, expected: .home),
    .init(
      name: "back: levelComplete → home",
      setup: { .reached { $0.toLevelComplete() } }, event: { _ in .back }, expected: .home),
    .init(
      name: "back: treasureScreen → home",
      setup: { .reached(coins: 10) { $0.toTreasure() } }, event: { _ in .back }, expected: .home),
    .init(
      name: "back: videoSelection → treasureScreen (refund)",
      setup: { .reached(coins: 10) { $0.toVideoSelection() } }, event: { _ in .back }, expected: .treasureScreen),
    .init(
      name: "back (Abbrechen): parentGate → home",
      setup: { .reached { $0.toParentGate() } }, event: { _ in .back }, expected: .home),
    .init(
      name: "back: parentDashboard → home",
      setup: { .reached { $0.toParentDashboard() } }, event: { _ in .back }, expected: .home),
    // Home button: straight home from every screen that shows it.
    .init(
      name: "home: activitySelection → home",
      setup: { .reached { $0.toActivitySelection() } }, event: { _ in .home }, expected: .home),
    .init(
      name: "home: playing → home",
      setup: { .reached { $0.toPlaying(.waehleDieZahl) } }, event: { _ in .home }, expected: .home),
    .init(
      name: "home: levelComplete → home",
      setup: { .reached { $0.toLevelComplete() } }, event: { _ in .home }, expected: .home),
    .init(
      name: "home: treasureScreen → home",
      setup: { .reached(coins: 10) { $0.toTreasure() } }, event: { _ in .home }, expected: .home),
    .init(
      name: "home: videoSelection → home (refund)",
      setup: { .reached(coins: 10) { $0.toVideoSelection() } }, event: { _ in .home }, expected: .home),
    .init(
      name: "home: parentGate → home",
      setup: { .reached { $0.toParentGate() } }, event: { _ in .home }, expected: .home),
    .init(
      name: "home: parentDashboard → home",
      setup: { .reached { $0.toParentDashboard() } }, event: { _ in .home }, expected: .home),
    // Deep link to the dashboard: always through the gate.
    .init(
      name: "deep link: home → parentGate",
      setup: { .reached { $0.toHome() } }, event: { _ in .openParentDeepLink }, expected: .parentGate),
    .init(
      name: "deep link: playing → parentGate",
      setup: { .reached { $0.toPlaying() } }, event: { _ in .openParentDeepLink }, expected: .parentGate),
    .init(
      name: "deep link: playerSelection → parentGate",
      setup: { .reached { $0.toPlayerSelection() } }, event: { _ in .openParentDeepLink }, expected: .parentGate),
    .init(
      name: "deep link: treasureScreen → parentGate",
      setup: { .reached(coins: 10) { $0.toTreasure() } }, event: { _ in .openParentDeepLink }, expected: .parentGate),
  ]

  @Test("Each row moves to its state and reports the transition", arguments: rows)
  func row(_ row: TransitionRow) {
    var game = row.setup()
    let before = game.state
    let event = row.event(&game)
    let effects = game.send(event)
    #expect(game.state == row.expected)
    #expect(effects.refusals.isEmpty)
    #expect(effects.contains(.transition(from: before, to: row.expected)))
    #expect(game.machine.consistencyProblems.isEmpty)
  }

  @Test("Side effects of the special rules: deduct 10 or 20, \"Film ab!\", start the timer, \"Die Zeit ist um\"")
  func specialSideEffects() {
    var five = Game(coins: 12)
    five.toTreasure()
    let redeemed = five.send(.redeem(.fiveMinutes, online: true))
    #expect(redeemed.coinChanges.map(\.amount) == [-10])
    #expect(redeemed.coinChanges.first?.balance == 2)
    #expect(redeemed.contains(.sound(.chestOpen)))
    #expect(redeemed.spoken == ["Film ab!"])
    #expect(redeemed.contains(.save))

    var twelve = Game(coins: 25)
    twelve.toTreasure()
    #expect(twelve.send(.redeem(.twelveMinutes, online: true)).coinChanges.map(\.amount) == [-20])
    #expect(twelve.coins == 5)
    let started = twelve.send(.chooseVideo(id: approvedID, online: true, at: twelve.now))
    #expect(started.contains(.startVideoTimer(minutes: 12, videoID: approvedID)))

    let over = twelve.send(.videoTick(at: twelve.later(12 * 60)))
    #expect(over.contains(.videoTimeUp(holdSeconds: 3)))
    #expect(over.spoken.first == "Die Zeit ist um. Lass uns spielen!")
    #expect(twelve.state == .home)
    #expect(twelve.machine.activePlayer?.videosWatched.map(\.videoId) == [approvedID])
  }

  @Test("A success pays one coin, chimes, praises, saves, and schedules the next step after 2 s; no confetti")
  func successEffects() {
    var game = Game(coins: 3)
    game.toPlaying()
    let effects = game.solveLevel()
    #expect(effects.coinChanges.map(\.amount) == [1])
    #expect(effects.contains(.sound(.successChime)))
    #expect(effects.contains(.sound(.coinCollect)))
    // Ordinary successes stay calm: confetti belongs to the celebration overlay only.
    #expect(!effects.contains(.confetti))
    #expect(effects.contains(.save))
    #expect(effects.contains(.schedule(.levelCompleteFinished, after: 2)))
    #expect(effects.spoken.contains(where: Narration.successPhrases.contains))
    #expect(game.machine.activePlayer?.completedLevels(in: .wuerfel) == 1)
    #expect(game.machine.activePlayer?.totalCoinsEarned == 1)
  }

  @Test("After a level the next one starts one higher, in the same game")
  func nextLevel() {
    var game = Game()
    game.toPlaying()
    game.solveLevel()
    let effects = game.send(.levelCompleteFinished)
    #expect(effects.contains(.levelStarted(.wuerfel, level: 2)))
    #expect(game.machine.activity?.level == 2)
    #expect(effects.spoken == ["Wirf den Würfel!"])
  }

  // MARK: guards

  @Test("Guard: the chest opens only at ≥ 10 coins; below, Bennie says how many are missing")
  func chestGuard() {
    for coins in 0...9 {
      var game = Game(coins: coins)
      game.toHome()
      let before = game.machine
      let effects = game.send(.tapChest)
      #expect(effects.refusals == [.notEnoughCoins])
      #expect(effects.spoken == ["Noch \(Narration.counted(10 - coins, " Münzen", spoken: true))!"])
      #expect(coins != 9 || effects.spoken == ["Noch eine Münze!"])
      #expect(game.machine == before)
    }
    for coins in [10, 19, 20, 47] {
      var game = Game(coins: coins)
      game.toHome()
      game.send(.tapChest)
      #expect(game.state == .treasureScreen)
    }
  }

  @Test("Guard: the celebration shows only when coins > 0 and coins % 5 == 0")
  func celebrationGuard() {
    for start in 0...25 {
      var game = Game(coins: start)
      game.toLevelComplete()
      let effects = game.send(.levelCompleteFinished)
      let coins = start + 1
      let celebrated = effects.contains(.showCelebration(coins: coins))
      #expect(celebrated == (coins % 5 == 0), "coins \(coins)")
      #expect((game.state == .celebrationOverlay) == (coins % 5 == 0))
    }
  }

  @Test("Guard: after Weiter, ≥ 10 coins go to the treasure, fewer continue the activity")
  func weiterGuard() {
    for start in [4, 9, 14, 19, 24] {
      var game = Game(coins: start)
      game.toCelebration()
      #expect(game.state == .celebrationOverlay)
      let effects = game.send(.tapWeiter)
      #expect(effects.first == .hideCelebration)
      #expect(game.state == (start + 1 >= 10 ? .treasureScreen : .playing(.zahlen, .wuerfel)))
    }
  }

  @Test("Guard: a YouTube button needs its coins and the internet")
  func redeemGuards() {
    var poor = Game(coins: 15)
    poor.toTreasure()
    let before = poor.machine
    #expect(poor.send(.redeem(.twelveMinutes, online: true)).refusals == [.notEnoughCoins])
    let offline = poor.send(.redeem(.fiveMinutes, online: false))
    #expect(offline.refusals == [.offline])
    #expect(offline.spoken == ["Wir brauchen Internet."])
    #expect(poor.machine == before)
  }

  @Test("Guard: only approved videos play, and only online")
  func videoGuards() {
    var game = Game(coins: 10)
    game.toVideoSelection()
    let before = game.machine
    #expect(game.send(.chooseVideo(id: "aaaaaaaaaaa", online: true, at: t0)).refusals == [.videoNotApproved])
    #expect(game.send(.chooseVideo(id: approvedID, online: false, at: t0)).refusals == [.offline])
    #expect(game.machine == before)
  }

  @Test("Zurück from video selection gives the coins back")
  func refund() {
    var game = Game(coins: 12)
    game.toVideoSelection()
    #expect(game.coins == 2)
    let effects = game.send(.back)
    #expect(effects.coinChanges.map(\.amount) == [10])
    #expect(effects.coinChanges.first?.reason == .refunded)
    #expect(game.coins == 12)
    #expect(game.state == .treasureScreen)
  }

  @Test("Locked signs: Zeichnen, Logik say \"Das ist noch gesperrt.\" and stay home")
  func lockedSigns() {
    for activity in [ActivityType.zeichnen, .logik] {
      var game = Game()
      game.toHome()
      let before = game.machine
      let effects = game.send(.tapActivity(activity))
      #expect(effects.refusals == [.activityLocked])
      #expect(effects.spoken == ["Das ist noch gesperrt."])
      #expect(game.machine == before)
    }
    #expect(ActivityType.raetsel.isAvailable && ActivityType.zahlen.isAvailable)
    #expect(!ActivityType.zeichnen.isAvailable && !ActivityType.logik.isAvailable)
  }

  @Test("The parent can turn a sign off and on again per player")
  func parentToggle() {
    var game = Game()
    game.toParentDashboard()
    #expect(game.send(.parent(.setActivity(.zahlen, enabled: false, player: "alexander"))).contains(.settingsChanged))
    game.send(.back)
    #expect(game.send(.tapActivity(.zahlen)).refusals == [.activityLocked])
    #expect(game.machine.isUnlocked(.zahlen) == false)
    // Oliver keeps his.
    #expect(game.machine.data.settings.parentSettings.settings(for: "oliver").unlockedActivities.contains(.zahlen))
    game.send(.tapSettings)
    game.enterGateAnswer(game.machine.navigation.gate?.question.answer ?? 0)
    game.send(.gateConfirm)
    game.send(.parent(.setActivity(.zahlen, enabled: true, player: "alexander")))
    game.send(.home)
    game.send(.tapActivity(.zahlen))
    #expect(game.state == .activitySelection(.zahlen))
  }

  @Test("Parent commands need the gate")
  func parentCommandsNeedGate() {
    var game = Game()
    game.toHome()
    let before = game.machine
    #expect(game.send(.parent(.resetProgress(player: "alexander"))).refusals == [.parentGateRequired])
    #expect(game.machine == before)
  }

  @Test("A video cannot be left, extended or restarted while its clock runs")
  func videoIsFixed() {
    var game = Game(coins: 20)
    game.toVideoPlaying()
    let before = game.machine
    #expect(game.send(.back).refusals == [.videoRunning])
    #expect(game.send(.home).refusals == [.videoRunning])
    #expect(game.send(.chooseVideo(id: approvedID, online: true, at: at(30))).refusals == [.notAllowedHere])
    #expect(game.send(.redeem(.fiveMinutes, online: true)).refusals == [.notAllowedHere])
    #expect(game.send(.openParentDeepLink).refusals == [.notAllowedHere])
    #expect(game.machine == before)
  }

  @Test("The loading screen fills in 2 s, speaks at 100 %, and hands over half a second later")
  func loading() {
    var game = Game()
    #expect(game.send(.loadingTick(elapsed: 1)) == [.loadingProgress(50)])
    let full = game.send(.loadingTick(elapsed: 2))
    #expect(full.contains(.loadingProgress(100)))
    #expect(full.spoken == ["Wir sind gleich bereit zum Spielen."])
    #expect(game.state == .loading)
    let handOff = game.send(.loadingTick(elapsed: 2.5))
    #expect(handOff.spoken == ["Wie heißt du? Alexander oder Oliver?"])
    #expect(game.state == .playerSelection)
    #expect(LoadingScreen.handOffAfter >= LoadingScreen.minimumDisplay)
    var fresh = Game()
    #expect(fresh.send(.tapChest).refusals == [.stillLoading])
  }

  @Test("Greetings: the first home visit introduces Bennie, later returns invite more play")
  func greetings() {
    var game = Game()
    game.toPlayerSelection()
    let first = game.send(.selectPlayer("oliver", at: t0))
    #expect(
      first.spoken == [
        "Hallo Oliver! Los geht's!", "Was möchtest du spielen?", "Hi Oliver, ich bin Bennie!",
        "Erst spielen wir, dann schauen wir YouTube.",
      ])
    game.send(.tapActivity(.zahlen))
    let back = game.send(.back)
    #expect(back.spoken == ["Komm, wir spielen noch ein bisschen!", "Dann können wir mehr YouTube schauen!"])
    if case .speak(let line) = back.last { #expect(line.delay == 2 && line.speaker == .bennie) }
    #expect(game.send(.selectPlayer("nobody", at: t0)).refusals == [.notAllowedHere])
  }
}
