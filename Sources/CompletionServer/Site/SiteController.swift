import CompletionAPI
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

  /// Page routes and the HTML file that renders each.
  static let pages: [(path: String, file: String)] = [
    ("motion", "motion.html"), ("cryptogram", "cryptogram.html"), ("cryptogram/stats", "cryptogram-stats.html"), ("kids", "kids.html"), ("projects", "projects.html"),
    ("challenges", "challenges.html"),
  ]

  func boot(routes: any RoutesBuilder) throws {
    routes.get("health", use: health)
    routes.get("api", "systems", use: systems)
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

  /// `GET /api/systems`: what the home page lists.
  @Sendable func systems(req: Request) async throws -> [SystemSummary] {
    Self.systems
  }
}
