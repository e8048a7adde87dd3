import Foundation

/// The stable code of an API error (`APIErrorBody.code`), as a value: compare a refusal with a named code
/// instead of a string. The list is the one `openapi.json` documents (a test keeps the two equal); a code
/// the server adds later still arrives, as an unnamed value.
public struct APIErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: String

  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  public var description: String { rawValue }

  public static let invalidJson = APIErrorCode(rawValue: "invalid_json")
  public static let invalidParameter = APIErrorCode(rawValue: "invalid_parameter")
  public static let badRequest = APIErrorCode(rawValue: "bad_request")
  /// The request's head took longer than the server waits for one.
  public static let requestTimeout = APIErrorCode(rawValue: "request_timeout")
  public static let notFound = APIErrorCode(rawValue: "not_found")
  public static let methodNotAllowed = APIErrorCode(rawValue: "method_not_allowed")
  public static let unauthenticated = APIErrorCode(rawValue: "unauthenticated")
  /// The bearer token is unknown, revoked or expired: sign in again.
  public static let invalidToken = APIErrorCode(rawValue: "invalid_token")
  /// A change came with a session cookie that no longer signs anyone in: nothing was stored; sign in again.
  public static let sessionEnded = APIErrorCode(rawValue: "session_ended")
  public static let invalidCredentials = APIErrorCode(rawValue: "invalid_credentials")
  public static let usernameTaken = APIErrorCode(rawValue: "username_taken")
  public static let invalidUsername = APIErrorCode(rawValue: "invalid_username")
  public static let weakPassword = APIErrorCode(rawValue: "weak_password")
  public static let blankPassword = APIErrorCode(rawValue: "blank_password")
  public static let passwordTooLong = APIErrorCode(rawValue: "password_too_long")
  /// One of the most common passwords: choose another.
  public static let passwordTooCommon = APIErrorCode(rawValue: "password_too_common")
  /// The password is or contains the username.
  public static let passwordContainsUsername = APIErrorCode(rawValue: "password_contains_username")
  /// The current password given for a change is not right.
  public static let wrongPassword = APIErrorCode(rawValue: "wrong_password")
  /// The username and recovery code do not match, or the code was used already.
  public static let invalidRecoveryCode = APIErrorCode(rawValue: "invalid_recovery_code")
  public static let alreadyRegistered = APIErrorCode(rawValue: "already_registered")
  public static let namedAccountRequired = APIErrorCode(rawValue: "named_account_required")
  public static let unsupportedMediaType = APIErrorCode(rawValue: "unsupported_media_type")
  public static let payloadTooLarge = APIErrorCode(rawValue: "payload_too_large")
  public static let tooManyAttempts = APIErrorCode(rawValue: "too_many_attempts")
  public static let tooManyGuests = APIErrorCode(rawValue: "too_many_guests")
  public static let requestHeaderRequired = APIErrorCode(rawValue: "request_header_required")
  public static let busy = APIErrorCode(rawValue: "busy")
  public static let notReady = APIErrorCode(rawValue: "not_ready")
  public static let metricsTokenRequired = APIErrorCode(rawValue: "metrics_token_required")
  public static let uploadQuotaExceeded = APIErrorCode(rawValue: "upload_quota_exceeded")
  public static let internalError = APIErrorCode(rawValue: "internal_error")
  public static let forbidden = APIErrorCode(rawValue: "forbidden")
  public static let invalidIdempotencyKey = APIErrorCode(rawValue: "invalid_idempotency_key")
  public static let idempotencyKeyReused = APIErrorCode(rawValue: "idempotency_key_reused")
  /// A request with this idempotency key is still being answered (by another server process): retry it.
  public static let idempotencyKeyInUse = APIErrorCode(rawValue: "idempotency_key_in_use")
  public static let gameNotFound = APIErrorCode(rawValue: "game_not_found")
  public static let invalidMode = APIErrorCode(rawValue: "invalid_mode")
  public static let invalidTimeZone = APIErrorCode(rawValue: "invalid_time_zone")
  public static let invalidLetter = APIErrorCode(rawValue: "invalid_letter")
  public static let noQuotes = APIErrorCode(rawValue: "no_quotes")
  public static let invalidDate = APIErrorCode(rawValue: "invalid_date")
  public static let invalidMonth = APIErrorCode(rawValue: "invalid_month")
  public static let dailyNotYet = APIErrorCode(rawValue: "daily_not_yet")
  public static let notSolved = APIErrorCode(rawValue: "not_solved")
  public static let notPlaying = APIErrorCode(rawValue: "not_playing")
  public static let paused = APIErrorCode(rawValue: "paused")
  public static let noSuchCell = APIErrorCode(rawValue: "no_such_cell")
  public static let notALetter = APIErrorCode(rawValue: "not_a_letter")
  public static let alreadyRevealed = APIErrorCode(rawValue: "already_revealed")
  public static let notPaused = APIErrorCode(rawValue: "not_paused")
  public static let notFailed = APIErrorCode(rawValue: "not_failed")
  public static let nothingToReveal = APIErrorCode(rawValue: "nothing_to_reveal")
  public static let unknownEvent = APIErrorCode(rawValue: "unknown_event")
  public static let missingField = APIErrorCode(rawValue: "missing_field")
  public static let invalidField = APIErrorCode(rawValue: "invalid_field")
  public static let videoNotFound = APIErrorCode(rawValue: "video_not_found")
  public static let unsupportedVideoType = APIErrorCode(rawValue: "unsupported_video_type")
  public static let uploadTooLarge = APIErrorCode(rawValue: "upload_too_large")
  public static let emptyUpload = APIErrorCode(rawValue: "empty_upload")
  public static let notAllowedHere = APIErrorCode(rawValue: "not_allowed_here")
  public static let unknownPlayer = APIErrorCode(rawValue: "unknown_player")
  public static let noActivePlayer = APIErrorCode(rawValue: "no_active_player")
  public static let activityLocked = APIErrorCode(rawValue: "activity_locked")
  public static let notEnoughCoins = APIErrorCode(rawValue: "not_enough_coins")
  public static let offline = APIErrorCode(rawValue: "offline")
  public static let debounced = APIErrorCode(rawValue: "debounced")
  public static let notRolled = APIErrorCode(rawValue: "not_rolled")
  public static let alreadyRolled = APIErrorCode(rawValue: "already_rolled")
  public static let stillRolling = APIErrorCode(rawValue: "still_rolling")
  public static let numberOutOfRange = APIErrorCode(rawValue: "number_out_of_range")
  public static let colourNotOffered = APIErrorCode(rawValue: "colour_not_offered")
  public static let emptyTrace = APIErrorCode(rawValue: "empty_trace")
  public static let traceTooLong = APIErrorCode(rawValue: "trace_too_long")
  public static let wrongMode = APIErrorCode(rawValue: "wrong_mode")
  public static let videoNotApproved = APIErrorCode(rawValue: "video_not_approved")
  public static let videoRunning = APIErrorCode(rawValue: "video_running")
  public static let invalidYoutubeLink = APIErrorCode(rawValue: "invalid_youtube_link")
  public static let duplicateVideo = APIErrorCode(rawValue: "duplicate_video")
  public static let unknownVideo = APIErrorCode(rawValue: "unknown_video")
  public static let inputFull = APIErrorCode(rawValue: "input_full")
  public static let noInput = APIErrorCode(rawValue: "no_input")
  public static let invalidTimeLimit = APIErrorCode(rawValue: "invalid_time_limit")
  public static let dailyLimitReached = APIErrorCode(rawValue: "daily_limit_reached")
  public static let parentGateRequired = APIErrorCode(rawValue: "parent_gate_required")
  public static let stillLoading = APIErrorCode(rawValue: "still_loading")
  public static let invalidName = APIErrorCode(rawValue: "invalid_name")
  public static let lastPlayer = APIErrorCode(rawValue: "last_player")
  public static let tooManyPlayers = APIErrorCode(rawValue: "too_many_players")
  public static let invalidVideoId = APIErrorCode(rawValue: "invalid_video_id")
  public static let projectNotFound = APIErrorCode(rawValue: "project_not_found")
  public static let taskNotFound = APIErrorCode(rawValue: "task_not_found")
  public static let invalidColor = APIErrorCode(rawValue: "invalid_color")
  public static let invalidPriority = APIErrorCode(rawValue: "invalid_priority")
  public static let invalidDueDate = APIErrorCode(rawValue: "invalid_due_date")
  public static let emptyTitle = APIErrorCode(rawValue: "empty_title")
  public static let tooLong = APIErrorCode(rawValue: "too_long")
  public static let invalidId = APIErrorCode(rawValue: "invalid_id")
  public static let orderMismatch = APIErrorCode(rawValue: "order_mismatch")
  public static let tooManyProjects = APIErrorCode(rawValue: "too_many_projects")
  public static let projectArchived = APIErrorCode(rawValue: "project_archived")
  public static let editConflict = APIErrorCode(rawValue: "edit_conflict")
  public static let nothingToUndo = APIErrorCode(rawValue: "nothing_to_undo")
  public static let undoStale = APIErrorCode(rawValue: "undo_stale")
  public static let undoMovedOn = APIErrorCode(rawValue: "undo_moved_on")
  public static let invalidImport = APIErrorCode(rawValue: "invalid_import")
  public static let listChanged = APIErrorCode(rawValue: "list_changed")
  public static let invalidBatch = APIErrorCode(rawValue: "invalid_batch")
  /// The project has no such heading (deleted in another window, perhaps).
  public static let headingNotFound = APIErrorCode(rawValue: "heading_not_found")
  /// A task can only go under a heading of its own project.
  public static let headingInOtherProject = APIErrorCode(rawValue: "heading_in_other_project")
  public static let tooManyHeadings = APIErrorCode(rawValue: "too_many_headings")
  public static let headingConflict = APIErrorCode(rawValue: "heading_conflict")
  /// A heading added with a proposed id that a heading has already.
  public static let headingIDTaken = APIErrorCode(rawValue: "heading_id_taken")
  public static let challengeNotFound = APIErrorCode(rawValue: "challenge_not_found")
  public static let challengeClosed = APIErrorCode(rawValue: "challenge_closed")
  public static let challengeNotStarted = APIErrorCode(rawValue: "challenge_not_started")
  public static let postNotPublic = APIErrorCode(rawValue: "post_not_public")
  public static let alreadyCompleted = APIErrorCode(rawValue: "already_completed")
  public static let photoRequired = APIErrorCode(rawValue: "photo_required")
  public static let photoNotFound = APIErrorCode(rawValue: "photo_not_found")
  public static let photoInUse = APIErrorCode(rawValue: "photo_in_use")
  public static let photoTooLarge = APIErrorCode(rawValue: "photo_too_large")
  public static let photoUnsupported = APIErrorCode(rawValue: "photo_unsupported")
  public static let photoUnreadable = APIErrorCode(rawValue: "photo_unreadable")
  public static let photoTooManyPixels = APIErrorCode(rawValue: "photo_too_many_pixels")
  public static let emptyComment = APIErrorCode(rawValue: "empty_comment")
  public static let personNotFound = APIErrorCode(rawValue: "person_not_found")
  public static let cannotFollowSelf = APIErrorCode(rawValue: "cannot_follow_self")
  public static let activityNotFound = APIErrorCode(rawValue: "activity_not_found")
  public static let commentNotFound = APIErrorCode(rawValue: "comment_not_found")
  public static let notYours = APIErrorCode(rawValue: "not_yours")
  public static let cannotReportOwn = APIErrorCode(rawValue: "cannot_report_own")
  public static let invalidCursor = APIErrorCode(rawValue: "invalid_cursor")
  public static let invalidFilter = APIErrorCode(rawValue: "invalid_filter")
  public static let tooManyComments = APIErrorCode(rawValue: "too_many_comments")
  public static let videoUnavailable = APIErrorCode(rawValue: "video_unavailable")
  public static let videoNotReady = APIErrorCode(rawValue: "video_not_ready")
  /// The most streak freezes one may hold are held already.
  public static let freezeLimitReached = APIErrorCode(rawValue: "freeze_limit_reached")
  /// The points balance does not cover a streak freeze.
  public static let notEnoughPoints = APIErrorCode(rawValue: "not_enough_points")

  /// Every code the document names.
  public static let documented: [APIErrorCode] = [
    .invalidJson, .invalidParameter, .badRequest, .requestTimeout, .notFound,
    .methodNotAllowed, .unauthenticated, .invalidToken, .sessionEnded, .invalidCredentials, .usernameTaken,
    .invalidUsername, .weakPassword, .blankPassword, .passwordTooLong, .passwordTooCommon, .passwordContainsUsername,
    .wrongPassword, .invalidRecoveryCode,
    .alreadyRegistered, .namedAccountRequired, .unsupportedMediaType, .payloadTooLarge,
    .tooManyAttempts, .tooManyGuests, .requestHeaderRequired, .busy,
    .notReady, .metricsTokenRequired, .uploadQuotaExceeded, .internalError,
    .forbidden, .invalidIdempotencyKey, .idempotencyKeyReused, .idempotencyKeyInUse, .gameNotFound,
    .invalidMode, .invalidTimeZone, .invalidLetter, .noQuotes,
    .invalidDate, .invalidMonth, .dailyNotYet, .notSolved, .notPlaying,
    .paused, .noSuchCell, .notALetter, .alreadyRevealed,
    .notPaused, .notFailed, .nothingToReveal, .unknownEvent,
    .missingField, .invalidField, .videoNotFound, .unsupportedVideoType,
    .uploadTooLarge, .emptyUpload, .notAllowedHere, .unknownPlayer,
    .noActivePlayer, .activityLocked, .notEnoughCoins, .offline,
    .debounced, .notRolled, .alreadyRolled, .stillRolling,
    .numberOutOfRange, .colourNotOffered, .emptyTrace, .traceTooLong,
    .wrongMode, .videoNotApproved, .videoRunning, .invalidYoutubeLink,
    .duplicateVideo, .unknownVideo, .inputFull, .noInput,
    .invalidTimeLimit, .dailyLimitReached, .parentGateRequired, .stillLoading,
    .invalidName, .lastPlayer, .tooManyPlayers, .invalidVideoId,
    .projectNotFound, .taskNotFound, .invalidColor, .invalidPriority,
    .invalidDueDate, .emptyTitle, .tooLong, .invalidId,
    .orderMismatch, .tooManyProjects, .editConflict, .projectArchived, .nothingToUndo, .undoStale, .undoMovedOn, .invalidImport, .listChanged, .invalidBatch,
    .headingNotFound, .headingInOtherProject, .tooManyHeadings, .headingConflict, .headingIDTaken,
    .challengeNotFound,
    .challengeClosed, .challengeNotStarted, .postNotPublic, .alreadyCompleted,
    .photoRequired, .photoNotFound, .photoInUse, .photoTooLarge, .photoUnsupported,
    .photoUnreadable, .photoTooManyPixels, .emptyComment, .personNotFound,
    .cannotFollowSelf, .activityNotFound, .commentNotFound, .notYours,
    .cannotReportOwn, .invalidCursor, .invalidFilter, .tooManyComments, .videoUnavailable, .videoNotReady,
    .freezeLimitReached, .notEnoughPoints,
  ]
}

extension APIError {
  /// The stable code as a value (`error.errorCode == .taskNotFound`).
  public var errorCode: APIErrorCode { APIErrorCode(rawValue: code) }
}
