import Foundation
import KidsGame

// Waldabenteuer over HTTP. The server runs `KidsGame.GameMachine`; the client sends events and renders the
// screen the server describes (`KidsView`), carrying out the effects it returns (speak, sound, confetti…).

/// `POST /api/kids/events`: one thing the child or the parent did. `type` names the event; the other
/// fields are read only for the events that need them. Times are the server's, never the client's.
public struct KidsEventRequest: Codable, Hashable, Sendable {
  /// loadingTick, selectPlayer, tapActivity, tapSubActivity, tapChest, tapSettings, resumeUnwatchedVideo, changePlayer, back, home, rollDie,
  /// tapNumber, traceStroke, traceLabyrinth (points), paintCell (cell, colour), eraseCell (cell), resetPuzzle, idle, levelCompleteFinished, tapWeiter, redeem, chooseVideo, videoTick,
  /// gateDigit, gateErase, gateConfirm, openParentDeepLink, appBackgrounded, appForegrounded, setAudio,
  /// screenFits (number: the largest puzzle grid with child-sized cells on this screen),
  /// heartbeat, and the parent commands setDailyLimit, setActivity, setNumberChoiceMode, addVideo,
  /// removeVideo, resetProgress, resetDifficulty (player, activity), addPlayer, renamePlayer, removePlayer.
  public var type: String
  /// A client-made id (UUID) for retries: an event id seen before is not applied again.
  public var eventID: String?
  /// loadingTick: seconds the loading screen has shown. idle: seconds without input.
  public var seconds: Double?
  /// selectPlayer and the per-player parent commands.
  public var player: String?
  /// tapActivity, setActivity: "raetsel", "zahlen", "zeichnen", "logik".
  public var activity: String?
  /// tapSubActivity: "wuerfel", "waehleDieZahl", "puzzleMatching", "labyrinth".
  public var game: String?
  /// tapNumber, gateDigit (0…9), setDailyLimit (minutes), screenFits (cells a side).
  public var number: Int?
  /// paintCell, eraseCell: the DU grid's cell, row by row from the top left (0…size²−1).
  public var cell: Int?
  /// paintCell: the leaf colour ("green", "yellow", "grey", "brown").
  public var colour: String?
  /// traceStroke: one stroke as [[x, y], …] in the number box's 0…1 coordinates (y down). traceLabyrinth: the
  /// finger's trace in the labyrinth's maze space.
  public var points: [[Double]]?
  /// redeem: "fiveMinutes" or "twelveMinutes".
  public var tier: String?
  /// redeem, chooseVideo: whether the device is online (`navigator.onLine`).
  public var online: Bool?
  /// chooseVideo, removeVideo: the video id.
  public var video: String?
  /// setActivity, setAudio.
  public var enabled: Bool?
  /// setNumberChoiceMode: "trace" or "tap".
  public var mode: String?
  /// addVideo: the pasted YouTube link.
  public var link: String?
  /// addVideo: a title (optional); addPlayer, renamePlayer: the child's name.
  public var name: String?
  /// heartbeat: an older spelling of the `Time-Zone` header (which wins when both come), still read for older
  /// clients: the family's IANA time zone, which decides when "today" starts.
  public var timeZone: String?
  /// heartbeat: the tab's id (as in ``KidsLaunchRequest/tab``), so a second tab joins the game in play.
  public var tab: String?

  /// An event of `type`; set the fields it needs.
  public init(type: String) {
    self.type = type
  }
}

/// `POST /api/kids/launch`: the page starts (the "app launch" of the seed).
public struct KidsLaunchRequest: Codable, Hashable, Sendable {
  /// An older spelling of the `Time-Zone` header (which wins when both come), still read for older clients:
  /// the family's IANA time zone, which decides when "today" starts.
  public var timeZone: String?
  /// The page's own id for its browser tab (kept across reloads of that tab), at most 64 characters.
  public var tab: String?
  /// Whether the tab was reloaded (a reload is always a new launch).
  public var reload: Bool?

  public init(timeZone: String? = nil, tab: String? = nil, reload: Bool? = nil) {
    self.timeZone = timeZone
    self.tab = tab
    self.reload = reload
  }
}

/// The response to every Waldabenteuer call: the screen to show and what to do now.
public struct KidsResponse: Codable, Hashable, Sendable {
  /// The screen after the event.
  public let view: KidsView
  /// What the client carries out, in order.
  public let effects: [KidsEffectView]
  /// True when this event id had been applied before: nothing happened this time.
  public let replayed: Bool

