/// How far into the daily play time a player is.
public enum PlayTimeStage: Int, CaseIterable, Comparable, Hashable, Sendable, Codable {
  /// Under 80 %.
  case fine = 0
  /// From 80 %: "Bald machen wir eine Pause."
  case breakSoon = 1
  /// From 95 %: "Noch ein Spiel. Dann machen wir Pause."
  case lastActivity = 2
  /// From 100 %: the goodbye; no new activity today.
  case finished = 3

  /// Stages order by how far into the day they are.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The share of the limit where this stage starts.
  public var threshold: Double {
    switch self {
    case .fine: 0
    case .breakSoon: 0.8
    case .lastActivity: 0.95
    case .finished: 1
    }
  }

  /// The line Bennie says when the stage begins (none while fine).
  public var trigger: NarrationTrigger? {
    switch self {
    case .fine: nil
    case .breakSoon: .playTimeBreakSoon
    case .lastActivity: .playTimeLastActivity
    case .finished: .playTimeGoodbye
    }
  }
}

/// The colour band of "Heute gespielt" in the parent dashboard.
public enum PlayTimeBand: String, Hashable, Sendable, Codable {
  /// Below 80 %.
  case green
  /// 80–100 % (#D9C27A).
  case gold
  /// Above 100 % (#CC0000, allowed in the parent area).
  case red
}

/// A player's daily play time, set by the parent: 30, 45, 60 (default), 75, 90 or 120 minutes.
public struct PlayTimeLimit: Hashable, Sendable, Codable {
  /// The choices in the dashboard.
  public static let options = [30, 45, 60, 75, 90, 120]
  /// The limit until a parent changes it.
  public static let standard = PlayTimeLimit(validMinutes: 60)

  /// Minutes per day.
  public let minutes: Int

  /// A limit of `minutes`, or nil when that is not one of the ``options``.
  public init?(minutes: Int) {
    guard Self.options.contains(minutes) else { return nil }
    self.minutes = minutes
  }

  private init(validMinutes: Int) {
    minutes = validMinutes
  }

  /// Share of the limit used (1 = all of it); 0 for nonsense input.
  public func usage(minutesPlayed: Double) -> Double {
    guard minutesPlayed.isFinite, minutesPlayed > 0 else { return 0 }
    return minutesPlayed / Double(minutes)
  }

  /// The stage at `minutesPlayed` today.
  public func stage(minutesPlayed: Double) -> PlayTimeStage {
    let usage = usage(minutesPlayed: minutesPlayed)
    return PlayTimeStage.allCases.last { usage >= $0.threshold } ?? .fine
  }

  /// The dashboard bar's colour at `minutesPlayed`.
  public func band(minutesPlayed: Double) -> PlayTimeBand {
    let usage = usage(minutesPlayed: minutesPlayed)
    if usage > 1 { return .red }
    return usage >= 0.8 ? .gold : .green
  }
}

extension PlayTimeLimit {
  private enum CodingKeys: String, CodingKey { case minutes }

  /// Decodes only a limit the dashboard offers, so a damaged save cannot smuggle in 7 or 10 000 minutes.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let minutes = try container.decode(Int.self, forKey: .minutes)
    guard Self.options.contains(minutes) else {
      throw DecodingError.dataCorruptedError(forKey: .minutes, in: container, debugDescription: "not a daily limit option")
    }
    self.minutes = minutes
  }
}
