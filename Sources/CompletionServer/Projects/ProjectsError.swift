import Projects
import Vapor

/// The Projects system's refusals (``ProjectsError``, with their codes and messages, live in its core) as
/// HTTP answers.
extension ProjectsError: APIErrorConvertible {
  public var status: HTTPResponseStatus {
    switch self {
    case .projectNotFound, .taskNotFound, .headingNotFound: .notFound
    case .tooManyProjects, .tooManyHeadings, .listChanged, .projectArchived, .editConflict, .nothingToUndo, .undoStale, .undoMovedOn, .headingConflict, .headingIDTaken: .conflict
    default: .badRequest
    }
  }
}
