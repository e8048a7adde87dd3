import CompletionAPI
import CompletionCore
import Foundation
import Observation

/// A line Bennie or the narrator says (a `speak` effect).
public struct KidsLine: Hashable, Sendable {
  /// "N" (narrator), "B" (Bennie) or "N+B".
  public let speaker: String
  /// The German text.
  public let text: String
  /// Seconds after the effect the line starts.
  public let delay: Double
  /// A line heard in full (the daily limit's gentle exit, the server's `inFull`): a new screen does not stop it.
  public var inFull = false
}

/// Speaks lines aloud (the system's German voice on Apple platforms). Optional: without one the bubble
/// still shows each line at its time.
@MainActor
public protocol KidsSpeaking: AnyObject {
  /// Says `line`; calls `started` when the voice begins it.
  func speak(_ line: KidsLine, started: @escaping @MainActor () -> Void)
  /// Stops whatever is being said.
  func stop()
}

/// Plays the game's short sounds by name (`sound` effects).
@MainActor
public protocol KidsSoundPlaying: AnyObject {
  func play(_ name: String)
}

/// The state behind the Waldabenteuer screens, on any platform.
///
/// The server runs the game: this model sends what the child or the parent did as events and draws the
/// screen the server describes (``view``), carrying out the effects it returns — a line to say, a coin to
/// fly, confetti, the die's tumble, an event to send back after some seconds. Every duration it waits comes
/// from the server (the catalog's timing and choreographies, an effect's seconds, a level's idle marks); the
/// waiting itself runs on the injected ``ModelClock``.
@Observable
@MainActor
public final class WaldabenteuerModel {
  /// A coin on its way to the bar after a solved level.
  public struct CoinFlight: Hashable, Sendable {
    /// Counts up with every flight, so two flights to the same balance still animate twice.
    public let id: Int
    /// The child's coins once it has landed.
    public let balance: Int
  }

  // MARK: What views read

  /// The screen, as the server last described it; nil until the launch answered.
  public private(set) var view: KidsView?
  /// Words, timings and movement from the server (`/api/kids/text`); nil until loaded.
  public private(set) var catalog: KidsTextCatalog?
  /// The effects of the last answer, in order.
  public private(set) var lastEffects: [KidsEffectView] = []
  /// The stable code of the last refused event, if the last event was refused.
  public private(set) var refusal: String?
  /// The line said last.
  public private(set) var spokenLine: KidsLine?
  /// What Bennie's bubble shows: his lines and the shared ones, from the moment they start; never the
  /// narrator's. Cleared when the screen changes.
  public private(set) var bubbleLine: KidsLine?
  /// Counts confetti bursts; a view starts one whenever it changes (never under reduced motion).
  public private(set) var confettiBursts = 0
  /// The last earned coin's flight.
  public private(set) var coinFlight: CoinFlight?
  /// Counts die rolls; the die tumbles whenever it changes.
  public private(set) var dieRolls = 0
  /// Whether the die is still tumbling (for the tumble's length, from the server's `kidsDieTumble`).
  public private(set) var isDieTumbling = false
  /// The number button that glows: the answer after a wrong tap, or the number to trace.
  public private(set) var highlightedNumber: Int?
  /// The answer shown for a moment after a wrong tap.
  public private(set) var shownAnswer: Int?
  /// How much of the number the strokes so far cover, 0…1.
  public private(set) var traceCoverage = 0.0
  /// The Puzzle Matching cell that glows as a hint, while it does.
  public private(set) var hintedCell: Int?
  /// The labyrinth's way shown as a hint ([x, y] in maze space), while it shows.
  public private(set) var shownWay: [[Double]]?
  /// "Versuch es nochmal" under the parent gate, while it shows.
  public private(set) var gateMessage: String?
  /// Whether "Zeit ist um!" holds the finished video on screen (for the effect's seconds).
  public private(set) var isHoldingTimeUp = false
  /// "Gespeichert." and the like in the parent area, while it shows.
  public private(set) var parentNotice: String?
  /// The loading bar, 0…100, from the server's last `loadingProgress`.
  public private(set) var loadingProgress = 0
  /// The video that ran out, kept on screen (paused, its clock at zero) while ``isHoldingTimeUp``: the server
  /// is already home by then.
  public private(set) var timeUpPlayback: KidsPlaybackView?
  /// Whether the server could not be reached on the last try (the page's gentle notice).
  public private(set) var isUnreachable = false
  /// Whether the device is online (videos from YouTube need it).
  public var isOnline = true

