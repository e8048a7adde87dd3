#if canImport(SwiftUI)
import Foundation
import Observation
import SwiftUI
import KidsGame

/// A coin on its way to the bar after a solved level (its landing fills the slot).
public struct CoinFlight: Hashable, Sendable, Identifiable {
  /// Counts up with every flight, so two flights to the same balance still animate twice.
  public let id: Int
  /// The player's coins once it has landed.
  public let balance: Int
}

/// "Zeit ist um!": the finished video stays on screen, paused, for the machine's hold time before home shows.
/// The machine is already home by then (it moves on at once); this is the client's part of the moment.
public struct TimeUpMoment: Hashable, Sendable {
  /// The video that ran out, with its finished clock.
  public let session: VideoSession
  /// When time ran out (the clock is drawn at this instant).
  public let at: Date
}

/// The state behind the Waldabenteuer screens.
///
/// It owns the game's value-type ``GameMachine``: every tap becomes a `GameEvent` through ``send(_:)``, and the
/// `GameEffect`s the machine returns are carried out here and nowhere else. Saving writes `machine.encoded()` to
/// a file; lines are spoken with the system's German voice and shown in Bennie's bubble; `schedule` effects,
/// the loading bar, the idle prompts, the play-time count and the video clock all run on the injected clock, so
/// a preview or a test can drive time itself. Everything on screen is read from ``machine`` or from the few
/// presentation values below that only effects set (the die's tumble, the glowing answer, the coin flight…).
@Observable
@MainActor
public final class KidsGameModel {
  // MARK: - Game

  /// The game. Views read it; only ``send(_:)`` changes it.
  public private(set) var machine: GameMachine
  /// How the game came back at launch.
  public let recovery: RecoveryNote
  /// What the machine returned for the last event, in order.
  public private(set) var lastEffects: [GameEffect] = []
  /// The last event the machine did not apply.
  public private(set) var lastRefusal: Refusal?

  // MARK: - Presentation set by effects

  /// The loading bar, 0…100.
  public private(set) var loadingProgress = 0
  /// The line spoken last (any speaker), as it was sent.
  public private(set) var spokenLine: SpokenLine?
  /// What Bennie's speech bubble shows: his lines and the shared success phrases, from the moment he starts
  /// saying them. Cleared when the screen changes. Narrator lines never appear here.
  public private(set) var bubbleLine: SpokenLine?
  /// The coin count the celebration overlay shows, while it is up.
  public private(set) var celebrationCoins: Int?
  /// Counts confetti bursts; the view starts one whenever it changes (and never under Reduce Motion).
  public private(set) var confettiBursts = 0
  /// The last earned coin's flight to the bar.
  public private(set) var coinFlight: CoinFlight?
  /// Counts die rolls; the die tumbles whenever it changes.
  public private(set) var dieRolls = 0
  /// Whether the die is still tumbling (the number buttons wait for it).
  public private(set) var isDieTumbling = false
  /// The number button that glows: the answer after a wrong tap, or the number to trace.
  public private(set) var highlightedNumber: Int?
  /// The answer shown for a moment after a wrong tap in Wähle die Zahl.
  public private(set) var shownAnswer: Int?
  /// The child's finished strokes on the number (0…1 box coordinates).
  public private(set) var traceStrokes: [[TracePoint]] = []
  /// How much of the number the strokes so far cover, 0…1.
  public private(set) var traceCoverage = 0.0
  /// "Versuch es nochmal" under the parent gate, while it shows.
  public private(set) var gateMessage: String?
  /// The "Zeit ist um!" moment after a video, while it lasts.
  public private(set) var timeUp: TimeUpMoment?
  /// The time the video clock is drawn at (updated once a second while a video plays).
  public private(set) var now: Date
  /// Whether the device is online.
  public private(set) var isOnline = true
  /// Whether the app is in the foreground (from the scene phase).
  public private(set) var isInForeground = true

  // MARK: - Services (not display state)

