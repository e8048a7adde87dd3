import Foundation

extension Error {
  /// What went wrong, in words for the person: the server's own message for a refusal, else that the server
  /// could not be reached.
  func lineForPeople(whenUnreachable unreachable: String = "The server could not be reached; nothing was changed. Try again.") -> String {
    (self as? APIError)?.message ?? unreachable
  }
}

/// A model that shows what went wrong last in ``problem`` and clears it when a change goes through.
@MainActor
protocol ShowsProblems: AnyObject {
  var problem: String? { get set }
}

extension ShowsProblems {
  /// Runs `work`; afterwards ``problem`` holds what went wrong, or nil.
  func attempt(_ work: () async throws -> Void) async {
    do {
      try await work()
      problem = nil
    } catch {
      problem = error.lineForPeople()
    }
  }
}