  // MARK: Services

  @ObservationIgnored public let client: CompletionClient
  @ObservationIgnored private let clock: any ModelClock
  @ObservationIgnored private let timeZone: TimeZone
  @ObservationIgnored private let tab: String
  @ObservationIgnored private let haptics: any HapticsPlaying
  @ObservationIgnored private let animator: any StateAnimating
  @ObservationIgnored private let voice: (any KidsSpeaking)?
  @ObservationIgnored private let sounds: (any KidsSoundPlaying)?
  @ObservationIgnored private let serial = SerialWork()
  @ObservationIgnored private var isInForeground = true
  @ObservationIgnored private var heartbeat: ScheduledAction?
  @ObservationIgnored private var loadingTicks: ScheduledAction?
  @ObservationIgnored private var loadingStarted: Date?
  @ObservationIgnored private var videoTicks: ScheduledAction?
  @ObservationIgnored private var idleTimers: [ScheduledAction] = []
  @ObservationIgnored private var screenTimers: [ScheduledAction] = []
  @ObservationIgnored private var momentTimers: [String: ScheduledAction] = [:]
  @ObservationIgnored private var flights = 0
  @ObservationIgnored private var playbackBefore: KidsPlaybackView?

  /// A model for one device (or tab): `tab` names it to the server, so a second device joins the game in play
  /// instead of relaunching it; `timeZone` decides when the family's day starts.
  public init(
    client: CompletionClient, clock: any ModelClock, timeZone: TimeZone = .current, tab: String = UUID().uuidString,
    haptics: (any HapticsPlaying)? = nil, animator: (any StateAnimating)? = nil, voice: (any KidsSpeaking)? = nil,
    sounds: (any KidsSoundPlaying)? = nil
  ) {
    let plain = PlainPlatform()
    self.client = client
    self.clock = clock
    self.timeZone = timeZone
    self.tab = tab
    self.haptics = haptics ?? plain
    self.animator = animator ?? plain
    self.voice = voice
    self.sounds = sounds
  }

  /// Waits until every event sent so far, and every event those answers sent in turn, has been answered.
  public func settled() async {
    await serial.settled()
  }

  // MARK: Reading

  /// The screen's name (`loading`, `playerSelection`, `home`, … `parentDashboard`), or nil before launch.
  public var screen: String? { view?.screen }
  /// The child playing.
  public var activePlayer: KidsPlayerView? { view?.activePlayer }
  /// Whether the celebration card is up.
  public var isCelebrating: Bool { view?.screen == "celebrationOverlay" }

  /// A German text of the screens, with its `[X]` gaps filled in order.
  public func text(_ key: String, _ values: String...) -> String {
    var text = catalog?.screen[key] ?? ""
    for value in values {
      guard let open = text.firstIndex(of: "["), let close = text[open...].firstIndex(of: "]") else { break }
      text.replaceSubrange(open...close, with: value)
    }
    return text
  }

  /// The catalog's German words for a refusal of the parent area whose words name one of the server's limits
  /// (a name's length, how many children may play, the video formats an upload takes), or nil for any other
  /// code (a view words those itself). The web page's parent area shows the same lines.
  public func refusalLine(for code: String) -> String? {
    guard let key = Self.refusalLines[code] else { return nil }
    return catalog?.lines[key]
  }

  /// Refusal codes whose words come from the catalog's `lines`, by the line's key.
  static let refusalLines = ["invalid_name": "invalidName", "too_many_players": "tooManyPlayers", "unsupported_video_type": "unsupportedVideoType"]

