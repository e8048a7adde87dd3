import CompletionAPI
import CompletionCore
import FluentSQL
import Foundation
import Projects

/// A project row as stored.
struct ProjectRow: Decodable, Sendable {
  let id: UUID
  let name: String
  let color: String
  let notes: String
  let position: Int
  let total_count: Int
  let completed_count: Int
  let revision: Int

  var counts: CompletionRatio { CompletionRatio(completed: completed_count, total: total_count) }

  var view: ProjectView {
    ProjectView(id: id.uuidString, name: name, color: color, notes: notes, position: position, counts: counts, revision: revision)
  }

  static let columns = "id, name, color, notes, position, total_count, completed_count, revision"
}

/// A task row as stored.
struct TaskRow: Decodable, Sendable {
  let id: UUID
  let project_id: UUID?
  let title: String
  let notes: String
  let priority: Int
  let due_date: String?
  let completed: Bool
  let completed_at: Date?
  let position: Int
  let version: Int

  var view: TaskView {
    TaskView(
      id: id.uuidString, projectId: project_id?.uuidString, title: title, notes: notes,
      priority: (TaskPriority(level: priority) ?? .none).rawValue, dueDate: due_date, completed: completed,
      completedAt: completed_at?.timeIntervalSince1970, position: position)
  }

  static let columns = "id, project_id, title, notes, priority, due_date, completed, completed_at, position, version"
}

/// A person's row: the Inbox's counts, the change counter and the next list position.
struct OwnerRow: Decodable, Sendable {
  let inbox_total: Int
  let inbox_completed: Int
  let revision: Int
  let next_position: Int

  var inbox: InboxView { InboxView(total: inbox_total, completed: inbox_completed, revision: revision) }
  static let empty = OwnerRow(inbox_total: 0, inbox_completed: 0, revision: 0, next_position: 0)
}

/// Which of a person's lists a change touched; the live stream reads them again after the commit.
struct ProjectChange: Sendable, Hashable {
  let userID: UUID
  /// Projects whose row changed or that were deleted.
  var projects: Set<UUID>
  /// Every project may have changed (a reorder, an import).
  var all = false
}

/// The Projects system's reads and writes, in SQL. Every write keeps the counts in the same transaction
/// (an increment, never a recount) and bumps the person's change counter.
enum ProjectStore {
  // MARK: Reads

  /// The person's row (zeros before their first change).
  static func owner(_ userID: UUID, on db: any SQLDatabase) async throws -> OwnerRow {
    try await db.raw("SELECT inbox_total, inbox_completed, revision, next_position FROM project_owners WHERE user_id = \(bind: userID)")
      .first(decoding: OwnerRow.self) ?? .empty
  }

  /// The person's projects in their order.
  static func projects(_ userID: UUID, on db: any SQLDatabase) async throws -> [ProjectRow] {
    try await db.raw(
      "SELECT \(unsafeRaw: ProjectRow.columns) FROM projects WHERE user_id = \(bind: userID) ORDER BY position, created_at"
    ).all(decoding: ProjectRow.self)
  }

  /// Some of the person's projects (the ones a change touched).
  static func projects(_ userID: UUID, ids: Set<UUID>, on db: any SQLDatabase) async throws -> [ProjectRow] {
    guard !ids.isEmpty else { return [] }
    return try await db.select().column(SQLRaw(ProjectRow.columns)).from(ProjectTables.projects)
      .where("user_id", .equal, SQLBind(userID)).where("id", .in, SQLBind.group(Array(ids)))
      .orderBy("position")
      .all(decoding: ProjectRow.self)
  }

  static func project(_ id: UUID, of userID: UUID, on db: any SQLDatabase) async throws -> ProjectRow? {
    try await db.raw(
      "SELECT \(unsafeRaw: ProjectRow.columns) FROM projects WHERE id = \(bind: id) AND user_id = \(bind: userID)"
    ).first(decoding: ProjectRow.self)
  }

  /// The tasks of a project (nil: the Inbox) in their order.
  static func tasks(_ userID: UUID, in projectID: UUID?, on db: any SQLDatabase) async throws -> [TaskRow] {
    let query = db.select().column(SQLRaw(TaskRow.columns)).from(ProjectTables.tasks).where("user_id", .equal, SQLBind(userID))
    if let projectID {
      query.where("project_id", .equal, SQLBind(projectID))
    } else {
      query.where("project_id", .is, SQLLiteral.null)
    }
    return try await query.orderBy("position").orderBy("created_at").all(decoding: TaskRow.self)
  }

  static func task(_ id: UUID, of userID: UUID, on db: any SQLDatabase) async throws -> TaskRow? {
    try await db.raw("SELECT \(unsafeRaw: TaskRow.columns) FROM project_tasks WHERE id = \(bind: id) AND user_id = \(bind: userID)")
      .first(decoding: TaskRow.self)
  }

  // MARK: Writes (call inside a transaction)

  /// Bumps the person's change counter and the Inbox's counts by `inbox`; returns the row after it.
  /// Every write calls this once, so two changes of one person never commit the same revision.
  @discardableResult
  static func bumpOwner(_ userID: UUID, inbox: CountDelta = .none, positions: Int = 1, on db: any SQLDatabase) async throws -> OwnerRow {
    let row = try await db.raw(
      """
      INSERT INTO project_owners (user_id, inbox_total, inbox_completed, revision, next_position)
      VALUES (\(bind: userID), \(bind: inbox.total), \(bind: inbox.completed), 1, \(bind: positions))
      ON CONFLICT (user_id) DO UPDATE SET
        inbox_total = project_owners.inbox_total + excluded.inbox_total,
        inbox_completed = project_owners.inbox_completed + excluded.inbox_completed,
        revision = project_owners.revision + 1,
        next_position = project_owners.next_position + excluded.next_position
      RETURNING inbox_total, inbox_completed, revision, next_position
      """
    ).first(decoding: OwnerRow.self)
    guard let row else { throw ProjectsError.projectNotFound }
    return row
  }

