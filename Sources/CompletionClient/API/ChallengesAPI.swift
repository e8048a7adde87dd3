import CompletionAPI
import CompletionCore
import Foundation

/// Which cards `GET /api/feed` returns.
public enum FeedFilter: String, Sendable, Hashable, CaseIterable {
  /// Completions and follow notices.
  case all
  /// Completed challenges only.
  case challenges
  /// Follow notices only.
  case social
}

/// One message of the live feed (`GET /api/feed/events`).
public enum FeedUpdate: Decodable, Sendable, Hashable {
  /// A card that is new (`activity`) or whose counts or state changed (`changed`): put it in by its id,
  /// replacing the card with the same id.
  case item(FeedItemView)
  /// The id of a card that left the feed (hidden by a review, or revoked).
  case removed(id: String)

  private struct Removed: Decodable {
    let id: String
  }

  public init(from decoder: any Decoder) throws {
    // The event's name is not part of its data: a whole card is an item, a bare id a removal.
    if let item = try? FeedItemView(from: decoder) {
      self = .item(item)
    } else {
      self = .removed(id: try Removed(from: decoder).id)
    }
  }
}

// Challenges (seed 004): today's challenges, joining, completing with a photo, follows, the feed and what
// people do with its cards. The server decides everything (points, streaks, who may see what); these send
// what the person did. `timeZone` (an IANA name, sent as the `Time-Zone` header) decides the person's today; UTC when nil.
extension CompletionClient {
  // MARK: Challenges

  /// Today's challenges, the ones the person joined before, their figures and the upload limits.
  public func challenges(timeZone: String? = nil) async throws -> ChallengesOverview {
    try await send(.getChallengesOverview, headers: Self.zone(timeZone))
  }

  /// One challenge (any the catalogue could have offered), with the person's part in it.
  public func challenge(_ id: String, timeZone: String? = nil) async throws -> ChallengeView {
    try await send(.getChallenge, id, headers: Self.zone(timeZone))
  }

  /// Joins an open challenge (joining again after leaving is allowed).
  public func join(challenge id: String, timeZone: String? = nil) async throws -> ChallengeView {
    try await send(.joinChallenge, id, headers: Self.zone(timeZone))
  }

  /// Leaves a challenge (a completed one cannot be left).
  public func leave(challenge id: String, timeZone: String? = nil) async throws -> ChallengeView {
    try await send(.leaveChallenge, id, headers: Self.zone(timeZone))
  }

  /// Completes an open challenge with an uploaded photo and an optional story, exactly once; the answer
  /// carries the points, the streak and the celebration (adapted to `preference`).
  public func complete(
    challenge id: String, _ request: CompleteChallengeRequest, timeZone: String? = nil, preference: MotionPreference? = nil
  ) async throws -> ChallengeCompletionView {
    try await send(.completeChallenge, id, query: [("preference", preference?.rawValue)], body: .json(request), headers: Self.zone(timeZone))
  }

  /// Buys one streak freeze with points (the price and the limit are the server's, in
  /// `ChallengeStatsView.freezes`); sent once however often the connection retries it.
  public func buyStreakFreeze(timeZone: String? = nil) async throws -> StreakFreezePurchaseView {
    try await send(.buyStreakFreeze, headers: Self.zone(timeZone))
  }

  /// Uploads a photo (JPEG, PNG or WebP bytes, `contentType` as `image/jpeg`); the server stores it upright,
  /// re-encoded without its metadata.
  public func uploadPhoto(_ data: Data, contentType: String) async throws -> PhotoView {
    try await send(.uploadPhoto, body: .bytes(data, contentType: contentType))
  }

  /// A stored photo (JPEG), or its thumbnail.
  public func photo(_ id: String, thumbnail: Bool = false) async throws -> DownloadedFile {
    try await download(.getPhoto, id, query: [("size", thumbnail ? "thumbnail" : nil)])
  }

  /// Deletes one's own photo that no post shows (picked, then not used), so it stops counting against the upload
  /// quota; `photo_in_use` for one a completion shows, `photo_not_found` for anyone else's.
  public func deletePhoto(_ id: String) async throws {
    try await sendExpectingNoContent(.deletePhoto, id)
  }

  // MARK: People

  /// The person's own profile: follow counts and challenge figures.
  public func myProfile(timeZone: String? = nil) async throws -> ProfileView {
    try await send(.getMyProfile, headers: Self.zone(timeZone))
  }