  /// One step of one of the game's choreographies, from the server (nil before the catalog arrives).
  public func motion(_ name: String, step id: String) -> StepPayload? {
    catalog?.motion[name]?.steps.first { $0.id == id }
  }

  // MARK: Starting

  /// Loads the catalog, launches the game (a `reload` is always a new launch, as the seed has it) and starts
  /// the heartbeat that counts play time.
  @discardableResult
  public func start(reload: Bool = false) -> Task<Void, Never> {
    enqueue { model in
      if model.catalog == nil { model.catalog = try await model.client.kidsText() }
      let response = try await model.client.kidsLaunch(KidsLaunchRequest(tab: model.tab, reload: reload), timeZone: model.timeZone.identifier)
      model.apply(response)
      model.scheduleHeartbeat()
    }
  }

  /// Stops every timer (the screen went away for good).
  public func stop() {
    heartbeat?.cancel()
    loadingTicks?.cancel()
    videoTicks?.cancel()
    for timer in idleTimers + screenTimers + Array(momentTimers.values) { timer.cancel() }
    idleTimers = []
    screenTimers = []
    momentTimers = [:]
    voice?.stop()
  }

  // MARK: What the child and the parent do

  /// Sends any event (the typed helpers below cover the common ones); returns the task carrying it.
  @discardableResult
  public func send(_ type: String, _ fill: (inout KidsEventRequest) -> Void = { _ in }) -> Task<Void, Never> {
    var request = KidsEventRequest(type: type)
    fill(&request)
    request.eventID = UUID().uuidString
    let background = Self.backgroundEvents.contains(type)
    if ["rollDie", "tapNumber", "traceStroke", "traceLabyrinth", "paintCell", "eraseCell"].contains(type) { resetIdle() }
    return enqueue(background: background) { model in
      // A report the device makes by itself belongs to the screen it was made on: when an earlier answer
      // (a heartbeat that ran the video out) changed the screen, it is not sent at all.
      if let screen = Self.reportScreens[type], model.view?.screen != screen { return }
      model.apply(try await model.client.kidsEvent(request, timeZone: model.timeZone.identifier))
    }
  }

  /// Taps a player card.
  @discardableResult public func selectPlayer(_ id: String) -> Task<Void, Never> { send("selectPlayer") { $0.player = id } }
  /// Taps a home sign.
  @discardableResult public func tapActivity(_ activity: String) -> Task<Void, Never> { send("tapActivity") { $0.activity = activity } }
  /// Taps a game on the activity-selection screen.
  @discardableResult public func tapGame(_ game: String) -> Task<Void, Never> { send("tapSubActivity") { $0.game = game } }
  /// Taps the die.
  @discardableResult public func rollDie() -> Task<Void, Never> { send("rollDie") }
  /// Taps a number button.
  @discardableResult public func tapNumber(_ number: Int) -> Task<Void, Never> { send("tapNumber") { $0.number = number } }
  /// One finished stroke over the number, in the box's 0…1 coordinates.
  @discardableResult public func traceStroke(_ points: [[Double]]) -> Task<Void, Never> { send("traceStroke") { $0.points = points } }
  /// "Weiter" on the celebration card.
  @discardableResult public func tapWeiter() -> Task<Void, Never> { send("tapWeiter") }
  /// The chest on the home screen.
  @discardableResult public func tapChest() -> Task<Void, Never> { send("tapChest") }
  /// A video button on the treasure screen: "fiveMinutes" or "twelveMinutes".
  @discardableResult public func redeem(_ tier: String) -> Task<Void, Never> {
    send("redeem") {
      $0.tier = tier
      $0.online = isOnline
    }
  }
  /// A video on the video-selection screen.
  @discardableResult public func chooseVideo(_ id: String) -> Task<Void, Never> {
    send("chooseVideo") {
      $0.video = id
      $0.online = isOnline
    }
  }
  /// The back arrow.
  @discardableResult public func back() -> Task<Void, Never> { send("back") }
  /// The home button.
  @discardableResult public func home() -> Task<Void, Never> { send("home") }
  /// The settings button: the parent gate.
  @discardableResult public func tapSettings() -> Task<Void, Never> { send("tapSettings") }
  /// "Weiterschauen" on home: the paid video time this child left unwatched plays on.
  @discardableResult public func resumeUnwatchedVideo() -> Task<Void, Never> {
    send("resumeUnwatchedVideo") { $0.online = isOnline }
  }
  /// "Wer spielt?" on home: the turn ends and the player screen asks again.
  @discardableResult public func changePlayer() -> Task<Void, Never> { send("changePlayer") }
  /// A digit on the parent gate's keypad.
  @discardableResult public func gateDigit(_ digit: Int) -> Task<Void, Never> { send("gateDigit") { $0.number = digit } }
  /// The gate's erase key.
  @discardableResult public func gateErase() -> Task<Void, Never> { send("gateErase") }
  /// The gate's confirm key.
  @discardableResult public func gateConfirm() -> Task<Void, Never> { send("gateConfirm") }
  /// The sound button.
  @discardableResult public func setAudio(_ enabled: Bool) -> Task<Void, Never> {
    if !enabled { voice?.stop() }
    return send("setAudio") { $0.enabled = enabled }
  }