  public init(view: KidsView, effects: [KidsEffectView], replayed: Bool = false) {
    self.view = view
    self.effects = effects
    self.replayed = replayed
  }
}

/// The body of a refused event (4xx): the error code and message, and the unchanged screen with the
/// friendly line the child hears instead (for example "Das ist noch gesperrt.").
public struct KidsRefusalBody: Codable, Hashable, Sendable {
  public let code: String
  public let message: String
  public let view: KidsView
  public let effects: [KidsEffectView]

  public init(code: String, message: String, view: KidsView, effects: [KidsEffectView]) {
    self.code = code
    self.message = message
    self.view = view
    self.effects = effects
  }
}

/// Everything the client needs to draw the current screen.
public struct KidsView: Codable, Hashable, Sendable {
  /// The screen: loading, playerSelection, home, activitySelection, playing, levelComplete,
  /// celebrationOverlay, treasureScreen, videoSelection, videoPlaying, parentGate, parentDashboard.
  public let screen: String
  /// For activitySelection and the activity screens: the sign.
  public let activity: String?
  /// For the activity screens (also under levelComplete and the overlay): the game.
  public let game: String?
  /// The children (player selection cards).
  public let players: [KidsPlayerView]
  /// The child playing, once chosen.
  public let activePlayer: KidsPlayerView?
  /// The four home signs, in order.
  public let signs: [KidsSignView]
  /// The games behind the open sign (activitySelection).
  public let games: [KidsGameView]
  /// The level under way (playing, levelComplete, celebrationOverlay).
  public let level: KidsLevelView?
  /// Treasure screen buttons (treasureScreen).
  public let treasure: KidsTreasureView?
  /// Minutes paid for, waiting for a video to be chosen (videoSelection).
  public let paidMinutes: Int?
  /// "Du hast 5 Minuten Zeit!" for `paidMinutes` (videoSelection).
  public let paidTimeLabel: String?
  /// The videos a child may choose (videoSelection).
  public let videos: [KidsVideoView]
  /// The video playing and its clock (videoPlaying).
  public let playback: KidsPlaybackView?
  /// The parent gate's question and input (parentGate).
  public let gate: KidsGateView?
  /// The parent area (parentDashboard only).
  public let dashboard: KidsDashboardView?
  /// Sound on or off.
  public let audioEnabled: Bool
  /// Whether the active child has used up today's play time.
  public let dailyLimitReached: Bool
  /// The largest puzzle grid the last screen reported room for (`screenFits`); nil before any report.
  public let largestPuzzleGrid: Int?
  /// Paid video time the active child left unwatched, offered on home ("Weiterschauen"); nil when none.
  public let unwatchedVideo: KidsUnwatchedVideoView?

  public init(
    screen: String, activity: String?, game: String?, players: [KidsPlayerView], activePlayer: KidsPlayerView?,
    signs: [KidsSignView], games: [KidsGameView], level: KidsLevelView?, treasure: KidsTreasureView?, paidMinutes: Int?,
    videos: [KidsVideoView], playback: KidsPlaybackView?, gate: KidsGateView?, dashboard: KidsDashboardView?,
    audioEnabled: Bool, dailyLimitReached: Bool, largestPuzzleGrid: Int? = nil, unwatchedVideo: KidsUnwatchedVideoView? = nil
  ) {
    self.screen = screen
    self.activity = activity
    self.game = game
    self.players = players
    self.activePlayer = activePlayer
    self.signs = signs
    self.games = games
    self.level = level
    self.treasure = treasure
    self.paidMinutes = paidMinutes
    paidTimeLabel = paidMinutes.map { ScreenText.videoTimeAvailable.text(LineValues(x: $0)) }
    self.videos = videos
    self.playback = playback
    self.gate = gate
    self.dashboard = dashboard
    self.audioEnabled = audioEnabled
    self.dailyLimitReached = dailyLimitReached
    self.largestPuzzleGrid = largestPuzzleGrid
    self.unwatchedVideo = unwatchedVideo
  }
}

/// Paid video time a child left unwatched (a sibling's turn, a reload, the parent area, the day's limit).
public struct KidsUnwatchedVideoView: Codable, Hashable, Sendable {
  /// The film it was for; nil when the parent has removed it (the child then chooses another).
  public let video: KidsVideoView?
  /// Seconds left on its clock.
  public let remainingSeconds: Double
  /// "Noch 9 Minuten", as under the clock.
  public let label: String

