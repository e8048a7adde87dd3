import Challenges
import Vapor

/// Refusals of the Challenges and social API, each with a stable code.
enum ChallengesError: APIErrorConvertible, Equatable {
  case challengeNotFound
  case challengeClosed
  case challengeNotStarted
  case guestCannotFollow
  case postNotPublic
  case alreadyCompleted
  case photoRequired
  case photoNotFound
  /// A post shows the photo: it cannot be deleted on its own.
  case photoInUse
  case photoTooLarge(limit: Int)
  case photoUnsupported
  case photoUnreadable
  case photoTooManyPixels
  case tooLong(field: String, limit: Int)
  case emptyComment
  case personNotFound(String)
  case cannotFollowSelf
  case activityNotFound
  case commentNotFound
  case notYours
  case cannotReportOwn
  case invalidCursor
  case invalidFilter(String)
  /// More comments than ``ServerOptions/commentsPerMinute`` from one member.
  case tooManyComments(retryAfter: Int)

  var status: HTTPResponseStatus {
    switch self {
    case .challengeNotFound, .photoNotFound, .personNotFound, .activityNotFound, .commentNotFound: .notFound
    case .challengeClosed, .challengeNotStarted, .alreadyCompleted, .postNotPublic, .photoInUse: .conflict
    case .guestCannotFollow: .forbidden
    case .photoTooLarge: .payloadTooLarge
    case .photoUnsupported: .unsupportedMediaType
    case .photoUnreadable, .photoTooManyPixels: .unprocessableEntity
    case .notYours: .forbidden
    case .tooManyComments: .tooManyRequests
    default: .badRequest
    }
  }

  var code: String {
    switch self {
    case .challengeNotFound: "challenge_not_found"
    case .challengeClosed: "challenge_closed"
    case .challengeNotStarted: "challenge_not_started"
    case .guestCannotFollow: "named_account_required"
    case .postNotPublic: "post_not_public"
    case .alreadyCompleted: "already_completed"
    case .photoRequired: "photo_required"
    case .photoNotFound: "photo_not_found"
    case .photoInUse: "photo_in_use"
    case .photoTooLarge: "photo_too_large"
    case .photoUnsupported: "photo_unsupported"
    case .photoUnreadable: "photo_unreadable"
    case .photoTooManyPixels: "photo_too_many_pixels"
    case .tooLong: "too_long"
    case .emptyComment: "empty_comment"
    case .personNotFound: "person_not_found"
    case .cannotFollowSelf: "cannot_follow_self"
    case .activityNotFound: "activity_not_found"
    case .commentNotFound: "comment_not_found"
    case .notYours: "not_yours"
    case .cannotReportOwn: "cannot_report_own"
    case .invalidCursor: "invalid_cursor"
    case .invalidFilter: "invalid_filter"
    case .tooManyComments: "too_many_comments"
    }
  }

  var message: String {
    switch self {
    case .challengeNotFound: "That challenge was not found."
    case .challengeClosed: "That challenge has ended. Pick one of today's challenges."
    case .challengeNotStarted: "That challenge hasn't started yet. Pick one of today's challenges."
    case .guestCannotFollow: "Save your account (a username and password) to follow people: then they can follow you back."
    case .postNotPublic: "This post is hidden from feeds, so it cannot have a public link."
    case .alreadyCompleted: "You completed that challenge already: there is nothing to leave."
    case .photoRequired: "A completion needs a photo: it is what your followers see."
    case .photoNotFound: "That photo was not found. Please choose it again."
    case .photoInUse: "That photo is part of a completion you shared, so it stays with it."
    case .photoTooLarge(let limit): "That photo is too large. Photos may be up to \(limit >> 20) MB."
    case .photoUnsupported: "That file is not a photo we can use. Choose a \(PhotoLimits.formatWords) image."
    case .photoUnreadable: "That photo could not be read; the file may be damaged. Please choose another."
    case .photoTooManyPixels: "That photo has too many pixels for us to handle. Please choose a smaller one."
    case .tooLong(let field, let limit): "The \(field) may have at most \(limit) characters."
    case .emptyComment: "Write something before posting."
    case .personNotFound(let name): "No one is called “\(name)”. Check the spelling of the username."
    case .cannotFollowSelf: "You cannot follow yourself."
    case .activityNotFound: "That post was not found. It may have been removed."
    case .commentNotFound: "That comment was not found. It may have been deleted."
    case .notYours: "Only the person who posted it can change that."
    case .cannotReportOwn: "You cannot report your own post."
    case .invalidCursor: "That page marker is not one this server made. Start again from the top."
    case .invalidFilter(let filter): "“\(filter)” is not a feed filter. Use all, challenges or social."
    case .tooManyComments(let seconds): "That’s a lot of comments at once. Please wait \(seconds) seconds before the next one."
    }
  }

  var retryAfter: Int? {
    if case .tooManyComments(let seconds) = self { return seconds }
    return nil
  }
}
