import Foundation
import Testing

@testable import KidsGame

/// Paid video time is the child's who paid it: however a film is left before its clock runs out, the time
/// left waits for that child on home ("Weiterschauen"), and nobody else can use it.
@Suite("Unwatched paid video time stays with the child who paid")
struct UnwatchedVideoTests {
  /// Alexander watching the 10+2 minutes he paid 20 coins for, `watched` seconds in.
  static func watching(for watched: Double = 160) -> (Game, Date) {
    var game = Game(coins: 20)
    game.toVideoPlaying(.twelveMinutes)
    let started = game.now
    game.send(.videoTick(at: started.addingTimeInterval(watched)))
    return (game, started)
  }

  /// A launch of `game`'s save at `date`, through loading to "Wer spielt heute?".
  static func launched(_ game: Game, at date: Date) throws -> Game {
    let (machine, _) = GameMachine.launch(from: try game.machine.encoded(), seed: 9, at: date)
    var launched = Game(machine: machine)
    launched.send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    #expect(launched.state == .playerSelection)
    return launched
  }

  /// Whole seconds left on the time `player` has waiting (the dates are far from 1970: tenths of a
  /// microsecond of rounding are not a difference).
  static func waiting(_ game: Game, _ player: String = "alexander") -> Double? {
    game.machine.data.player(player)?.unwatchedVideo.map { ($0.timer.remaining(at: .distantFuture) * 1000).rounded() / 1000 }
  }

  /// `seconds` rounded the same way.
  static func rounded(_ seconds: Double?) -> Double? { seconds.map { ($0 * 1000).rounded() / 1000 } }

  @Test("A reload mid-film, then a sibling: Oliver plays, Alexander's nine paid minutes wait for him")
  func siblingAfterReload() throws {
    let (game, started) = Self.watching(for: 160)
    var next = try Self.launched(game, at: started.addingTimeInterval(160))
    next.send(.selectPlayer("oliver", at: started.addingTimeInterval(170)))
    #expect(next.state == .home)
    #expect(Self.waiting(next) == 560.0)
    #expect(Self.waiting(next, "oliver") == nil)
    #expect(next.machine.data.player("alexander")?.coins == 0)
    // Oliver cannot take it up.
    #expect(next.send(.resumeUnwatchedVideo(online: true, at: started.addingTimeInterval(180))).refusals == [.notAllowedHere])
    // Oliver's turn ends properly on home; Alexander's card, and his film goes on where it stopped.
    next.send(.changePlayer)
    #expect(next.state == .playerSelection)
    next.send(.selectPlayer("alexander", at: started.addingTimeInterval(200)))
    #expect(next.state == .home)
    let resumedAt = started.addingTimeInterval(210)
    let effects = next.send(.resumeUnwatchedVideo(online: true, at: resumedAt))
    #expect(effects.transitions == [.videoPlaying])
    #expect(effects.contains(.resumeVideoTimer))
    let timer = try #require(next.machine.navigation.video?.timer)
    #expect(Self.rounded(timer.remaining(at: resumedAt)) == 560)
    #expect(next.machine.navigation.video?.videoID == approvedID)
    #expect(Self.waiting(next) == nil)
    #expect(next.machine.consistencyProblems.isEmpty)
    // It runs to its end as any film does.
    #expect(next.send(.videoTick(at: resumedAt.addingTimeInterval(560))).transitions == [.home])
    #expect(next.machine.data.player("alexander")?.videosWatched.last?.duration == 720)
  }

  @Test("A reload mid-film: the same child goes home (the seed's recovery rule) with the time waiting there")
  func reloadSameChild() throws {
    let (game, started) = Self.watching(for: 30)
    var next = try Self.launched(game, at: started.addingTimeInterval(45))
    #expect(next.machine.navigation.video == nil)
    next.send(.selectPlayer("alexander", at: started.addingTimeInterval(60)))
    #expect(next.state == .home)
    #expect(Self.waiting(next) == 675.0)
    next.send(.resumeUnwatchedVideo(online: true, at: started.addingTimeInterval(70)))
    #expect(next.state == .videoPlaying)
    #expect(Self.rounded(next.machine.navigation.video?.timer.remaining(at: started.addingTimeInterval(70))) == 675)
  }

  @Test("The day's limit during a film: \"Die Zeit ist um.\", the goodbye, home; the rest waits for tomorrow")
  func dailyLimit() throws {
    var (game, started) = Self.watching(for: 100)
    let stop = started.addingTimeInterval(130)
    let effects = game.send(.playTimeUpdated(minutesToday: 60, at: stop))
    #expect(game.state == .home)
    #expect(effects.spoken == ["Die Zeit ist um.", "Du hast heute so toll gespielt! Bis morgen! Sag Mama oder Papa Bescheid."])
    #expect(Self.waiting(game) == 590.0)
    // Not today, not even on a relaunch.
    #expect(game.send(.resumeUnwatchedVideo(online: true, at: stop.addingTimeInterval(5))).refusals == [.dailyLimitReached])
    var relaunched = try Self.launched(game, at: stop.addingTimeInterval(10))
    relaunched.send(.selectPlayer("alexander", at: stop.addingTimeInterval(20)))
    #expect(relaunched.state == .home)
    #expect(relaunched.send(.resumeUnwatchedVideo(online: true, at: stop.addingTimeInterval(25))).refusals == [.dailyLimitReached])
    // Tomorrow it plays on.
    relaunched.send(.dayChanged)
    let tomorrow = stop.addingTimeInterval(86_400)
    relaunched.send(.resumeUnwatchedVideo(online: true, at: tomorrow))
    #expect(relaunched.state == .videoPlaying)
    #expect(Self.rounded(relaunched.machine.navigation.video?.timer.remaining(at: tomorrow)) == 590)
  }