  private let store: KidsGameStore
  private let clock: any Clock<Duration>
  private let currentDate: @Sendable () -> Date
  private let voice: KidsVoice?
  private let sounds = KidsSoundPlayer()
  private let haptics = KidsHaptics()
  private let log = KidsGameLog()
  @ObservationIgnored private var connectivity: ConnectivityMonitor?
  @ObservationIgnored private var timers: [TimerKey: Task<Void, Never>] = [:]
  @ObservationIgnored private var idleSeconds = 0.0
  @ObservationIgnored private var pendingPlaySeconds = 0.0
  @ObservationIgnored private var playTimePlayer: String?
  @ObservationIgnored private var lastActiveDay: Date
  @ObservationIgnored private var isRunning = false
  @ObservationIgnored private var isSending = false
  @ObservationIgnored private var queuedEvents: [GameEvent] = []

  private enum TimerKey: Hashable {
    case tumble, answer, gateMessage, timeUp
    case line(UUID)
    case scheduled(UUID)
  }

  /// Play time is sent to the machine in steps of this many seconds (and whenever the app leaves the
  /// foreground or the child leaves the game for the parent area or player selection).
  public static let playTimeReportSeconds = 30.0
  /// The URL scheme of deep links (`waldabenteuer://eltern` opens the parent gate).
  public static let deepLinkScheme = "waldabenteuer"

  // MARK: - Making one

  /// The game as it was left: reads `store`'s file and restores it by the recovery rules (an activity comes
  /// back on its selection screen, a video or the celebration at home, …); a first launch starts at the
  /// loading screen. A save that cannot be read is moved aside, never overwritten.
  ///
  /// - Parameters:
  ///   - seed: the randomness for a new game (a restored game keeps its own stream).
  ///   - clock: drives the loading bar, scheduled events, timeouts and the once-a-second heartbeat.
  ///   - now: the date stamped on events (rolls, taps, the video clock).
  ///   - speaksAloud: false keeps the voice silent (previews, tests); the bubble still shows the lines.
  ///   - watchesConnectivity: false skips the network monitor and stays online.
  public convenience init(
    store: KidsGameStore = KidsGameStore(url: KidsGameStore.defaultURL),
    seed: UInt64 = UInt64.random(in: .min ... .max),
    clock: any Clock<Duration> = ContinuousClock(),
    now: @escaping @Sendable () -> Date = { Date() },
    speaksAloud: Bool = true,
    watchesConnectivity: Bool = true
  ) {
    var saved: Data?
    var readError: (any Error)?
    do {
      saved = try store.load()
    } catch {
      readError = error
    }
    let (machine, note) = GameMachine.launch(from: saved, seed: seed, at: now())
    // Keep what could not be read: the next save would otherwise replace the only copy of the coins.
    let quarantined = (readError != nil || note.outcome == .unreadable) ? store.quarantine(at: now()) : nil
    self.init(
      machine: machine, recovery: note, store: store, clock: clock, now: now, speaksAloud: speaksAloud,
      watchesConnectivity: watchesConnectivity, lastActiveDay: store.lastSaved)
    if let readError { log.failure("reading the save failed", readError) }
    if let quarantined { log.note("unreadable save kept at \(quarantined.lastPathComponent)") }
    log.recovered(note)
  }

  /// A model for `machine` as it is (previews, tests, a host that restores the game itself).
  public convenience init(
    machine: GameMachine,
    store: KidsGameStore,
    clock: any Clock<Duration> = ContinuousClock(),
    now: @escaping @Sendable () -> Date = { Date() },
    speaksAloud: Bool = true,
    watchesConnectivity: Bool = true
  ) {
    let note = RecoveryNote(outcome: .restored, savedState: machine.state, restoredState: machine.state)
    self.init(
      machine: machine, recovery: note, store: store, clock: clock, now: now, speaksAloud: speaksAloud,
      watchesConnectivity: watchesConnectivity, lastActiveDay: nil)
  }

