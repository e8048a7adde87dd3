import Foundation

extension GameMachine {
  mutating func handleTreasure(_ event: GameEvent) -> [GameEffect] {
    switch event {
    case .redeem(let tier, let online):
      guard let player = activePlayer else { return refuse(.noActivePlayer, event) }
      // Offline, only uploaded videos can play: the chest opens only if there is one.
      guard online || data.settings.parentSettings.hasOfflineVideos else { return refuse(.offline, event, lines: .noInternet) }
      guard !isDailyLimitReached else { return refuse(.dailyLimitReached, event, lines: .playTimeGoodbye) }
      guard player.coins >= tier.cost else { return refuse(.notEnoughCoins, event) }
      var effects: [GameEffect] = []
      if let coins = changeCoins(of: player.id, by: -tier.cost, reason: .redeemed) { effects.append(coins) }
      navigation.redemption = tier
      effects += [.sound(.chestOpen)] + speak(.youtubeTapped)
      return effects + [move(to: .videoSelection), .save]
    case .back, .home:
      return goHome()
    default:
      return refuse(.notAllowedHere, event)
    }
  }

  mutating func handleVideoSelection(_ event: GameEvent) -> [GameEffect] {
    guard let player = activePlayer, let tier = navigation.redemption else { return refuse(.notAllowedHere, event) }
    switch event {
    case .chooseVideo(let id, let online, let date):
      guard let video = data.settings.parentSettings.approvedVideos.first(where: { $0.id == id }) else {
        return refuse(.videoNotApproved, event)
      }
      guard online || !video.needsInternet else { return refuse(.offline, event, lines: .noInternet) }
      navigation.redemption = nil
      if var saved = navigation.video {
        // Unwatched time whose film the parent has since removed: it runs on with the film chosen now.
        saved.timer.resume(at: date)
        navigation.video = VideoSession(videoID: id, tier: saved.tier, timer: saved.timer)
        return [move(to: .videoPlaying), .resumeVideoTimer, .save]
      }
      navigation.video = VideoSession(videoID: id, tier: tier, timer: VideoTimer(grantedMinutes: tier.minutes, startedAt: date))
      return [move(to: .videoPlaying), .startVideoTimer(minutes: tier.minutes, videoID: id), .save]
    case .back where navigation.video != nil, .home where navigation.video != nil:
      // Unwatched time being taken up again: it goes back to the child, still unwatched.
      navigation.redemption = nil
      keepUnwatchedVideo(of: player.id, stoppedAt: navigation.video?.timer.session.pausedAt ?? Date(timeIntervalSince1970: 0))
      return goHome()
    case .back:
      // "Zurück" costs no coins: the paid time is given back and the treasure screen returns.
      navigation.redemption = nil
      var effects: [GameEffect] = []
      if let coins = changeCoins(of: player.id, by: tier.cost, reason: .refunded) { effects.append(coins) }
      let coins = activePlayer?.coins ?? 0
      return effects + [move(to: .treasureScreen), .save] + Narration.treasure(coins: coins).map(GameEffect.speak)
    case .home:
      var effects: [GameEffect] = []
      if let coins = changeCoins(of: player.id, by: tier.cost, reason: .refunded) { effects.append(coins) }
      return effects + goHome()
    default:
      return refuse(.notAllowedHere, event)
    }
  }

  /// "Weiterschauen": the active child's unwatched video time plays on from where it stopped, the same film
  /// when the parent still approves it, else a film the child chooses. Not once today's time is used up
  /// (it waits for tomorrow), and a YouTube film not offline.
  mutating func resumeUnwatchedVideo(online: Bool, at date: Date, _ event: GameEvent) -> [GameEffect] {
    guard let player = activePlayer, var saved = player.unwatchedVideo else { return refuse(.notAllowedHere, event) }
    guard !isDailyLimitReached else { return refuse(.dailyLimitReached, event, lines: .playTimeGoodbye) }
    let videos = data.settings.parentSettings.approvedVideos
    guard let film = videos.first(where: { $0.id == saved.videoID }) else {
      guard online || data.settings.parentSettings.hasOfflineVideos else { return refuse(.offline, event, lines: .noInternet) }
      updateActivePlayer { $0.unwatchedVideo = nil }
      navigation.video = saved
      navigation.redemption = saved.tier
      return [.sound(.tapWood), move(to: .videoSelection), .save]
    }
    guard online || !film.needsInternet else { return refuse(.offline, event, lines: .noInternet) }
    updateActivePlayer { $0.unwatchedVideo = nil }
    saved.timer.resume(at: date)
    navigation.video = saved
    return [.sound(.tapWood), move(to: .videoPlaying), .resumeVideoTimer, .save]
  }

  mutating func handleVideoPlaying(_ event: GameEvent) -> [GameEffect] {
    switch event {
    case .videoTick(let date):
      guard var session = navigation.video else { return refuse(.notAllowedHere, event) }
      let signals = session.timer.tick(at: date)
      navigation.video = session
      if signals.contains(.timeUp) {
        let record = VideoRecord(
          videoId: session.videoID, watchedAt: session.timer.startedAt, duration: session.timer.grantedSeconds)
        updateActivePlayer { $0.videosWatched.append(record) }
        // The time-up line already invites play, so home comes without another greeting.
        return [.videoTimeUp(holdSeconds: VideoTimer.timeUpHoldSeconds), .sound(.bell)] + speak(.videoTimeUp)
          + goHome(greeting: false)
      }
      if signals.contains(.oneMinuteLeft) { return [.videoOneMinuteWarning] + speak(.videoOneMinute) }
      return []
    case .back, .home:
      // The clock decides when a video ends: no way out early, no extending, no restarting.
      return refuse(.videoRunning, event)
    default:
      return refuse(.notAllowedHere, event)
    }
  }
}
