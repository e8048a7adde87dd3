import CompletionCore
import Foundation

/// Everything the machine needs to come back: saved on every ``GameEffect/save`` and when the app goes
/// to the background.
public struct GameSnapshot: Hashable, Sendable, Codable {
  /// The layout written by this code.
  public static let currentVersion = 1

  /// The layout version.
  public var version: Int
  /// The children and the parent's settings.
  public var data: GameData
  /// Where the child was on screen.
  public var navigation: Navigation
  /// Where the random sequence stopped.
  public var random: SeededRandom

  /// A snapshot of the three parts.
  public init(version: Int = currentVersion, data: GameData, navigation: Navigation, random: SeededRandom) {
    self.version = version
    self.data = data
    self.navigation = navigation
    self.random = random
  }
}

/// What restoring found and did, for the log.
public struct RecoveryNote: Hashable, Sendable {
  /// How the game came back.
  public enum Outcome: String, Hashable, Sendable {
    /// Nothing was saved: a new game on the loading screen.
    case freshStart = "fresh_start"
    /// Back exactly where it was.
    case restored
    /// Back on a safe screen, by the seed's rules (an activity → its selection, the celebration or a
    /// video → home).
    case movedToSafeState = "moved_to_safe_state"
    /// The screen state was unreadable or did not fit together: home, with the children's data kept.
    case resetScreen = "reset_screen"
    /// Nothing usable was saved: a new game, without a chosen child.
    case unreadable
  }

  /// How the game came back.
  public let outcome: Outcome
  /// The state that was saved, when it could be read.
  public let savedState: GameState?
  /// The state the game came back in.
  public let restoredState: GameState
  /// What was wrong or repaired, in words for the log.
  public let problems: [String]

  /// A note for the log.
  public init(outcome: Outcome, savedState: GameState?, restoredState: GameState, problems: [String] = []) {
    self.outcome = outcome
    self.savedState = savedState
    self.restoredState = restoredState
    self.problems = problems
  }
}

extension GameMachine {
  /// The machine as a saveable value.
  public func snapshot() -> GameSnapshot {
    GameSnapshot(data: data, navigation: navigation, random: random)
  }

  /// The machine exactly as `snapshot` left it, without the recovery rules: for a caller that keeps the
  /// game running between requests (the server), where nothing was closed or relaunched. Nil when the
  /// snapshot does not fit together (use ``restore(from:seed:videoClockAt:)`` then).
  public init?(resuming snapshot: GameSnapshot) {
    self.init(data: snapshot.data, navigation: snapshot.navigation, random: snapshot.random)
    guard consistencyProblems.isEmpty else { return nil }
  }

