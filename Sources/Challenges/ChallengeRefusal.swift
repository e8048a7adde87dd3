import Foundation

/// Why the Challenges rules refused a command: the one error type of this domain. The server maps each
/// case to an HTTP status and a stable code in one place.
public enum ChallengeRefusal: Error, Hashable, Sendable {
  /// No challenge has that id.
  case challengeNotFound
  /// The challenge's last day has passed in the person's calendar.
  case challengeClosed
  /// The challenge's first day has not come yet in the person's calendar.
  case challengeNotStarted
  /// A completed (or revoked) challenge cannot be left.
  case alreadyCompleted
  /// A guest has no name to be followed back by.
  case guestCannotFollow
  case cannotFollowSelf
  /// The post does not exist for this person (whether it exists at all is not told).
  case postNotFound
  /// A post out of feeds cannot have a public link.
  case postNotPublic
  /// Only the author may change that.
  case notYours
  case cannotReportOwn
  /// A revoked post changes no more.
  case alreadyRevoked
  case commentNotFound
  case emptyComment
  /// `field` has more than `limit` characters.
  case tooLong(field: String, limit: Int)
  /// Not a feed filter (the text as given, shortened).
  case invalidFilter(String)
}
