import CompletionAPI
import Foundation
import KidsGame

/// Turns the game's values into the API's JSON shapes, and the API's events into game events.
enum KidsPresenter {
  // MARK: Screen

  /// The screen the client draws for `machine` at `now`.
  static func view(of machine: GameMachine, at now: Date, maxUploadBytes: Int) -> KidsView {
    let state = machine.state
    var (screen, activity, game) = parts(of: state)
    if state.isInActivity, let context = machine.activity {
      // The level-complete moment and the celebration sit on top of the activity: name it too.
      activity = context.activity.rawValue
      game = context.game.rawValue
    }
    let active = machine.activePlayer
    let settings = machine.data.settings.parentSettings
    let signs = ActivityType.allCases.map {
      KidsSignView(activity: $0.rawValue, title: $0.title, unlocked: machine.isUnlocked($0))
    }
    var games: [KidsGameView] = []
    if case .activitySelection(let sign) = state { games = sign.subActivities.map(KidsGameView.init) }
    let level = state.isInActivity ? machine.activity.map(levelView) : nil
    var treasure: KidsTreasureView?
    if state == .treasureScreen, let active {
      treasure = KidsTreasureView(coins: active.coins, buttons: TreasureButtons(coins: active.coins))
    }
    let videos = state == .videoSelection ? settings.approvedVideos.map(KidsVideoView.init) : []
    var paidMinutes = state == .videoSelection ? machine.navigation.redemption?.minutes : nil
    if state == .videoSelection, let saved = machine.navigation.video {
      // Unwatched time whose film is gone: what is left of it.
      paidMinutes = saved.timer.minutesLeft(at: saved.timer.session.pausedAt ?? now)
    }
    var unwatched: KidsUnwatchedVideoView?
    if state == .home, let saved = active?.unwatchedVideo {
      let stopped = saved.timer.session.pausedAt ?? now
      unwatched = KidsUnwatchedVideoView(
        video: settings.approvedVideos.first(where: { $0.id == saved.videoID }).map(KidsVideoView.init),
        remainingSeconds: saved.timer.remaining(at: stopped), label: saved.timer.label(at: stopped))
    }
    var playback: KidsPlaybackView?
    if state == .videoPlaying, let session = machine.navigation.video,
      let video = settings.approvedVideos.first(where: { $0.id == session.videoID })
    {
      let timer = session.timer
      playback = KidsPlaybackView(
        video: KidsVideoView(video), src: source(of: video), grantedSeconds: timer.grantedSeconds,
        remainingSeconds: timer.remaining(at: now), fractionRemaining: timer.fractionRemaining(at: now),
        handAngle: timer.handAngle(at: now), label: timer.label(at: now), warned: timer.hasWarned, paused: timer.isPaused)
    }
    let gate = state == .parentGate ? machine.navigation.gate.map { KidsGateView(question: $0.question.text, input: $0.input) } : nil
    let dashboard = state == .parentDashboard ? dashboardView(of: machine, maxUploadBytes: maxUploadBytes) : nil
    return KidsView(
      screen: screen, activity: activity, game: game, players: machine.data.players.map(KidsPlayerView.init),
      activePlayer: active.map(KidsPlayerView.init), signs: signs, games: games, level: level, treasure: treasure,
      paidMinutes: paidMinutes, videos: videos, playback: playback, gate: gate, dashboard: dashboard,
      audioEnabled: machine.data.settings.audioEnabled, dailyLimitReached: machine.isDailyLimitReached,
      largestPuzzleGrid: machine.navigation.largestPuzzleGrid, unwatchedVideo: unwatched)
  }

  /// Where the client plays `video`.
  static func source(of video: ApprovedVideo) -> String {
    switch video.source {
    case .youtube: YouTubeLink.embedURL(id: video.id)
    case .upload: KidsVideoView.fileURL(id: video.id)
    }
  }

  private static func parts(of state: GameState) -> (String, String?, String?) {
    switch state {
    case .activitySelection(let activity): ("activitySelection", activity.rawValue, nil)
    case .playing(let activity, let game): ("playing", activity.rawValue, game.rawValue)
    default: (state.name, nil, nil)
    }
  }