  /// The snapshot as JSON.
  public func encoded() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return try encoder.encode(snapshot())
  }

  /// Brings a saved game back (seed 001, Part 4 "State Recovery Rules"):
  /// - `playing` (and the level-complete moment inside it) → that activity's selection screen;
  /// - `celebrationOverlay` → home;
  /// - `videoPlaying` → home (the paid time has run out);
  /// - `parentDashboard` → the parent gate, with a new question (the dashboard always needs the gate);
  /// - every other state → as saved;
  /// - a screen state that cannot be read or does not fit the data → home, the children's data kept;
  /// - nothing saved → a new game; nothing readable → a new game at player selection.
  /// `seed` is only used when no random stream was saved.
  ///
  /// `videoClockAt`: a caller that holds the video clock itself (the server) passes the current time; the
  /// time a video still had left then stays with the child who paid it (``PlayerData/unwatchedVideo``),
  /// offered again on home. The seed's rule sends a video home because an app's clock may have run out
  /// while it was closed; a clock that provably has not run out is paid time the child keeps.
  public static func restore(from saved: Data?, seed: UInt64, videoClockAt: Date? = nil) -> (GameMachine, RecoveryNote) {
    guard let saved else {
      let machine = GameMachine(seed: seed)
      return (machine, RecoveryNote(outcome: .freshStart, savedState: nil, restoredState: machine.state))
    }
    guard let parts = try? JSONDecoder().decode(LenientSnapshot.self, from: saved), let data = parts.data else {
      var machine = GameMachine(seed: seed)
      machine.navigation.state = .playerSelection
      let note = RecoveryNote(
        outcome: .unreadable, savedState: nil, restoredState: machine.state, problems: ["saved game unreadable"])
      return (machine, note)
    }
    var problems = parts.problems
    if parts.random == nil { problems.append("random stream unreadable: new seed used") }
    let repaired = repair(data, problems: &problems)
    var machine = GameMachine(data: repaired, navigation: Navigation(), random: parts.random ?? SeededRandom(seed: seed))
    guard let navigation = parts.navigation else {
      problems.append("screen state unreadable")
      _ = machine.goHome(greeting: false)
      return (machine, RecoveryNote(outcome: .resetScreen, savedState: nil, restoredState: machine.state, problems: problems))
    }
    machine.navigation = navigation
    let mismatches = machine.consistencyProblems
    guard mismatches.isEmpty else {
      // Keep only what says nothing about the screen, then go home.
      machine.navigation = Navigation()
      machine.navigation.greetedHome = navigation.greetedHome
      machine.navigation.lastNumberTarget = navigation.lastNumberTarget
      _ = machine.goHome(greeting: false)
      let note = RecoveryNote(
        outcome: .resetScreen, savedState: navigation.state, restoredState: machine.state, problems: problems + mismatches)
      return (machine, note)
    }
    let outcome = machine.applyRecoveryRules(videoClockAt: videoClockAt)
    return (
      machine, RecoveryNote(outcome: outcome, savedState: navigation.state, restoredState: machine.state, problems: problems)
    )
  }

  /// A launch of the app (the page opened or reloaded): the saved game restored by the recovery rules, then
  /// the seed's flow on every launch — loading, then "Wer spielt heute?" — so siblings can take turns. The
  /// screen the recovery rules chose waits in ``Navigation/resumeState``: the child who was playing goes
  /// back to it after choosing their card, another child starts at home. A video goes home by the recovery
  /// rules, its unwatched time kept for the child who paid it.
  public static func launch(from saved: Data?, seed: UInt64, at now: Date) -> (GameMachine, RecoveryNote) {
    var (machine, note) = restore(from: saved, seed: seed, videoClockAt: now)
    machine.relaunch(at: now)
    return (machine, note)
  }

  /// Puts a restored machine on the loading screen, keeping the screen to come back to.
  mutating func relaunch(at now: Date) {
    let interrupted: GameState? =
      switch state {
      // Launched again before a child was chosen: the screen from before still waits.
      case .loading, .playerSelection: navigation.resumeState
      case .activitySelection, .treasureScreen, .videoSelection: state
      default: nil
      }
    if interrupted == .videoPlaying {
      // Saved before a film went home on a launch (older saves): its time stays with its child too.
      keepUnwatchedVideo(of: data.settings.lastActivePlayer, stoppedAt: now)
    }
    navigation.activity = nil
    navigation.gate = nil
    navigation.resumeState = interrupted == .videoPlaying ? nil : interrupted
    navigation.loadingAnnounced = false
    navigation.parentLinkWaiting = nil
    navigation.state = .loading
  }

  /// Moves a just-restored machine to the screen the recovery rules ask for.
  private mutating func applyRecoveryRules(videoClockAt: Date?) -> RecoveryNote.Outcome {
    switch state {
    case .playing(let activity, _):
      navigation.activity = nil
      navigation.state = .activitySelection(activity)
    case .levelComplete:
      // The two seconds after a solved level belong to the activity: same rule as playing.
      let activity = navigation.activity?.activity ?? .zahlen
      navigation.activity = nil
      navigation.state = .activitySelection(activity)
    case .celebrationOverlay:
      navigation.activity = nil
      navigation.state = .home
    case .videoPlaying:
      // Home, as the seed says. A caller that holds the clock knows the time left: it stays with the child
      // who paid, offered again on home ("Weiterschauen"). Without one, the seed's reading holds (time up).
      if let now = videoClockAt {
        keepUnwatchedVideo(of: data.settings.lastActivePlayer, stoppedAt: now)
      }
      navigation.video = nil
      navigation.state = .home
    case .parentDashboard:
      navigation.gate = ParentGate(using: &random)
      navigation.state = .parentGate
    default:
      return .restored
    }
    return .movedToSafeState
  }

  /// Keeps every child's data, holding coins and counts to what the rules allow.
  private static func repair(_ data: GameData, problems: inout [String]) -> GameData {
    var data = data
    var seen = Set<String>()
    data.players = data.players.filter { seen.insert($0.id).inserted }
    if data.players.count != seen.count { problems.append("duplicate players dropped") }
    for index in data.players.indices {
      let player = data.players[index]
      if player.coins < 0 || player.totalCoinsEarned < 0 || !player.totalPlayTimeToday.isFinite || player.totalPlayTimeToday < 0 {
        problems.append("player \(player.id): impossible counts reset to zero")
        data.players[index].coins = max(0, player.coins)
        data.players[index].totalCoinsEarned = max(0, player.totalCoinsEarned)
        data.players[index].totalPlayTimeToday = player.totalPlayTimeToday.isFinite ? max(0, player.totalPlayTimeToday) : 0
      }
    }
    if data.players.isEmpty {
      problems.append("no players: defaults used")
      data.players = PlayerData.defaults
    }
    if let active = data.settings.lastActivePlayer, data.player(active) == nil {
      problems.append("unknown active player \(active)")
      data.settings.lastActivePlayer = nil
    }
    data.ledgerSequence = max(0, data.ledgerSequence)
    return data
  }

  /// Ways the state does not fit the rest of the machine (empty when it is consistent). The machine never
  /// produces any of these; restore uses this to catch damaged saves, tests to check random runs.
  public var consistencyProblems: [String] {
    var problems: [String] = []
    for player in data.players where player.coins < 0 { problems.append("player \(player.id) has negative coins") }
    if Set(data.players.map(\.id)).count != data.players.count { problems.append("duplicate player ids") }
    let player = activePlayer
    switch state {
    case .loading, .playerSelection, .parentGate, .parentDashboard:
      break
    default:
      if player == nil { problems.append("\(state.name) without an active player") }
    }
    switch state {
    case .activitySelection(let activity):
      if !activity.isAvailable { problems.append("selection of an unavailable activity") }
    case .playing(let activity, let game):
      if game.activity != activity { problems.append("\(game.rawValue) is not part of \(activity.rawValue)") }
      if navigation.activity?.game != game { problems.append("playing without its level") }
      if navigation.activity?.round.game != game { problems.append("level rules of another game") }
    case .levelComplete:
      if navigation.activity == nil { problems.append("level complete without its level") }
    case .celebrationOverlay:
      if navigation.activity == nil { problems.append("celebration without its activity") }
      if !CoinRules.isMilestone(player?.coins ?? 0) { problems.append("celebration off a 5-coin milestone") }
    case .videoSelection:
      if navigation.redemption == nil { problems.append("video selection without paid time") }
    case .videoPlaying:
      if navigation.video == nil { problems.append("video playing without a clock") }
    case .loading, .playerSelection:
      if navigation.resumeState == .videoPlaying, navigation.video == nil { problems.append("a video to resume without its clock") }
      if navigation.resumeState == .videoSelection, navigation.redemption == nil { problems.append("video selection to resume without paid time") }
      if let resume = navigation.resumeState, player == nil { problems.append("\(resume.name) to resume without a child") }
    case .parentGate:
      if navigation.gate == nil { problems.append("parent gate without a question") }
    default:
      break
    }
    return problems
  }
}

