import Foundation
import Testing

@testable import KidsGame

/// The parent area's family and video commands, sound, the day's reset, and what the server relies on
/// when it keeps a game between requests.
@Suite("Family, uploads, day and server resume")
struct FamilyTests {
  @Test("Add, rename and remove children; names are checked; ids are unique and ASCII")
  func players() {
    var game = Game(coins: 12)
    game.toParentDashboard()
    #expect(game.send(.parent(.addPlayer(name: "  Jörg  "))).contains(.save))
    #expect(game.machine.data.players.map(\.id) == ["alexander", "oliver", "jorg"])
    #expect(game.machine.data.player("jorg")?.name == "Jörg")
    game.send(.parent(.addPlayer(name: "Jorg")))
    #expect(game.machine.data.players.last?.id == "jorg2")
    #expect(game.send(.parent(.addPlayer(name: "   "))).refusals == [.invalidName])
    #expect(game.send(.parent(.addPlayer(name: String(repeating: "a", count: 21)))).refusals == [.invalidName])
    game.send(.parent(.addPlayer(name: "Mia")))
    game.send(.parent(.addPlayer(name: "Ben")))
    #expect(game.machine.data.players.count == GameMachine.maxPlayers)
    #expect(game.send(.parent(.addPlayer(name: "Zu viele"))).refusals == [.tooManyPlayers])

    #expect(game.send(.parent(.renamePlayer(player: "oliver", name: "Olli"))).contains(.settingsChanged))
    #expect(game.machine.data.player("oliver")?.name == "Olli")
    #expect(game.send(.parent(.renamePlayer(player: "nobody", name: "X"))).refusals == [.unknownPlayer])

    // Removing the active child with coins: the coins leave through the ledger, the child is unselected.
    let removed = game.send(.parent(.removePlayer(player: "alexander")))
    #expect(removed.coinChanges.map(\.amount) == [-12])
    #expect(removed.coinChanges.first?.reason == .reset)
    #expect(game.machine.data.player("alexander") == nil)
    #expect(game.machine.activePlayer == nil)
    #expect(game.machine.data.settings.parentSettings.playerSettings["alexander"] == nil)
    for id in ["oliver", "jorg", "jorg2", "mia", "ben"] { game.send(.parent(.removePlayer(player: id))) }
    #expect(game.machine.data.players.count == 1)
    #expect(game.send(.parent(.removePlayer(player: game.machine.data.players[0].id))).refusals == [.lastPlayer])
    // Back from the dashboard with nobody chosen: the player screen.
    #expect(game.send(.back).transitions == [.playerSelection])
  }

  @Test("Each child keeps their own animal picture when a sibling is removed; a new child gets one no sibling has")
  func avatarsStayPerChild() {
    var game = Game()
    game.toParentDashboard()
    game.send(.parent(.addPlayer(name: "Mia")))
    game.send(.parent(.addPlayer(name: "Ben")))
    let before = Dictionary(uniqueKeysWithValues: game.machine.data.players.map { ($0.id, $0.avatarNumber) })
    #expect(before == ["alexander": 1, "oliver": 2, "mia": 3, "ben": 4])
    game.send(.parent(.removePlayer(player: "oliver")))
    #expect(game.machine.data.player("mia")?.avatarNumber == 3)
    #expect(game.machine.data.player("ben")?.avatarNumber == 4)
    // The freed picture goes to the next new child; the others keep theirs.
    game.send(.parent(.addPlayer(name: "Lea")))
    #expect(game.machine.data.player("lea")?.avatarNumber == 2)
    // An older save without pictures: one made from the id, the same at any place in the list.
    let old = PlayerData(id: "kim", name: "Kim")
    #expect(old.avatarNumber == PlayerData(id: "kim", name: "Kim").avatarNumber)
    #expect((1...PlayerData.avatarCount).contains(old.avatarNumber))
  }

  @Test("Family commands need the parent gate")
  func familyNeedsGate() {
    var game = Game()
    game.toHome()
    #expect(game.send(.parent(.addPlayer(name: "Mia"))).refusals == [.parentGateRequired])
    #expect(game.send(.parent(.addUploadedVideo(id: "upload-1.webm", title: "x", at: t0))).refusals == [.parentGateRequired])
    #expect(game.machine.data.players.count == 2)
  }

