import CompletionCore

/// The coin rules of the core loop: one coin per level, a celebration every fifth coin, a chest per ten.
public enum CoinRules {
  /// Coins paid for a completed level (a loss or a quit pays nothing).
  public static let perLevel = 1
  /// A celebration every this many coins.
  public static let milestoneStep = 5
  /// Coins per chest (and per progress bar).
  public static let perChest = 10

  /// The coin counts that show the celebration (the rule ``KidsCompletion/rules`` celebrates by).
  public static let milestones = CelebrationPolicy.Milestones.every(milestoneStep)

  /// Whether reaching `coins` shows the celebration: `coins > 0 && coins % 5 == 0`.
  public static func isMilestone(_ coins: Int) -> Bool {
    milestones.contains(coins)
  }

  /// Whether the chest opens the treasure screen.
  public static func canOpenTreasure(_ coins: Int) -> Bool {
    coins >= VideoTier.fiveMinutes.cost
  }
}

/// The coin bar at the top of an activity: 10 slots filled to `coins % 10`, and a chest per full 10.
public struct CoinProgress: Hashable, Sendable, Codable {
  /// Slots in the bar.
  public static let slots = CoinRules.perChest
  /// Slots filled (0…9).
  public let filledSlots: Int
  /// Full chests (one per 10 coins).
  public let chests: Int

  /// The bar for `coins`.
  public init(coins: Int) {
    let coins = max(0, coins)
    filledSlots = coins % CoinRules.perChest
    chests = coins / CoinRules.perChest
  }
}

/// How the chest on the home screen looks.
public enum ChestDisplay: String, Hashable, Sendable, Codable {
  /// 0–9 coins: closed and dull; a tap tells how many coins are missing.
  case closed
  /// 10–19: open with a golden glow; a tap opens the treasure screen.
  case open
  /// 20+: glow, sparkles and two chests.
  case openWithSparkles

  /// The chest for `coins`.
  public init(coins: Int) {
    switch coins {
    case ..<VideoTier.fiveMinutes.cost: self = .closed
    case ..<VideoTier.twelveMinutes.cost: self = .open
    default: self = .openWithSparkles
    }
  }

  /// Chests drawn.
  public var chestCount: Int { self == .openWithSparkles ? 2 : 1 }
}