  public init(video: KidsVideoView?, remainingSeconds: Double, label: String) {
    self.video = video
    self.remainingSeconds = remainingSeconds
    self.label = label
  }
}

/// A child as the screens show it.
public struct KidsPlayerView: Codable, Hashable, Sendable {
  public let id: String
  public let name: String
  public let coins: Int
  /// Coins in the bar (`coins % 10`, 0…9) and full chests (`coins / 10`).
  public let filledSlots: Int
  public let chests: Int
  /// The home chest: "closed" (0–9), "open" (10–19), "openWithSparkles" (20+).
  public let chest: String
  /// The coins in words, "1 Münze", "7 Münzen" (the core's one rule for one and many).
  public let coinsLabel: String
  /// The child's animal picture, 1…6 (`/img/kids/avatar-N.svg`), the same wherever the child is listed.
  public let avatar: Int

  public init(_ player: PlayerData) {
    id = player.id
    name = player.name
    coins = player.coins
    coinsLabel = ScreenText.coinCount.text(LineValues(x: player.coins))
    avatar = player.avatarNumber
    let progress = CoinProgress(coins: player.coins)
    filledSlots = progress.filledSlots
    chests = progress.chests
    chest = ChestDisplay(coins: player.coins).rawValue
  }
}

/// A sign on the home screen.
public struct KidsSignView: Codable, Hashable, Sendable {
  public let activity: String
  public let title: String
  /// Opens for this child (has games, and the parent has it on).
  public let unlocked: Bool

  public init(activity: String, title: String, unlocked: Bool) {
    self.activity = activity
    self.title = title
    self.unlocked = unlocked
  }
}

/// A game on the activity-selection screen.
public struct KidsGameView: Codable, Hashable, Sendable {
  public let game: String
  public let title: String
  public let available: Bool

  public init(_ game: SubActivity) {
    self.game = game.rawValue
    title = game.title
    available = game.isAvailable
  }
}

/// The level being played.
public struct KidsLevelView: Codable, Hashable, Sendable {
  public let game: String
  public let level: Int
  /// Würfel: the face rolled (nil before the roll). Wähle die Zahl: the number asked for.
  public let askedNumber: Int?
  /// Würfel: whether the die has been rolled.
  public let rolled: Bool
  /// The number buttons (Würfel 1…6; Wähle die Zahl's tablet 1…10 in rows).
  public let numberRows: [[Int]]
  /// Wähle die Zahl: "trace" or "tap".
  public let mode: String?
  /// Wähle die Zahl, trace mode: the strokes of the glowing number, in the 0…1 box.
  public let strokes: [[[Double]]]?
  /// Wähle die Zahl, trace mode: the strokes drawn so far in this attempt.
  public let traced: [[[Double]]]?
  /// After how many quiet seconds the client reports `idle` (the game's prompt schedule).
  public let idleMarks: [Double]
  /// Puzzle Matching: the two grids and the leaves to pick from.
  public let puzzle: KidsPuzzleView?
  /// Labyrinth: the stone paths, START and ZIEL.
  public let labyrinth: KidsLabyrinthView?

  public init(
    game: String, level: Int, askedNumber: Int?, rolled: Bool, numberRows: [[Int]], mode: String?, strokes: [[[Double]]]?,
    traced: [[[Double]]]?, idleMarks: [Double] = [], puzzle: KidsPuzzleView? = nil, labyrinth: KidsLabyrinthView? = nil
  ) {
    self.idleMarks = idleMarks
    self.puzzle = puzzle
    self.labyrinth = labyrinth
    self.game = game
    self.level = level
    self.askedNumber = askedNumber
    self.rolled = rolled
    self.numberRows = numberRows
    self.mode = mode
    self.strokes = strokes
    self.traced = traced
  }
}

/// The labyrinth's level, in maze space (`width` × `height` points, y down): the page scales it to fit and
/// sends the finger's trace back in the same space (`traceLabyrinth` with `points`).
public struct KidsLabyrinthView: Codable, Hashable, Sendable {
  public let width: Double
  public let height: Double
  /// How far a finger may stray from a path's middle (the corridor is twice as wide).
  public let tolerance: Double
  /// The stone paths: [x1, y1, x2, y2] between cell middles.
  public let segments: [[Double]]
  /// START and ZIEL, [x, y].
  public let start: [Double]
  public let goal: [Double]
  /// How far from START's middle a trace may begin (the START stone's radius).
  public let startRadius: Double
  /// The most points one trace may have (the page thins longer ones).
  public let maxPoints: Int