  @Test("Uploaded videos play offline; YouTube ones need the internet")
  func uploads() {
    var game = Game(coins: 10)
    game.toParentDashboard()
    #expect(game.send(.parent(.addUploadedVideo(id: "youtube-ish", title: "x", at: t0))).refusals == [.invalidVideoID])
    game.send(.parent(.addUploadedVideo(id: "upload-abc.webm", title: "  Unser Wald  ", at: at(1))))
    #expect(game.send(.parent(.addUploadedVideo(id: "upload-abc.webm", title: "again", at: at(2)))).refusals == [.duplicateVideo])
    let video = game.machine.data.settings.parentSettings.approvedVideos.first
    #expect(video?.id == "upload-abc.webm" && video?.title == "Unser Wald" && video?.source == .upload)
    #expect(video?.needsInternet == false && video?.thumbnailURL == nil)
    game.send(.home)
    game.send(.tapChest)
    // Offline: the chest still pays out, because an uploaded video can play.
    #expect(game.send(.redeem(.fiveMinutes, online: false)).coinChanges.map(\.amount) == [-10])
    #expect(game.send(.chooseVideo(id: approvedID, online: false, at: at(3))).refusals == [.offline])
    #expect(game.send(.chooseVideo(id: "upload-abc.webm", online: false, at: at(3))).transitions == [.videoPlaying])
  }

  @Test("Offline without an uploaded video, the treasure refuses and Bennie says why")
  func offlineWithoutUploads() {
    var game = Game(coins: 10)
    game.toTreasure()
    let effects = game.send(.redeem(.fiveMinutes, online: false))
    #expect(effects.refusals == [.offline])
    #expect(effects.spoken == ["Wir brauchen Internet."])
    #expect(game.coins == 10)
  }

  @Test("Saves from before uploads existed read as YouTube videos")
  func oldVideoFormat() throws {
    let json = #"{"id":"dQw4w9WgXcQ","title":"Alt","addedAt":0}"#
    let video = try JSONDecoder().decode(ApprovedVideo.self, from: Data(json.utf8))
    #expect(video.source == .youtube && video.needsInternet)
  }

  @Test("Sound on and off in any state, saved")
  func audio() {
    var game = Game()
    #expect(game.send(.setAudio(enabled: false)) == [.settingsChanged, .save])
    #expect(game.machine.data.settings.audioEnabled == false)
    #expect(game.state == .loading)
  }

  @Test("A new day sets everyone's play time back to zero, and the gentle-exit lines may play again")
  func newDay() {
    var game = Game()
    game.toHome()
    game.send(.playTimeUpdated(minutesToday: 50))
    #expect(game.machine.activePlayer?.announcedPlayTimeStage == .breakSoon)
    #expect(game.send(.dayChanged) == [.save])
    #expect(game.machine.data.players.allSatisfy { $0.totalPlayTimeToday == 0 && $0.announcedPlayTimeStage == .fine })
    #expect(game.send(.playTimeUpdated(minutesToday: 49)).spoken == ["Bald machen wir eine Pause."])
  }

  @Test("Restoring with the video clock: home, the time left kept for the child; time up owes nothing; without it, the seed's rule")
  func restoreVideo() throws {
    var game = Game(coins: 10)
    game.toVideoPlaying()
    let saved = try game.machine.encoded()
    let (kept, keptNote) = GameMachine.restore(from: saved, seed: 1, videoClockAt: at(60))
    #expect(kept.state == .home && keptNote.outcome == .movedToSafeState)
    #expect(kept.data.player("alexander")?.unwatchedVideo?.timer.remaining(at: at(999)) == 240)
    let (ended, endedNote) = GameMachine.restore(from: saved, seed: 1, videoClockAt: at(301))
    #expect(ended.state == .home && endedNote.outcome == .movedToSafeState)
    #expect(ended.data.player("alexander")?.unwatchedVideo == nil)
    let (seedRule, _) = GameMachine.restore(from: saved, seed: 1)
    #expect(seedRule.state == .home)
  }

  @Test("Resuming a snapshot keeps the exact state (no recovery rules); an inconsistent one is refused")
  func resume() throws {
    var game = Game()
    game.toPlaying()
    let snapshot = game.machine.snapshot()
    let resumed = try #require(GameMachine(resuming: snapshot))
    #expect(resumed == game.machine)
    #expect(resumed.state == .playing(.zahlen, .wuerfel))
    var broken = snapshot
    broken.navigation = Navigation()
    broken.navigation.state = .celebrationOverlay
    #expect(GameMachine(resuming: broken) == nil)
  }
}
