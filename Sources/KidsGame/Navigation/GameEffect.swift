import CompletionCore
import Foundation

/// Something the caller must do or show. The machine never does IO itself: it says "save", "speak this",
/// "deduct these coins", and the caller (server, app) carries it out.
public enum GameEffect: Hashable, Sendable {
  /// The state changed (log it; clients cross-fade 0.3 s).
  case transition(from: GameState, to: GameState)
  /// Persist ``GameMachine/snapshot()`` now.
  case save
  /// Speak (and show) a line.
  case speak(SpokenLine)
  case sound(SoundEffect)
  /// The loading bar's value, 0…100.
  case loadingProgress(Int)
  /// Coins were paid, spent, refunded or reset; record it in the ledger with its key.
  case coinsChanged(CoinChange)
  /// Full-screen confetti (clients skip it under reduced motion).
  case confetti
  /// Show the celebration overlay over the dimmed activity.
  case showCelebration(coins: Int)
  /// Dismiss the celebration overlay.
  case hideCelebration
  /// A level began.
  case levelStarted(SubActivity, level: Int)
  /// The die shows this face after its tumble.
  case dieRolled(Int)
  /// This number button glows: it is the answer (after a wrong tap it keeps glowing).
  case highlightNumber(Int)
  /// Show the answer for a while, then retry the same number (Wähle die Zahl, tap mode).
  case showAnswer(Int, seconds: Double)
  /// Wipe the child's trace off the number.
  case clearTrace
  /// A hint in Puzzle Matching: the DU cell to fix next (and its ZIEL cell) glows for `seconds`.
  case hintCell(Int, seconds: Double)
  /// A hint in the labyrinth: the way through, START to ZIEL (cell middles in maze space), shows for `seconds`.
  case showWay([MazePoint], seconds: Double)
  /// How much of the number the strokes so far cover, 0…1.
  case traceProgress(coverage: Double)
  /// Start the video clock for this many minutes.
  case startVideoTimer(minutes: Int, videoID: String)
  case pauseVideoTimer
  case resumeVideoTimer
  /// One minute left: pulse the clock, turn its arc gold.
  case videoOneMinuteWarning
  /// Time is up: pause the video, show "Zeit ist um!", and go home after `holdSeconds`.
  case videoTimeUp(holdSeconds: Double)
  /// The parent gate's input as typed so far.
  case gateInput(String)
  /// A wrong gate answer: show the message for `seconds`; the input is cleared.
  case gateRejected(message: String, seconds: Double)
  /// The gate's question changed (after three wrong answers).
  case gateNewQuestion(ParentGate.Question)
  /// The daily play time passed a threshold.
  case playTimeStage(PlayTimeStage)
  /// Parent settings or the video list changed.
  case settingsChanged
  /// Send `event` back to the machine after `after` seconds (the 2 s pause after a level, …).
  case schedule(GameEvent, after: Double)
  /// The event was not applied; nothing changed. Log it.
  case refused(Refusal)

  /// The refusal, when this effect is one.
  public var refusal: Refusal? {
    if case .refused(let refusal) = self { return refusal }
    return nil
  }
}

/// The short sounds of the game (seconds in ``duration``).
public enum SoundEffect: String, CaseIterable, Hashable, Sendable, Codable {
  case tapWood = "tap_wood"
  case successChime = "success_chime"
  case coinCollect = "coin_collect"
  case celebrationFanfare = "celebration_fanfare"
  case chestOpen = "chest_open"
  /// The soft sound for "not this one" (never a buzzer).
  case gentleBoop = "gentle_boop"
  /// Time up on the video clock.
  case bell

  /// Length in seconds.
  public var duration: Double {
    switch self {
    case .tapWood: 0.1
    case .successChime: 0.5
    case .coinCollect: 0.3
    case .celebrationFanfare: 2
    case .chestOpen: 1
    case .gentleBoop: 0.2
    case .bell: 1
    }
  }
}

/// One change to a player's coins, with the idempotency key the ledger needs.
public struct CoinChange: Hashable, Sendable, Codable {
  /// Why the coins changed.
  public enum Reason: String, Hashable, Sendable, Codable {
    case earned, redeemed, refunded, reset
  }