  public init(_ maze: Labyrinth) {
    width = Labyrinth.width
    height = Labyrinth.height
    tolerance = maze.tolerance
    segments = maze.segments.map { [$0.0.x, $0.0.y, $0.1.x, $0.1.y] }
    let start = maze.centre(of: maze.start)
    let goal = maze.centre(of: maze.goal)
    self.start = [start.x, start.y]
    self.goal = [goal.x, goal.y]
    startRadius = maze.startRadius
    maxPoints = LabyrinthRound.maxPoints
  }
}

/// Puzzle Matching's level: the ZIEL grid to copy, the child's DU grid, and the colours offered.
public struct KidsPuzzleView: Codable, Hashable, Sendable {
  /// A leaf colour of the picker.
  public struct Leaf: Codable, Hashable, Sendable {
    /// "green", "yellow", "grey", "brown" (what `paintCell` sends).
    public let id: String
    /// The colour on screen.
    public let hex: String
    /// Its name for a screen reader ("Grün").
    public let label: String

    public init(_ colour: LeafColour) {
      id = colour.rawValue
      hex = colour.hex
      label = colour.label
    }
  }

  /// Cells per side.
  public let size: Int
  /// The colours offered, in the picker's order.
  public let leaves: [Leaf]
  /// ZIEL, row by row: a leaf id or nil.
  public let target: [String?]
  /// DU, row by row: a leaf id or nil.
  public let cells: [String?]
  /// Per cell: DU equals ZIEL there (the live check).
  public let matches: [Bool]

  public init(_ round: PuzzleMatchingRound) {
    size = round.size
    leaves = round.colours.map(Leaf.init)
    target = round.target.map { $0?.rawValue }
    cells = round.cells.map { $0?.rawValue }
    matches = round.matches
  }
}

/// The treasure screen's two buttons.
public struct KidsTreasureView: Codable, Hashable, Sendable {
  public let coins: Int
  /// Each "locked" (grey + chains), "disabled", "active" or "activeWithBonus".
  public let fiveMinutes: String
  public let twelveMinutes: String
  /// Whether the chest on the treasure screen is open (enough coins for the cheapest tier).
  public let chestOpen: Bool

  public init(coins: Int, buttons: TreasureButtons) {
    self.coins = coins
    chestOpen = CoinRules.canOpenTreasure(coins)
    fiveMinutes = buttons.fiveMinutes.rawValue
    twelveMinutes = buttons.twelveMinutes.rawValue
  }
}

/// An approved video.
public struct KidsVideoView: Codable, Hashable, Sendable {
  /// Where an uploaded film's file is served (`GET /api/kids/videos/{id}/file`).
  public static func fileURL(id: String) -> String { "/api/kids/videos/\(id)/file" }

  public let id: String
  public let title: String
  /// "youtube" or "upload".
  public let source: String
  /// YouTube's thumbnail (nil for uploads).
  public let thumbnailURL: String?
  /// For an uploaded film: its file at a moment a second in, whose frame is the film's picture (nil for
  /// YouTube).
  public let frameURL: String?
  /// Whether it needs the internet (YouTube).
  public let needsInternet: Bool
  public let addedAt: Date

  public init(_ video: ApprovedVideo) {
    id = video.id
    title = video.title
    source = video.source.rawValue
    thumbnailURL = video.thumbnailURL
    frameURL = video.source == .upload ? "\(Self.fileURL(id: video.id))#t=1" : nil
    needsInternet = video.needsInternet
    addedAt = video.addedAt
  }
}

/// The video playing and its clock (the server's clock decides).
public struct KidsPlaybackView: Codable, Hashable, Sendable {
  public let video: KidsVideoView
  /// Where to play it: YouTube's embed address (no controls, no suggestions) or the uploaded file.
  public let src: String
  public let grantedSeconds: Double
  public let remainingSeconds: Double
  /// 1 → 0: the green arc.
  public let fractionRemaining: Double
  /// Degrees clockwise from 12.
  public let handAngle: Double
  /// "Noch 4 Minuten", "Noch 1 Minute", "Zeit ist um!".
  public let label: String
  /// The one-minute warning has been given (the arc is gold).
  public let warned: Bool
  /// The clock is paused (the page was hidden).
  public let paused: Bool

