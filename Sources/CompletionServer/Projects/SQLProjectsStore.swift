import CompletionAPI
import CompletionCore
import Fluent
import FluentSQL
import Foundation
import Projects
import StreamingJSON

/// The Projects store in SQL (SQLite and PostgreSQL). Every save keeps the counts in its own transaction
/// (an increment, never a recount) and bumps the person's change counter once. Reads and writes alike take
/// a database (a pooled connection, or a write transaction) and answer values.
struct SQLProjectsStore: ProjectsStore {
  let sql: any SQLDatabase

  init(_ db: any Database) {
    sql = db.sql
  }

  // MARK: Rows

  // The rows every task change reads are read column by column (``SQLRowReadable``), in the order their
  // statements name the columns.

  private struct ProjectRow: SQLRowReadable {
    let item: ProjectItem

    init(reading row: inout SQLColumnReader) throws {
      let id: UUID = try row.value("id")
      let name: String = try row.value("name")
      let color: String = try row.value("color")
      let notes: String = try row.value("notes")
      let position: Int = try row.value("position")
      let total: Int = try row.value("total_count")
      let completed: Int = try row.value("completed_count")
      item = ProjectItem(
        id: id, name: name, color: color, notes: notes, position: position, counts: CompletionRatio(completed: completed, total: total),
        revision: try row.value("revision"), archived: try row.value("archived"))
    }

    static let columns = "id, name, color, notes, position, total_count, completed_count, revision, archived"
  }

  private struct TaskRow: SQLRowReadable {
    let item: TaskItem

    init(reading row: inout SQLColumnReader) throws {
      item = TaskItem(
        id: try row.value("id"), projectID: try row.optional("project_id"), title: try row.value("title"), notes: try row.value("notes"),
        priority: TaskPriority(level: try row.value("priority")) ?? .none, dueDate: try row.optional("due_date"),
        completed: try row.value("completed"), completedAt: try row.optional("completed_at"), position: try row.value("position"),
        version: try row.value("version"), headingID: try row.optional("heading_id"))
    }

    static let columns = "id, project_id, title, notes, priority, due_date, completed, completed_at, position, version, heading_id"
    /// The columns of the table named `t`.
    static let qualifiedColumns = columns.split(separator: ", ").map { "t.\($0) AS \($0)" }.joined(separator: ", ")
  }

  private struct HeadingRow: SQLRowReadable {
    let item: HeadingItem

    init(reading row: inout SQLColumnReader) throws {
      item = HeadingItem(id: try row.value("id"), projectID: try row.value("project_id"), name: try row.value("name"), position: try row.value("position"))
    }

    static let columns = "id, project_id, name, position"
  }

  private struct OwnerRow: SQLRowReadable {
    let counters: OwnerCounters
    /// The undo list's top (see ``AddProjectUndoSlots``): only a change's bump of the row returns it.
    let undoTop: Int?

    init(reading row: inout SQLColumnReader) throws {
      let total: Int = try row.value("inbox_total")
      let completed: Int = try row.value("inbox_completed")
      counters = OwnerCounters(
        inbox: CompletionRatio(completed: completed, total: total), revision: try row.value("revision"), nextPosition: try row.value("next_position"))
      undoTop = try row.optional("undo_top")
    }
  }

  /// What a task's save answers: the row was saved, and its time of completion as the database keeps it (every
  /// other column is stored as written).
  private struct SavedTaskRow: SQLRowReadable {
    let completedAt: Date?

    init(reading row: inout SQLColumnReader) throws {
      completedAt = try row.optional("completed_at")
    }
  }

  /// A task with its project and its owner's counters, read in one statement (the load of every task change).
  private struct TaskWithListRow: SQLRowReadable {
    let task: TaskItem
    /// Nil for a task in the Inbox.
    let project: ProjectItem?
    /// Nil before the person's first change.
    let owner: OwnerCounters?

    init(reading row: inout SQLColumnReader) throws {
      task = try TaskRow(reading: &row).item
      let name: String? = try row.optional("p_name")
      let color: String? = try row.optional("p_color")
      let notes: String? = try row.optional("p_notes")
      let position: Int? = try row.optional("p_position")
      let total: Int? = try row.optional("p_total")
      let completed: Int? = try row.optional("p_completed")
      let revision: Int? = try row.optional("p_revision")
      let archived: Bool? = try row.optional("p_archived")
      if let id = task.projectID, let name, let color, let notes, let position, let total, let completed, let revision {
        project = ProjectItem(
          id: id, name: name, color: color, notes: notes, position: position, counts: CompletionRatio(completed: completed, total: total),
          revision: revision, archived: archived ?? false)
      } else {
        project = nil
      }
      let inboxTotal: Int? = try row.optional("inbox_total")
      let inboxCompleted: Int? = try row.optional("inbox_completed")
      let ownerRevision: Int? = try row.optional("o_revision")
      let nextPosition: Int? = try row.optional("next_position")
      if let inboxTotal, let inboxCompleted, let ownerRevision, let nextPosition {
        owner = OwnerCounters(inbox: CompletionRatio(completed: inboxCompleted, total: inboxTotal), revision: ownerRevision, nextPosition: nextPosition)
      } else {
        owner = nil
      }
    }
  }