  private init(
    machine: GameMachine, recovery: RecoveryNote, store: KidsGameStore, clock: any Clock<Duration>,
    now: @escaping @Sendable () -> Date, speaksAloud: Bool, watchesConnectivity: Bool, lastActiveDay: Date?
  ) {
    let date = now()
    self.machine = machine
    self.recovery = recovery
    self.store = store
    self.clock = clock
    self.currentDate = now
    self.now = date
    self.voice = speaksAloud ? KidsVoice() : nil
    self.lastActiveDay = lastActiveDay ?? date
    voice?.onLineStarted = { [weak self] line in
      self?.lineStarted(line)
    }
    if watchesConnectivity {
      connectivity = ConnectivityMonitor { [weak self] online in
        Task { @MainActor in
          self?.isOnline = online
        }
      }
    }
    // The app was last used on another day: today's play time starts again at zero.
    if !Calendar.current.isDate(self.lastActiveDay, inSameDayAs: date) {
      dayChanged(at: date)
    }
  }

  // MARK: - What views read

  /// The child playing.
  public var activePlayer: PlayerData? { machine.activePlayer }
  /// The active child's coins (0 before one is chosen).
  public var coins: Int { machine.activePlayer?.coins ?? 0 }
  /// Whether narration and effects are on (the sound button).
  public var audioEnabled: Bool { machine.data.settings.audioEnabled }
  /// Whether video time can be bought now: online, or an uploaded video that plays offline is approved.
  public var canWatchVideos: Bool { isOnline || machine.data.settings.parentSettings.hasOfflineVideos }
  /// The uploaded file of video `id`, if it is one.
  public func uploadedVideoURL(for id: String) -> URL? { store.uploadedVideo(id: id) }

  // MARK: - Events

  /// Applies `event` and carries out what the machine says; returns the machine's effects. An event sent
  /// while another is being carried out (from inside an effect) is applied right after it, in order.
  @discardableResult
  public func send(_ event: GameEvent) -> [GameEffect] {
    guard !isSending else {
      queuedEvents.append(event)
      return []
    }
    isSending = true
    defer { isSending = false }
    let effects = apply(event)
    while !queuedEvents.isEmpty {
      apply(queuedEvents.removeFirst())
    }
    return effects
  }

  /// Taps a player card.
  public func selectPlayer(_ id: String) {
    send(.selectPlayer(id, at: currentDate()))
  }

  /// Taps the die.
  public func rollDie() {
    send(.rollDie(at: currentDate()))
  }

  /// Taps number button `number` (Würfel, or Wähle die Zahl in tap mode).
  public func tapNumber(_ number: Int) {
    send(.tapNumber(number, at: currentDate()))
  }

  /// One finished finger stroke over the number, in the box's 0…1 coordinates. It stays drawn while the
  /// machine judges it; a refused stroke is taken off again, a missed trace is wiped by the machine.
  public func submitTrace(_ points: [TracePoint]) {
    guard !points.isEmpty else { return }
    traceStrokes.append(points)
    let effects = send(.traceStroke(points, at: currentDate()))
    if effects.contains(where: { $0.refusal != nil }), !traceStrokes.isEmpty {
      traceStrokes.removeLast()
    }
  }

  /// A YouTube button on the treasure screen.
  public func redeem(_ tier: VideoTier) {
    send(.redeem(tier, online: isOnline))
  }

  /// A video on the video-selection screen.
  public func chooseVideo(_ id: String) {
    let date = currentDate()
    now = date
    send(.chooseVideo(id: id, online: isOnline, at: date))
  }

  /// The sound button: narration and effects on or off.
  public func toggleSound() {
    let enabled = !audioEnabled
    if !enabled { voice?.stop() }
    send(.setAudio(enabled: enabled))
  }

  /// Approves the YouTube video behind `link`, after checking it the way the machine does. Returns false
  /// (and adds nothing) for a link that is not a YouTube video or a video already on the list.
  @discardableResult
  public func addVideo(link: String, title: String = "") -> Bool {
    guard case .success = YouTubeLink.parse(link) else { return false }
    let effects = send(.parent(.addVideo(link: link, title: title, at: currentDate())))
    return !effects.contains { $0.refusal != nil }
  }