  /// Uploads a video in the parent area (the server checks its bytes and the family's quota); the answer's
  /// dashboard lists it.
  @discardableResult
  public func uploadVideo(_ data: Data, contentType: String, title: String?) -> Task<Void, Never> {
    enqueue { model in
      model.apply(try await model.client.uploadKidsVideo(data, contentType: contentType, title: title))
    }
  }

  /// Says a line the device says by itself (the catalog's `lines`, e.g. "noInternet"), as the server's own
  /// lines are said: aloud when sound is on, in the bubble when it is Bennie's.
  public func say(_ key: String) {
    guard let text = catalog?.lines[key] else { return }
    perform(with: KidsEffectView.speak(text))
  }

  /// Starts the heartbeat and the screen's timers again after ``stop()`` (the view came back), without a
  /// new launch.
  public func resumeTimers() {
    scheduleHeartbeat()
    syncTimers(from: nil)
  }

  /// The app came to the front or left it: the server pauses and resumes the video clock and play time.
  @discardableResult
  public func phaseChanged(to phase: AppPhase) -> Task<Void, Never> {
    switch phase {
    case .background where isInForeground:
      isInForeground = false
      voice?.stop()
      return send("appBackgrounded")
    case .active where !isInForeground:
      isInForeground = true
      return send("appForegrounded")
    default:
      return Task {}
    }
  }

  /// Seconds "Gespeichert." stays in the parent area: how the notice looks (as the web page's), not a rule.
  public static let noticeSeconds = 2.5

  /// Events the device sends by itself: dropped, not retried, when the server cannot be reached.
  static let backgroundEvents: Set<String> = ["loadingTick", "heartbeat", "videoTick", "idle", "appBackgrounded", "appForegrounded"]
  /// The screen each timed report is made for.
  static let reportScreens = ["loadingTick": "loading", "videoTick": "videoPlaying", "idle": "playing"]

  // MARK: Sending in order

  private func enqueue(background: Bool = false, _ work: @escaping @MainActor (WaldabenteuerModel) async throws -> Void) -> Task<Void, Never> {
    serial.enqueue { [weak self] in
      guard let self else { return }
      do {
        try await work(self)
        self.isUnreachable = false
      } catch let error as APIError {
        self.isUnreachable = false
        // A refused event carries the unchanged screen and the friendly line the child hears instead.
        if let body = try? CompletionClient.decoder().decode(KidsRefusalBody.self, from: error.body) {
          self.apply(KidsResponse(view: body.view, effects: body.effects))
        }
        self.refusal = error.code
      } catch {
        if !background { self.isUnreachable = true }
      }
    }
  }

  // MARK: Carrying out an answer

