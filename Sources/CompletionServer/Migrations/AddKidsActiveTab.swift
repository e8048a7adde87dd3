import Fluent

/// The browser tab last seen playing each family's game, so a second tab opened during play joins the game
/// instead of relaunching it under the first.
struct AddKidsActiveTab: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(KidsGameRecord.schema).field("active_tab", .string).update()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(KidsGameRecord.schema).deleteField("active_tab").update()
  }
}
