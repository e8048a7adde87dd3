import Vapor

/// Serves the web client's files, but only for requests that can be files: GET or HEAD outside `/api/`
/// and `/health`. Vapor's file middleware looks at the disk (on another thread) for every request it
/// sees, which would put a filesystem lookup in front of every API call.
struct StaticFilesMiddleware: AsyncMiddleware {
  let files: FileMiddleware

  init(publicDirectory: String) {
    files = FileMiddleware(publicDirectory: publicDirectory, defaultFile: "index.html")
  }

  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let path = request.url.path
    guard request.method == .GET || request.method == .HEAD, !path.hasPrefix("/api/"), path != "/health" else {
      return try await next.respond(to: request)
    }
    return try await files.respond(to: request, chainingTo: next)
  }
}