  /// Someone's profile by username, with whether the person follows them.
  public func profile(_ username: String, timeZone: String? = nil) async throws -> ProfileView {
    try await send(.getProfile, username, headers: Self.zone(timeZone))
  }

  /// Follows someone (again: nothing changes); a named account only. Answers with their profile.
  public func follow(_ username: String, timeZone: String? = nil) async throws -> ProfileView {
    try await send(.follow, body: .json(FollowRequest(username: username)), headers: Self.zone(timeZone))
  }

  /// Stops following someone; their posts leave the person's feed. Answers with their profile.
  public func unfollow(_ username: String, timeZone: String? = nil) async throws -> ProfileView {
    try await send(.unfollow, username, headers: Self.zone(timeZone))
  }

  /// A page of the people who follow the person, newest first (`cursor`: the last page's `next`).
  public func followers(cursor: String? = nil) async throws -> PeoplePage {
    try await send(.listFollowers, query: [("cursor", cursor)])
  }

  /// A page of the people the person follows, newest first (`cursor`: the last page's `next`).
  public func following(cursor: String? = nil) async throws -> PeoplePage {
    try await send(.listFollowing, query: [("cursor", cursor)])
  }

  // MARK: Feed

  /// A page of the person's feed, newest first: `limit` cards (1–50, else 20), older than `cursor` (the last page's `next`).
  public func feed(filter: FeedFilter? = nil, limit: Int? = nil, cursor: String? = nil) async throws -> FeedPage {
    try await send(.getFeed, query: [("filter", filter?.rawValue), ("limit", limit.map(String.init)), ("cursor", cursor)])
  }

  /// The live feed: cards as they are posted or change, and the ids of cards that leave it.
  public func feedUpdates() -> AsyncThrowingStream<FeedUpdate, any Error> {
    decodedEvents(.feedEvents, lastEventID: nil, as: FeedUpdate.self)
  }

  // MARK: Acting on a card

  /// The owner's settings of a completion (its public link); answers with the card as it is now.
  public func updateActivity(_ id: String, _ request: ActivitySettingsRequest) async throws -> FeedItemView {
    try await send(.updateActivity, id, body: .json(request))
  }

  /// A completion's share card (PNG), for whoever may see the post.
  public func activityCard(_ id: String) async throws -> DownloadedFile {
    try await download(.getActivityCard, id)
  }

  /// Starts making a completion's share video in the background (or finds it made); poll ``activityVideoStatus(_:)``.
  public func startActivityVideo(_ id: String) async throws -> ShareVideoView {
    try await send(.startActivityVideo, id)
  }

  /// Where a completion's share video stands, with its progress.
  public func activityVideoStatus(_ id: String) async throws -> ShareVideoView {
    try await send(.getActivityVideoStatus, id)
  }

  /// A completion's finished share video (MP4).
  public func activityVideo(_ id: String) async throws -> DownloadedFile {
    try await download(.getActivityVideo, id)
  }

  /// A page of a card's comments, oldest first (`cursor`: the last page's `next`).
  public func comments(on id: String, cursor: String? = nil) async throws -> CommentPage {
    try await send(.listComments, id, query: [("cursor", cursor)])
  }

  /// Comments on a card.
  public func addComment(on id: String, _ text: String) async throws -> CommentView {
    try await send(.addComment, id, body: .json(CommentRequest(body: text)))
  }

  /// Congratulates a card's author (once per person); answers with the count.
  public func congratulate(_ id: String) async throws -> CongratsView {
    try await send(.congratulate, id)
  }

  /// Takes a congratulation back; answers with the count.
  public func uncongratulate(_ id: String) async throws -> CongratsView {
    try await send(.uncongratulate, id)
  }

  /// Reports someone else's post (each person once; enough reports hide it for review).
  public func report(activity id: String, reason: String? = nil) async throws {
    _ = try await send(.reportActivity, id, body: .json(ReportRequest(reason: reason)), as: ReportResponse.self)
  }

  /// Deletes one's own comment, or any comment on one's own post.
  public func deleteComment(_ id: String) async throws {
    try await sendExpectingNoContent(.deleteComment, id)
  }

  /// A completion's share card (PNG) as its public link shows it, for anyone while the link is on.
  public func publicCard(_ id: String) async throws -> DownloadedFile {
    try await download(.getPublicCard, id)
  }
}
