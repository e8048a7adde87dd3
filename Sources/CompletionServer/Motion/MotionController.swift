import CompletionAPI
import CompletionCore
import Vapor

/// Motion timelines as data: every client plays what the core computed.
struct MotionController: RouteCollection {
  /// The largest list a stagger or wave request may describe.
  static let maxCount = 10_000

  func boot(routes: any RoutesBuilder) throws {
    routes.on(.getMotionCatalog, use: catalog)
    routes.on(.getChoreography, use: choreography)
    routes.on(.getStagger, use: stagger)
    routes.on(.getWave, use: wave)
    routes.on(.getWiggle, use: wiggle)
  }

  /// `GET /api/motion`: springs, staggers, choreographies and preferences by name.
  @Sendable func catalog(req: Request) async throws -> MotionCatalog {
    MotionCatalog(choreographies: Choreography.catalogue)
  }

  /// `GET /api/motion/choreographies/{name}?preference=full|reduced|off`.
  @Sendable func choreography(req: Request) async throws -> ChoreographyPayload {
    let name = req.parameters.get("name") ?? ""
    guard let choreography = Choreography.catalogue.first(where: { $0.name == name }) else {
      throw AppError.notFound("The choreography '\(name)'")
    }
    return ChoreographyPayload(choreography, preference: try req.context.motionPreference())
  }

  /// `GET /api/motion/stagger?config=standard&count=8&origin=first&direction=enter&previous=0&preference=full`.
  @Sendable func stagger(req: Request) async throws -> StaggerPayload {
    let name = req.query[String.self, at: "config"] ?? "standard"
    guard let config = StaggerConfig.named(name) else {
      throw AppError.invalidParameter("config", "use one of \(StaggerConfig.named.map(\.name).joined(separator: ", ")).")
    }
    let context = req.context
    let count = try context.integer("count", default: 8, in: 0...Self.maxCount)
    let previous = try context.integer("previous", default: 0, in: 0...Self.maxCount)
    let origin = try context.option("origin", default: StaggerOrigin.first)
    let direction = try context.option("direction", default: StaggerDirection.enter)
    let timeline = StaggerTimeline(
      config: config, count: count, origin: origin, direction: direction, previouslyRevealed: previous,
      preference: try context.motionPreference())
    return StaggerPayload(configName: name, timeline: timeline)
  }

  /// `GET /api/motion/wave?count=8&preference=full`.
  @Sendable func wave(req: Request) async throws -> WavePayload {
    WavePayload(.standard, count: try Self.count(req, limit: 500), preference: try req.context.motionPreference())
  }

  /// `GET /api/motion/wiggle?count=20&seed=7&preference=full`.
  @Sendable func wiggle(req: Request) async throws -> WigglePayload {
    let seedText = req.query[String.self, at: "seed"] ?? "0"
    guard let seed = UInt64(seedText) else { throw AppError.invalidParameter("seed", "use a whole number ≥ 0.") }
    return WigglePayload(.completion, count: try Self.count(req, limit: 500), seed: seed, preference: try req.context.motionPreference())
  }

  static func count(_ req: Request, limit: Int = maxCount) throws -> Int {
    try req.context.integer("count", default: 8, in: 0...limit)
  }
}