  private func apply(_ response: KidsResponse) {
    let before = view
    playbackBefore = before?.playback
    let effects = response.effects
    refusal = nil
    if effects.contains(where: { $0.type == "transition" }) || before?.screen != response.view.screen {
      // A new screen brings its own words and its own timers. A line heard in full (the daily limit's gentle
      // exit, said last) is the exception: the voice finishes it and the new screen's lines follow.
      if spokenLine?.inFull != true {
        voice?.stop()
        bubbleLine = nil
      }
      for timer in screenTimers { timer.cancel() }
      screenTimers = []
      resetLevelMoments()
    }
    animator.animate {
      view = response.view
      lastEffects = effects
      for effect in effects { perform(effect) }
    }
    syncTimers(from: before)
  }

  private func perform(_ effect: KidsEffectView) {
    switch effect.type {
    case "speak":
      let line = KidsLine(speaker: effect.speaker ?? "N", text: effect.text ?? "", delay: effect.delay ?? 0, inFull: effect.inFull ?? false)
      spokenLine = line
      if let voice, view?.audioEnabled == true {
        voice.speak(line) { [weak self] in self?.lineStarted(line) }
      } else if line.delay > 0 {
        screenTimers.append(clock.schedule(after: line.delay) { [weak self] in self?.lineStarted(line) })
      } else {
        lineStarted(line)
      }
    case "sound":
      if view?.audioEnabled == true, let name = effect.name { sounds?.play(name) }
    case "coinsChanged":
      if effect.reason == "earned", (effect.amount ?? 0) > 0 {
        flights += 1
        coinFlight = CoinFlight(id: flights, balance: effect.balance ?? 0)
      }
    case "confetti":
      confettiBursts += 1
    case "showCelebration":
      haptics.play(.heavy)
    case "levelStarted":
      resetLevelMoments()
    case "dieRolled":
      dieRolls += 1
      isDieTumbling = true
      let tumble = motion("kidsDieTumble", step: "die")?.duration ?? 0
      moment("tumble", after: tumble) { $0.isDieTumbling = false }
    case "highlightNumber":
      highlightedNumber = effect.value
    case "showAnswer":
      shownAnswer = effect.value
      moment("answer", after: effect.seconds ?? 0) { $0.shownAnswer = nil }
    case "clearTrace":
      traceCoverage = 0
    case "traceProgress":
      traceCoverage = effect.coverage ?? 0
    case "hintCell":
      hintedCell = effect.value
      moment("hintCell", after: effect.seconds ?? 0) { $0.hintedCell = nil }
    case "showWay":
      shownWay = effect.points
      moment("showWay", after: effect.seconds ?? 0) { $0.shownWay = nil }
    case "videoOneMinuteWarning":
      haptics.play(.medium)
    case "videoTimeUp":
      isHoldingTimeUp = true
      timeUpPlayback = playbackBefore
      moment("timeUp", after: effect.seconds ?? 0) {
        $0.isHoldingTimeUp = false
        $0.timeUpPlayback = nil
      }
    case "loadingProgress":
      loadingProgress = effect.value ?? loadingProgress
    case "gateRejected":
      gateMessage = effect.text
      moment("gate", after: effect.seconds ?? 0) { $0.gateMessage = nil }
    case "settingsChanged":
      if view?.screen == "parentDashboard" {
        parentNotice = "Gespeichert."
        moment("notice", after: Self.noticeSeconds) { $0.parentNotice = nil }
      }
    case "schedule":
      guard let event = effect.event else { return }
      let screen = view?.screen
      // A scheduled event belongs to the screen that asked for it.
      screenTimers.append(
        clock.schedule(after: effect.seconds ?? 0) { [weak self] in
          guard let self, self.view?.screen == screen else { return }
          self.send(event)
        })
    default:
      // transition (the view draws it), save, loadingProgress (in the view), gateInput, gateNewQuestion,
      // playTimeStage, pause/resume of the video timer (the playback view says paused), refused.
      break
    }
  }

  private func perform(with effect: KidsEffectView) {
    animator.animate { perform(effect) }
  }

