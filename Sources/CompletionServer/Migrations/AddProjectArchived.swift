import Fluent
import FluentSQL

/// Whether a project is archived: out of the sidebar's list, taking no new tasks, its counts kept as they are.
struct AddProjectArchived: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(ProjectTables.projects).field("archived", .bool, .required, .sql(.default(false))).update()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(ProjectTables.projects).deleteField("archived").update()
  }
}
