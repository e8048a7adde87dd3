import CompletionCore
import Foundation

/// A paid video on screen: which one, which tier paid for it, and its clock.
public struct VideoSession: Hashable, Sendable, Codable {
  /// The approved video.
  public let videoID: String
  /// What was paid for it.
  public let tier: VideoTier
  /// Its clock.
  public internal(set) var timer: VideoTimer

  /// A video starting with `timer`.
  public init(videoID: String, tier: VideoTier, timer: VideoTimer) {
    self.videoID = videoID
    self.tier = tier
    self.timer = timer
  }
}

/// A celebration a child earned and has not seen yet.
public struct PendingCelebration: Hashable, Sendable, Codable {
  /// The child.
  public let player: String
  /// Their coins at the milestone.
  public let coins: Int
}

/// Where the child is on screen, and what that screen needs to come back to it.
public struct Navigation: Hashable, Sendable, Codable {
  /// The screen.
  public internal(set) var state: GameState = .loading
  /// The level under way (also under the level-complete moment and the celebration overlay).
  public internal(set) var activity: ActivityContext?
  /// Video time paid for on the treasure screen and not yet started (video selection).
  public internal(set) var redemption: VideoTier?
  /// The video playing.
  public internal(set) var video: VideoSession?
  /// The parent gate's question and input.
  public internal(set) var gate: ParentGate?
  /// The screen a launch interrupted (by the recovery rules), waiting on the loading and player screens:
  /// the child who was playing goes back to it; another child starts at home.
  public internal(set) var resumeState: GameState?
  /// Whether the loading screen's line has been spoken.
  public internal(set) var loadingAnnounced = false
  /// A parent deep link that arrived during loading: the gate opens when the loading screen ends
  /// (nil when none waits, and in older saves).
  public internal(set) var parentLinkWaiting: Bool?
  /// Whether the active child has had the first-visit greeting on the home screen.
  public internal(set) var greetedHome = false
  /// The last number asked in Wähle die Zahl, so the next one differs.
  public internal(set) var lastNumberTarget: Int?
  /// A milestone celebration earned but not yet shown: the level-complete moment that leads to it was left
  /// (home, back, a reload). It comes before the child's next level, if the coins are still the same.
  public internal(set) var pendingCelebration: PendingCelebration?
  /// The largest Puzzle Matching grid whose cells are child-sized targets on the screen in use (as the page
  /// reported it); nil until one is reported, which allows every grid.
  public internal(set) var largestPuzzleGrid: Int?

  /// The start: the loading screen.
  public init() {}
}

/// The whole game as a value (ARCHITECTURE rule 3): `handle(_:)` applies one event and returns what the
/// caller must do. Every transition of seed 001's tables is a branch here; anything else comes back as a
/// ``GameEffect/refused(_:)`` and changes nothing. Time and randomness come in: times with the events,
/// randomness from the seed the machine was made with (saved with it, so a restored game rolls on).
public struct GameMachine: Hashable, Sendable {
  /// The children and the parent's settings (never dropped by recovery).
  public internal(set) var data: GameData
  /// Where the child is on screen.
  public internal(set) var navigation: Navigation
  /// The seeded randomness, saved with the game.
  public internal(set) var random: SeededRandom

  /// A fresh game on the loading screen.
  public init(seed: UInt64, data: GameData = GameData()) {
    self.init(data: data, navigation: Navigation(), random: SeededRandom(seed: seed))
  }

  init(data: GameData, navigation: Navigation, random: SeededRandom) {
    self.data = data
    self.navigation = navigation
    self.random = random
  }

  /// The screen.
  public var state: GameState { navigation.state }
  /// The child playing, once chosen.
  public var activePlayer: PlayerData? { data.activePlayer }
  /// The level under way.
  public var activity: ActivityContext? { navigation.activity }

  /// Whether `activity`'s sign opens for the active child: it has rules, and the parent has it turned on.
  public func isUnlocked(_ activity: ActivityType) -> Bool {
    guard activity.isAvailable, let player = activePlayer else { return false }
    return data.settings.parentSettings.settings(for: player.id).unlockedActivities.contains(activity)
  }

  /// Whether the active child has used up today's play time.
  public var isDailyLimitReached: Bool {
    guard let player = activePlayer else { return false }
    let limit = data.settings.parentSettings.settings(for: player.id).dailyLimit
    return limit.stage(minutesPlayed: player.minutesPlayedToday) == .finished
  }

