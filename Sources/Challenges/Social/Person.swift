import Foundation

/// Someone in the social graph: an account as others see it.
public struct Person: Hashable, Sendable {
  public let id: UUID
  /// Nil for a guest (who cannot be followed until they save their account).
  public let username: String?
  public let displayName: String

  public init(id: UUID, username: String?, displayName: String) {
    self.id = id
    self.username = username
    self.displayName = displayName
  }
}

/// A person's kept follow counts (moved by increments as follows come and go, never recounted).
public struct FollowCounts: Hashable, Sendable {
  public let followers: Int
  public let following: Int

  public init(followers: Int, following: Int) {
    self.followers = followers
    self.following = following
  }

  public static let zero = FollowCounts(followers: 0, following: 0)
}

/// The rules of following.
public enum FollowRules {
  /// How many of someone's recent posts a new follower's feed gets at once.
  public static let backfillCount = 20

  /// Refuses a follow a guest asks for (a guest has no name to be followed back by, and guests cost
  /// nothing to make: counts would mean nothing) and a follow of oneself.
  public static func check(follower: UUID, isGuest: Bool, followee: UUID) throws(ChallengeRefusal) {
    try checkFollower(isGuest: isGuest)
    guard follower != followee else { throw .cannotFollowSelf }
  }

  /// Refuses a guest before anything else is looked at (whom they name does not matter).
  public static func checkFollower(isGuest: Bool) throws(ChallengeRefusal) {
    guard !isGuest else { throw .guestCannotFollow }
  }

  /// The notice a new follow sends to the person followed.
  public static func noticeTitle(follower name: String) -> String { "\(name) started following you" }
}