  public init(
    video: KidsVideoView, src: String, grantedSeconds: Double, remainingSeconds: Double, fractionRemaining: Double,
    handAngle: Double, label: String, warned: Bool, paused: Bool
  ) {
    self.video = video
    self.src = src
    self.grantedSeconds = grantedSeconds
    self.remainingSeconds = remainingSeconds
    self.fractionRemaining = fractionRemaining
    self.handAngle = handAngle
    self.label = label
    self.warned = warned
    self.paused = paused
  }
}

/// The parent gate.
public struct KidsGateView: Codable, Hashable, Sendable {
  /// "7 + 12 = ?".
  public let question: String
  public let input: String

  public init(question: String, input: String) {
    self.question = question
    self.input = input
  }
}

/// The parent area.
public struct KidsDashboardView: Codable, Hashable, Sendable {
  /// One card per child.
  public struct PlayerCard: Codable, Hashable, Sendable {
    public let id: String
    public let name: String
    public let coins: Int
    public let playedMinutes: Int
    public let limitMinutes: Int
    /// "green", "gold" (80–100 %) or "red" (over the limit).
    public let band: String
    /// Share of the limit used, for the bar (may exceed 1).
    public let usage: Double
    /// Sign → on: what the child sees (a sign without games yet is never on).
    public let activities: [String: Bool]
    public let numberChoiceMode: String
    /// Sign → the child's difficulty there, 0.1…0.9 (0.3 at the start), for every sign with games.
    public let difficulty: [String: Double]
    /// Sign → what the difficulty chooses there today, in words ("Zahlen 1–5").
    public let difficultyLabel: [String: String]
    /// The child's animal picture, 1…6.
    public let avatar: Int?

    public init(
      id: String, name: String, coins: Int, playedMinutes: Int, limitMinutes: Int, band: String, usage: Double,
      activities: [String: Bool], numberChoiceMode: String, difficulty: [String: Double] = [:], difficultyLabel: [String: String] = [:],
      avatar: Int? = nil
    ) {
      self.id = id
      self.name = name
      self.coins = coins
      self.playedMinutes = playedMinutes
      self.limitMinutes = limitMinutes
      self.band = band
      self.usage = usage
      self.activities = activities
      self.numberChoiceMode = numberChoiceMode
      self.difficulty = difficulty
      self.difficultyLabel = difficultyLabel
      self.avatar = avatar
    }
  }

  public let players: [PlayerCard]
  /// Newest first.
  public let videos: [KidsVideoView]
  /// 30, 45, 60, 75, 90, 120.
  public let limitOptions: [Int]
  /// Largest upload accepted, in bytes.
  public let maxUploadBytes: Int
  /// Signs whose games do not exist yet: the child sees them locked, so their switch shows off and cannot
  /// be turned on ("kommt bald").
  public let comingSoon: [String]

  public init(
    players: [PlayerCard], videos: [KidsVideoView], limitOptions: [Int], maxUploadBytes: Int, comingSoon: [String] = []
  ) {
    self.players = players
    self.videos = videos
    self.limitOptions = limitOptions
    self.maxUploadBytes = maxUploadBytes
    self.comingSoon = comingSoon
  }
}

/// One effect for the client. `type` names it; only the fields it uses are set.
///
/// transition {from, to} · save · speak {speaker "N"|"B"|"N+B", text, delay, trigger, inFull} · sound {name, seconds} ·
/// loadingProgress {value} · coinsChanged {player, amount, balance, reason} · confetti ·
/// showCelebration {coins} · hideCelebration · levelStarted {game, level} · dieRolled {value} ·
/// highlightNumber {value} · showAnswer {value, seconds} · clearTrace · traceProgress {coverage} ·
/// hintCell {value: the DU cell, seconds} · showWay {points, seconds} ·
/// startVideoTimer {minutes, video} · pauseVideoTimer · resumeVideoTimer · videoOneMinuteWarning ·
/// videoTimeUp {seconds} · gateInput {text} · gateRejected {text, seconds} · gateNewQuestion {text} ·
/// playTimeStage {stage} · settingsChanged · schedule {event, seconds} · refused {reason}
public struct KidsEffectView: Codable, Hashable, Sendable {
  public var type: String
  public var from: String?
  public var to: String?
  public var speaker: String?
  public var text: String?
  public var trigger: String?
  public var delay: Double?
  /// speak: true for a line that is heard in full (the daily limit's gentle-exit lines): a later line waits
  /// for it instead of cutting it off. Absent otherwise.
  public var inFull: Bool?
  public var name: String?
  public var seconds: Double?
  public var value: Int?
  public var player: String?
  public var amount: Int?
  public var balance: Int?
  public var reason: String?
  public var coins: Int?
  public var game: String?
  public var level: Int?
  public var coverage: Double?
  public var minutes: Int?
  public var video: String?
  public var stage: String?
  /// schedule: the event type to send back after `seconds`.
  public var event: String?
  /// showWay: the way through the labyrinth, [[x, y], …] in maze space.
  public var points: [[Double]]?

