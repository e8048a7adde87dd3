import Fluent

/// When each browser session was last used (to the day), so a session left idle for 30 days ends although its
/// absolute lifetime has not run out.
struct AddSessionLastSeen: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(AuthToken.schema).field("last_seen_at", .datetime).update()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(AuthToken.schema).deleteField("last_seen_at").update()
  }
}