/// Decodes a snapshot part by part, so one damaged part does not take the others with it.
private struct LenientSnapshot: Decodable {
  var data: GameData?
  var navigation: Navigation?
  var random: SeededRandom?
  var problems: [String] = []

  private enum CodingKeys: String, CodingKey { case version, data, navigation, random }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    data = try? container.decode(GameData.self, forKey: .data)
    if data == nil, let partial = try? container.decode(PartialGameData.self, forKey: .data) {
      data = partial.data
      problems = partial.problems
    }
    navigation = try? container.decode(Navigation.self, forKey: .navigation)
    random = try? container.decode(SeededRandom.self, forKey: .random)
  }
}

/// Game data with damaged entries left out: each player is read on its own, and unreadable settings fall
/// back to the defaults, so one bad record never costs another child's coins.
private struct PartialGameData: Decodable {
  var data: GameData
  var problems: [String] = []

  private enum CodingKeys: String, CodingKey { case players, settings, ledgerSequence }

  private struct Failable<Value: Decodable>: Decodable {
    let value: Value?
    init(from decoder: any Decoder) throws {
      value = try? decoder.singleValueContainer().decode(Value.self)
    }
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let entries = (try? container.decode([Failable<PlayerData>].self, forKey: .players)) ?? []
    let players = entries.compactMap(\.value)
    if players.count != entries.count { problems.append("\(entries.count - players.count) unreadable player records dropped") }
    let settings = try? container.decode(AppSettings.self, forKey: .settings)
    if settings == nil { problems.append("settings unreadable: defaults used") }
    let sequence = try? container.decode(Int.self, forKey: .ledgerSequence)
    if sequence == nil { problems.append("ledger sequence unreadable: restarted, the ledger may report duplicate keys") }
    data = GameData(players: players, settings: settings ?? AppSettings(), ledgerSequence: sequence ?? 0)
  }
}