  /// Adds `delta` to project `id`'s counts and bumps its revision; nil when it is not the person's.
  static func bumpProject(_ id: UUID, of userID: UUID, by delta: CountDelta, at now: Date, on db: any SQLDatabase) async throws -> ProjectRow? {
    try await db.raw(
      """
      UPDATE projects SET total_count = total_count + \(bind: delta.total), completed_count = completed_count + \(bind: delta.completed),
        revision = revision + 1, updated_at = \(bind: now)
      WHERE id = \(bind: id) AND user_id = \(bind: userID)
      RETURNING \(unsafeRaw: ProjectRow.columns)
      """
    ).first(decoding: ProjectRow.self)
  }

  /// Inserts a project at `position` with `counts` already known (an import brings tasks with it).
  static func insertProject(
    _ id: UUID, of userID: UUID, name: String, color: String, notes: String, position: Int, counts: CompletionRatio, at now: Date,
    on db: any SQLDatabase
  ) async throws -> ProjectRow {
    let row = try await db.raw(
      """
      INSERT INTO projects (id, user_id, name, color, notes, position, total_count, completed_count, revision, created_at, updated_at)
      VALUES (\(bind: id), \(bind: userID), \(bind: name), \(bind: color), \(bind: notes), \(bind: position), \(bind: counts.total),
        \(bind: counts.completed), 1, \(bind: now), \(bind: now))
      RETURNING \(unsafeRaw: ProjectRow.columns)
      """
    ).first(decoding: ProjectRow.self)
    guard let row else { throw ProjectsError.projectNotFound }
    return row
  }

  /// A task to insert.
  struct NewTask: Sendable {
    var id = UUID()
    var projectID: UUID?
    var title: String
    var notes: String = ""
    var priority: TaskPriority = .none
    var dueDate: String?
    var completed = false
    var position: Int
  }

  /// Inserts tasks, many rows a statement (an import of hundreds of lines is a few statements).
  static func insert(_ tasks: [NewTask], of userID: UUID, at now: Date, on db: any SQLDatabase) async throws {
    // 13 binds a row; stay well under SQLite's limit of 32,766 variables a statement.
    for chunk in stride(from: 0, to: tasks.count, by: 500) {
      let insert = db.insert(into: ProjectTables.tasks).columns(
        "id", "user_id", "project_id", "title", "notes", "priority", "due_date", "completed", "completed_at", "position", "version",
        "created_at", "updated_at")
      for task in tasks[chunk..<min(chunk + 500, tasks.count)] {
        insert.values(
          SQLBind(task.id), SQLBind(userID), SQLBind(task.projectID), SQLBind(task.title), SQLBind(task.notes),
          SQLBind(task.priority.level), SQLBind(task.dueDate), SQLBind(task.completed), SQLBind(task.completed ? now : nil),
          SQLBind(task.position), SQLBind(0), SQLBind(now), SQLBind(now))
      }
      try await insert.run()
    }
  }

  // MARK: Verify

  /// A kept count that differs from a recount.
  struct Mismatch: Sendable, CustomStringConvertible {
    let userID: UUID
    /// Nil for the Inbox.
    let projectID: UUID?
    let kept: CompletionRatio
    let counted: CompletionRatio

    var description: String {
      "user \(userID) \(projectID.map { "project \($0)" } ?? "Inbox"): kept \(kept.completed)/\(kept.total), counted \(counted.completed)/\(counted.total)"
    }
  }

  /// Recounts every project's and Inbox's tasks and compares with the kept counts (one statement each,
  /// so a consistent snapshot on both databases).
  static func verify(on db: any SQLDatabase) async throws -> (checked: Int, mismatches: [Mismatch]) {
    struct Row: Decodable {
      let user_id: UUID
      let id: UUID?
      let total_count: Int
      let completed_count: Int
      let counted_total: Int
      let counted_completed: Int
    }
    let rows = try await db.raw(
      """
      SELECT p.user_id AS user_id, p.id AS id, p.total_count AS total_count, p.completed_count AS completed_count,
        CAST(COUNT(t.id) AS BIGINT) AS counted_total,
        CAST(COALESCE(SUM(CASE WHEN t.completed THEN 1 ELSE 0 END), 0) AS BIGINT) AS counted_completed
      FROM projects p LEFT JOIN project_tasks t ON t.project_id = p.id
      GROUP BY p.user_id, p.id, p.total_count, p.completed_count
      UNION ALL
      SELECT o.user_id AS user_id, NULL AS id, o.inbox_total AS total_count, o.inbox_completed AS completed_count,
        CAST(COUNT(t.id) AS BIGINT) AS counted_total,
        CAST(COALESCE(SUM(CASE WHEN t.completed THEN 1 ELSE 0 END), 0) AS BIGINT) AS counted_completed
      FROM project_owners o LEFT JOIN project_tasks t ON t.user_id = o.user_id AND t.project_id IS NULL
      GROUP BY o.user_id, o.inbox_total, o.inbox_completed
      """
    ).all(decoding: Row.self)
    let mismatches = rows.compactMap { row -> Mismatch? in
      guard row.total_count != row.counted_total || row.completed_count != row.counted_completed else { return nil }
      return Mismatch(
        userID: row.user_id, projectID: row.id,
        kept: CompletionRatio(completed: row.completed_count, total: row.total_count),
        counted: CompletionRatio(completed: row.counted_completed, total: row.counted_total))
    }
    return (rows.count, mismatches)
  }
}
