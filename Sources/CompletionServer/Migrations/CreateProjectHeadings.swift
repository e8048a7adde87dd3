import Fluent
import FluentSQL

/// Headings inside a project (Things' headings, Todoist's sections): each belongs to one project and has a
/// name and a place among its project's headings; a task sits under one of its project's headings or none
/// (`heading_id` NULL). Deleting a project deletes its headings; deleting a heading leaves its tasks under none.
struct CreateProjectHeadings: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(ProjectTables.headings)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("project_id", .uuid, .required, .references(ProjectTables.projects, .id, onDelete: .cascade))
      .field("name", .string, .required)
      .field("position", .int, .required)
      .field("created_at", .datetime, .required)
      .field("updated_at", .datetime, .required)
      .create()
    try await database.sql.create(index: "project_headings_by_project").on(ProjectTables.headings).column("project_id").column("position").run()
    try await database.schema(ProjectTables.tasks).field("heading_id", .uuid).update()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(ProjectTables.tasks).deleteField("heading_id").update()
    try await database.schema(ProjectTables.headings).delete()
  }
}
