import KidsGame
import Vapor

/// Everything the Waldabenteuer API refuses, with its status and stable code.
enum KidsError: APIErrorConvertible, Equatable {
  case unknownEvent(String)
  case missingField(String)
  case invalidField(String, String)
  case invalidTimeZone(String)
  /// The game rules refused the event (nothing changed).
  case refused(RefusalReason)
  case videoNotFound
  case unsupportedVideoType(String)
  /// The bytes are not the video the upload claims to be (or no video at all).
  case notAVideo
  case uploadTooLarge(Int)
  case emptyUpload
  /// Too many saves raced for the same game; the client may simply send the event again.

  var status: HTTPResponseStatus {
    switch self {
    case .unknownEvent, .missingField, .invalidField, .invalidTimeZone, .emptyUpload: .badRequest
    case .videoNotFound: .notFound
    case .unsupportedVideoType, .notAVideo: .unsupportedMediaType
    case .uploadTooLarge: .payloadTooLarge
    case .refused(let reason): Self.status(of: reason)
    }
  }

  /// How each refusal reads over HTTP: bad values 400 (422 for a bad link or name), the parent area 403,
  /// unknown things 404, and "not now" 409.
  static func status(of reason: RefusalReason) -> HTTPResponseStatus {
    switch reason {
    case .numberOutOfRange, .colourNotOffered, .emptyTrace, .traceTooLong, .invalidTimeLimit, .invalidVideoID, .noInput, .inputFull: .badRequest
    case .invalidYouTubeLink, .invalidName: .unprocessableEntity
    case .parentGateRequired: .forbidden
    case .unknownPlayer, .unknownVideo, .videoNotApproved: .notFound
    default: .conflict
    }
  }

  var code: String {
    switch self {
    case .unknownEvent: "unknown_event"
    case .missingField: "missing_field"
    case .invalidField: "invalid_field"
    case .invalidTimeZone: "invalid_time_zone"
    case .refused(let reason): reason.rawValue
    case .videoNotFound: "video_not_found"
    case .unsupportedVideoType, .notAVideo: "unsupported_video_type"
    case .uploadTooLarge: "upload_too_large"
    case .emptyUpload: "empty_upload"
    }
  }

  var message: String {
    switch self {
    case .unknownEvent(let type): "'\(type)' is not a Waldabenteuer event."
    case .missingField(let field): "This event needs the field '\(field)'."
    case .invalidField(let field, let why): "The field '\(field)' is not valid: \(why)."
    case .invalidTimeZone(let zone): "'\(zone)' is not a time zone this server knows (try Europe/Berlin)."
    case .refused(let reason): Self.message(for: reason)
    case .videoNotFound: "There is no such video in your family's list."
    case .unsupportedVideoType(let type): "'\(type)' is not a video type we can play: upload MP4, WebM or Ogg video."
    case .notAVideo: "This file is not a video we can play (its contents are not MP4, WebM or Ogg video)."
    case .uploadTooLarge(let limit): "The video is larger than \(limit >> 20) MB."
    case .emptyUpload: "The upload was empty: choose a video file."
    }
  }

  /// Messages for parents and API clients (the child hears the game's own German lines instead).
  static func message(for reason: RefusalReason) -> String {
    switch reason {
    case .notAllowedHere: "That is not possible on this screen."
    case .unknownPlayer: "There is no such child in your family."
    case .noActivePlayer: "Choose a child first."
    case .activityLocked: "That activity is locked."
    case .notEnoughCoins: "There are not enough coins for that."
    case .offline: "This needs the internet."
    case .debounced: "That tap came too quickly after the last one."
    case .notRolled: "Roll the die first."
    case .alreadyRolled: "The die has already been rolled."
    case .stillRolling: "The die is still rolling."
    case .numberOutOfRange: "That number is not on the screen."
    case .colourNotOffered: "That leaf colour is not in this level's picker."
    case .emptyTrace: "The stroke has no points."
    case .traceTooLong: "The stroke has too many points."
    case .wrongMode: "This game is played the other way (trace or tap)."
    case .videoNotApproved: "That video is not on the approved list."
    case .videoRunning: "The video clock decides when the video ends."
    case .invalidYouTubeLink: ScreenText.invalidYouTubeLink.rawValue
    case .duplicateVideo: "That video is already on the list."
    case .unknownVideo: "There is no such video on the list."
    case .inputFull: "The answer has at most two digits."
    case .noInput: "Type an answer first."
    case .invalidTimeLimit: "Choose 30, 45, 60, 75, 90 or 120 minutes."
    case .dailyLimitReached: "Today's play time is used up."
    case .parentGateRequired: "Open the parent area through the question first."
    case .stillLoading: "The game is still loading."
    case .invalidName: "A name has 1 to 20 characters."
    case .lastPlayer: "A family keeps at least one child."
    case .tooManyPlayers: "There is room for six children."
    case .invalidVideoID: "That is not an uploaded video's id."
    }
  }
}