  private func lineStarted(_ line: KidsLine) {
    // The narrator has no bubble; Bennie's own lines and the shared ones do.
    guard line.speaker != "N" else { return }
    bubbleLine = line
  }

  /// Runs `end` after `seconds` for a moment named `key`, replacing a pending one of the same name.
  private func moment(_ key: String, after seconds: Double, _ end: @escaping @MainActor (WaldabenteuerModel) -> Void) {
    momentTimers[key]?.cancel()
    momentTimers[key] = clock.schedule(after: seconds) { [weak self] in
      guard let self else { return }
      self.momentTimers[key] = nil
      end(self)
    }
  }

  private func resetLevelMoments() {
    for key in ["tumble", "answer", "hintCell", "showWay"] { momentTimers.removeValue(forKey: key)?.cancel() }
    isDieTumbling = false
    highlightedNumber = nil
    shownAnswer = nil
    traceCoverage = 0
    hintedCell = nil
    shownWay = nil
  }

  // MARK: The device's own reports

  /// Starts or stops the loading ticks, the video ticks and the idle prompts for the screen now shown.
  private func syncTimers(from before: KidsView?) {
    guard let view, let timing = catalog?.timing else { return }
    if view.screen == "loading" {
      if loadingTicks == nil || loadingTicks?.isPending == false {
        loadingStarted = clock.now
        scheduleLoadingTick(every: timing.loadingTickSeconds)
      }
    } else {
      loadingTicks?.cancel()
      loadingTicks = nil
      loadingStarted = nil
    }
    if view.screen == "videoPlaying" {
      if videoTicks == nil || videoTicks?.isPending == false { scheduleVideoTick(every: timing.videoTickSeconds) }
    } else {
      videoTicks?.cancel()
      videoTicks = nil
    }
    if view.screen != "playing" {
      clearIdle()
    } else if before?.screen != "playing" || before?.level?.level != view.level?.level {
      resetIdle()
    }
  }

  private func scheduleLoadingTick(every seconds: Double) {
    loadingTicks = clock.schedule(after: seconds) { [weak self] in
      guard let self, self.view?.screen == "loading", let started = self.loadingStarted else { return }
      if self.isInForeground {
        let elapsed = (self.clock.now.timeIntervalSince(started) * 1000).rounded() / 1000
        self.send("loadingTick") { $0.seconds = elapsed }
      }
      self.scheduleLoadingTick(every: seconds)
    }
  }

  private func scheduleVideoTick(every seconds: Double) {
    videoTicks = clock.schedule(after: seconds) { [weak self] in
      guard let self, self.view?.screen == "videoPlaying" else { return }
      if self.isInForeground, !self.isHoldingTimeUp { self.send("videoTick") }
      self.scheduleVideoTick(every: seconds)
    }
  }

  private func scheduleHeartbeat() {
    guard heartbeat == nil || heartbeat?.isPending == false, let seconds = catalog?.timing.heartbeatSeconds, seconds > 0 else { return }
    heartbeat = clock.schedule(after: seconds) { [weak self] in
      guard let self else { return }
      if self.isInForeground, self.view != nil {
        let tab = self.tab
        self.send("heartbeat") { $0.tab = tab }
      }
      self.heartbeat = nil
      self.scheduleHeartbeat()
    }
  }

  private func clearIdle() {
    for timer in idleTimers { timer.cancel() }
    idleTimers = []
  }

  /// The child touched the game: the idle prompts count again from now, at the marks the level names.
  private func resetIdle() {
    clearIdle()
    guard let view, view.screen == "playing", let marks = view.level?.idleMarks else { return }
    idleTimers = marks.map { seconds in
      clock.schedule(after: seconds) { [weak self] in
        guard let self, self.view?.screen == "playing" else { return }
        self.send("idle") { $0.seconds = seconds }
      }
    }
  }
}

extension KidsEffectView {
  /// A line for Bennie to say now.
  static func speak(_ text: String) -> KidsEffectView {
    var effect = KidsEffectView(type: "speak")
    effect.speaker = "B"
    effect.text = text
    effect.delay = 0
    return effect
  }
}