  private static func levelView(_ context: ActivityContext) -> KidsLevelView {
    let idle = IdlePrompts.schedule(for: context.game).map(\.seconds)
    switch context.round {
    case .dice(let dice):
      return KidsLevelView(
        game: context.game.rawValue, level: context.level, askedNumber: dice.rolled, rolled: dice.rolled != nil,
        numberRows: [Array(DiceRound.faces)], mode: nil, strokes: nil, traced: nil, idleMarks: idle)
    case .numberChoice(let choice):
      let tracing = choice.mode == .trace
      return KidsLevelView(
        game: context.game.rawValue, level: context.level, askedNumber: choice.target, rolled: false,
        numberRows: NumberChoiceRound.tabletRows, mode: choice.mode.rawValue,
        strokes: tracing ? pairs(DigitStrokes.strokes(for: choice.target)) : nil,
        traced: tracing ? pairs(choice.strokes) : nil, idleMarks: idle)
    case .puzzle(let puzzle):
      return KidsLevelView(
        game: context.game.rawValue, level: context.level, askedNumber: nil, rolled: false, numberRows: [], mode: nil, strokes: nil,
        traced: nil, idleMarks: idle, puzzle: KidsPuzzleView(puzzle))
    case .labyrinth(let labyrinth):
      return KidsLevelView(
        game: context.game.rawValue, level: context.level, askedNumber: nil, rolled: false, numberRows: [], mode: nil, strokes: nil,
        traced: nil, idleMarks: idle, labyrinth: KidsLabyrinthView(labyrinth.maze))
    }
  }

  private static func pairs(_ strokes: [[TracePoint]]) -> [[[Double]]] {
    strokes.map { $0.map { [$0.x, $0.y] } }
  }

  /// What a sign's difficulty chooses today, for the parent ("Zahlen 1–5"; "breite Wege, kleines Puzzle").
  static func difficultyLabel(_ difficulty: AdaptiveDifficulty, in activity: ActivityType) -> String {
    switch activity {
    case .zahlen:
      let range = difficulty.numberRange
      return "Zahlen \(range.lowerBound)–\(range.upperBound)"
    case .raetsel:
      let paths =
        switch difficulty.labyrinthTolerance {
        case 50...: "breite Wege"
        case 40..<50: "mittlere Wege"
        default: "schmale Wege"
        }
      let grid =
        switch PuzzleMatchingRound.bandShift(difficulty: difficulty.level) {
        case ..<0: "kleineres Puzzle"
        case 1...: "größeres Puzzle"
        default: "Puzzle nach Level"
        }
      return "\(paths), \(grid)"
    case .zeichnen, .logik:
      return ""
    }
  }

  private static func dashboardView(of machine: GameMachine, maxUploadBytes: Int) -> KidsDashboardView {
    let parent = machine.data.settings.parentSettings
    let cards = machine.data.players.map { player in
      let settings = parent.settings(for: player.id)
      let minutes = player.minutesPlayedToday
      return KidsDashboardView.PlayerCard(
        id: player.id, name: player.name, coins: player.coins, playedMinutes: Int(minutes.rounded(.down)),
        limitMinutes: settings.dailyLimit.minutes, band: settings.dailyLimit.band(minutesPlayed: minutes).rawValue,
        usage: settings.dailyLimit.usage(minutesPlayed: minutes),
        // What the child sees: a sign without games yet is locked, so its switch is never on.
        activities: Dictionary(
          uniqueKeysWithValues: ActivityType.allCases.map {
            ($0.rawValue, $0.isAvailable && settings.unlockedActivities.contains($0))
          }),
        numberChoiceMode: settings.numberChoiceMode.rawValue,
        difficulty: Dictionary(
          uniqueKeysWithValues: ActivityType.allCases.filter(\.isAvailable).map { ($0.rawValue, player.difficulty(in: $0).level) }),
        difficultyLabel: Dictionary(
          uniqueKeysWithValues: ActivityType.allCases.filter(\.isAvailable).map { activity in
            (activity.rawValue, difficultyLabel(player.difficulty(in: activity), in: activity))
          }),
        avatar: player.avatarNumber)
    }
    return KidsDashboardView(
      players: cards, videos: parent.approvedVideos.map(KidsVideoView.init), limitOptions: PlayTimeLimit.options,
      maxUploadBytes: maxUploadBytes, comingSoon: ActivityType.allCases.filter { !$0.isAvailable }.map(\.rawValue))
  }

  // MARK: Effects

  /// The effects as the client receives them.
  static func effects(_ effects: [GameEffect]) -> [KidsEffectView] {
    effects.map(effect)
  }

