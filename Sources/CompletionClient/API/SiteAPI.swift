import CompletionAPI
import CompletionCore
import Foundation

// The site (health, the systems, metrics) and Motion: timelines as data, computed by the core on the server.
// A nil parameter is left out, and the server uses its default.
extension CompletionClient {
  // MARK: Site

  /// Whether the server is up, its version and its database.
  public func health() async throws -> HealthResponse {
    try await send(.getHealth)
  }

  /// Whether the process answers (touches nothing else).
  public func liveness() async throws -> HealthResponse {
    try await send(.getLiveness)
  }

  /// Whether the server can serve: its database answers too (else `503 not_ready`).
  public func readiness() async throws -> HealthResponse {
    try await send(.getReadiness)
  }

  /// The systems the home page lists.
  public func systems() async throws -> [SystemSummary] {
    try await send(.listSystems)
  }

  /// The server's figures in Prometheus's text format; `token` is the server's metrics token, when it has one.
  public func metrics(token: String? = nil) async throws -> String {
    let file = try await download(.getMetrics, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    return String(decoding: file.data, as: UTF8.self)
  }

  // MARK: Motion

  /// Every spring, stagger, choreography and preference by name.
  public func motionCatalog() async throws -> MotionCatalog {
    try await send(.getMotionCatalog)
  }

  /// One choreography of the catalogue by name, adapted to `preference`.
  public func choreography(_ name: String, preference: MotionPreference? = nil) async throws -> ChoreographyPayload {
    try await send(.getChoreography, name, query: [("preference", preference?.rawValue)])
  }

  /// A staggered reveal of `count` items with the stagger called `config`, after `previous` already shown.
  public func stagger(
    config: String? = nil, count: Int? = nil, previous: Int? = nil, origin: StaggerOrigin? = nil, direction: StaggerDirection? = nil,
    preference: MotionPreference? = nil
  ) async throws -> StaggerPayload {
    try await send(
      .getStagger,
      query: [
        ("config", config), ("count", count.map(String.init)), ("previous", previous.map(String.init)), ("origin", origin?.rawValue),
        ("direction", direction?.rawValue), ("preference", preference?.rawValue),
      ])
  }

  /// The standard wave over `count` items (at most 500).
  public func wave(count: Int? = nil, preference: MotionPreference? = nil) async throws -> WavePayload {
    try await send(.getWave, query: [("count", count.map(String.init)), ("preference", preference?.rawValue)])
  }

  /// The completion wiggle of `count` cells (at most 500), the same for the same `seed`.
  public func wiggle(count: Int? = nil, seed: UInt64? = nil, preference: MotionPreference? = nil) async throws -> WigglePayload {
    try await send(.getWiggle, query: [("count", count.map(String.init)), ("seed", seed.map(String.init)), ("preference", preference?.rawValue)])
  }
}
