import CompletionCore
import Foundation
import Testing

@testable import KidsGame

@Suite("Coins, chest and treasure buttons")
struct CoinTests {
  @Test("The bar shows coins % 10 slots and a chest per 10")
  func progressBar() {
    #expect(CoinProgress(coins: 0) == CoinProgress(coins: 0))
    for (coins, slots, chests) in [(0, 0, 0), (7, 7, 0), (10, 0, 1), (13, 3, 1), (20, 0, 2), (29, 9, 2), (-3, 0, 0)] {
      let bar = CoinProgress(coins: coins)
      #expect(bar.filledSlots == slots && bar.chests == chests, "\(coins)")
    }
    #expect(CoinProgress.slots == 10)
  }

  @Test("Chest: closed below 10, open 10–19, sparkles and two chests from 20")
  func chest() {
    #expect(ChestDisplay(coins: 9) == .closed)
    #expect(ChestDisplay(coins: 10) == .open)
    #expect(ChestDisplay(coins: 19) == .open)
    #expect(ChestDisplay(coins: 20) == .openWithSparkles)
    #expect(ChestDisplay(coins: 20).chestCount == 2 && ChestDisplay(coins: 12).chestCount == 1)
  }

  @Test("Treasure buttons by coins, and all off offline")
  func buttons() {
    #expect(TreasureButtons(coins: 9) == TreasureButtons(coins: 0))
    #expect(TreasureButtons(coins: 9).fiveMinutes == .locked && TreasureButtons(coins: 9).twelveMinutes == .locked)
    #expect(TreasureButtons(coins: 15).fiveMinutes == .active && TreasureButtons(coins: 15).twelveMinutes == .disabled)
    #expect(TreasureButtons(coins: 20).fiveMinutes == .active && TreasureButtons(coins: 20).twelveMinutes == .activeWithBonus)
    let offline = TreasureButtons(coins: 25, online: false)
    #expect(offline.fiveMinutes == .disabled && offline.state(of: .twelveMinutes) == .disabled)
  }

  @Test("Milestones are coins > 0 and coins % 5 == 0")
  func milestone() {
    #expect((0...30).filter(CoinRules.isMilestone) == [5, 10, 15, 20, 25, 30])
  }

  @Test("Coin changes go into the core ledger once, even when replayed")
  func ledger() {
    var game = Game(coins: 0)
    game.toPlaying()
    var changes: [CoinChange] = []
    for _ in 0..<12 {
      changes += game.solveLevel().coinChanges
      game.send(.levelCompleteFinished)
      if game.state == .celebrationOverlay { game.send(.tapWeiter) }
      if game.state == .treasureScreen {
        changes += game.send(.redeem(.fiveMinutes, online: true)).coinChanges
        changes += game.send(.back).coinChanges
        changes += game.send(.redeem(.fiveMinutes, online: true)).coinChanges
        game.send(.chooseVideo(id: approvedID, online: true, at: game.now))
        game.send(.videoTick(at: game.later(300)))
        game.send(.tapActivity(.zahlen))
        game.send(.tapSubActivity(.wuerfel))
      }
    }
    var ledger = RewardLedger()
    for change in changes + changes {
      ledger.record(change.ledgerEntry(at: t0))
    }
    #expect(ledger.entries.count == changes.count)
    #expect(Set(changes.map(\.ledgerKey)).count == changes.count)
    #expect(ledger.balance(of: "alexander", in: CoinChange.currency) == game.coins)
    #expect(game.coins == 2)
    #expect(game.machine.activePlayer?.totalCoinsEarned == 12)
  }
}