  /// A change made in the parent dashboard.
  public func parent(_ command: ParentCommand) {
    send(.parent(command))
  }

  /// Opens `waldabenteuer://eltern` (or `…://parent`): the parent gate, never the dashboard directly.
  public func open(_ url: URL) {
    guard url.scheme?.lowercased() == Self.deepLinkScheme else { return }
    let target = (url.host(percentEncoded: false) ?? url.path(percentEncoded: false))
      .trimmingCharacters(in: CharacterSet(charactersIn: "/")).lowercased()
    guard ["eltern", "parent", "parents"].contains(target) else { return }
    send(.openParentDeepLink)
  }

  /// Call from the view with every scene-phase change: the background saves and pauses a running video
  /// clock; the foreground runs it on and starts a new day's play time if the date changed.
  public func scenePhaseChanged(to phase: ScenePhase) {
    switch phase {
    case .background:
      guard isInForeground else { return }
      flushPlayTime()
      isInForeground = false
      voice?.stop()
      send(.appBackgrounded(at: currentDate()))
    case .active:
      guard !isInForeground else { return }
      isInForeground = true
      let date = currentDate()
      if !Calendar.current.isDate(lastActiveDay, inSameDayAs: date) { dayChanged(at: date) }
      now = date
      send(.appForegrounded(at: date))
    default:
      // `.inactive` (a notification, the app switcher) changes nothing: the child is still here.
      break
    }
  }

  // MARK: - Time

  /// Runs the loading bar (if the game starts on the loading screen) and then the once-a-second heartbeat
  /// (video clock, idle prompts, play time) until the calling task is cancelled. Call it from the root view's
  /// `.task`; a second call while one runs returns at once.
  public func run() async {
    guard !isRunning else { return }
    isRunning = true
    defer { isRunning = false }
    await runLoadingScreen()
    await runHeartbeat()
  }

  /// Sends the loading screen's ticks, one per 50 ms step, until the machine moves on to player selection.
  private func runLoadingScreen() async {
    let step = 1 / LoadingScreen.stepsPerSecond
    var steps = 0
    while machine.state == .loading, !Task.isCancelled {
      do {
        try await clock.sleep(for: .seconds(step))
      } catch {
        return
      }
      steps += 1
      // Counted in whole steps, so the elapsed time never drifts below a threshold by rounding.
      send(.loadingTick(elapsed: Double(steps) / LoadingScreen.stepsPerSecond))
    }
  }

  private func runHeartbeat() async {
    while !Task.isCancelled {
      do {
        try await clock.sleep(for: .seconds(1))
      } catch {
        return
      }
      beat()
    }
  }

  /// One second of the foreground.
  private func beat() {
    guard isInForeground else { return }
    let date = currentDate()
    if !Calendar.current.isDate(lastActiveDay, inSameDayAs: date) { dayChanged(at: date) }
    countPlayTime(seconds: 1)
    switch machine.state {
    case .playing:
      idleSecondPassed()
    case .videoPlaying:
      now = date
      send(.videoTick(at: date))
    default:
      break
    }
  }

  /// Sends `idle` exactly when one of the game's prompts is due (10/20/30 s and so on), not every second.
  private func idleSecondPassed() {
    guard let game = machine.activity?.game else { return }
    idleSeconds += 1
    let seconds = idleSeconds
    if IdlePrompts.schedule(for: game).contains(where: { $0.seconds == seconds }) {
      send(.idle(seconds: seconds))
    }
  }

  private static func countsAsPlayTime(_ state: GameState) -> Bool {
    switch state {
    case .loading, .playerSelection, .parentGate, .parentDashboard: false
    default: true
    }
  }

  private func countPlayTime(seconds: Double) {
    guard let player = machine.activePlayer, Self.countsAsPlayTime(machine.state) else { return }
    if playTimePlayer != player.id {
      playTimePlayer = player.id
      pendingPlaySeconds = 0
    }
    pendingPlaySeconds += seconds
    if pendingPlaySeconds >= Self.playTimeReportSeconds { flushPlayTime() }
  }

