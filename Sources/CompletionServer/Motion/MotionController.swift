import CompletionAPI
import CompletionCore
import Vapor

/// Motion timelines as data: every client plays what the core computed.
struct MotionController: RouteCollection {
  /// The largest list a stagger or wave request may describe.
  static let maxCount = 10_000

  func boot(routes: any RoutesBuilder) throws {
    let motion = routes.grouped("api", "motion")
    motion.get(use: catalog)
    motion.get("choreographies", ":name", use: choreography)
    motion.get("stagger", use: stagger)
    motion.get("wave", use: wave)
    motion.get("wiggle", use: wiggle)
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
    return ChoreographyPayload(choreography, preference: try Self.preference(req))
  }

  /// `GET /api/motion/stagger?config=standard&count=8&origin=first&direction=enter&previous=0&preference=full`.
  @Sendable func stagger(req: Request) async throws -> StaggerPayload {
    let name = req.query[String.self, at: "config"] ?? "standard"
    guard let config = StaggerConfig.named(name) else {
      throw AppError.invalidParameter("config", "use one of \(StaggerConfig.named.map(\.name).joined(separator: ", ")).")
    }
    let count = try Self.count(req)
    let previous = try Self.integer(req, "previous", default: 0, in: 0...Self.maxCount)
    let origin = try Self.option(req, "origin", default: StaggerOrigin.first)
    let direction = try Self.option(req, "direction", default: StaggerDirection.enter)
    let timeline = StaggerTimeline(
      config: config, count: count, origin: origin, direction: direction, previouslyRevealed: previous,
      preference: try Self.preference(req))
    return StaggerPayload(configName: name, timeline: timeline)
  }

  /// `GET /api/motion/wave?count=8&preference=full`.
  @Sendable func wave(req: Request) async throws -> WavePayload {
    WavePayload(.standard, count: try Self.count(req, limit: 500), preference: try Self.preference(req))
  }

  /// `GET /api/motion/wiggle?count=20&seed=7&preference=full`.
  @Sendable func wiggle(req: Request) async throws -> WigglePayload {
    let seedText = req.query[String.self, at: "seed"] ?? "0"
    guard let seed = UInt64(seedText) else { throw AppError.invalidParameter("seed", "use a whole number ≥ 0.") }
    return WigglePayload(.completion, count: try Self.count(req, limit: 500), seed: seed, preference: try Self.preference(req))
  }

  static func preference(_ req: Request) throws -> MotionPreference {
    try option(req, "preference", default: .full)
  }

  static func count(_ req: Request, limit: Int = maxCount) throws -> Int {
    try integer(req, "count", default: 8, in: 0...limit)
  }

  static func integer(_ req: Request, _ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
    guard let text = queryValue(req, name) else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw AppError.invalidParameter(name, "use a whole number from \(range.lowerBound) to \(range.upperBound).")
    }
    return number
  }

  /// The query parameter `name`. Most requests (every guess) have no query at all, and Vapor's query
  /// decoder costs more than a whole move's rules, so it is not asked then.
  private static func queryValue(_ req: Request, _ name: String) -> String? {
    guard let query = req.url.query, !query.isEmpty else { return nil }
    return req.query[String.self, at: name]
  }

  static func option<T: RawRepresentable & CaseIterable>(_ req: Request, _ name: String, default value: T) throws -> T
  where T.RawValue == String {
    guard let text = queryValue(req, name) else { return value }
    guard let option = T(rawValue: text) else {
      throw AppError.invalidParameter(name, "use one of \(T.allCases.map(\.rawValue).joined(separator: ", ")).")
    }
    return option
  }
}
