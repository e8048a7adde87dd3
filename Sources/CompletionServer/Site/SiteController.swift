import CompletionAPI
import SQLKit
import Vapor

/// The current version, reported by `/health` and the CLI.
public enum CompletionKitVersion {
  public static let current = "0.1.0"
}

/// Health, the list of systems, and the web client's pages.
struct SiteController: RouteCollection {
  /// The systems the web client offers today; each later system adds itself here.
  static let systems: [SystemSummary] = [
    SystemSummary(
      id: "cryptogram", name: "Cryptogram",
      tagline: "Decode a famous quote letter by letter — a daily puzzle, streaks, and a celebration when it clicks.",
      path: "/cryptogram"),
    SystemSummary(
      id: "kids", name: "Waldabenteuer",
      tagline: "A calm German learning game for small children: roll, count and trace numbers for coins, then trade ten coins for a few minutes of a video a parent chose.",
      path: "/kids"),
    SystemSummary(
      id: "motion", name: "Motion",
      tagline: "Staggered lists and choreographed reveals, defined once in Swift and played everywhere.",
      path: "/motion"),
    SystemSummary(
      id: "projects", name: "Projects",
      tagline: "Tasks in projects, each with a completion ring that follows your list live, in every open window.",
      path: "/projects"),
    SystemSummary(
      id: "challenges", name: "Challenges",
      tagline: "Cooking challenges: finish one, share a photo with the people who follow you, and collect points and a daily streak.",
      path: "/challenges"),
  ]

  /// Page routes and the HTML file that renders each (`/cryptogram` is `CryptogramPage`'s: a shared daily link
  /// gets link-preview tags).
  static let pages: [(path: String, file: String)] = [
    ("", "index.html"), ("motion", "motion.html"), ("cryptogram/stats", "cryptogram-stats.html"), ("kids", "kids.html"), ("projects", "projects.html"), ("projects/lab", "projects-lab.html"),
    ("challenges", "challenges.html"), ("api", "api.html"),
  ]

  func boot(routes: any RoutesBuilder) throws {
    routes.get("health", use: health)
    routes.get("health", "live", use: live)
    routes.get("health", "ready", use: ready)
    routes.get("api", "systems", use: systems)
    routes.get("metrics", use: metrics)
    for page in Self.pages {
      routes.get(page.path.pathComponents) { req async throws -> Response in
        try await req.fileio.asyncStreamFile(
          at: req.application.serverOptions.publicDirectory.appendingPathComponent(page.file).path)
      }
    }
  }

  /// `GET /health`: up, which version, which database.
  @Sendable func health(req: Request) async throws -> HealthResponse {
    HealthResponse(status: "ok", version: CompletionKitVersion.current, database: req.application.serverOptions.database.kind)
  }

  /// `GET /health/live`: the process answers (for a supervisor deciding whether to restart it). Touches nothing else.
  @Sendable func live(req: Request) async throws -> HealthResponse {
    HealthResponse(status: "live", version: CompletionKitVersion.current, database: req.application.serverOptions.database.kind)
  }

  /// `GET /health/ready`: the database answers too (for a load balancer deciding whether to send traffic);
  /// `503 not_ready` when it does not within two seconds.
  @Sendable func ready(req: Request) async throws -> HealthResponse {
    let db = req.db
    let answered: Bool
    do {
      answered = try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          try await db.answers()
          return true
        }
        group.addTask {
          try await Task.sleep(for: .seconds(2))
          return false
        }
        let first = try await group.next() ?? false
        group.cancelAll()
        return first
      }
    } catch {
      req.logger.warning("readiness: the database did not answer: \(String(describing: error))")
      answered = false
    }
    guard answered else { throw NotReady() }
    return HealthResponse(status: "ready", version: CompletionKitVersion.current, database: req.application.serverOptions.database.kind)
  }

  /// The refusal `GET /health/ready` answers with while the database cannot be reached.
  struct NotReady: APIErrorConvertible {
    var status: HTTPResponseStatus { .serviceUnavailable }
    var code: String { "not_ready" }
    var message: String { "The server is up but cannot reach its database yet." }
    var retryAfter: Int? { 5 }
  }

  /// `GET /metrics`: the server's figures in Prometheus's text format. With `COMPLETIONKIT_METRICS_TOKEN` set,
  /// only for a scraper that sends it as a bearer token.
  @Sendable func metrics(req: Request) async throws -> Response {
    if let token = req.application.serverOptions.metricsToken {
      guard let sent = req.headers.bearerAuthorization?.token, Digest.sha256Hex(Data(sent.utf8)) == Digest.sha256Hex(Data(token.utf8)) else {
        throw MetricsTokenRequired()
      }
    }
    let services = req.application.services
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: .contentType, value: "text/plain; version=0.0.4; charset=utf-8")
    headers.replaceOrAdd(name: .cacheControl, value: "no-store")
    let text = services.metrics.exposition(groupCommitStats: services.runner.writes.groupCommitStats)
    return Response(status: .ok, headers: headers, body: .init(data: Data(text)))
  }

  /// The refusal of `/metrics` to a scraper without the configured token.
  struct MetricsTokenRequired: APIErrorConvertible {
    var status: HTTPResponseStatus { .unauthorized }
    var code: String { "metrics_token_required" }
    var message: String { "This server's metrics need its metrics token (Authorization: Bearer …)." }
  }

  /// `GET /api/systems`: what the home page lists.
  @Sendable func systems(req: Request) async throws -> [SystemSummary] {
    Self.systems
  }
}