  /// Tells the machine the active child's minutes today, including the seconds counted since the last report.
  private func flushPlayTime() {
    defer { pendingPlaySeconds = 0 }
    guard pendingPlaySeconds > 0, let player = machine.activePlayer, player.id == playTimePlayer else { return }
    send(.playTimeUpdated(minutesToday: (player.totalPlayTimeToday + pendingPlaySeconds) / 60))
  }

  private func dayChanged(at date: Date) {
    lastActiveDay = date
    pendingPlaySeconds = 0
    send(.dayChanged)
  }

  // MARK: - Carrying out effects

  @discardableResult
  private func apply(_ event: GameEvent) -> [GameEffect] {
    let videoBefore = machine.navigation.video
    switch event {
    case .rollDie, .tapNumber, .traceStroke: idleSeconds = 0
    default: break
    }
    let effects = machine.handle(event)
    lastEffects = effects
    // A new screen brings its own words: what was still queued for the old one is dropped first.
    if effects.contains(where: Self.isTransition) {
      voice?.stop()
      cancelTimers { if case .line = $0 { true } else { false } }
      bubbleLine = nil
    }
    for effect in effects {
      perform(effect, videoBefore: videoBefore)
    }
    return effects
  }

  private static func isTransition(_ effect: GameEffect) -> Bool {
    if case .transition = effect { return true }
    return false
  }

  private func perform(_ effect: GameEffect, videoBefore: VideoSession?) {
    switch effect {
    case .transition(let from, let to):
      screenChanged(from: from, to: to)
    case .save:
      save()
    case .speak(let line):
      speak(line)
    case .sound(let sound):
      if audioEnabled { sounds.play(sound) }
    case .loadingProgress(let value):
      loadingProgress = value
    case .coinsChanged(let change):
      if change.reason == .earned {
        coinFlight = CoinFlight(id: (coinFlight?.id ?? 0) + 1, balance: change.balance)
      }
    case .confetti:
      confettiBursts += 1
    case .showCelebration(let coins):
      celebrationCoins = coins
      haptics.play(.heavy)
    case .hideCelebration:
      celebrationCoins = nil
    case .levelStarted:
      resetLevelPresentation()
    case .dieRolled:
      dieRolls += 1
      isDieTumbling = true
      start(.tumble, after: DiceRound.tumbleSeconds) { $0.isDieTumbling = false }
    case .highlightNumber(let number):
      highlightedNumber = number
    case .showAnswer(let number, let seconds):
      shownAnswer = number
      start(.answer, after: seconds) { $0.shownAnswer = nil }
    case .clearTrace:
      traceStrokes = []
      traceCoverage = 0
    case .traceProgress(let coverage):
      traceCoverage = coverage
    case .hintCell, .showWay:
      // The Rätsel games are not drawn by this layer yet.
      break
    case .startVideoTimer, .resumeVideoTimer:
      // The heartbeat ticks the machine's clock; the view draws it from `now`.
      now = currentDate()
    case .pauseVideoTimer:
      break
    case .videoOneMinuteWarning:
      haptics.play(.medium)
    case .videoTimeUp(let hold):
      beginTimeUp(of: videoBefore, hold: hold)
    case .gateInput:
      // The gate's input is read from `machine.navigation.gate`.
      break
    case .gateRejected(let message, let seconds):
      gateMessage = message
      start(.gateMessage, after: seconds) { $0.gateMessage = nil }
    case .gateNewQuestion:
      break
    case .playTimeStage(let stage):
      log.note("play time stage \(stage)")
    case .settingsChanged:
      break
    case .schedule(let event, let seconds):
      start(.scheduled(UUID()), after: seconds) { $0.send(event) }
    case .refused(let refusal):
      lastRefusal = refusal
      log.refused(refusal)
    }
  }