  static func effect(_ effect: GameEffect) -> KidsEffectView {
    switch effect {
    case .transition(let from, let to):
      var view = KidsEffectView(type: "transition")
      view.from = from.name
      view.to = to.name
      return view
    case .save: return KidsEffectView(type: "save")
    case .speak(let line):
      var view = KidsEffectView(type: "speak")
      view.speaker = line.speaker.rawValue
      view.text = line.text
      view.trigger = line.trigger.rawValue
      view.delay = line.delay
      if line.trigger.isHeardInFull { view.inFull = true }
      return view
    case .sound(let sound):
      var view = KidsEffectView(type: "sound")
      view.name = sound.rawValue
      view.seconds = sound.duration
      return view
    case .loadingProgress(let value): return valued("loadingProgress", value)
    case .coinsChanged(let change):
      var view = KidsEffectView(type: "coinsChanged")
      view.player = change.player
      view.amount = change.amount
      view.balance = change.balance
      view.reason = change.reason.rawValue
      return view
    case .confetti: return KidsEffectView(type: "confetti")
    case .showCelebration(let coins):
      var view = KidsEffectView(type: "showCelebration")
      view.coins = coins
      return view
    case .hideCelebration: return KidsEffectView(type: "hideCelebration")
    case .levelStarted(let game, let level):
      var view = KidsEffectView(type: "levelStarted")
      view.game = game.rawValue
      view.level = level
      return view
    case .dieRolled(let face): return valued("dieRolled", face)
    case .highlightNumber(let number): return valued("highlightNumber", number)
    case .showAnswer(let number, let seconds):
      var view = valued("showAnswer", number)
      view.seconds = seconds
      return view
    case .clearTrace: return KidsEffectView(type: "clearTrace")
    case .hintCell(let cell, let seconds):
      var view = valued("hintCell", cell)
      view.seconds = seconds
      return view
    case .showWay(let way, let seconds):
      var view = KidsEffectView(type: "showWay")
      view.points = way.map { [$0.x, $0.y] }
      view.seconds = seconds
      return view
    case .traceProgress(let coverage):
      var view = KidsEffectView(type: "traceProgress")
      view.coverage = coverage
      return view
    case .startVideoTimer(let minutes, let video):
      var view = KidsEffectView(type: "startVideoTimer")
      view.minutes = minutes
      view.video = video
      return view
    case .pauseVideoTimer: return KidsEffectView(type: "pauseVideoTimer")
    case .resumeVideoTimer: return KidsEffectView(type: "resumeVideoTimer")
    case .videoOneMinuteWarning: return KidsEffectView(type: "videoOneMinuteWarning")
    case .videoTimeUp(let hold):
      var view = KidsEffectView(type: "videoTimeUp")
      view.seconds = hold
      return view
    case .gateInput(let text):
      var view = KidsEffectView(type: "gateInput")
      view.text = text
      return view
    case .gateRejected(let message, let seconds):
      var view = KidsEffectView(type: "gateRejected")
      view.text = message
      view.seconds = seconds
      return view
    case .gateNewQuestion(let question):
      var view = KidsEffectView(type: "gateNewQuestion")
      view.text = question.text
      return view
    case .playTimeStage(let stage):
      var view = KidsEffectView(type: "playTimeStage")
      view.stage = "\(stage)"
      return view
    case .settingsChanged: return KidsEffectView(type: "settingsChanged")
    case .schedule(let event, let after):
      var view = KidsEffectView(type: "schedule")
      view.event = event.name
      view.seconds = after
      return view
    case .refused(let refusal):
      var view = KidsEffectView(type: "refused")
      view.reason = refusal.reason.rawValue
      return view
    }
  }

  private static func valued(_ type: String, _ value: Int) -> KidsEffectView {
    var view = KidsEffectView(type: type)
    view.value = value
    return view
  }

  // MARK: Events

