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
    guard request.method == .GET || request.method == .HEAD, !path.hasPrefix("/api/"), path != "/health", Self.couldBeFile(path) else {
      return try await next.respond(to: request)
    }
    return try await files.respond(to: request, chainingTo: next)
  }

  /// The longest path the web client's files have, with room to spare; a longer one is no file of ours
  /// (and the file system would refuse its lookup with an error instead of "not found").
  static let maxFilePath = 1024
  /// The longest name one path component may have on the file systems the server runs on.
  static let maxFileName = 255

  /// Whether `path` is short enough to be looked up on disk: anything longer goes on to the routes (404).
  static func couldBeFile(_ path: String) -> Bool {
    path.utf8.count <= maxFilePath && path.split(separator: "/").allSatisfy { $0.utf8.count <= maxFileName }
  }
}
