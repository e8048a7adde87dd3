import Foundation
import Testing

@testable import KidsGame

/// The seed's six testing scenarios, run on the core. Scenario 1 plays Rätsel → Puzzle Matching as the seed
/// says.
@Suite("Seed 001 testing scenarios")
struct ScenarioTests {
  @Test("Scenario 1: first-time user flow")
  func firstTimeUser() {
    var game = Game()
    // 1–2. Loading for at least 2–3 s, then player selection.
    game.send(.loadingTick(elapsed: 1))
    #expect(game.state == .loading)
    game.send(.loadingTick(elapsed: 7))
    #expect(game.state == .playerSelection)
    // 3. Tap "Alexander".
    game.send(.selectPlayer("alexander", at: t0))
    #expect(game.state == .home)
    // 4–5. Rätsel → Puzzle Matching.
    game.send(.tapActivity(.raetsel))
    #expect(game.state == .activitySelection(.raetsel))
    let start = game.send(.tapSubActivity(.puzzleMatching))
    #expect(game.state == .playing(.raetsel, .puzzleMatching))
    #expect(start.spoken == ["Mach das Muster nach!", "Das packen wir!"])
    // 6–9. Levels 1–4: one coin each, no celebration.
    for level in 1...4 {
      game.solveLevel()
      #expect(game.coins == level)
      let next = game.send(.levelCompleteFinished)
      #expect(!next.contains(where: { if case .showCelebration = $0 { true } else { false } }))
      #expect(!next.contains(.confetti))
      #expect(game.state == .playing(.raetsel, .puzzleMatching))
    }
    // 10. Level 5: the celebration overlay, over the activity.
    game.solveLevel()
    let celebration = game.send(.levelCompleteFinished)
    #expect(game.coins == 5)
    #expect(game.state == .celebrationOverlay)
    #expect(celebration.contains(.showCelebration(coins: 5)))
    #expect(celebration.contains(.confetti))
    #expect(celebration.spoken == ["Wir haben schon fünf Goldmünzen!"])
    #expect(game.machine.activity?.game == .puzzleMatching)
    // 11. Weiter: coins < 10, the activity continues.
    game.send(.tapWeiter)
    #expect(game.state == .playing(.raetsel, .puzzleMatching))
    #expect(game.machine.activity?.level == 6)
  }

  @Test("Scenario 2: reaching the treasure")
  func reachingTreasure() {
    var game = Game(coins: 8)
    game.toPlaying()
    game.solveLevel()
    #expect(game.coins == 9)
    game.send(.levelCompleteFinished)
    #expect(game.state == .playing(.zahlen, .wuerfel))
    game.solveLevel()
    let celebration = game.send(.levelCompleteFinished)
    #expect(game.coins == 10)
    #expect(game.state == .celebrationOverlay)
    #expect(celebration.spoken == ["Zehn Goldmünzen! Du kannst jetzt YouTube schauen."])
    let weiter = game.send(.tapWeiter)
    #expect(game.state == .treasureScreen)
    #expect(weiter.spoken == ["Wir können fünf Minuten schauen!"])
    #expect(ScreenText.coinCount.text(LineValues(x: game.coins)) == "10 Münzen")
    let buttons = TreasureButtons(coins: game.coins)
    #expect(buttons.fiveMinutes == .active)
    #expect(buttons.twelveMinutes == .disabled)
  }

  @Test("Scenario 3: YouTube redemption")
  func youtubeRedemption() {
    var game = Game(coins: 12)
    game.toTreasure()
    let redeemed = game.send(.redeem(.fiveMinutes, online: true))
    #expect(redeemed.coinChanges.map(\.amount) == [-10])
    #expect(game.coins == 2)
    #expect(game.state == .videoSelection)
    let start = game.later()
    game.send(.chooseVideo(id: approvedID, online: true, at: start))
    #expect(game.state == .videoPlaying)
    let timer = game.machine.navigation.video?.timer
    #expect(timer?.remaining(at: start) == 300)
    #expect(timer?.label(at: start.addingTimeInterval(150)) == "Noch 3 Minuten")
    #expect(game.send(.videoTick(at: start.addingTimeInterval(120))).isEmpty)
    let warning = game.send(.videoTick(at: start.addingTimeInterval(240)))
    #expect(warning.contains(.videoOneMinuteWarning))
    #expect(warning.spoken == ["Noch eine Minute."])
    let over = game.send(.videoTick(at: start.addingTimeInterval(300)))
    #expect(over.spoken == ["Die Zeit ist um. Lass uns spielen!"])
    #expect(over.contains(.sound(.bell)))
    #expect(over.contains(.videoTimeUp(holdSeconds: 3)))
    #expect(game.state == .home)
    #expect(game.coins == 2)
  }

  @Test("Scenario 4: back navigation always goes home")
  func backNavigation() {
    var game = Game()
    game.toHome()
    game.send(.tapActivity(.zahlen))
    #expect(game.state == .activitySelection(.zahlen))
    game.send(.back)
    #expect(game.state == .home)
    game.send(.tapActivity(.raetsel))
    game.send(.tapSubActivity(.puzzleMatching))
    #expect(game.state == .playing(.raetsel, .puzzleMatching))
    game.send(.back)
    #expect(game.state == .home)
    #expect(game.machine.activity == nil)
  }

  @Test("Scenario 5: parent dashboard access")
  func parentDashboard() {
    var game = Game()
    game.toHome()
    game.send(.tapSettings)
    #expect(game.state == .parentGate)
    let question = game.machine.navigation.gate?.question
    let answer = question?.answer ?? 0
    game.enterGateAnswer(answer == 10 ? 11 : 10)
    let wrong = game.send(.gateConfirm)
    #expect(wrong.contains(.gateRejected(message: "Versuch es nochmal", seconds: 2)))
    #expect(game.state == .parentGate)
    #expect(game.machine.navigation.gate?.question == question)
    #expect(game.machine.navigation.gate?.input == "")
    game.enterGateAnswer(answer)
    game.send(.gateConfirm)
    #expect(game.state == .parentDashboard)
    #expect(game.send(.parent(.setDailyLimit(player: "alexander", minutes: 90))).contains(.settingsChanged))
    game.send(.back)
    #expect(game.state == .home)
    #expect(game.machine.data.settings.parentSettings.settings(for: "alexander").dailyLimit.minutes == 90)
  }

  @Test("Scenario 6: state persistence")
  func statePersistence() throws {
    var game = Game(coins: 7)
    game.toPlaying()
    game.solveLevel()
    game.send(.levelCompleteFinished)
    #expect(game.coins == 8)
    #expect(game.state == .playing(.zahlen, .wuerfel))
    // Home button on the iPad: the app goes to the background and saves.
    #expect(game.send(.appBackgrounded(at: game.later())) == [.save])
    let saved = try game.machine.encoded()
    // Reopened: back at the activity selection, a safe state.
    let (restored, note) = GameMachine.restore(from: saved, seed: 99)
    #expect(restored.state == .activitySelection(.zahlen))
    #expect(note.outcome == .movedToSafeState)
    #expect(note.savedState == .playing(.zahlen, .wuerfel))
    #expect(restored.activePlayer?.coins == 8)
    #expect(restored.activePlayer?.completedLevels(in: .wuerfel) == 1)
    // The child can continue…
    var again = Game(machine: restored)
    again.send(.tapSubActivity(.wuerfel))
    #expect(again.machine.activity?.level == 2)
    // …or pick something else.
    var other = Game(machine: restored)
    other.send(.back)
    #expect(other.state == .home)
  }
}
