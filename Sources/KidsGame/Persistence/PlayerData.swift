import Foundation

/// One watched video, for the parent's record.
public struct VideoRecord: Hashable, Sendable, Codable {
  /// The video's YouTube ID.
  public let videoId: String
  /// When it started.
  public let watchedAt: Date
  /// Seconds watched.
  public let duration: Double

  /// A watched video.
  public init(videoId: String, watchedAt: Date, duration: Double) {
    self.videoId = videoId
    self.watchedAt = watchedAt
    self.duration = duration
  }
}

/// What the game remembers about one child (seed 001, Part 5.4).
public struct PlayerData: Hashable, Sendable, Codable, Identifiable {
  /// `"alexander"`, `"oliver"`.
  public let id: String
  /// The name on the card and in the greetings.
  public internal(set) var name: String
  /// Coins to spend (never below zero).
  public internal(set) var coins: Int
  /// Coins ever earned (spending does not lower it).
  public internal(set) var totalCoinsEarned: Int
  /// Highest level completed per game, keyed by ``SubActivity`` raw value.
  public internal(set) var activityProgress: [String: Int]
  /// When a level was last completed; nil before the first.
  public internal(set) var lastPlayedDate: Date?
  /// Seconds played today, as counted by the caller.
  public internal(set) var totalPlayTimeToday: Double
  /// Videos watched, oldest first.
  public internal(set) var videosWatched: [VideoRecord]
  /// The last daily-limit stage announced today, so each line plays once.
  public internal(set) var announcedPlayTimeStage: PlayTimeStage
  /// Difficulty per activity, keyed by ``ActivityType`` raw value (nil in saves from before it existed).
  public internal(set) var difficulties: [String: AdaptiveDifficulty]?
  /// Paid video time this child has not watched yet: a film left before its clock ran out (a sibling's
  /// turn, a reload, the parent area, the day's limit). Its clock stands still until the child takes it up
  /// again from the home screen ("Weiterschauen"); nil when nothing is owed (and in older saves).
  public internal(set) var unwatchedVideo: VideoSession?
  /// The child's animal picture (1…``avatarCount``), chosen when the child was added and kept when siblings
  /// come and go; nil in older saves (see ``avatarNumber``).
  public internal(set) var avatar: Int?

  /// A child's record (negative counts are raised to zero).
  public init(
    id: String, name: String, coins: Int = 0, totalCoinsEarned: Int = 0, activityProgress: [String: Int] = [:],
    lastPlayedDate: Date? = nil, totalPlayTimeToday: Double = 0, videosWatched: [VideoRecord] = [],
    announcedPlayTimeStage: PlayTimeStage = .fine, avatar: Int? = nil
  ) {
    self.id = id
    self.name = name
    self.coins = max(0, coins)
    self.totalCoinsEarned = max(0, totalCoinsEarned)
    self.activityProgress = activityProgress
    self.lastPlayedDate = lastPlayedDate
    self.totalPlayTimeToday = totalPlayTimeToday
    self.videosWatched = videosWatched
    self.announcedPlayTimeStage = announcedPlayTimeStage
    self.avatar = avatar
  }

  /// Animal pictures there are.
  public static let avatarCount = 6

  /// The child's animal picture, 1…``avatarCount``: the one chosen for them, else (an older save) one made
  /// from their id, so it never follows the child's place in the list.
  public var avatarNumber: Int {
    if let avatar, (1...Self.avatarCount).contains(avatar) { return avatar }
    if let index = Self.defaults.firstIndex(where: { $0.id == id }) { return index + 1 }
    let hash = id.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
    return hash % Self.avatarCount + 1
  }

  /// The two children of the original game.
  public static let defaults = [
    PlayerData(id: "alexander", name: "Alexander", avatar: 1),
    PlayerData(id: "oliver", name: "Oliver", avatar: 2),
  ]

  /// Highest level completed in `game` (0 before the first).
  public func completedLevels(in game: SubActivity) -> Int {
    max(0, activityProgress[game.rawValue] ?? 0)
  }

  /// The child's difficulty in `activity` (0.3 until the rules move it).
  public func difficulty(in activity: ActivityType) -> AdaptiveDifficulty {
    difficulties?[activity.rawValue] ?? AdaptiveDifficulty()
  }

  /// Changes the child's difficulty in `activity`.
  mutating func updateDifficulty<T>(in activity: ActivityType, _ change: (inout AdaptiveDifficulty) -> T) -> T {
    // In place: a level's end must not copy the dictionary (the core's transition budget is 1 µs).
    if difficulties == nil { difficulties = [:] }
    return change(&difficulties![activity.rawValue, default: AdaptiveDifficulty()])
  }

  /// Minutes played today.
  public var minutesPlayedToday: Double { totalPlayTimeToday / 60 }
}
