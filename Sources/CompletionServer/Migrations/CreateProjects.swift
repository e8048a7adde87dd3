import Fluent
import FluentSQL

/// Projects and tasks (seed 003). Each project keeps its task counts, and each person's row in
/// `project_owners` keeps the Inbox's counts, a change counter (the live stream's event id) and the next
/// free list position: all written in the transaction of the change, so nothing is ever recounted.
struct CreateProjects: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(ProjectTables.owners)
      .field("user_id", .uuid, .identifier(auto: false), .references(User.schema, .id, onDelete: .cascade))
      .field("inbox_total", .int, .required)
      .field("inbox_completed", .int, .required)
      .field("revision", .int, .required)
      .field("next_position", .int, .required)
      .create()
    try await database.schema(ProjectTables.projects)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("name", .string, .required)
      .field("color", .string, .required)
      .field("notes", .string, .required)
      .field("position", .int, .required)
      .field("total_count", .int, .required)
      .field("completed_count", .int, .required)
      .field("revision", .int, .required)
      .field("created_at", .datetime, .required)
      .field("updated_at", .datetime, .required)
      .create()
    try await database.schema(ProjectTables.tasks)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("project_id", .uuid, .references(ProjectTables.projects, .id, onDelete: .cascade))
      .field("title", .string, .required)
      .field("notes", .string, .required)
      .field("priority", .int, .required)
      .field("due_date", .string)
      .field("completed", .bool, .required)
      .field("completed_at", .datetime)
      .field("position", .int, .required)
      .field("version", .int, .required)
      .field("created_at", .datetime, .required)
      .field("updated_at", .datetime, .required)
      .create()
    let sql = database.sql
    try await sql.create(index: "projects_by_user").on(ProjectTables.projects).column("user_id").column("position").run()
    try await sql.create(index: "project_tasks_by_list").on(ProjectTables.tasks).column("user_id").column("project_id").column("position").run()
    try await sql.create(index: "project_tasks_by_project").on(ProjectTables.tasks).column("project_id").run()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(ProjectTables.tasks).delete()
    try await database.schema(ProjectTables.projects).delete()
    try await database.schema(ProjectTables.owners).delete()
  }
}

/// Table names of the Projects system.
enum ProjectTables {
  static let owners = "project_owners"
  static let projects = "projects"
  static let tasks = "project_tasks"
  static let undo = "project_undo"
  static let headings = "project_headings"
}
