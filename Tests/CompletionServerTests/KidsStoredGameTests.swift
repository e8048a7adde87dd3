import Foundation
import KidsGame
import Testing

@testable import CompletionServer

@Suite("Waldabenteuer: the stored game")
struct KidsStoredGameTests {
  /// A family with two children, an approved video with its date, coins and a game under way.
  static func playedMachine() -> GameMachine {
    let start = Date(timeIntervalSinceReferenceDate: 786_543_210.123_456)
    let players = [PlayerData(id: "alexander", name: "Alexander", coins: 7), PlayerData(id: "oliver", name: "Oliver")]
    let parent = ParentSettings(
      playerSettings: ["alexander": PlayerSettings(numberChoiceMode: .trace)],
      approvedVideos: [ApprovedVideo(id: "dQw4w9WgXcQ", title: "Waldlied „Ü“", addedAt: start)])
    var machine = GameMachine(seed: 7, data: GameData(players: players, settings: AppSettings(parentSettings: parent)))
    machine.handle(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    machine.handle(.selectPlayer("alexander", at: start.addingTimeInterval(0.25)))
    machine.handle(.tapActivity(.zahlen))
    machine.handle(.tapSubActivity(.wuerfel))
    machine.handle(.rollDie(at: start.addingTimeInterval(1.5)))
    return machine
  }

  @Test("what the server saves reads back as the same game, and so does a row the core's own encoder wrote")
  func roundTrip() throws {
    let machine = Self.playedMachine()
    #expect(try KidsController.readMachine(KidsController.stored(machine)) == machine)
    #expect(try KidsController.readMachine(String(decoding: machine.encoded(), as: UTF8.self)) == machine)
  }
}
