import Foundation

extension GameMachine {
  mutating func handleGate(_ event: GameEvent) -> [GameEffect] {
    guard var gate = navigation.gate else { return refuse(.notAllowedHere, event) }
    let outcome: ParentGate.Outcome
    switch event {
    case .gateDigit(let digit): outcome = gate.enter(digit: digit)
    case .gateErase: outcome = gate.erase()
    case .gateConfirm: outcome = gate.confirm(using: &random)
    case .back, .home: return goHome()
    default: return refuse(.notAllowedHere, event)
    }
    switch outcome {
    case .input(let text):
      navigation.gate = gate
      return [.gateInput(text)]
    case .correct:
      navigation.gate = nil
      return [move(to: .parentDashboard)]
    case .wrong(let newQuestion):
      navigation.gate = gate
      let message = GameEffect.gateRejected(message: ScreenText.gateWrong.rawValue, seconds: ParentGate.wrongMessageSeconds)
      return [message, .gateInput("")] + (newQuestion.map { [.gateNewQuestion($0)] } ?? [])
    case .refused(let reason):
      return refuse(reason, event)
    }
  }

  mutating func handleDashboard(_ event: GameEvent) -> [GameEffect] {
    switch event {
    case .back, .home: return goHome()
    default: return refuse(.notAllowedHere, event)
    }
  }

  /// A change from the dashboard (the caller has checked the state).
  mutating func apply(_ command: ParentCommand, _ event: GameEvent) -> [GameEffect] {
    switch command {
    case .setDailyLimit(let player, let minutes):
      guard let record = data.player(player) else { return refuse(.unknownPlayer, event) }
      guard let limit = PlayTimeLimit(minutes: minutes) else { return refuse(.invalidTimeLimit, event) }
      changeSettings(of: player) { $0.dailyLimit = limit }
      // A longer limit lowers the stage: its lines may play again when it is reached.
      let stage = limit.stage(minutesPlayed: record.minutesPlayedToday)
      updatePlayer(player) { $0.announcedPlayTimeStage = min($0.announcedPlayTimeStage, stage) }
    case .setActivity(let activity, let enabled, let player):
      guard data.player(player) != nil else { return refuse(.unknownPlayer, event) }
      changeSettings(of: player) { settings in
        if enabled { settings.unlockedActivities.insert(activity) } else { settings.unlockedActivities.remove(activity) }
      }
    case .setNumberChoiceMode(let mode, let player):
      guard data.player(player) != nil else { return refuse(.unknownPlayer, event) }
      changeSettings(of: player) { $0.numberChoiceMode = mode }
    case .addVideo(let link, let title, let date):
      guard case .success(let video) = YouTubeLink.parse(link) else { return refuse(.invalidYouTubeLink, event) }
      guard !data.settings.parentSettings.approvedVideos.contains(where: { $0.id == video.videoID }) else {
        return refuse(.duplicateVideo, event)
      }
      let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
      let videos = data.settings.parentSettings.approvedVideos
      let approved = ApprovedVideo(
        id: video.videoID, title: trimmed.isEmpty ? Self.untitledYouTubeTitle(among: videos) : String(trimmed.prefix(Self.maxTitleLength)),
        addedAt: date)
      data.settings.parentSettings.approvedVideos.insert(approved, at: 0)
    case .addUploadedVideo(let id, let title, let date):
      guard id.hasPrefix(Self.uploadIDPrefix), id.count > Self.uploadIDPrefix.count, id.count <= 64 else {
        return refuse(.invalidVideoID, event)
      }
      guard !data.settings.parentSettings.approvedVideos.contains(where: { $0.id == id }) else {
        return refuse(.duplicateVideo, event)
      }
      let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
      let approved = ApprovedVideo(
        id: id, title: trimmed.isEmpty ? "Video" : String(trimmed.prefix(Self.maxTitleLength)), addedAt: date, source: .upload)
      data.settings.parentSettings.approvedVideos.insert(approved, at: 0)
    case .addPlayer(let name):
      guard let name = Self.validName(name) else { return refuse(.invalidName, event) }
      guard data.players.count < Self.maxPlayers else { return refuse(.tooManyPlayers, event) }
      // The first picture no sibling has, so every child keeps their own.
      let taken = Set(data.players.map(\.avatarNumber))
      let avatar = (1...PlayerData.avatarCount).first { !taken.contains($0) } ?? data.players.count % PlayerData.avatarCount + 1
      data.players.append(PlayerData(id: newPlayerID(for: name), name: name, avatar: avatar))
    case .renamePlayer(let player, let name):
      guard data.player(player) != nil else { return refuse(.unknownPlayer, event) }
      guard let name = Self.validName(name) else { return refuse(.invalidName, event) }
      updatePlayer(player) { $0.name = name }
    case .removePlayer(let player):
      guard let record = data.player(player) else { return refuse(.unknownPlayer, event) }
      guard data.players.count > 1 else { return refuse(.lastPlayer, event) }
      var effects: [GameEffect] = []
      // The ledger hears of the coins that leave with the child, so balances always match the ledger.
      if record.coins > 0, let coins = changeCoins(of: player, by: -record.coins, reason: .reset) { effects.append(coins) }
      data.players.removeAll { $0.id == player }
      data.settings.parentSettings.playerSettings[player] = nil
      if data.settings.lastActivePlayer == player { data.settings.lastActivePlayer = nil }
      return effects + [.settingsChanged, .save]
    case .removeVideo(let id):
      guard let index = data.settings.parentSettings.approvedVideos.firstIndex(where: { $0.id == id }) else {
        return refuse(.unknownVideo, event)
      }
      data.settings.parentSettings.approvedVideos.remove(at: index)
    case .resetProgress(let player):
      guard let record = data.player(player) else { return refuse(.unknownPlayer, event) }
      var effects: [GameEffect] = []
      if record.coins > 0, let coins = changeCoins(of: player, by: -record.coins, reason: .reset) { effects.append(coins) }
      updatePlayer(player) {
        $0.activityProgress = [:]
        $0.totalPlayTimeToday = 0
        $0.announcedPlayTimeStage = .fine
        $0.difficulties = nil
        // Paid film time goes with the coins.
        $0.unwatchedVideo = nil
      }
      return effects + [.settingsChanged, .save]
    case .resetDifficulty(let player, let activity):
      guard data.player(player) != nil else { return refuse(.unknownPlayer, event) }
      updatePlayer(player) { $0.updateDifficulty(in: activity) { $0.reset() } }
      return [.settingsChanged, .save]
    }
    return [.settingsChanged, .save]
  }