  public init(type: String) {
    self.type = type
  }
}

/// `GET /api/kids/text`: every German word the screens show, and the palette, as data from Swift.
public struct KidsTextCatalog: Codable, Hashable, Sendable {
  /// ScreenText case name → German text (gaps like `[X]` to fill).
  public let screen: [String: String]
  /// Number of coins per chest and per celebration.
  public let coinsPerChest: Int
  public let milestoneStep: Int
  /// Video tiers: cost and minutes.
  public let tiers: [String: [String: Int]]
  /// How often the client reports by itself, in seconds.
  public let timing: KidsTimingView
  /// The game's movement by name (kidsCelebration, kidsCelebrationExit, kidsCoinFlight, kidsDieTumble,
  /// kidsCrossFade), for full motion; under reduced motion the game shows every change at once.
  public let motion: [String: ChoreographyPayload]
  /// Lines the client shows by itself, in German: noInternet, and the parent area's invalidName, tooManyPlayers,
  /// unsupportedVideoType and videoFormats (the upload's formats as a parent reads them).
  public let lines: [String: String]
  /// The most points one traced stroke may have.
  public let maxTracePoints: Int
  /// The video types the parent area's upload takes (`video/mp4`, …).
  public let videoTypes: [String]

  public init(
    screen: [String: String], coinsPerChest: Int, milestoneStep: Int, tiers: [String: [String: Int]], timing: KidsTimingView,
    motion: [String: ChoreographyPayload], lines: [String: String], maxTracePoints: Int, videoTypes: [String] = []
  ) {
    self.maxTracePoints = maxTracePoints
    self.videoTypes = videoTypes
    self.screen = screen
    self.coinsPerChest = coinsPerChest
    self.milestoneStep = milestoneStep
    self.tiers = tiers
    self.timing = timing
    self.motion = motion
    self.lines = lines
  }
}

/// Client report intervals of Waldabenteuer, from ``KidsClientTiming``.
public struct KidsTimingView: Codable, Hashable, Sendable {
  public let heartbeatSeconds: Double
  public let videoTickSeconds: Double
  public let loadingTickSeconds: Double
  /// Bennie's bubble types this many seconds per character.
  public let typewriterSecondsPerCharacter: Double
  /// A parent-area confirmation stays this long.
  public let parentNoticeSeconds: Double
  /// Bennie's bubble stays this long after the last line.
  public let bubbleHoldSeconds: Double
  /// The longest child's name and video title the parent area takes.
  public let maxNameLength: Int
  public let maxTitleLength: Int

  public init(
    heartbeatSeconds: Double, videoTickSeconds: Double, loadingTickSeconds: Double,
    typewriterSecondsPerCharacter: Double = KidsClientTiming.typewriterSecondsPerCharacter,
    parentNoticeSeconds: Double = KidsClientTiming.parentNoticeSeconds,
    bubbleHoldSeconds: Double = KidsClientTiming.bubbleHoldSeconds, maxNameLength: Int = GameMachine.maxNameLength,
    maxTitleLength: Int = GameMachine.maxTitleLength
  ) {
    self.heartbeatSeconds = heartbeatSeconds
    self.videoTickSeconds = videoTickSeconds
    self.loadingTickSeconds = loadingTickSeconds
    self.typewriterSecondsPerCharacter = typewriterSecondsPerCharacter
    self.parentNoticeSeconds = parentNoticeSeconds
    self.bubbleHoldSeconds = bubbleHoldSeconds
    self.maxNameLength = maxNameLength
    self.maxTitleLength = maxTitleLength
  }
}
