import Fluent
import FluentSQL

/// A heading's undo step (added, renamed or deleted) keeps the heading before and after it, its place and the
/// tasks that were under it, as JSON. Null for a task's step, so the steps stored before it read as they did.
struct AddProjectUndoHeading: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(ProjectTables.undo).field("heading_step", .string).update()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(ProjectTables.undo).deleteField("heading_step").update()
  }
}