  /// Applies `event`.
  public mutating func handle(_ event: GameEvent) -> [GameEffect] {
    // Events that mean the same in every state.
    switch event {
    case .appBackgrounded(let date): return backgrounded(at: date)
    case .appForegrounded(let date): return foregrounded(at: date)
    case .playTimeUpdated(let minutes, let date): return playTimeUpdated(minutes: minutes, at: date, event)
    case .openParentDeepLink: return deepLink(event)
    case .setAudio(let enabled):
      data.settings.audioEnabled = enabled
      return [.settingsChanged, .save]
    case .screenFits(let grid):
      guard (1...100).contains(grid) else { return refuse(.numberOutOfRange, event) }
      // Never below the smallest grid of the table: a very small screen gets that one, as large as it can.
      let largest = min(PuzzleMatchingRound.largestSize, max(PuzzleMatchingRound.smallestSize, grid))
      guard navigation.largestPuzzleGrid != largest else { return [] }
      navigation.largestPuzzleGrid = largest
      return [.save]
    case .dayChanged:
      for index in data.players.indices {
        data.players[index].totalPlayTimeToday = 0
        data.players[index].announcedPlayTimeStage = .fine
      }
      return [.save]
    case .parent(let command):
      guard state == .parentDashboard else { return refuse(.parentGateRequired, event) }
      return apply(command, event)
    default: break
    }
    switch state {
    case .loading: return handleLoading(event)
    case .playerSelection: return handlePlayerSelection(event)
    case .home: return handleHome(event)
    case .activitySelection(let activity): return handleActivitySelection(activity, event)
    case .playing: return handlePlaying(event)
    case .levelComplete: return handleLevelComplete(event)
    case .celebrationOverlay: return handleCelebration(event)
    case .treasureScreen: return handleTreasure(event)
    case .videoSelection: return handleVideoSelection(event)
    case .videoPlaying: return handleVideoPlaying(event)
    case .parentGate: return handleGate(event)
    case .parentDashboard: return handleDashboard(event)
    }
  }

  // MARK: - Screens before the game

  private mutating func handleLoading(_ event: GameEvent) -> [GameEffect] {
    guard case .loadingTick(let elapsed) = event else { return refuse(.stillLoading, event) }
    guard elapsed.isFinite, elapsed >= 0 else { return refuse(.numberOutOfRange, event) }
    var effects: [GameEffect] = [.loadingProgress(LoadingScreen.progress(elapsed: elapsed))]
    if elapsed >= LoadingScreen.fullAfter, !navigation.loadingAnnounced {
      navigation.loadingAnnounced = true
      effects += speak(.loadingComplete)
    }
    if elapsed >= LoadingScreen.handOffAfter {
      effects.append(move(to: .playerSelection))
      if navigation.parentLinkWaiting == true {
        // A parent's link that came with the launch: the gate, once the loading screen has had its time.
        navigation.parentLinkWaiting = nil
        return effects + deepLink(.openParentDeepLink)
      }
      effects += askWhoPlays()
    }
    return effects
  }

  /// "Wie heißt du? Mia oder Ben?": the player screen's question names the family's children.
  func askWhoPlays() -> [GameEffect] {
    speak(.playerScreen, LineValues(name: Narration.nameList(data.players.map(\.name))))
  }

  private mutating func handlePlayerSelection(_ event: GameEvent) -> [GameEffect] {
    guard case .selectPlayer(let id, let date) = event else { return refuse(.notAllowedHere, event) }
    guard let player = data.player(id) else { return refuse(.unknownPlayer, event) }
    let previous = data.settings.lastActivePlayer
    let interrupted = navigation.resumeState
    navigation.resumeState = nil
    // Another child's turn: what the last one had paid for or was watching is settled first.
    let settled = previous == player.id ? [] : settleInterruptedScreen(of: previous, at: date)
    data.settings.lastActivePlayer = player.id
    navigation.greetedHome = false
    let hello = speak(.playerTapped, LineValues(name: player.name))
    if previous == player.id, let interrupted { return hello + resume(interrupted, at: date) }
    return settled + hello + goHome()
  }

  /// The child who was playing comes back to the screen the launch interrupted.
  private mutating func resume(_ screen: GameState, at date: Date) -> [GameEffect] {
    switch screen {
    case .videoPlaying:
      // A film a launch cut short goes home, as the recovery rules say; its time waits there (older saves).
      keepUnwatchedVideo(of: data.settings.lastActivePlayer, stoppedAt: date)
      return goHome()
    case .videoSelection where navigation.redemption != nil:
      return [move(to: .videoSelection), .save]
    case .treasureScreen:
      return [move(to: .treasureScreen), .save] + Narration.treasure(coins: activePlayer?.coins ?? 0).map(GameEffect.speak)
    case .activitySelection(let activity) where activity.isAvailable:
      return [move(to: screen), .save]
    default:
      return goHome()
    }
  }