  /// The game event a request describes, or an error naming what is missing or wrong.
  static func event(from request: KidsEventRequest, at now: Date) throws(KidsError) -> GameEvent {
    // The document bounds these fields on every event, so one an event does not read is checked too.
    if let player = request.player { try checkLength(player, "player") }
    if let video = request.video { try checkLength(video, "video") }
    if let link = request.link { try checkLength(link, "link") }
    if let name = request.name { try checkLength(name, "name") }
    switch request.type {
    case "loadingTick": return .loadingTick(elapsed: try number(request.seconds, "seconds"))
    case "selectPlayer": return .selectPlayer(try text(request.player, "player"), at: now)
    case "tapActivity": return .tapActivity(try value(request.activity, "activity", ActivityType.init))
    case "tapSubActivity": return .tapSubActivity(try value(request.game, "game", SubActivity.init))
    case "tapChest": return .tapChest
    case "tapSettings": return .tapSettings
    case "resumeUnwatchedVideo": return .resumeUnwatchedVideo(online: request.online ?? true, at: now)
    case "changePlayer": return .changePlayer
    case "back": return .back
    case "home": return .home
    case "rollDie": return .rollDie(at: now)
    case "tapNumber": return .tapNumber(try integer(request.number, "number"), at: now)
    case "traceStroke":
      let stroke = try xyPairs(request.points, atMost: NumberChoiceRound.maxPointsPerStroke, what: "a stroke")
      return .traceStroke(stroke.map { TracePoint(x: $0.x, y: $0.y) }, at: now)
    case "traceLabyrinth":
      let trace = try xyPairs(request.points, atMost: LabyrinthRound.maxPoints, what: "a trace")
      return .traceLabyrinth(trace.map { MazePoint(x: $0.x, y: $0.y) }, at: now)
    case "idle": return .idle(seconds: try number(request.seconds, "seconds"))
    case "levelCompleteFinished": return .levelCompleteFinished
    case "tapWeiter": return .tapWeiter
    case "redeem": return .redeem(try value(request.tier, "tier", VideoTier.init), online: request.online ?? true)
    case "chooseVideo": return .chooseVideo(id: try text(request.video, "video"), online: request.online ?? true, at: now)
    case "videoTick": return .videoTick(at: now)
    case "gateDigit": return .gateDigit(try integer(request.number, "number"))
    case "gateErase": return .gateErase
    case "gateConfirm": return .gateConfirm
    case "openParentDeepLink": return .openParentDeepLink
    case "appBackgrounded": return .appBackgrounded(at: now)
    case "appForegrounded": return .appForegrounded(at: now)
    case "setAudio": return .setAudio(enabled: try flag(request.enabled, "enabled"))
    case "screenFits": return .screenFits(puzzleGrid: try integer(request.number, "number"))
    case "setDailyLimit":
      return .parent(.setDailyLimit(player: try text(request.player, "player"), minutes: try integer(request.number, "number")))
    case "setActivity":
      return .parent(
        .setActivity(
          try value(request.activity, "activity", ActivityType.init), enabled: try flag(request.enabled, "enabled"),
          player: try text(request.player, "player")))
    case "setNumberChoiceMode":
      return .parent(.setNumberChoiceMode(try value(request.mode, "mode", NumberChoiceMode.init), player: try text(request.player, "player")))
    case "addVideo": return .parent(.addVideo(link: try text(request.link, "link"), title: request.name ?? "", at: now))
    case "removeVideo": return .parent(.removeVideo(id: try text(request.video, "video")))
    case "resetProgress": return .parent(.resetProgress(player: try text(request.player, "player")))
    case "paintCell":
      return .paintCell(try integer(request.cell, "cell"), try value(request.colour, "colour", LeafColour.init), at: now)
    case "eraseCell": return .eraseCell(try integer(request.cell, "cell"), at: now)
    case "resetPuzzle": return .resetPuzzle
    case "resetDifficulty":
      return .parent(
        .resetDifficulty(player: try text(request.player, "player"), activity: try value(request.activity, "activity", ActivityType.init)))
    case "addPlayer": return .parent(.addPlayer(name: try text(request.name, "name")))
    case "renamePlayer": return .parent(.renamePlayer(player: try text(request.player, "player"), name: try text(request.name, "name")))
    case "removePlayer": return .parent(.removePlayer(player: try text(request.player, "player")))
    default: throw .unknownEvent(request.type)
    }
  }

  /// The `points` field as finite [x, y] pairs, at most `limit` of them (`what` names them in the error).
  private static func xyPairs(_ value: [[Double]]?, atMost limit: Int, what: String) throws(KidsError) -> [(x: Double, y: Double)] {
    guard let value else { throw .missingField("points") }
    guard value.count <= limit else { throw .invalidField("points", "\(what) has at most \(limit) points") }
    return try value.map { pair throws(KidsError) -> (x: Double, y: Double) in
      guard pair.count == 2, pair[0].isFinite, pair[1].isFinite else { throw .invalidField("points", "each point is [x, y]") }
      return (pair[0], pair[1])
    }
  }

  private static func text(_ value: String?, _ field: String) throws(KidsError) -> String {
    guard let value else { throw .missingField(field) }
    try checkLength(value, field)
    return value
  }

  /// At most 2,000 code points, counted as the API document's `maxLength` counts them.
  private static func checkLength(_ value: String, _ field: String) throws(KidsError) {
    guard value.unicodeScalars.count <= 2_000 else { throw .invalidField(field, "it is too long") }
  }

  private static func number(_ value: Double?, _ field: String) throws(KidsError) -> Double {
    guard let value else { throw .missingField(field) }
    guard value.isFinite, value >= 0 else { throw .invalidField(field, "it must be a number of at least 0") }
    return value
  }

  private static func integer(_ value: Int?, _ field: String) throws(KidsError) -> Int {
    guard let value else { throw .missingField(field) }
    return value
  }

  private static func flag(_ value: Bool?, _ field: String) throws(KidsError) -> Bool {
    guard let value else { throw .missingField(field) }
    return value
  }

  private static func value<T>(_ raw: String?, _ field: String, _ make: (String) -> T?) throws(KidsError) -> T {
    guard let raw else { throw .missingField(field) }
    guard let value = make(raw) else { throw .invalidField(field, "'\(raw)' is not one of the allowed values") }
    return value
  }
}