  /// The ledger currency for Waldabenteuer coins.
  public static let currency = "coins"

  /// The child whose coins changed.
  public let player: String
  /// +1 for a level, −10 or −20 for video time, the same back on "Zurück", −balance on a reset.
  public let amount: Int
  /// The player's coins after the change.
  public let balance: Int
  /// Why.
  public let reason: Reason
  /// The family's running number of coin changes (from ``GameData/ledgerSequence``).
  public let sequence: Int
  /// Unique per change ("waldabenteuer:alexander:17"); a replayed effect carries the same key. Built when
  /// asked, not in the transition (a string that long is an allocation, and the transition has 1 µs).
  public var ledgerKey: String { "waldabenteuer:\(player):\(sequence)" }

  /// A coin change.
  public init(player: String, amount: Int, balance: Int, reason: Reason, sequence: Int) {
    self.player = player
    self.amount = amount
    self.balance = balance
    self.reason = reason
    self.sequence = sequence
  }

  /// The entry to record in a ``RewardLedger`` (account = player id).
  public func ledgerEntry(at date: Date) -> LedgerEntry {
    LedgerEntry(
      key: ledgerKey, account: player, currency: Self.currency, amount: amount, reason: reason.rawValue, recordedAt: date)
  }
}

/// An event the machine did not apply, with enough context to log it.
public struct Refusal: Hashable, Sendable, CustomStringConvertible {
  /// Why nothing happened.
  public let reason: RefusalReason
  /// The state the machine stayed in.
  public let state: GameState
  /// The event that was refused.
  public let event: GameEvent

  /// A refusal of `event` in `state`.
  public init(reason: RefusalReason, state: GameState, event: GameEvent) {
    self.reason = reason
    self.state = state
    self.event = event
  }

  /// "refused tapChest in home: not_enough_coins".
  public var description: String { "refused \(event.name) in \(state.name): \(reason.rawValue)" }
}

/// Why an event changed nothing.
public enum RefusalReason: String, Hashable, Sendable, Codable {
  /// The seed's tables have no row for this event in this state.
  case notAllowedHere = "not_allowed_here"
  case unknownPlayer = "unknown_player"
  /// No player has been chosen yet.
  case noActivePlayer = "no_active_player"
  /// The sign or game is locked (not built yet, or turned off by the parent).
  case activityLocked = "activity_locked"
  /// The chest or a YouTube button needs more coins.
  case notEnoughCoins = "not_enough_coins"
  /// Video needs the internet.
  case offline
  /// A second tap within 300 ms of the last one.
  case debounced
  /// A number was tapped before the die was rolled.
  case notRolled = "not_rolled"
  case alreadyRolled = "already_rolled"
  /// The die is still tumbling.
  case stillRolling = "still_rolling"
  case numberOutOfRange = "number_out_of_range"
  /// Puzzle Matching: a leaf colour this level does not offer.
  case colourNotOffered = "colour_not_offered"
  /// A trace without points.
  case emptyTrace = "empty_trace"
  /// A stroke with more points than any real finger stroke sends.
  case traceTooLong = "trace_too_long"
  /// Tapping in trace mode or tracing in tap mode.
  case wrongMode = "wrong_mode"
  case videoNotApproved = "video_not_approved"
  /// The video clock decides when a video ends; there is no way out, back or around it.
  case videoRunning = "video_running"
  case invalidYouTubeLink = "invalid_youtube_link"
  case duplicateVideo = "duplicate_video"
  case unknownVideo = "unknown_video"
  /// The parent gate takes at most two digits.
  case inputFull = "input_full"
  case noInput = "no_input"
  case invalidTimeLimit = "invalid_time_limit"
  case dailyLimitReached = "daily_limit_reached"
  /// Parent commands need the gate first.
  case parentGateRequired = "parent_gate_required"
  /// The loading screen has not finished.
  case stillLoading = "still_loading"
  /// A child's name must be 1–20 characters and not only spaces.
  case invalidName = "invalid_name"
  /// A family keeps at least one child.
  case lastPlayer = "last_player"
  /// There is room for this many children on the player screen.
  case tooManyPlayers = "too_many_players"
  /// An uploaded video needs an id of the form `upload-…`.
  case invalidVideoID = "invalid_video_id"
}