  /// Time paid for and not yet used stays with the child who paid: coins for a film not yet chosen come
  /// back (as "Zurück" on video selection does), a film cut short waits for them with its time left.
  mutating func settleInterruptedScreen(of previous: String?, at date: Date) -> [GameEffect] {
    var effects: [GameEffect] = []
    if navigation.video != nil {
      keepUnwatchedVideo(of: previous, stoppedAt: date)
    } else if let previous, let tier = navigation.redemption, let refund = changeCoins(of: previous, by: tier.cost, reason: .refunded) {
      effects.append(refund)
    }
    navigation.redemption = nil
    navigation.video = nil
    navigation.activity = nil
    return effects
  }

  /// Moves the film on screen to `player` with its clock stopped at `stoppedAt`, so the time left is theirs
  /// to watch later (the film goes into their list once its time is used up). A clock with no time left
  /// owes nothing. Clears the film from the screen either way.
  mutating func keepUnwatchedVideo(of player: String?, stoppedAt: Date) {
    defer { navigation.video = nil }
    guard var session = navigation.video, let player, data.player(player) != nil else { return }
    if !session.timer.isPaused { session.timer.pause(at: stoppedAt) }
    guard !session.timer.isFinished, session.timer.remaining(at: stoppedAt) > 0 else { return }
    updatePlayer(player) { $0.unwatchedVideo = session }
  }

  // MARK: - Home and activity selection

  private mutating func handleHome(_ event: GameEvent) -> [GameEffect] {
    guard let player = activePlayer else { return refuse(.noActivePlayer, event) }
    switch event {
    case .tapActivity(let activity):
      guard isUnlocked(activity) else { return refuse(.activityLocked, event, lines: .lockedSign) }
      guard !isDailyLimitReached else { return refuse(.dailyLimitReached, event, lines: .playTimeGoodbye) }
      return [.sound(.tapWood), move(to: .activitySelection(activity))]
    case .tapChest:
      guard CoinRules.canOpenTreasure(player.coins) else {
        let missing = VideoTier.fiveMinutes.cost - player.coins
        return refuse(.notEnoughCoins, event, lines: .chestClosed, LineValues(x: missing))
      }
      guard !isDailyLimitReached else { return refuse(.dailyLimitReached, event, lines: .playTimeGoodbye) }
      return [.sound(.tapWood), move(to: .treasureScreen)] + Narration.treasure(coins: player.coins).map(GameEffect.speak)
    case .tapSettings:
      return openGate()
    case .resumeUnwatchedVideo(let online, let date):
      return resumeUnwatchedVideo(online: online, at: date, event)
    case .changePlayer:
      // The turn ends here, on home, where nothing is paid or running: the next child chooses their card.
      navigation.greetedHome = false
      return [.sound(.tapWood), move(to: .playerSelection), .save] + askWhoPlays()
    default:
      return refuse(.notAllowedHere, event)
    }
  }

  private mutating func handleActivitySelection(_ activity: ActivityType, _ event: GameEvent) -> [GameEffect] {
    switch event {
    case .tapSubActivity(let game):
      guard game.activity == activity else { return refuse(.notAllowedHere, event) }
      guard game.isAvailable, isUnlocked(activity) else { return refuse(.activityLocked, event, lines: .lockedSign) }
      guard !isDailyLimitReached else { return refuse(.dailyLimitReached, event, lines: .playTimeGoodbye) }
      return [.sound(.tapWood)] + startLevel(of: game)
    case .back, .home:
      return goHome()
    default:
      return refuse(.notAllowedHere, event)
    }
  }

  // MARK: - Shared steps

  /// Goes to the home screen, dropping whatever screen was open, and saves. The greeting is the
  /// first-visit one once per chosen child, the return one after that; none once today's time is used up.
  mutating func goHome(greeting: Bool = true) -> [GameEffect] {
    navigation.activity = nil
    navigation.redemption = nil
    navigation.gate = nil
    navigation.video = nil
    guard let player = activePlayer else { return [move(to: .playerSelection), .save] + askWhoPlays() }
    var effects: [GameEffect] = []
    effects.reserveCapacity(5)
    effects.append(move(to: .home))
    effects.append(.save)
    guard greeting, !isDailyLimitReached else { return effects }
    if navigation.greetedHome {
      appendLines(.homeReturn, to: &effects)
    } else {
      navigation.greetedHome = true
      appendLines(.homeFirstVisit, LineValues(name: player.name), to: &effects)
    }
    return effects
  }

