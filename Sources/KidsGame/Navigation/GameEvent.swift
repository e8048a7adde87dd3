import Foundation

/// Something that happened: a tap, a trace, a tick of the caller's clock. Times come in here, never from
/// a clock inside the machine, so every run can be replayed.
public enum GameEvent: Hashable, Sendable {
  /// The loading screen has been shown for `elapsed` seconds.
  case loadingTick(elapsed: Double)
  /// A player card was tapped (`"alexander"`, `"oliver"`); the time restarts a video's clock when that child
  /// comes back to the video the launch interrupted.
  case selectPlayer(String, at: Date)
  /// A sign on the home screen was tapped.
  case tapActivity(ActivityType)
  /// A game was chosen on the activity-selection screen.
  case tapSubActivity(SubActivity)
  /// The treasure chest on the home screen was tapped.
  case tapChest
  /// The settings button (the way into the parent gate).
  case tapSettings
  /// "Weiterschauen" on the home screen: the child takes up the paid video time they left unwatched.
  case resumeUnwatchedVideo(online: Bool, at: Date)
  /// "Wer spielt?" on the home screen: this child's turn ends and the player screen asks again.
  case changePlayer
  /// The back ("Zurück") button; in the parent gate it is "Abbrechen".
  case back
  /// The home button in the top bar.
  case home
  /// The die was tapped (Würfel).
  case rollDie(at: Date)
  /// A number button was tapped (Würfel, or Wähle die Zahl in tap mode).
  case tapNumber(Int, at: Date)
  /// One finger stroke over the glowing number, in the number box's 0…1 coordinates (Wähle die Zahl).
  case traceStroke([TracePoint], at: Date)
  /// Labyrinth: one finger trace from touch to release, in maze space (``Labyrinth/width`` × ``Labyrinth/height``).
  case traceLabyrinth([MazePoint], at: Date)
  /// Puzzle Matching: a leaf of `colour` placed on `cell` (row by row from the top left of the DU grid).
  case paintCell(Int, LeafColour, at: Date)
  /// Puzzle Matching: the eraser on `cell`.
  case eraseCell(Int, at: Date)
  /// Puzzle Matching: the DU grid emptied (after the page's "Wirklich neu anfangen?").
  case resetPuzzle
  /// No input for `seconds` in the current level: maybe time for a gentle prompt.
  case idle(seconds: Double)
  /// The level-complete moment (chime, coin flight) is over: celebrate or go on to the next level.
  case levelCompleteFinished
  /// "Weiter" on the celebration overlay.
  case tapWeiter
  /// A YouTube button on the treasure screen; `online` is the caller's connectivity check.
  case redeem(VideoTier, online: Bool)
  /// A video was chosen on the video-selection screen.
  case chooseVideo(id: String, online: Bool, at: Date)
  /// The caller's clock while a video plays (the server ticks it).
  case videoTick(at: Date)
  /// A number-pad key in the parent gate (0…9).
  case gateDigit(Int)
  /// Deletes the last digit typed in the parent gate.
  case gateErase
  /// "Bestätigen" in the parent gate.
  case gateConfirm
  /// A change made in the parent dashboard.
  case parent(ParentCommand)
  /// How many minutes the active player has played today, as counted by the caller, at `at` (a film the
  /// day's limit stops is stopped then; without a time a film plays to its end).
  case playTimeUpdated(minutesToday: Double, at: Date? = nil)
  /// A deep link straight to the parent dashboard (it still goes through the gate).
  case openParentDeepLink
  /// The app went to the background: save, and pause a running video clock.
  case appBackgrounded(at: Date)
  /// The app came back: a paused video clock runs on.
  case appForegrounded(at: Date)
  /// The sound button: narration and effects on or off.
  case setAudio(enabled: Bool)
  /// The screen in use has room for Puzzle Matching grids up to `puzzleGrid` cells a side with cells that
  /// are child-sized targets; later levels stay within it (a level under way keeps its grid).
  case screenFits(puzzleGrid: Int)
  /// A new calendar day began for this family: everyone's play time today starts again at zero.
  case dayChanged

  /// A short stable name for logs.
  public var name: String {
    switch self {
    case .loadingTick: "loadingTick"
    case .selectPlayer: "selectPlayer"
    case .tapActivity: "tapActivity"
    case .tapSubActivity: "tapSubActivity"
    case .tapChest: "tapChest"
    case .tapSettings: "tapSettings"
    case .resumeUnwatchedVideo: "resumeUnwatchedVideo"
    case .changePlayer: "changePlayer"
    case .back: "back"
    case .home: "home"
    case .rollDie: "rollDie"
    case .tapNumber: "tapNumber"
    case .traceStroke: "traceStroke"
    case .traceLabyrinth: "traceLabyrinth"
    case .paintCell: "paintCell"
    case .eraseCell: "eraseCell"
    case .resetPuzzle: "resetPuzzle"
    case .idle: "idle"
    case .levelCompleteFinished: "levelCompleteFinished"
    case .tapWeiter: "tapWeiter"
    case .redeem: "redeem"
    case .chooseVideo: "chooseVideo"
    case .videoTick: "videoTick"
    case .gateDigit: "gateDigit"
    case .gateErase: "gateErase"
    case .gateConfirm: "gateConfirm"
    case .parent: "parent"
    case .playTimeUpdated: "playTimeUpdated"
    case .openParentDeepLink: "openParentDeepLink"
    case .appBackgrounded: "appBackgrounded"
    case .appForegrounded: "appForegrounded"
    case .setAudio: "setAudio"
    case .screenFits: "screenFits"
    case .dayChanged: "dayChanged"
    }
  }
}

/// A change made behind the parent gate.
public enum ParentCommand: Hashable, Sendable {
  /// Sets a player's daily play time (one of ``PlayTimeLimit/options``).
  case setDailyLimit(player: String, minutes: Int)
  /// Turns a sign on or off for a player.
  case setActivity(ActivityType, enabled: Bool, player: String)
  /// Trace or tap for Wähle die Zahl.
  case setNumberChoiceMode(NumberChoiceMode, player: String)
  /// Approves a video from a pasted YouTube link.
  case addVideo(link: String, title: String, at: Date)
  /// Approves a video file the parent uploaded (stored by the caller under `id`); it plays offline.
  case addUploadedVideo(id: String, title: String, at: Date)
  /// Removes an approved video.
  case removeVideo(id: String)
  /// Adds a child (the id is made from the name).
  case addPlayer(name: String)
  /// Renames a child (coins and progress stay).
  case renamePlayer(player: String, name: String)
  /// Removes a child and everything it earned.
  case removePlayer(player: String)
  /// "Fortschritt zurücksetzen?": coins to 0, levels to 1, today's time to 0.
  case resetProgress(player: String)
  /// Sets one child's difficulty in one activity back to its start (0.3).
  case resetDifficulty(player: String, activity: ActivityType)
}

extension GameEvent {
  /// The time of a child's input in a level (a roll, a tap, a stroke); nil for every other event.
  var inputDate: Date? {
    switch self {
    case .rollDie(let date), .tapNumber(_, let date), .traceStroke(_, let date), .paintCell(_, _, let date), .traceLabyrinth(_, let date),
      .eraseCell(_, let date):
      date
    default: nil
    }
  }
}