  /// A step of the undo list as stored; the tasks before and after it as JSON, or a heading's change (the
  /// `heading_step` column, added with heading steps: a task's step, and every step stored before, has none).
  private struct UndoRow: Decodable {
    let seq: Int
    let kind: String
    let task_id: UUID
    let label: String
    let before_task: String?
    let after_task: String?
    let heading_step: String?

    static let columns = "seq, kind, task_id, label, before_task, after_task, heading_step"

    var step: UndoStep? {
      guard let kind = UndoStep.Kind(rawValue: kind) else { return nil }
      let heading = heading_step.flatMap(StoredHeadingChange.decode)
      // A heading's kind without its change (not written by this server) cannot be taken back.
      if kind.rawValue.hasPrefix("heading_") && heading == nil { return nil }
      return UndoStep(
        seq: seq, kind: kind, taskID: task_id, before: before_task.flatMap(StoredTask.decode), after: after_task.flatMap(StoredTask.decode),
        label: label, heading: heading)
    }
  }

  /// A heading's undo step as stored: the heading before and after, its place, the tasks that were under it.
  private struct StoredHeadingChange: Codable {
    struct Heading: Codable {
      let id: UUID
      let name: String
      let position: Int
    }
    let projectID: UUID
    let before: Heading?
    let after: Heading?
    let place: Int
    let tasks: [UUID]

    init(_ change: UndoStep.HeadingChange) {
      projectID = change.projectID
      before = change.before.map { Heading(id: $0.id, name: $0.name, position: $0.position) }
      after = change.after.map { Heading(id: $0.id, name: $0.name, position: $0.position) }
      place = change.place
      tasks = change.tasks
    }

    var change: UndoStep.HeadingChange {
      func item(_ heading: Heading?) -> HeadingItem? {
        heading.map { HeadingItem(id: $0.id, projectID: projectID, name: $0.name, position: $0.position) }
      }
      return UndoStep.HeadingChange(projectID: projectID, before: item(before), after: item(after), place: place, tasks: tasks)
    }

    static func encode(_ change: UndoStep.HeadingChange?) throws -> String? {
      try change.map { String(decoding: try JSONEncoder().encode(StoredHeadingChange($0)), as: UTF8.self) }
    }

    static func decode(_ text: String) -> UndoStep.HeadingChange? {
      (try? JSONDecoder().decode(StoredHeadingChange.self, from: Data(text.utf8)))?.change
    }
  }

  /// A task as an undo step keeps it: every field, so a deleted task comes back exactly.
  private struct StoredTask: Codable {
    let id: UUID
    let projectID: UUID?
    let title: String
    let notes: String
    let priority: Int
    let dueDate: String?
    let completed: Bool
    let completedAt: Double?
    let position: Int
    let version: Int
    /// Missing in steps stored before headings existed.
    let headingID: UUID?

    init(_ task: TaskItem) {
      headingID = task.headingID
      id = task.id
      projectID = task.projectID
      title = task.title
      notes = task.notes
      priority = task.priority.level
      dueDate = task.dueDate
      completed = task.completed
      completedAt = task.completedAt?.timeIntervalSince1970
      position = task.position
      version = task.version
    }

    var item: TaskItem {
      TaskItem(
        id: id, projectID: projectID, title: title, notes: notes, priority: TaskPriority(level: priority) ?? .none, dueDate: dueDate,
        completed: completed, completedAt: completedAt.map(Date.init(timeIntervalSince1970:)), position: position, version: version,
        headingID: headingID)
    }

    static func encode(_ task: TaskItem?) throws -> String? {
      try task.map { String(decoding: try StreamingJSONEncoder().encode(StoredTask($0)), as: UTF8.self) }
    }

    static func decode(_ text: String) -> TaskItem? {
      (try? JSONDecoder().decode(StoredTask.self, from: Data(text.utf8)))?.item
    }
  }

  // MARK: Reads

