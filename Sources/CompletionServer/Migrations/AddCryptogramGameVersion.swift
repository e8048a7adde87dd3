import Fluent

/// A version on every cryptogram game: a save only lands on the version it read, so two server processes
/// sharing one database never lose a move.
struct AddCryptogramGameVersion: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(CryptogramGame.schema).field("version", .int, .required, .sql(.default(0))).update()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(CryptogramGame.schema).deleteField("version").update()
  }
}