  private func screenChanged(from: GameState, to: GameState) {
    log.transition(from: from, to: to)
    idleSeconds = 0
    if !to.isInActivity {
      resetLevelPresentation()
      // What an activity scheduled for itself (the next level after a success) is moot once it is left.
      if from.isInActivity { cancelTimers { if case .scheduled = $0 { true } else { false } } }
    }
    if to != .parentGate {
      timers[.gateMessage]?.cancel()
      gateMessage = nil
    }
    // Leaving the game for the parent area or player selection: report the time played so far now.
    if Self.countsAsPlayTime(from), !Self.countsAsPlayTime(to) { flushPlayTime() }
  }

  private func resetLevelPresentation() {
    timers[.tumble]?.cancel()
    timers[.answer]?.cancel()
    isDieTumbling = false
    highlightedNumber = nil
    shownAnswer = nil
    traceStrokes = []
    traceCoverage = 0
    idleSeconds = 0
  }

  private func beginTimeUp(of session: VideoSession?, hold: Double) {
    guard let session else { return }
    let date = currentDate()
    now = date
    timeUp = TimeUpMoment(session: session, at: date)
    start(.timeUp, after: hold) { $0.timeUp = nil }
  }

  private func save() {
    do {
      try store.save(machine.encoded())
    } catch {
      log.failure("saving the game failed", error)
    }
  }

  private func speak(_ line: SpokenLine) {
    spokenLine = line
    if let voice, audioEnabled, voice.isAvailable {
      // The bubble follows the voice: `lineStarted` runs when the synthesizer begins the line.
      voice.speak(line)
    } else if line.delay > 0 {
      start(.line(UUID()), after: line.delay) { $0.lineStarted(line) }
    } else {
      lineStarted(line)
    }
  }

  private func lineStarted(_ line: SpokenLine) {
    // The narrator has no bubble; Bennie's own lines and the shared success phrases do.
    guard line.speaker != .narrator else { return }
    bubbleLine = line
  }

  // MARK: - Timers

  /// Runs `action` after `seconds` on the injected clock, replacing a pending timer with the same key.
  private func start(_ key: TimerKey, after seconds: Double, _ action: @escaping @MainActor (KidsGameModel) -> Void) {
    timers[key]?.cancel()
    let clock = self.clock
    // The task inherits the main actor; `weak` lets a discarded model go without waiting for its timers.
    timers[key] = Task { [weak self] in
      do {
        try await clock.sleep(for: .seconds(max(0, seconds)))
      } catch {
        return
      }
      guard let self, !Task.isCancelled else { return }
      self.timers[key] = nil
      action(self)
    }
  }

  private func cancelTimers(where matches: (TimerKey) -> Bool) {
    for key in timers.keys where matches(key) {
      timers.removeValue(forKey: key)?.cancel()
    }
  }

  // MARK: - Previews

  /// A silent model on a throwaway save file: `coins` for each default child, then `events` applied in order.
  public static func preview(coins: Int = 0, after events: [GameEvent] = []) -> KidsGameModel {
    let url = URL.temporaryDirectory.appending(path: "waldabenteuer-preview-\(UUID().uuidString).json")
    let players = PlayerData.defaults.map { PlayerData(id: $0.id, name: $0.name, coins: coins) }
    let model = KidsGameModel(
      machine: GameMachine(seed: 1, data: GameData(players: players)), store: KidsGameStore(url: url),
      speaksAloud: false, watchesConnectivity: false)
    for event in events { model.send(event) }
    return model
  }

  /// A silent preview model past the loading screen with Alexander on the home screen, then `events`.
  public static func previewHome(coins: Int = 0, then events: [GameEvent] = []) -> KidsGameModel {
    preview(
      coins: coins, after: [.loadingTick(elapsed: LoadingScreen.handOffAfter), .selectPlayer("alexander", at: Date(timeIntervalSince1970: 0))] + events)
  }

  /// A silent preview model in the parent dashboard (the gate answered as a parent would).
  public static func previewParentDashboard(coins: Int = 0) -> KidsGameModel {
    let model = previewHome(coins: coins)
    model.send(.tapSettings)
    if let answer = model.machine.navigation.gate?.question.answer {
      for digit in String(answer).compactMap(\.wholeNumberValue) { model.send(.gateDigit(digit)) }
      model.send(.gateConfirm)
    }
    return model
  }
}
#endif
