import CompletionAPI
import CompletionCore
import Foundation
import Observation

/// The state behind the Challenges screens: today's challenges with the person's progress, the completion
/// with photo proof and its celebration, and the feed of the people they follow.
///
/// Points, streaks, limits and the celebration's timing are the server's: a completion is sent once (the
/// transport's idempotency key makes a retry safe) and the answer says what it paid and how to celebrate.
@Observable
@MainActor
public final class ChallengesModel {
  /// Today's open challenges.
  public private(set) var challenges: [ChallengeView] = []
  /// Challenges that ended.
  public private(set) var earlier: [ChallengeView] = []
  /// Points, completions and streaks.
  public private(set) var stats: ChallengeStatsView?
  /// The limits the server keeps (photo bytes, story and comment lengths), for the forms.
  public private(set) var limits: (maxPhotoBytes: Int, storyLimit: Int, commentLimit: Int)?
  /// The feed's items, newest first.
  public private(set) var feed: [FeedItemView] = []
  /// Whether older feed items can be loaded.
  public private(set) var hasMoreFeed = false
  /// The celebration on screen after a completion, until it dismisses itself after the server's time.
  public private(set) var celebration: ChallengeCompletionView?
  /// When the celebration started (its steps' delays count from here).
  public private(set) var celebrationStart: Date?
  /// What went wrong last, in words; nil when all is well.
  public internal(set) var problem: String?
  /// The server's words about the last streak freeze bought.
  public private(set) var freezeMessage: String?

  @ObservationIgnored public let client: CompletionClient
  @ObservationIgnored private let clock: any ModelClock
  @ObservationIgnored private let timeZone: TimeZone
  /// The person's motion setting, sent with a completion (a view updates it when Reduce Motion changes).
  @ObservationIgnored public var preference: MotionPreference
  @ObservationIgnored private let haptics: any HapticsPlaying
  @ObservationIgnored private let animator: any StateAnimating
  @ObservationIgnored private var feedCursor: String?
  @ObservationIgnored private var dismissal: ScheduledAction?

  public init(
    client: CompletionClient, clock: any ModelClock, timeZone: TimeZone = .current, preference: MotionPreference = .full,
    haptics: (any HapticsPlaying)? = nil, animator: (any StateAnimating)? = nil
  ) {
    let plain = PlainPlatform()
    self.client = client
    self.clock = clock
    self.timeZone = timeZone
    self.preference = preference
    self.haptics = haptics ?? plain
    self.animator = animator ?? plain
  }

  /// Loads today's challenges and the first page of the feed.
  public func load() async {
    await attempt {
      let overview = try await client.challenges(timeZone: timeZone.identifier)
      challenges = overview.challenges
      earlier = overview.earlier
      stats = overview.stats
      limits = (overview.maxPhotoBytes, overview.storyLimit, overview.commentLimit)
      let page = try await client.feed()
      feed = page.items
      feedCursor = page.next
      hasMoreFeed = page.next != nil
    }
  }

  /// Loads the next page of older feed items.
  public func loadMoreFeed() async {
    guard let cursor = feedCursor else { return }
    await attempt {
      let page = try await client.feed(cursor: cursor)
      let known = Set(feed.map(\.id))
      feed += page.items.filter { !known.contains($0.id) }
      feedCursor = page.next
      hasMoreFeed = page.next != nil
    }
  }

  /// Joins a challenge.
  public func join(_ id: String) async {
    await attempt { replace(try await client.join(challenge: id, timeZone: timeZone.identifier)) }
  }

  /// Leaves a challenge.
  public func leave(_ id: String) async {
    await attempt { replace(try await client.leave(challenge: id, timeZone: timeZone.identifier)) }
  }

  /// Completes a challenge: uploads the photo, then completes with it and the story (with a public link only
  /// when asked for). The celebration plays and goes by itself after the server's time.
  public func complete(_ id: String, photo: Data, contentType: String, story: String? = nil, publicLink: Bool = false) async {
    await attempt {
      let uploaded = try await client.uploadPhoto(photo, contentType: contentType)
      let done = try await client.complete(
        challenge: id, CompleteChallengeRequest(photoId: uploaded.id, story: story, publicLink: publicLink), timeZone: timeZone.identifier,
        preference: preference)
      animator.animate {
        replace(done.challenge)
        stats = done.stats
        if !feed.contains(where: { $0.id == done.activity.id }) { feed.insert(done.activity, at: 0) }
        guard done.isFirst else { return }
        haptics.play(.success)
        celebration = done
        celebrationStart = clock.now
        dismissal?.cancel()
        dismissal = clock.schedule(after: done.dismissAfter) { [weak self] in self?.dismissCelebration() }
      }
    }
  }

  /// How the celebration's element `stepID` looks now (the core's choreography over the server's steps).
  public func celebrationAppearance(of stepID: String) -> Appearance {
    guard let payload = celebration?.celebration, let step = payload.choreography.step(stepID) else { return .identity }
    guard let start = celebrationStart else { return step.from }
    return step.appearance(at: max(0, clock.now.timeIntervalSince(start)))
  }

  /// Seconds since the celebration started, on the model's clock, or nil when none is up.
  public var celebrationElapsed: Double? {
    celebrationStart.map { max(0, clock.now.timeIntervalSince($0)) }
  }

  /// Takes the celebration away (a tap, or its time ran out).
  public func dismissCelebration() {
    dismissal?.cancel()
    celebration = nil
    celebrationStart = nil
  }

  /// Congratulates on a feed item, or takes it back.
  public func setCongratulated(_ itemID: String, _ on: Bool) async {
    await attempt {
      let result = on ? try await client.congratulate(itemID) : try await client.uncongratulate(itemID)
      guard let index = feed.firstIndex(where: { $0.id == itemID }) else { return }
      feed[index] = feed[index].with(congrats: result.congrats, congratulated: result.congratulated)
    }
  }

  /// Buys a streak freeze with points; the price, the limit and the freezes held come back in ``stats``
  /// (`freezes`), and a refusal (the most are held, too few points) in ``problem``, in the server's words.
  public func buyStreakFreeze() async {
    freezeMessage = nil
    await attempt {
      let bought = try await client.buyStreakFreeze(timeZone: timeZone.identifier)
      stats = bought.stats
      freezeMessage = bought.message
    }
  }

  /// Follows someone by username; their activities reach the feed from then on.
  public func follow(_ username: String) async {
    await attempt {
      _ = try await client.follow(username, timeZone: timeZone.identifier)
      let page = try await client.feed()
      feed = page.items
      feedCursor = page.next
      hasMoreFeed = page.next != nil
    }
  }

  private func replace(_ challenge: ChallengeView) {
    if let index = challenges.firstIndex(where: { $0.id == challenge.id }) { challenges[index] = challenge }
    if let index = earlier.firstIndex(where: { $0.id == challenge.id }) { earlier[index] = challenge }
  }

}

extension FeedItemView {
  /// The same item with new congratulation counts.
  func with(congrats: Int, congratulated: Bool) -> FeedItemView {
    FeedItemView(
      id: id, type: type, actor: actor, createdAt: createdAt, title: title, subtitle: subtitle, photoUrl: photoUrl,
      thumbnailUrl: thumbnailUrl, story: story, challengeId: challengeId, challengeTitle: challengeTitle,
      challengeType: challengeType, points: points, congrats: congrats, congratulated: congratulated, comments: comments,
      isMine: isMine, publicLink: publicLink, shareUrl: shareUrl, cardUrl: cardUrl, status: status)
  }
}

extension ChallengesModel: ShowsProblems {}
