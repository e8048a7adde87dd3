import Foundation

/// A parent's choices for one child.
public struct PlayerSettings: Hashable, Sendable, Codable {
  /// Daily play time.
  public var dailyLimit: PlayTimeLimit
  /// Signs the parent has turned on (a sign without rules yet stays locked regardless).
  public var unlockedActivities: Set<ActivityType>
  /// Trace or tap in Wähle die Zahl.
  public var numberChoiceMode: NumberChoiceMode

  /// Defaults: 60 minutes, Rätsel and Zahlen on, trace mode.
  public init(
    dailyLimit: PlayTimeLimit = .standard, unlockedActivities: Set<ActivityType> = [.raetsel, .zahlen],
    numberChoiceMode: NumberChoiceMode = .trace
  ) {
    self.dailyLimit = dailyLimit
    self.unlockedActivities = unlockedActivities
    self.numberChoiceMode = numberChoiceMode
  }

  /// The defaults, made once: a child without saved settings is looked up on hot paths, and a fresh
  /// value would build its `Set` on every lookup.
  public static let defaults = PlayerSettings()
}

/// Where an approved video comes from.
public enum VideoSource: String, CaseIterable, Hashable, Sendable, Codable {
  /// A YouTube video (needs the internet).
  case youtube
  /// A file the parent uploaded to this app (plays offline).
  case upload
}

/// A video a parent approved; children only ever see these.
public struct ApprovedVideo: Hashable, Sendable, Codable, Identifiable {
  /// The 11-character YouTube ID, or the upload's id (`upload-…`).
  public let id: String
  /// The title shown under the thumbnail.
  public let title: String
  /// When the parent added it (the list is newest first).
  public let addedAt: Date
  /// An optional grouping.
  public let category: String?
  /// YouTube or an uploaded file.
  public let source: VideoSource

  /// An approved video.
  public init(id: String, title: String, addedAt: Date, category: String? = nil, source: VideoSource = .youtube) {
    self.id = id
    self.title = title
    self.addedAt = addedAt
    self.category = category
    self.source = source
  }

  private enum CodingKeys: String, CodingKey { case id, title, addedAt, category, source }

  /// Reads saves from before uploads existed as YouTube videos.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    addedAt = try container.decode(Date.self, forKey: .addedAt)
    category = try container.decodeIfPresent(String.self, forKey: .category)
    source = try container.decodeIfPresent(VideoSource.self, forKey: .source) ?? .youtube
  }

  /// Whether it can only play with a network (YouTube); uploads play offline.
  public var needsInternet: Bool { source == .youtube }

  /// YouTube's still image for the video (nil for uploads, which show a drawn frame instead).
  public var thumbnailURL: String? { source == .youtube ? YouTubeLink.thumbnailURL(id: id) : nil }
}

/// Everything set behind the parent gate.
public struct ParentSettings: Hashable, Sendable, Codable {
  /// Per child, keyed by player id; a child without an entry has the defaults.
  public var playerSettings: [String: PlayerSettings]
  /// Newest first.
  public var approvedVideos: [ApprovedVideo]

  /// Settings with no overrides and no videos by default.
  public init(playerSettings: [String: PlayerSettings] = [:], approvedVideos: [ApprovedVideo] = []) {
    self.playerSettings = playerSettings
    self.approvedVideos = approvedVideos
  }

  /// Whether any approved video plays without the internet.
  public var hasOfflineVideos: Bool { approvedVideos.contains { !$0.needsInternet } }

  /// The settings for `player` (defaults when none were saved).
  public func settings(for player: String) -> PlayerSettings {
    playerSettings[player] ?? .defaults
  }
}

/// App-wide settings (seed 001, Part 5.4).
public struct AppSettings: Hashable, Sendable, Codable {
  /// The parent area's choices.
  public var parentSettings: ParentSettings
  /// The child playing now (and on the next launch).
  public var lastActivePlayer: String?
  /// Sound on or off.
  public var audioEnabled: Bool
  /// Background music volume, 0…1.
  public var musicVolume: Float

  /// Defaults: sound on, music at 0.3, no child chosen.
  public init(
    parentSettings: ParentSettings = ParentSettings(), lastActivePlayer: String? = nil, audioEnabled: Bool = true,
    musicVolume: Float = 0.3
  ) {
    self.parentSettings = parentSettings
    self.lastActivePlayer = lastActivePlayer
    self.audioEnabled = audioEnabled
    self.musicVolume = musicVolume
  }
}

/// The part of the game that must never be lost: the children and the parent's settings. Kept apart from
/// where the child is on screen, so a damaged screen state can be dropped without losing a single coin.
public struct GameData: Hashable, Sendable, Codable {
  /// The children.
  public internal(set) var players: [PlayerData]
  /// App and parent settings.
  public internal(set) var settings: AppSettings
  /// Numbers the coin changes' ledger keys; only ever grows (a progress reset does not reuse keys).
  public internal(set) var ledgerSequence: Int

  /// Alexander and Oliver with default settings, unless given.
  public init(players: [PlayerData] = PlayerData.defaults, settings: AppSettings = AppSettings(), ledgerSequence: Int = 0) {
    self.players = players
    self.settings = settings
    self.ledgerSequence = ledgerSequence
  }

  /// The player with `id`.
  public func player(_ id: String) -> PlayerData? {
    players.first { $0.id == id }
  }

  /// The child playing now, when one is chosen and known.
  public var activePlayer: PlayerData? {
    settings.lastActivePlayer.flatMap(player)
  }
}
