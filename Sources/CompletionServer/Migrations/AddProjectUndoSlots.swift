import Fluent
import FluentSQL
import Projects

/// Each person's undo list as a ring of ``ProjectLimits/undoDepth`` slots, so recording a step is one
/// statement that also drops the oldest (it takes the oldest's slot) instead of an insert and a trim.
///
/// `project_owners.undo_top` counts the steps recorded minus those taken back; the newest step is in slot
/// `(undo_top - 1) mod undoDepth`. A step taken back frees its slot, so the rows are always exactly the steps
/// that can still be taken back. The steps stored before this numbered oldest first from 0. Changing
/// ``ProjectLimits/undoDepth`` needs the slots numbered again the same way.
struct AddProjectUndoSlots: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(ProjectTables.undo).field("slot", .int).update()
    try await database.schema(ProjectTables.owners).field("undo_top", .int, .required, .sql(.default(0))).update()
    try await Self.numberSlots(on: database.sql)
    try await database.sql.create(index: "project_undo_user_slot").unique().on(ProjectTables.undo).column("user_id").column("slot").run()
  }

  /// Numbers every person's stored steps oldest first from slot 0, and sets their top to how many there are.
  static func numberSlots(on sql: any SQLDatabase) async throws {
    try await sql.raw(
      """
      UPDATE project_undo SET slot = (
        SELECT COUNT(*) FROM project_undo earlier WHERE earlier.user_id = project_undo.user_id AND earlier.seq < project_undo.seq)
      """
    ).run()
    try await sql.raw("UPDATE project_owners SET undo_top = (SELECT COUNT(*) FROM project_undo u WHERE u.user_id = project_owners.user_id)")
      .run()
  }

  func revert(on database: any Database) async throws {
    try await database.sql.drop(index: "project_undo_user_slot").run()
    try await database.schema(ProjectTables.undo).deleteField("slot").update()
    try await database.schema(ProjectTables.owners).deleteField("undo_top").update()
  }
}