  /// Ids of uploaded videos start with this.
  public static let uploadIDPrefix = "upload-"
  /// Children on the player screen at most.
  public static let maxPlayers = 6
  /// Longest name on a player card.
  public static let maxNameLength = 20
  /// Longest video title (a longer one is cut).
  public static let maxTitleLength = 80

  /// A readable name for a YouTube link added without a title, never its raw id: "YouTube-Video 1",
  /// "YouTube-Video 2", … (one more than the YouTube videos already listed, skipping a name in use).
  public static func untitledYouTubeTitle(among videos: [ApprovedVideo]) -> String {
    let taken = Set(videos.map(\.title))
    var number = videos.filter { $0.source == .youtube }.count + 1
    while taken.contains("YouTube-Video \(number)") { number += 1 }
    return "YouTube-Video \(number)"
  }

  /// `name` trimmed, when it is 1…20 characters long.
  static func validName(_ name: String) -> String? {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty, trimmed.count <= maxNameLength, !trimmed.contains(where: { $0.isNewline }) else { return nil }
    return trimmed
  }

  /// A new player id from `name`: lower-case ASCII letters and digits ("Jörg" → "jorg"), made unique with
  /// a number. (Ledger keys carry the game's running sequence, so a reused id never repeats a key.)
  func newPlayerID(for name: String) -> String {
    let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "de_DE")).lowercased()
    var base = String(folded.unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }.map(Character.init))
    if base.isEmpty { base = "kind" }
    base = String(base.prefix(24))
    let taken = Set(data.players.map(\.id))
    guard taken.contains(base) else { return base }
    var number = 2
    while taken.contains("\(base)\(number)") { number += 1 }
    return "\(base)\(number)"
  }

  private mutating func changeSettings(of player: String, _ change: (inout PlayerSettings) -> Void) {
    var settings = data.settings.parentSettings.settings(for: player)
    change(&settings)
    data.settings.parentSettings.playerSettings[player] = settings
  }

  /// Records today's play time for the active child and says the gentle-exit line of a newly reached stage
  /// (80 %, 95 %, 100 %), once each per day. At 100 % an open activity ends and the child goes home; a paid
  /// video stops ("Die Zeit ist um.", then the goodbye) and its time left stays with the child for tomorrow. Lines wait while a video plays, the celebration shows or a parent is in the
  /// parent area: they come with the next update after that.
  mutating func playTimeUpdated(minutes: Double, at date: Date?, _ event: GameEvent) -> [GameEffect] {
    guard minutes.isFinite, minutes >= 0 else { return refuse(.numberOutOfRange, event) }
    guard let player = activePlayer else { return refuse(.noActivePlayer, event) }
    let seconds = minutes * 60
    let limit = data.settings.parentSettings.settings(for: player.id).dailyLimit
    let stage = limit.stage(minutesPlayed: minutes)
    updateActivePlayer { record in
      // Less time than before means the caller's day rolled over.
      if seconds < record.totalPlayTimeToday { record.announcedPlayTimeStage = .fine }
      record.totalPlayTimeToday = seconds
    }
    let announced = activePlayer?.announcedPlayTimeStage ?? .fine
    if state == .videoPlaying, stage == .finished, announced < .finished, let date {
      // The day's time runs out during a film: it stops, and what it had left waits for tomorrow.
      updateActivePlayer { $0.announcedPlayTimeStage = .finished }
      keepUnwatchedVideo(of: player.id, stoppedAt: date)
      return [.playTimeStage(.finished), .sound(.bell)] + speak(.playTimeUpInFilm) + speak(.playTimeGoodbye) + goHome(greeting: false)
    }
    switch state {
    case .videoPlaying, .celebrationOverlay, .levelComplete, .parentGate, .parentDashboard:
      return []
    default:
      break
    }
    guard stage > announced, let trigger = stage.trigger else { return [] }
    updateActivePlayer { $0.announcedPlayTimeStage = stage }
    var effects: [GameEffect] = [.playTimeStage(stage)] + speak(trigger)
    if stage == .finished {
      switch state {
      case .activitySelection, .playing: effects += goHome(greeting: false)
      default: effects.append(.save)
      }
    }
    return effects
  }
}
