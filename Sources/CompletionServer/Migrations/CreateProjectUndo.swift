import Fluent
import FluentSQL

/// Each person's undo list: their last task changes, each with the task before and after it (as JSON), so an
/// undo reaches every window and a deleted task comes back exactly. At most ``ProjectLimits/undoDepth`` rows
/// a person; `seq` is the person's change counter at the change.
struct CreateProjectUndo: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(ProjectTables.undo)
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("seq", .int, .required)
      .field("kind", .string, .required)
      .field("task_id", .uuid, .required)
      .field("label", .string, .required)
      .field("before_task", .string)
      .field("after_task", .string)
      .field("created_at", .datetime, .required)
      .unique(on: "user_id", "seq")
      .create()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(ProjectTables.undo).delete()
  }
}