  @Test("The parent's link from a cold start over a film: the gate opens, the time stays; a removed film is chosen again")
  func parent() throws {
    let (game, started) = Self.watching(for: 200)
    let (machine, _) = GameMachine.launch(from: try game.machine.encoded(), seed: 9, at: started.addingTimeInterval(200))
    var parent = Game(machine: machine)
    #expect(parent.send(.openParentDeepLink).refusals.isEmpty)
    parent.send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    #expect(parent.state == .parentGate)
    #expect(Self.waiting(parent) == 520)
    parent.enterGateAnswer(parent.machine.navigation.gate?.question.answer ?? 0)
    parent.send(.gateConfirm)
    #expect(parent.state == .parentDashboard)
    parent.send(.parent(.addUploadedVideo(id: "upload-film.mp4", title: "Bären", at: started)))
    parent.send(.parent(.removeVideo(id: approvedID)))
    #expect(Self.waiting(parent) == 520)
    parent.send(.home)
    #expect(parent.state == .home)
    // Alexander's turn: his time is still his.
    parent.send(.changePlayer)
    parent.send(.selectPlayer("alexander", at: started.addingTimeInterval(300)))
    let effects = parent.send(.resumeUnwatchedVideo(online: false, at: started.addingTimeInterval(310)))
    #expect(effects.transitions == [.videoSelection])
    #expect(parent.machine.data.player("alexander")?.coins == 0)
    // Back out: the time is still his, no coins appear from nowhere.
    let back = parent.send(.back)
    #expect(back.coinChanges.isEmpty)
    #expect(Self.waiting(parent) == 520)
    parent.send(.resumeUnwatchedVideo(online: false, at: started.addingTimeInterval(320)))
    let chosenAt = started.addingTimeInterval(330)
    parent.send(.chooseVideo(id: "upload-film.mp4", online: false, at: chosenAt))
    #expect(parent.state == .videoPlaying)
    #expect(parent.machine.navigation.video?.videoID == "upload-film.mp4")
    #expect(Self.rounded(parent.machine.navigation.video?.timer.remaining(at: chosenAt)) == 520)
    #expect(parent.machine.consistencyProblems.isEmpty)
  }

  @Test("Coins paid for a film not yet chosen come back to the payer when a sibling takes the turn")
  func paidNotChosen() throws {
    var game = Game(coins: 20)
    game.toVideoSelection(.twelveMinutes)
    var next = try Self.launched(game, at: at(10))
    let effects = next.send(.selectPlayer("oliver", at: at(20)))
    #expect(effects.coinChanges.map(\.reason) == [.refunded])
    #expect(next.machine.data.player("alexander")?.coins == 20)
    #expect(Self.waiting(next) == nil)
  }

  @Test("Resetting a child's progress takes paid film time with the coins")
  func resetClears() throws {
    let (game, started) = Self.watching(for: 50)
    var next = try Self.launched(game, at: started.addingTimeInterval(60))
    next.send(.selectPlayer("alexander", at: started.addingTimeInterval(70)))
    next.toParentDashboardFromHome()
    next.send(.parent(.resetProgress(player: "alexander")))
    #expect(Self.waiting(next) == nil)
  }
}

/// The parent's deep link from a cold start, and the hand-over between siblings.
@Suite("Deep link and hand-over")
struct LaunchFlowTests {
  @Test("/kids#eltern from a cold start: the loading screen keeps its time, then the gate")
  func deepLinkWhileLoading() {
    var game = Game()
    #expect(game.send(.openParentDeepLink) == [.save])
    #expect(game.state == .loading)
    #expect(game.send(.loadingTick(elapsed: LoadingScreen.minimumDisplay - 0.01)).transitions.isEmpty)
    let effects = game.send(.loadingTick(elapsed: LoadingScreen.handOffAfter))
    #expect(effects.transitions == [.playerSelection, .parentGate])
    #expect(game.state == .parentGate)
    #expect(game.machine.navigation.parentLinkWaiting == nil)
    #expect(game.machine.consistencyProblems.isEmpty)
  }

  @Test("\"Wer spielt?\" on home ends the turn: the player screen asks again, the next child gets their greeting")
  func handOver() {
    var game = Game()
    game.toHome()
    let effects = game.send(.changePlayer)
    #expect(game.state == .playerSelection)
    #expect(effects.spoken == ["Wie heißt du? Alexander oder Oliver?"])
    let hello = game.send(.selectPlayer("oliver", at: at(5)))
    #expect(game.state == .home)
    #expect(game.machine.activePlayer?.id == "oliver")
    #expect(hello.spoken.contains("Hallo Oliver! Los geht's!"))
    #expect(hello.spoken.contains("Hi Oliver, ich bin Bennie!"))
    // Only from home, where nothing is paid or running.
    game.send(.tapActivity(.zahlen))
    #expect(game.send(.changePlayer).refusals == [.notAllowedHere])
  }
}
