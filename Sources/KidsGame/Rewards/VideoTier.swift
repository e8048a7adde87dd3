/// What coins buy on the treasure screen.
public enum VideoTier: String, CaseIterable, Hashable, Sendable, Codable {
  /// 10 coins (one chest) = 5 minutes.
  case fiveMinutes
  /// 20 coins (two chests) = 10 minutes plus a 2-minute bonus.
  case twelveMinutes

  /// Coins deducted.
  public var cost: Int {
    switch self {
    case .fiveMinutes: 10
    case .twelveMinutes: 20
    }
  }

  /// Minutes of video granted.
  public var minutes: Int {
    switch self {
    case .fiveMinutes: 5
    case .twelveMinutes: 12
    }
  }

  /// Bonus minutes included in ``minutes`` (shown as the "+2 MIN" badge).
  public var bonusMinutes: Int { self == .twelveMinutes ? 2 : 0 }
}

/// How a YouTube button on the treasure screen looks.
public enum TreasureButtonState: String, Hashable, Sendable, Codable {
  /// Grey at 60 % with chains: far from affordable.
  case locked
  /// Grey, no chains: the other tier is affordable, this one not yet.
  case disabled
  /// Gold glow, tappable.
  case active
  /// Tappable, with the "BONUS!" / "+2 MIN" badge.
  case activeWithBonus
}

/// Both treasure buttons for a coin count (0–9 both locked; 10–19 five active, twelve disabled; 20+ both).
public struct TreasureButtons: Hashable, Sendable, Codable {
  /// The "5 Min" button.
  public let fiveMinutes: TreasureButtonState
  /// The "10+2 Min" button.
  public let twelveMinutes: TreasureButtonState

  /// The buttons for `coins`; offline, nothing is tappable.
  public init(coins: Int, online: Bool = true) {
    let five: TreasureButtonState = coins >= VideoTier.fiveMinutes.cost ? .active : .locked
    let twelve: TreasureButtonState =
      coins >= VideoTier.twelveMinutes.cost ? .activeWithBonus : (coins >= VideoTier.fiveMinutes.cost ? .disabled : .locked)
    fiveMinutes = online || five == .locked ? five : .disabled
    twelveMinutes = online || twelve == .locked ? twelve : .disabled
  }

  /// The state of the button for `tier`.
  public func state(of tier: VideoTier) -> TreasureButtonState {
    tier == .fiveMinutes ? fiveMinutes : twelveMinutes
  }
}