  /// The person's last undo step, if any.
  func lastUndoStep(_ user: UUID) async throws -> UndoStep? {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: UndoRow.columns) FROM project_undo WHERE user_id = \(bind: user)
      ORDER BY seq DESC LIMIT 1
      """
    ).firstRow(decoding: UndoRow.self)?.step
  }

  /// The `seq` of the person's last undo step (nil: none): what a live update tells open toasts.
  func lastUndoSeq(_ user: UUID) async throws -> Int? {
    try await sql.raw("SELECT MAX(seq) AS n FROM project_undo WHERE user_id = \(bind: user)").firstRow(decoding: OptionalCount.self)?.n
  }

  private struct OptionalCount: Decodable { let n: Int? }

  /// The person's undo list, oldest first.
  func undoSteps(_ user: UUID) async throws -> [UndoStep] {
    try await sql.raw(
      "SELECT \(unsafeRaw: UndoRow.columns) FROM project_undo WHERE user_id = \(bind: user) ORDER BY seq"
    ).allRows(decoding: UndoRow.self).compactMap(\.step)
  }

  func owner(_ user: UUID) async throws -> OwnerCounters {
    try await sql.raw("SELECT inbox_total, inbox_completed, revision, next_position FROM project_owners WHERE user_id = \(bind: user)")
      .firstRow(reading: OwnerRow.self)?.counters ?? .empty
  }

  func projects(_ user: UUID) async throws -> [ProjectItem] {
    try await sql.raw(
      "SELECT \(unsafeRaw: ProjectRow.columns) FROM projects WHERE user_id = \(bind: user) ORDER BY position, created_at"
    ).allRows(reading: ProjectRow.self).map(\.item)
  }

  func projects(_ user: UUID, ids: Set<UUID>) async throws -> [ProjectItem] {
    guard !ids.isEmpty else { return [] }
    return try await sql.select().column(SQLRaw(ProjectRow.columns)).from(ProjectTables.projects)
      .where("user_id", .equal, SQLBind(user)).where("id", .in, SQLBind.group(Array(ids)))
      .orderBy("position").orderBy("created_at")
      .allRows(reading: ProjectRow.self).map(\.item)
  }

  func project(_ id: UUID, of user: UUID) async throws -> ProjectItem? {
    try await sql.raw(
      "SELECT \(unsafeRaw: ProjectRow.columns) FROM projects WHERE id = \(bind: id) AND user_id = \(bind: user)"
    ).firstRow(reading: ProjectRow.self)?.item
  }

  func tasks(_ user: UUID, in list: TaskList) async throws -> [TaskItem] {
    try await tasks(user, in: list, page: .whole)
  }

  func headings(_ user: UUID, of project: UUID) async throws -> [HeadingItem] {
    try await headings(user, ofProjects: [project])
  }

  /// Every heading of the person, each project's in their order (an export).
  func allHeadings(_ user: UUID) async throws -> [HeadingItem] {
    try await sql.raw("SELECT \(unsafeRaw: HeadingRow.columns) FROM project_headings WHERE user_id = \(bind: user) ORDER BY position, id")
      .allRows(reading: HeadingRow.self).map(\.item)
  }

  /// Every heading of these projects, in their order.
  private func headings(_ user: UUID, ofProjects projects: Set<UUID>) async throws -> [HeadingItem] {
    guard !projects.isEmpty else { return [] }
    return try await sql.select().column(SQLRaw(HeadingRow.columns)).from(ProjectTables.headings)
      .where("user_id", .equal, SQLBind(user)).where("project_id", .in, SQLBind.group(Array(projects)))
      .orderBy("position").orderBy("id")
      .allRows(reading: HeadingRow.self).map(\.item)
  }

  private func headings(_ user: UUID, ids: Set<UUID>) async throws -> [HeadingItem] {
    guard !ids.isEmpty else { return [] }
    return try await sql.select().column(SQLRaw(HeadingRow.columns)).from(ProjectTables.headings)
      .where("user_id", .equal, SQLBind(user)).where("id", .in, SQLBind.group(Array(ids)))
      .allRows(reading: HeadingRow.self).map(\.item)
  }

  func tasks(_ user: UUID, in list: TaskList, page: TaskPage) async throws -> [TaskItem] {
    if let projectID = list.projectID {
      // A project's tasks without a heading first, then each heading's in the headings' order (the id last:
      // pages read with OFFSET need one order that never ties). NULLs sort differently on the two databases,
      // so the group is a CASE.
      var query: SQLQueryString = """
        SELECT \(unsafeRaw: TaskRow.qualifiedColumns) FROM project_tasks t LEFT JOIN project_headings h ON h.id = t.heading_id
        WHERE t.user_id = \(bind: user) AND t.project_id = \(bind: projectID)
        ORDER BY CASE WHEN h.id IS NULL THEN 0 ELSE 1 END, h.position, h.id, t.position, t.created_at, t.id
        """
      // SQLite takes an OFFSET only after a LIMIT: "the rest" is a limit no list reaches.
      if let limit = page.readLimit ?? (page.offset > 0 ? Int(Int32.max) : nil) { query.appendInterpolation(unsafeRaw: " LIMIT \(limit)") }
      if page.offset > 0 { query.appendInterpolation(unsafeRaw: " OFFSET \(page.offset)") }
      return try await sql.raw(query).allRows(reading: TaskRow.self).map(\.item)
    }
    let query = sql.select().column(SQLRaw(TaskRow.columns)).from(ProjectTables.tasks).where("user_id", .equal, SQLBind(user))
    if let projectID = list.projectID {
      query.where("project_id", .equal, SQLBind(projectID))
    } else {
      query.where("project_id", .is, SQLLiteral.null)
    }
    // The id last: pages read with OFFSET need one order that never ties (the in-memory store's insertion
    // order plays the part of `created_at`).
    query.orderBy("position").orderBy("created_at").orderBy("id")
    if let limit = page.readLimit { query.limit(limit) }
    if page.offset > 0 {
      // SQLite takes an OFFSET only after a LIMIT: "the rest" is a limit no list reaches.
      if page.readLimit == nil { query.limit(Int(Int32.max)) }
      query.offset(page.offset)
    }
    return try await query.allRows(reading: TaskRow.self).map(\.item)
  }

  func allTasks(_ user: UUID) async throws -> [TaskItem] {
    try await sql.raw(
      "SELECT \(unsafeRaw: TaskRow.columns) FROM project_tasks WHERE user_id = \(bind: user) ORDER BY position, created_at"
    ).allRows(reading: TaskRow.self).map(\.item)
  }

  private struct TextRow: Decodable {
    let id: UUID
    let title: String
    let notes: String
  }

  func taskTexts(_ user: UUID) async throws -> [TaskSearch.Text] {
    try await sql.raw("SELECT id, title, notes FROM project_tasks WHERE user_id = \(bind: user) ORDER BY position, created_at")
      .allRows(decoding: TextRow.self).map { TaskSearch.Text(id: $0.id, title: $0.title, notes: $0.notes) }
  }

  func tasks(_ user: UUID, ids: [UUID]) async throws -> [TaskItem] {
    guard !ids.isEmpty else { return [] }
    let rows = try await sql.select().column(SQLRaw(TaskRow.columns)).from(ProjectTables.tasks)
      .where("user_id", .equal, SQLBind(user)).where("id", .in, SQLBind.group(ids))
      .allRows(reading: TaskRow.self)
    let byID = Dictionary(rows.map { ($0.item.id, $0.item) }, uniquingKeysWith: { first, _ in first })
    return ids.compactMap { byID[$0] }
  }

  func datedTasks(_ user: UUID, doneSince: Date) async throws -> [TaskItem] {
    try await sql.raw(
      """
      SELECT \(unsafeRaw: TaskRow.columns) FROM project_tasks
      WHERE user_id = \(bind: user) AND due_date IS NOT NULL AND (completed = \(bind: false) OR completed_at >= \(bind: doneSince))
      ORDER BY position, created_at
      """
    ).allRows(reading: TaskRow.self).map(\.item)
  }

  func board(_ footprint: Footprint, of user: UUID) async throws -> TaskBoard {
    if footprint.undo {
      // The last step first, then what it names; the owner's counters even when its task is gone.
      guard let step = try await lastUndoStep(user) else { return TaskBoard(owner: try await owner(user)) }
      // What the step names: a task's, or a heading's project with its headings and the tasks once under it.
      let inner = step.footprint
      var board = try await board(inner, of: user)
      if step.heading == nil, board.tasks[step.taskID] == nil {
        // The task is gone (the step deleted it): the list it goes back to, and the counters, read on their own.
        board.owner = try await owner(user)
        for project in try await projects(user, ids: inner.projects) { board.projects[project.id] = project }
        for heading in try await headings(user, ids: inner.headings) { board.headings[heading.id] = heading }
      }
      board.undo = [step]
      return board
    }
    var board = TaskBoard()
    var projectIDs = footprint.projects
    if let id = footprint.task {
      // The task, the list it is in and the owner's counters in one read: a toggle's whole load.
      // Not this person's task: nothing is loaded, so the command is refused.
      guard let row = try await Self.taskWithListSQL(id, user, on: sql).firstRow(reading: TaskWithListRow.self) else { return board }
      board.tasks[id] = row.task
      if let project = row.project {
        board.projects[project.id] = project
        projectIDs.remove(project.id)
      }
      if let owner = row.owner { board.owner = owner }
    } else {
      board.owner = try await owner(user)
    }
    if !footprint.taskIDs.isEmpty {
      // A batch: its tasks (a foreign or unknown one is simply not loaded, so the command is refused) and their lists.
      for task in try await tasks(user, ids: Array(footprint.taskIDs)) {
        board.tasks[task.id] = task
        if let project = task.projectID, board.projects[project] == nil { projectIDs.insert(project) }
      }
    }
    if footprint.allProjects {
      for project in try await projects(user) { board.projects[project.id] = project }
    } else {
      for project in try await projects(user, ids: projectIDs) { board.projects[project.id] = project }
    }
    if let list = footprint.tasksOf {
      for task in try await tasks(user, in: list) { board.tasks[task.id] = task }
    }
    if footprint.projectCount {
      board.projectCount = try await projectCount(user)
    }
    if !footprint.tasksUnder.isEmpty {
      // A heading's deletion: the tasks under it (its undo step names them).
      let under = try await sql.select().column(SQLRaw(TaskRow.columns)).from(ProjectTables.tasks)
        .where("user_id", .equal, SQLBind(user)).where("heading_id", .in, SQLBind.group(Array(footprint.tasksUnder)))
        .allRows(reading: TaskRow.self)
      for row in under { board.tasks[row.item.id] = row.item }
    }
    if footprint.lastUndoStep, let step = try await lastUndoStep(user) { board.undo = [step] }
    for heading in try await headings(user, ofProjects: footprint.headingsOf) { board.headings[heading.id] = heading }
    for heading in try await headings(user, ids: footprint.headings.subtracting(board.headings.keys)) { board.headings[heading.id] = heading }
    return board
  }

  private struct Count: Decodable { let n: Int }

  // MARK: The statements of every task change, their text made once (``FixedSQL``)

  /// A task, its project and its owner's counters: values the task's id and its owner's.
  private static let taskWithListSQL = FixedSQL(
    """
    SELECT t.id AS id, t.project_id AS project_id, t.title AS title, t.notes AS notes, t.priority AS priority,
      t.due_date AS due_date, t.completed AS completed, t.completed_at AS completed_at, t.position AS position, t.version AS version,
      t.heading_id AS heading_id, p.name AS p_name, p.color AS p_color, p.notes AS p_notes, p.position AS p_position, p.total_count AS p_total,
      p.completed_count AS p_completed, p.revision AS p_revision, p.archived AS p_archived,
      o.inbox_total AS inbox_total, o.inbox_completed AS inbox_completed, o.revision AS o_revision, o.next_position AS next_position
    FROM project_tasks t
      LEFT JOIN projects p ON p.id = t.project_id
      LEFT JOIN project_owners o ON o.user_id = t.user_id
    WHERE t.id = ? AND t.user_id = ?
    """)

  /// The owner's counters moved: values the user, the Inbox's total and completed deltas, the positions taken,
  /// the undo steps recorded less those taken back.
  private static let bumpOwnerSQL = FixedSQL(
    """
    INSERT INTO project_owners (user_id, inbox_total, inbox_completed, revision, next_position, undo_top)
    VALUES (?, ?, ?, 1, ?, ?)
    ON CONFLICT (user_id) DO UPDATE SET
      inbox_total = project_owners.inbox_total + excluded.inbox_total,
      inbox_completed = project_owners.inbox_completed + excluded.inbox_completed,
      revision = project_owners.revision + 1,
      next_position = project_owners.next_position + excluded.next_position,
      undo_top = project_owners.undo_top + excluded.undo_top
    RETURNING inbox_total, inbox_completed, revision, next_position, undo_top
    """)

  /// An undo step in its slot of the person's ring, in place of the oldest step when the ring is full (so no
  /// trim follows; see ``AddProjectUndoSlots``): values the user, the slot, its seq, kind, task, label, the
  /// task before and after, the heading's change, the time.
  private static let recordUndoSQL = FixedSQL(
    """
    INSERT INTO project_undo (user_id, slot, seq, kind, task_id, label, before_task, after_task, heading_step, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (user_id, slot) DO UPDATE SET seq = excluded.seq, kind = excluded.kind, task_id = excluded.task_id,
      label = excluded.label, before_task = excluded.before_task, after_task = excluded.after_task,
      heading_step = excluded.heading_step, created_at = excluded.created_at
    """)

  /// The ring slot of the step that made the undo list's top `top` (steps recorded less those taken back).
  private static func undoSlot(top: Int) -> Int {
    let depth = ProjectLimits.undoDepth
    return ((top - 1) % depth + depth) % depth
  }

  /// A task saved if its version is still the one loaded, answering its time of completion as stored: values its
  /// fields in the order of the statement, then its id, owner and the expected version.
  private static let saveTaskSQL = FixedSQL(
    """
    UPDATE project_tasks SET project_id = ?, title = ?, notes = ?, priority = ?, due_date = ?, completed = ?,
      completed_at = ?, position = ?, version = ?, heading_id = ?, updated_at = ?
    WHERE id = ? AND user_id = ? AND version = ?
    RETURNING completed_at
    """)

  /// A task saved where it is (its list and position as stored, else no row), answering its time of completion as
  /// stored: values its fields in the order of the statement, then its id, owner, expected version, list and position.
  private static let saveTaskInPlaceSQL = FixedSQL(
    """
    UPDATE project_tasks SET title = ?, notes = ?, priority = ?, due_date = ?, completed = ?, completed_at = ?, version = ?,
      heading_id = ?, updated_at = ?
    WHERE id = ? AND user_id = ? AND version = ? AND project_id IS NOT DISTINCT FROM ? AND position = ?
    RETURNING completed_at
    """)

  /// A project's counts moved: values the total and completed deltas, the time, the project and its owner.
  private static let countProjectSQL = FixedSQL(
    """
    UPDATE projects SET total_count = total_count + ?, completed_count = completed_count + ?,
      revision = revision + 1, updated_at = ?
    WHERE id = ? AND user_id = ?
    RETURNING id, name, color, notes, position, total_count, completed_count, revision, archived
    """)

  private func projectCount(_ user: UUID) async throws -> Int {
    try await sql.raw("SELECT COUNT(*) AS n FROM projects WHERE user_id = \(bind: user)").firstRow(decoding: Count.self)?.n ?? 0
  }

  // MARK: Writes (inside the caller's transaction)

  func save(_ effects: [TaskBoardEffect], of user: UUID, at now: Date) async throws -> SavedChange? {
    guard !effects.isEmpty else { return SavedChange(owner: try await owner(user)) }
    // The owner's row first (every change of a person passes it, so two changes of one person queue in one
    // order): the Inbox's counts, the change counter and the positions this change places things at.
    var inbox = CountDelta.none
    var reserved: (count: Int, first: Int)?
    var undoDelta = 0
    for effect in effects {
      switch effect {
      case .listCounted(nil, let delta): inbox = CountDelta(total: inbox.total + delta.total, completed: inbox.completed + delta.completed)
      case .positionsReserved(let count, let first): reserved = (count, first)
      case .undoRecorded: undoDelta += 1
      case .undoTaken: undoDelta -= 1
      default: continue
      }
    }
    let (owner, storedTop) = try await bumpOwner(user, inbox: inbox, positions: reserved?.count ?? 0, undo: undoDelta)
    // The undo list's top as each step is taken back or recorded, in the effects' order.
    var undoTop = storedTop - undoDelta
    // Positions as the handled board saw them, moved to where the stored counter has them.
    let shift = reserved.map { owner.nextPosition - $0.count + 1 - $0.first } ?? 0
    var saved = SavedChange(owner: owner)
    var inserts: [TaskItem] = []
    func keep(_ project: ProjectItem) {
      saved.projects.removeAll { $0.id == project.id }
      saved.projects.append(project)
    }
    for effect in effects {
      switch effect {
      case .positionsReserved, .taskCompleted, .listCounted(nil, _), .refused: continue
      case .undoRecorded(let step):
        undoTop += 1
        try await Self.recordUndoSQL(
          user, Self.undoSlot(top: undoTop), owner.revision, step.kind.rawValue, step.taskID, step.label, try StoredTask.encode(step.before),
          try StoredTask.encode(step.after), try StoredHeadingChange.encode(step.heading), now, on: sql
        ).run()
      case .undoTaken(let step):
        undoTop -= 1
        // Only while it is still the last step: the owner's row is held since this change began, so a step
        // recorded by another change meanwhile is committed and seen here, and the undo is judged again.
        let taken = try await sql.raw(
          """
          DELETE FROM project_undo WHERE user_id = \(bind: user) AND seq = \(bind: step.seq)
            AND NOT EXISTS (SELECT 1 FROM project_undo later WHERE later.user_id = \(bind: user) AND later.seq > \(bind: step.seq))
          RETURNING seq
          """
        ).first()
        guard taken != nil else { return nil }
      case .taskInserted(var task):
        task.position += shift
        inserts.append(task)
        saved.tasks.append(task)
      case .taskSaved(var task, let expected, let placed):
        if placed { task.position += shift }
        // Most saves (a toggle, an edit) leave the task where it is: then the statement that does not set its list
        // or position, so SQLite leaves the two indexes on them alone (it rewrites an index whose column a
        // statement sets, even to the same value). A task that did move is saved whole.
        var row: SavedTaskRow?
        if !placed {
          row = try await Self.saveTaskInPlaceSQL(
            task.title, task.notes, task.priority.level, task.dueDate, task.completed, task.completedAt, task.version, task.headingID, now,
            task.id, user, expected, task.projectID, task.position, on: sql
          ).firstRow(reading: SavedTaskRow.self)
        }
        if row == nil {
          row = try await Self.saveTaskSQL(
            task.projectID, task.title, task.notes, task.priority.level, task.dueDate, task.completed, task.completedAt, task.position,
            task.version, task.headingID, now, task.id, user, expected, on: sql
          ).firstRow(reading: SavedTaskRow.self)
        }
        guard let row else { return nil }
        // The task as written, its time of completion as the database keeps it (a later read answers the same).
        task.completedAt = row.completedAt
        saved.tasks.append(task)
      case .taskDeleted(let id, let expected):
        let gone = try await sql.raw(
          "DELETE FROM project_tasks WHERE id = \(bind: id) AND user_id = \(bind: user) AND version = \(bind: expected) RETURNING id"
        ).first()
        guard gone != nil else { return nil }
      case .listCounted(let id?, let delta):
        guard
          let row = try await Self.countProjectSQL(delta.total, delta.completed, now, id, user, on: sql).firstRow(reading: ProjectRow.self)
        else { return nil }
        keep(row.item)
      case .projectInserted(let project):
        guard
          let row = try await sql.raw(
            """
            INSERT INTO projects (id, user_id, name, color, notes, position, total_count, completed_count, revision, archived, created_at, updated_at)
            VALUES (\(bind: project.id), \(bind: user), \(bind: project.name), \(bind: project.color), \(bind: project.notes),
              \(bind: project.position + shift), \(bind: project.counts.total), \(bind: project.counts.completed), \(bind: project.revision),
              \(bind: project.archived), \(bind: now), \(bind: now))
            RETURNING \(unsafeRaw: ProjectRow.columns)
            """
          ).firstRow(reading: ProjectRow.self)
        else { return nil }
        keep(row.item)
      case .projectEdited(let id, let edit):
        guard
          let row = try await sql.raw(
            """
            UPDATE projects SET name = COALESCE(\(bind: edit.name), name), color = COALESCE(\(bind: edit.color?.rawValue), color),
              notes = COALESCE(\(bind: edit.notes), notes), archived = COALESCE(\(bind: edit.archived), archived),
              revision = revision + 1, updated_at = \(bind: now)
            WHERE id = \(bind: id) AND user_id = \(bind: user)
            RETURNING \(unsafeRaw: ProjectRow.columns)
            """
          ).firstRow(reading: ProjectRow.self)
        else { return nil }
        keep(row.item)
      case .projectDeleted(let id):
        try await sql.raw("DELETE FROM project_tasks WHERE project_id = \(bind: id) AND user_id = \(bind: user)").run()
        try await sql.raw("DELETE FROM project_headings WHERE project_id = \(bind: id) AND user_id = \(bind: user)").run()
        let gone = try await sql.raw("DELETE FROM projects WHERE id = \(bind: id) AND user_id = \(bind: user) RETURNING id").first()
        guard gone != nil else { return nil }
      case .projectsAtMost(let limit):
        guard try await projectCount(user) <= limit else { return nil }
      case .tasksOrdered(let ids):
        try await setPositions(table: ProjectTables.tasks, ids: ids, user: user, bumpRevision: false)
      case .projectsOrdered(let ids):
        try await setPositions(table: ProjectTables.projects, ids: ids, user: user, bumpRevision: true)
      case .headingInserted(let heading):
        guard
          let row = try await sql.raw(
            """
            INSERT INTO project_headings (id, user_id, project_id, name, position, created_at, updated_at)
            VALUES (\(bind: heading.id), \(bind: user), \(bind: heading.projectID), \(bind: heading.name), \(bind: heading.position + shift),
              \(bind: now), \(bind: now))
            ON CONFLICT (id) DO NOTHING
            RETURNING \(unsafeRaw: HeadingRow.columns)
            """
          ).firstRow(reading: HeadingRow.self)
        // The id (a client may propose one) is any heading's already, perhaps another person's: refused, nothing kept.
        else { throw ProjectsError.headingIDTaken }
        saved.headings.append(row.item)
      case .headingRenamed(let id, let name):
        guard
          let row = try await sql.raw(
            """
            UPDATE project_headings SET name = \(bind: name), updated_at = \(bind: now) WHERE id = \(bind: id) AND user_id = \(bind: user)
            RETURNING \(unsafeRaw: HeadingRow.columns)
            """
          ).firstRow(reading: HeadingRow.self)
        else { return nil }
        saved.headings.append(row.item)
      case .headingsOrdered(let ids):
        try await setPositions(table: ProjectTables.headings, ids: ids, user: user, bumpRevision: false)
      case .headingDeleted(let id):
        let gone = try await sql.raw("DELETE FROM project_headings WHERE id = \(bind: id) AND user_id = \(bind: user) RETURNING id").first()
        guard gone != nil else { return nil }
        try await sql.raw("UPDATE project_tasks SET heading_id = NULL WHERE user_id = \(bind: user) AND heading_id = \(bind: id)").run()
      case .tasksPutUnder(let heading, let project, let ids):
        // In chunks: a heading may have had thousands of tasks, more than one statement may bind.
        for start in stride(from: 0, to: ids.count, by: 500) {
          let chunk = Array(ids[start..<min(start + 500, ids.count)])
          try await sql.raw(
            """
            UPDATE project_tasks SET heading_id = \(bind: heading), updated_at = \(bind: now)
            WHERE user_id = \(bind: user) AND project_id = \(bind: project) AND heading_id IS NULL AND id IN \(SQLBind.group(chunk))
            """
          ).run()
        }
      }
    }
    try await insert(inserts, of: user, at: now)
    // A task saved under a heading deleted meanwhile is judged again (and refused). The change wrote its
    // project's row before this read, as a heading's deletion does before it goes: whichever is second
    // waits for the first to commit, then either sees the heading gone here or clears this task with the rest.
    let underHeadings = saved.tasks.filter { $0.headingID != nil }
    if !underHeadings.isEmpty {
      let found = try await headings(user, ids: Set(underHeadings.compactMap(\.headingID)))
      let homes = Dictionary(found.map { ($0.id, $0.projectID) }, uniquingKeysWith: { first, _ in first })
      guard underHeadings.allSatisfy({ homes[$0.headingID!] == $0.projectID }) else { return nil }
    }
    return saved
  }

  /// Bumps the person's change counter, the Inbox's counts by `inbox`, the next position by `positions` and the
  /// undo list's top by `undo` (steps recorded less those taken back); returns the counters and the top after it.
  private func bumpOwner(_ user: UUID, inbox: CountDelta, positions: Int, undo: Int) async throws -> (OwnerCounters, undoTop: Int) {
    let row = try await Self.bumpOwnerSQL(user, inbox.total, inbox.completed, positions, undo, on: sql).firstRow(reading: OwnerRow.self)
    guard let row, let undoTop = row.undoTop else { throw ProjectsError.projectNotFound }
    return (row.counters, undoTop)
  }

  /// Writes positions 0, 1, 2… in one statement.
  private func setPositions(table: String, ids: [UUID], user: UUID, bumpRevision: Bool) async throws {
    guard !ids.isEmpty else { return }
    var cases = SQLQueryString("CASE id")
    for (position, id) in ids.enumerated() {
      cases.appendInterpolation(unsafeRaw: " WHEN ")
      cases.appendInterpolation(bind: id)
      cases.appendInterpolation(unsafeRaw: " THEN \(position)")
    }
    cases.appendInterpolation(unsafeRaw: " END")
    let revision: SQLQueryString = bumpRevision ? ", revision = revision + 1" : ""
    try await sql.raw(
      "UPDATE \(ident: table) SET position = \(cases)\(revision) WHERE user_id = \(bind: user) AND id IN \(SQLBind.group(ids))"
    ).run()
  }

  /// Inserts tasks, many rows a statement (an import of hundreds of lines is a few statements).
  private func insert(_ tasks: [TaskItem], of user: UUID, at now: Date) async throws {
    // 14 binds a row; stay well under SQLite's limit of 32,766 variables a statement.
    for chunk in stride(from: 0, to: tasks.count, by: 500) {
      let insert = sql.insert(into: ProjectTables.tasks).columns(
        "id", "user_id", "project_id", "title", "notes", "priority", "due_date", "completed", "completed_at", "position", "version",
        "created_at", "updated_at", "heading_id")
      for task in tasks[chunk..<min(chunk + 500, tasks.count)] {
        insert.values(
          SQLBind(task.id), SQLBind(user), SQLBind(task.projectID), SQLBind(task.title), SQLBind(task.notes),
          SQLBind(task.priority.level), SQLBind(task.dueDate), SQLBind(task.completed), SQLBind(task.completedAt),
          SQLBind(task.position), SQLBind(task.version), SQLBind(now), SQLBind(now), SQLBind(task.headingID))
      }
      try await insert.run()
    }
  }

  // MARK: Live

  /// Sends a PostgreSQL notification with the caller's transaction (delivered at its commit, or never).
  func notify(channel: String, payload: String) async throws {
    try await sql.raw("SELECT pg_notify(\(bind: channel), \(bind: payload))").run()
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
  func verify() async throws -> (checked: Int, mismatches: [Mismatch]) {
    struct Row: Decodable {
      let user_id: UUID
      let id: UUID?
      let total_count: Int
      let completed_count: Int
      let counted_total: Int
      let counted_completed: Int
    }
    let rows = try await sql.raw(
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
    ).allRows(decoding: Row.self)
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

/// Which of a person's lists a change touched; the live stream reads them again after the commit.
struct ProjectChange: Sendable, Hashable {
  let userID: UUID
  /// Projects whose row changed or that were deleted.
  var projects: Set<UUID>
  /// Every project may have changed (a reorder, an import).
  var all = false
}

extension ProjectItem {
  /// As the API shows it.
  var view: ProjectView {
    ProjectView(
      id: id.uuidText, name: name, color: color, notes: notes, position: position, counts: counts, revision: revision, archived: archived)
  }
}

extension TaskItem {
  /// As the API shows it.
  var view: TaskView { view(on: nil) }

  /// As the API shows it, marked with where it stands on `day` (the person's today; see ``TaskAgenda``).
  func view(on day: TaskDay?) -> TaskView {
    let due = day.flatMap { TaskAgenda.due(self, today: $0.today, zone: $0.zone) }
    return TaskView(
      id: id.uuidText, projectId: projectID?.uuidText, title: title, notes: notes, priority: priority.rawValue, dueDate: dueDate,
      completed: completed, completedAt: completedAt?.timeIntervalSince1970, position: position, revision: version,
      headingId: headingID?.uuidText, due: due?.rawValue,
      daysLate: due == .overdue ? day.map { TaskAgenda.daysLate(self, today: $0.today, zone: $0.zone) } : nil)
  }
}

/// The person's today in the time zone a request names (UTC when none): what marks a task overdue on its view.
struct TaskDay: Sendable {
  let today: CalendarDay
  let zone: TimeZone

  init(zone: TimeZone, at now: Date) {
    self.zone = zone
    today = TaskAgenda.today(at: now, in: zone)
  }
}

extension HeadingItem {
  /// As the API shows it.
  var view: HeadingView { HeadingView(id: id.uuidText, projectId: projectID.uuidText, name: name, position: position) }
}

extension UndoStep {
  /// As the API shows it.
  var view: UndoStepView {
    if let heading {
      return UndoStepView(
        kind: kind.rawValue, taskId: nil, headingId: taskID.uuidText, projectId: heading.projectID.uuidText, label: label, seq: seq)
    }
    return UndoStepView(kind: kind.rawValue, taskId: taskID.uuidText, label: label, seq: seq)
  }
}

extension OwnerCounters {
  /// The Inbox as the API shows it.
  var inboxView: InboxView { InboxView(total: inbox.total, completed: inbox.completed, revision: revision) }
}
