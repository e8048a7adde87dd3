/// The four signs on the home screen.
public enum ActivityType: String, CaseIterable, Hashable, Sendable, Codable {
  case raetsel
  case zahlen
  case zeichnen
  case logik

  /// The label on the sign.
  public var title: String {
    switch self {
    case .raetsel: "Rätsel"
    case .zahlen: "Zahlen 1,2,3"
    case .zeichnen: "Zeichnen"
    case .logik: "Logik"
    }
  }

  /// The games behind the sign, in the order they are offered (Zeichnen and Logik have none yet).
  public var subActivities: [SubActivity] {
    SubActivity.allCases.filter { $0.activity == self }
  }

  /// Whether this build has rules for at least one of its games. A sign without them shows as locked,
  /// whatever the parent's toggle says.
  public var isAvailable: Bool { subActivities.contains(where: \.isAvailable) }
}

/// One game behind a sign.
public enum SubActivity: String, CaseIterable, Hashable, Sendable, Codable {
  case puzzleMatching
  case labyrinth
  case wuerfel
  case waehleDieZahl

  /// The sign this game belongs to.
  public var activity: ActivityType {
    switch self {
    case .puzzleMatching, .labyrinth: .raetsel
    case .wuerfel, .waehleDieZahl: .zahlen
    }
  }

  /// The label on its button.
  public var title: String {
    switch self {
    case .puzzleMatching: "Puzzle"
    case .labyrinth: "Labyrinth"
    case .wuerfel: "Würfel"
    case .waehleDieZahl: "Wähle die Zahl"
    }
  }

  /// Whether its rules exist yet (a game without them says "Das ist noch gesperrt." instead of opening an
  /// empty screen).
  public var isAvailable: Bool {
    switch self {
    case .wuerfel, .waehleDieZahl, .puzzleMatching, .labyrinth: true
    }
  }
}

/// Where the child is (seed 001, Part 2.2). The celebration is an overlay: the machine keeps the activity
/// underneath in its ``GameMachine/activity`` context, so these cases stay exactly as the seed lists them.
public enum GameState: Hashable, Sendable, Codable {
  case loading
  case playerSelection
  case home
  case activitySelection(ActivityType)
  case playing(ActivityType, SubActivity)
  case levelComplete
  /// Only at 5-coin milestones (`coins > 0 && coins % 5 == 0`).
  case celebrationOverlay
  case treasureScreen
  case videoSelection
  case videoPlaying
  /// The math question in front of the parent area.
  case parentGate
  /// The parent area; reachable only through the gate.
  case parentDashboard

  /// A short stable name for logs ("playing(zahlen,wuerfel)").
  public var name: String {
    switch self {
    case .loading: "loading"
    case .playerSelection: "playerSelection"
    case .home: "home"
    case .activitySelection(let activity): "activitySelection(\(activity.rawValue))"
    case .playing(let activity, let sub): "playing(\(activity.rawValue),\(sub.rawValue))"
    case .levelComplete: "levelComplete"
    case .celebrationOverlay: "celebrationOverlay"
    case .treasureScreen: "treasureScreen"
    case .videoSelection: "videoSelection"
    case .videoPlaying: "videoPlaying"
    case .parentGate: "parentGate"
    case .parentDashboard: "parentDashboard"
    }
  }

  /// Whether this is an activity screen (or the level-complete moment or overlay shown on top of one).
  public var isInActivity: Bool {
    switch self {
    case .playing, .levelComplete, .celebrationOverlay: true
    default: false
    }
  }
}