  /// Opens the parent gate with a new question (from the settings button or a deep link).
  mutating func openGate() -> [GameEffect] {
    let gate = ParentGate(using: &random)
    navigation.activity = nil
    navigation.gate = gate
    return [move(to: .parentGate), .gateNewQuestion(gate.question)]
  }

  private mutating func deepLink(_ event: GameEvent) -> [GameEffect] {
    switch state {
    case .loading:
      // A link opened from a cold start: the loading screen keeps its time, then the gate opens.
      navigation.parentLinkWaiting = true
      return [.save]
    case .playerSelection where navigation.resumeState != nil:
      // A parent's link while a child's screen waits: that screen is settled first. Its video clock has
      // stood still since the launch, so the time it ran is known without a date.
      let stopped = navigation.video.map { $0.timer.session.pausedAt ?? $0.timer.startedAt } ?? Date(timeIntervalSince1970: 0)
      let settled = settleInterruptedScreen(of: data.settings.lastActivePlayer, at: stopped)
      navigation.resumeState = nil
      return settled + openGate() + [.save]
    case .playerSelection, .home, .activitySelection, .playing, .levelComplete, .treasureScreen:
      return openGate()
    default:
      // Not over a celebration only "Weiter" may close, not away from paid video time, and not again from
      // inside the parent area.
      return refuse(.notAllowedHere, event)
    }
  }

  private mutating func backgrounded(at date: Date) -> [GameEffect] {
    guard state == .videoPlaying, var session = navigation.video, !session.timer.isPaused else { return [.save] }
    session.timer.pause(at: date)
    navigation.video = session
    return [.pauseVideoTimer, .save]
  }

  private mutating func foregrounded(at date: Date) -> [GameEffect] {
    guard state == .videoPlaying, var session = navigation.video, session.timer.isPaused else { return [] }
    session.timer.resume(at: date)
    navigation.video = session
    return [.resumeVideoTimer]
  }

  /// Sets the state and reports the transition.
  mutating func move(to next: GameState) -> GameEffect {
    let previous = navigation.state
    navigation.state = next
    return .transition(from: previous, to: next)
  }

  /// Appends the lines of `trigger` to `effects` without an array of their own.
  /// `delay`, when given, replaces the lines' own delays.
  func appendLines(
    _ trigger: NarrationTrigger, _ values: LineValues = LineValues(), delay: Double? = nil, to effects: inout [GameEffect]
  ) {
    for template in Narration.templates(for: trigger) {
      effects.append(.speak(Narration.line(template, of: trigger, values, delay: delay)))
    }
  }

  /// The lines of `trigger` as effects.
  func speak(_ trigger: NarrationTrigger, _ values: LineValues = LineValues()) -> [GameEffect] {
    Narration.lines(for: trigger, values).map(GameEffect.speak)
  }

  /// A refusal (nothing changes), optionally with the friendly line the child hears instead.
  func refuse(
    _ reason: RefusalReason, _ event: GameEvent, lines trigger: NarrationTrigger? = nil, _ values: LineValues = LineValues()
  ) -> [GameEffect] {
    [.refused(Refusal(reason: reason, state: state, event: event))] + (trigger.map { speak($0, values) } ?? [])
  }

  /// Changes the active player's record.
  mutating func updateActivePlayer(_ change: (inout PlayerData) -> Void) {
    guard let id = data.settings.lastActivePlayer else { return }
    updatePlayer(id, change)
  }

  mutating func updatePlayer(_ id: String, _ change: (inout PlayerData) -> Void) {
    guard let index = data.players.firstIndex(where: { $0.id == id }) else { return }
    change(&data.players[index])
  }

  /// Changes `player`'s coins by `amount` and returns the effect with a fresh ledger key.
  mutating func changeCoins(of player: String, by amount: Int, reason: CoinChange.Reason) -> GameEffect? {
    guard let index = data.players.firstIndex(where: { $0.id == player }) else { return nil }
    data.players[index].coins = max(0, data.players[index].coins + amount)
    if reason == .earned { data.players[index].totalCoinsEarned += amount }
    data.ledgerSequence += 1
    let change = CoinChange(
      player: player, amount: amount, balance: data.players[index].coins, reason: reason,
      sequence: data.ledgerSequence)
    return .coinsChanged(change)
  }
}
