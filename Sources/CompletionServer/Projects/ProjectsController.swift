import CompletionAPI
import CompletionCore
import FluentSQL
import Projects
import Vapor

/// Projects and tasks over HTTP (seed 003). Every change keeps the counts in its own transaction, goes
/// through the one game runner (a task's version is checked on save, so two server processes never lose a
/// change), records a finished project through the ``CompletionRecorder``, and tells the live stream.
struct ProjectsController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    let projects = routes.grouped("api", "projects")
    projects.get(use: overview)
    projects.post(use: createProject)
    projects.put("order", use: orderProjects)
    projects.get("export", use: export)
    projects.post("import", use: importProjects)
    projects.get("events", use: events)
    projects.get("inbox", "tasks") { try await self.tasks($0, projectID: nil) }
    projects.get(":id", "tasks") { try await self.tasks($0, projectID: try Self.id($0.parameters.get("id"), notFound: .projectNotFound)) }
    projects.patch(":id", use: updateProject)
    projects.delete(":id", use: deleteProject)

    let tasks = routes.grouped("api", "tasks")
    tasks.post(use: createTask)
    tasks.put("order", use: orderTasks)
    tasks.patch(":id", use: updateTask)
    tasks.delete(":id", use: deleteTask)
  }

  // MARK: Reads

  /// `GET /api/projects`: the sidebar (empty for someone who has not started).
  @Sendable func overview(req: Request) async throws -> ProjectsOverview {
    guard let userID = req.currentSession?.userID else { return Self.overview(owner: .empty, projects: []) }
    let db = try Self.sql(req.db)
    async let owner = ProjectStore.owner(userID, on: db)
    async let projects = ProjectStore.projects(userID, on: db)
    return Self.overview(owner: try await owner, projects: try await projects)
  }

  static func overview(owner: OwnerRow, projects: [ProjectRow]) -> ProjectsOverview {
    ProjectsOverview(
      inbox: owner.inbox, projects: projects.map(\.view), colors: ProjectColor.allCases.map(\.rawValue), ring: ringPayload,
      revision: owner.revision)
  }

  static let ringPayload = RingAnimationPayload(duration: ProjectRing.duration, samples: ProjectRing.samples())

  /// `GET /api/projects/{id}/tasks`, `GET /api/projects/inbox/tasks`.
  func tasks(_ req: Request, projectID: UUID?) async throws -> TaskListResponse {
    guard let userID = req.currentSession?.userID else {
      if projectID != nil { throw ProjectsError.projectNotFound }
      return TaskListResponse(project: nil, inbox: OwnerRow.empty.inbox, tasks: [])
    }
    let db = try Self.sql(req.db)
    if let projectID {
      guard let project = try await ProjectStore.project(projectID, of: userID, on: db) else { throw ProjectsError.projectNotFound }
      let tasks = try await ProjectStore.tasks(userID, in: projectID, on: db)
      return TaskListResponse(project: project.view, inbox: nil, tasks: tasks.map(\.view))
    }
    async let owner = ProjectStore.owner(userID, on: db)
    async let tasks = ProjectStore.tasks(userID, in: nil, on: db)
    return TaskListResponse(project: nil, inbox: try await owner.inbox, tasks: try await tasks.map(\.view))
  }

  // MARK: Projects

  /// `POST /api/projects` `{name?, color?, notes?}`.
  @Sendable func createProject(req: Request) async throws -> Response {
    let body = try req.decodeJSON(ProjectRequest.self)
    let name = try Self.name(body.name) ?? ProjectLimits.defaultName
    let color = try Self.color(body.color) ?? ProjectColor.default.rawValue
    let notes = try Self.notes(body.notes) ?? ""
    let userID = try await req.userIDCreatingGuest()
    let services = req.application.services
    let now = services.clock.now()
    let row = try await services.runner.write(on: req.db) { db -> ProjectRow? in
      let sql = try Self.sql(db)
      let count = try await sql.raw("SELECT COUNT(*) AS n FROM projects WHERE user_id = \(bind: userID)").first(decoding: Count.self)?.n ?? 0
      guard count < ProjectLimits.maxProjects else { throw ProjectsError.tooManyProjects }
      let owner = try await ProjectStore.bumpOwner(userID, on: sql)
      let id = UUID()
      let row = try await ProjectStore.insertProject(
        id, of: userID, name: name, color: color, notes: notes, position: owner.next_position, counts: CompletionRatio(completed: 0, total: 0),
        at: now, on: sql)
      try await services.projectsLive.announce(ProjectChange(userID: userID, projects: [id]), on: sql)
      return row
    }
    guard let row else { throw RunnerError.busy }
    services.projectsLive.committed(ProjectChange(userID: userID, projects: [row.id]))
    return try await row.view.encodeResponse(status: .created, for: req)
  }

  private struct Count: Decodable { let n: Int }

  /// `PATCH /api/projects/{id}` `{name?, color?, notes?}`.
  @Sendable func updateProject(req: Request) async throws -> ProjectView {
    let id = try Self.id(req.parameters.get("id"), notFound: .projectNotFound)
    let body = try req.decodeJSON(ProjectRequest.self)
    let name = try Self.name(body.name)
    let color = try Self.color(body.color)
    let notes = try Self.notes(body.notes)
    guard let userID = req.currentSession?.userID else { throw ProjectsError.projectNotFound }
    let services = req.application.services
    let now = services.clock.now()
    let row = try await services.runner.write(on: req.db) { db -> ProjectRow? in
      let sql = try Self.sql(db)
      guard
        let row = try await sql.raw(
          """
          UPDATE projects SET name = COALESCE(\(bind: name), name), color = COALESCE(\(bind: color), color),
            notes = COALESCE(\(bind: notes), notes), revision = revision + 1, updated_at = \(bind: now)
          WHERE id = \(bind: id) AND user_id = \(bind: userID)
          RETURNING \(unsafeRaw: ProjectRow.columns)
          """
        ).first(decoding: ProjectRow.self)
      else { throw ProjectsError.projectNotFound }
      try await ProjectStore.bumpOwner(userID, positions: 0, on: sql)
      try await services.projectsLive.announce(ProjectChange(userID: userID, projects: [id]), on: sql)
      return row
    }
    guard let row else { throw RunnerError.busy }
    services.projectsLive.committed(ProjectChange(userID: userID, projects: [id]))
    return row.view
  }

  /// `DELETE /api/projects/{id}`: the project and its tasks.
  @Sendable func deleteProject(req: Request) async throws -> HTTPStatus {
    let id = try Self.id(req.parameters.get("id"), notFound: .projectNotFound)
    guard let userID = req.currentSession?.userID else { throw ProjectsError.projectNotFound }
    let services = req.application.services
    _ = try await services.runner.write(on: req.db) { db -> Bool? in
      let sql = try Self.sql(db)
      try await sql.raw("DELETE FROM project_tasks WHERE project_id = \(bind: id) AND user_id = \(bind: userID)").run()
      let deleted = try await sql.raw("DELETE FROM projects WHERE id = \(bind: id) AND user_id = \(bind: userID) RETURNING id")
        .first()
      guard deleted != nil else { throw ProjectsError.projectNotFound }
      try await ProjectStore.bumpOwner(userID, positions: 0, on: sql)
      try await services.projectsLive.announce(ProjectChange(userID: userID, projects: [id]), on: sql)
      return true
    }
    services.projectsLive.committed(ProjectChange(userID: userID, projects: [id]))
    return .noContent
  }

  /// `PUT /api/projects/order` `{ids}`: every project of the person, in the new order.
  @Sendable func orderProjects(req: Request) async throws -> HTTPStatus {
    let body = try req.decodeJSON(OrderRequest.self)
    let ids = try body.ids.map { try Self.id($0, notFound: .projectNotFound) }
    guard let userID = req.currentSession?.userID else { throw ProjectsError.orderMismatch }
    let services = req.application.services
    _ = try await services.runner.write(on: req.db) { db -> Bool? in
      let sql = try Self.sql(db)
      let existing = try await sql.raw("SELECT id FROM projects WHERE user_id = \(bind: userID)").all(decoding: IDRow.self).map(\.id)
      guard Set(existing) == Set(ids), existing.count == ids.count else { throw ProjectsError.orderMismatch }
      try await Self.setPositions(table: ProjectTables.projects, ids: ids, userID: userID, bumpRevision: true, on: sql)
      try await ProjectStore.bumpOwner(userID, positions: 0, on: sql)
      try await services.projectsLive.announce(ProjectChange(userID: userID, projects: [], all: true), on: sql)
      return true
    }
    services.projectsLive.committed(ProjectChange(userID: userID, projects: [], all: true))
    return .noContent
  }

  struct IDRow: Decodable { let id: UUID }

  /// Writes positions 0, 1, 2… in one statement.
  static func setPositions(table: String, ids: [UUID], userID: UUID, bumpRevision: Bool, on sql: any SQLDatabase) async throws {
    guard !ids.isEmpty else { return }
    var cases = SQLQueryString("CASE id")
    for (position, id) in ids.enumerated() { cases.appendInterpolation(unsafeRaw: " WHEN "); cases.appendInterpolation(bind: id); cases.appendInterpolation(unsafeRaw: " THEN \(position)") }
    cases.appendInterpolation(unsafeRaw: " END")
    let revision: SQLQueryString = bumpRevision ? ", revision = revision + 1" : ""
    try await sql.raw(
      "UPDATE \(ident: table) SET position = \(cases)\(revision) WHERE user_id = \(bind: userID) AND id IN \(SQLBind.group(ids))"
    ).run()
  }

  // MARK: Tasks

  /// `POST /api/tasks` `{title, notes?, priority?, dueDate?, projectId?}`.
  @Sendable func createTask(req: Request) async throws -> Response {
    let body = try req.decodeJSON(TaskRequest.self)
    guard let rawTitle = body.title else { throw ProjectsError.emptyTitle }
    let title = try Self.title(rawTitle)
    let notes = try Self.notes(body.notes) ?? ""
    let priority = try Self.priority(body.priority) ?? .none
    let dueDate: String? = if case .set(let date) = body.dueDate { try Self.dueDate(date) } else { nil }
    let projectID: UUID? = if case .set(let id?) = body.projectId { try Self.id(id, notFound: .projectNotFound) } else { nil }
    let completed = body.completed ?? false
    let userID = try await req.userIDCreatingGuest()
    let services = req.application.services
    let now = services.clock.now()
    let response = try await services.runner.write(on: req.db) { db -> TaskChangeResponse? in
      let sql = try Self.sql(db)
      let delta = CountDelta.added(completed: completed)
      var projects: [ProjectView] = []
      if let projectID {
        guard let project = try await ProjectStore.bumpProject(projectID, of: userID, by: delta, at: now, on: sql) else {
          throw ProjectsError.projectNotFound
        }
        projects.append(project.view)
      }
      let owner = try await ProjectStore.bumpOwner(userID, inbox: projectID == nil ? delta : .none, on: sql)
      let task = ProjectStore.NewTask(
        projectID: projectID, title: title, notes: notes, priority: priority, dueDate: dueDate, completed: completed,
        position: owner.next_position)
      try await ProjectStore.insert([task], of: userID, at: now, on: sql)
      try await services.projectsLive.announce(ProjectChange(userID: userID, projects: Set([projectID].compactMap { $0 })), on: sql)
      let view = TaskView(
        id: task.id.uuidString, projectId: projectID?.uuidString, title: title, notes: notes, priority: priority.rawValue, dueDate: dueDate,
        completed: completed, completedAt: completed ? now.timeIntervalSince1970 : nil, position: task.position)
      return TaskChangeResponse(task: view, projects: projects, inbox: owner.inbox, completion: nil)
    }
    guard let response else { throw RunnerError.busy }
    services.projectsLive.committed(ProjectChange(userID: userID, projects: Set([projectID].compactMap { $0 })))
    return try await response.encodeResponse(status: .created, for: req)
  }

  /// `PATCH /api/tasks/{id}`: any of title, notes, priority, dueDate, completed, projectId.
  @Sendable func updateTask(req: Request) async throws -> Response {
    let id = try Self.id(req.parameters.get("id"), notFound: .taskNotFound)
    let body = try req.decodeJSON(TaskRequest.self)
    let title = try body.title.map(Self.title)
    let notes = try Self.notes(body.notes)
    let priority = try Self.priority(body.priority)
    let dueDate: FieldUpdate<String> = if case .set(let date) = body.dueDate { .set(try Self.dueDate(date)) } else { .unchanged }
    let target: FieldUpdate<UUID> =
      switch body.projectId {
      case .unchanged: .unchanged
      case .set(nil): .set(nil)
      case .set(let raw?): .set(try Self.id(raw, notFound: .projectNotFound))
      }
    let preference = try MotionController.preference(req)
    if let completed = body.completed, body == TaskRequest(completed: completed) {
      return try await toggleTask(req, id: id, completed: completed, preference: preference)
    }
    return try await changeTask(req, id: id, preference: preference) { task in
      TaskEdit(
        title: title ?? task.title, notes: notes ?? task.notes, priority: priority ?? TaskPriority(level: task.priority) ?? .none,
        dueDate: dueDate == .unchanged ? task.due_date : { if case .set(let d) = dueDate { d } else { nil } }(),
        completed: body.completed ?? task.completed,
        projectID: { if case .set(let p) = target { p } else { task.project_id } }(),
        deleted: false)
    }
  }

  /// `DELETE /api/tasks/{id}`.
  @Sendable func deleteTask(req: Request) async throws -> Response {
    let id = try Self.id(req.parameters.get("id"), notFound: .taskNotFound)
    return try await changeTask(req, id: id, preference: .full) { task in
      TaskEdit(
        title: task.title, notes: task.notes, priority: .none, dueDate: nil, completed: task.completed, projectID: task.project_id,
        deleted: true)
    }
  }

  /// What a change makes of a task.
  struct TaskEdit: Sendable {
    var title: String
    var notes: String
    var priority: TaskPriority
    var dueDate: String?
    var completed: Bool
    var projectID: UUID?
    var deleted: Bool
  }

  /// Load → edit → save on the task's version, with the counts of the lists it left and joined, through
  /// the runner (so a lost race runs again, and an `Idempotency-Key` replays the first answer).
  func changeTask(
    _ req: Request, id: UUID, preference: MotionPreference, _ edit: @escaping @Sendable (TaskRow) throws -> TaskEdit
  ) async throws -> Response {
    let db = req.db
    let services = req.application.services
    return try await runTaskChange(req, id: id) { userID, zone, touched, now in
      let sql = try Self.sql(db)
      guard let task = try await ProjectStore.task(id, of: userID, on: sql) else { throw ProjectsError.taskNotFound }
      let change = try edit(task)
      if let to = change.projectID, to != task.project_id, !change.deleted {
        guard try await ProjectStore.project(to, of: userID, on: sql) != nil else { throw ProjectsError.projectNotFound }
      }
      let moved = change.projectID != task.project_id
      // What each list's counts do: leaving one and joining another, or a toggle in place.
      var deltas: [UUID?: CountDelta] = [:]
      if change.deleted {
        deltas[task.project_id] = .removed(completed: task.completed)
      } else if moved {
        deltas[task.project_id] = .removed(completed: task.completed)
        deltas[change.projectID] = .added(completed: change.completed)
      } else {
        deltas[task.project_id] = .toggled(from: task.completed, to: change.completed)
      }
      let listDeltas = deltas
      let completedNow = !task.completed && change.completed && !change.deleted
      let completedAt: Date? = change.completed ? (task.completed ? task.completed_at : now) : nil
      return .save { db in
        // A group commit may run this write again: only the run that commits says what it touched.
        touched.clear()
        let sql = try Self.sql(db)
        if change.deleted {
          let gone = try await sql.raw("DELETE FROM project_tasks WHERE id = \(bind: id) AND version = \(bind: task.version) RETURNING id").first()
          guard gone != nil else { return nil }
        } else {
          let saved = try await sql.raw(
            """
            UPDATE project_tasks SET title = \(bind: change.title), notes = \(bind: change.notes), priority = \(bind: change.priority.level),
              due_date = \(bind: change.dueDate), completed = \(bind: change.completed), completed_at = \(bind: completedAt),
              project_id = \(bind: change.projectID), version = version + 1, updated_at = \(bind: now)
            WHERE id = \(bind: id) AND version = \(bind: task.version)
            RETURNING id
            """
          ).first()
          guard saved != nil else { return nil }
        }
        var projects: [ProjectRow] = []
        // Every list the task was or is in moves its revision (its task list changed), counts or not.
        for list in Set([task.project_id, change.projectID]) {
          guard let list else { continue }
          guard let row = try await ProjectStore.bumpProject(list, of: userID, by: listDeltas[list] ?? .none, at: now, on: sql) else {
            throw ProjectsError.projectNotFound
          }
          projects.append(row)
        }
        let owner = try await ProjectStore.bumpOwner(userID, inbox: listDeltas[nil] ?? .none, positions: moved ? 1 : 0, on: sql)
        if moved && !change.deleted {
          // A moved task goes to the end of its new list.
          try await sql.raw("UPDATE project_tasks SET position = \(bind: owner.next_position) WHERE id = \(bind: id)").run()
        }
        let completion =
          completedNow
          ? try await Self.recordCompletion(
            of: projects.first { $0.id == change.projectID }, userID: userID, zone: zone, preference: preference, at: now, on: db)
          : nil
        let changed = ProjectChange(userID: userID, projects: Set(projects.map(\.id)))
        try await services.projectsLive.announce(changed, on: sql)
        touched.set(changed)
        let view =
          change.deleted
          ? nil
          : TaskView(
            id: id.uuidString, projectId: change.projectID?.uuidString, title: change.title, notes: change.notes,
            priority: change.priority.rawValue, dueDate: change.dueDate, completed: change.completed,
            completedAt: completedAt?.timeIntervalSince1970, position: moved ? owner.next_position : task.position)
        return try StoredResponse(TaskChangeResponse(task: view, projects: projects.map(\.view), inbox: owner.inbox, completion: completion))
      }
    }
  }

  /// Runs a change of task `id` through the runner: the person from the session, an `Idempotency-Key`
  /// from the header, the time zone the completion is recorded in; afterwards the lists the committed
  /// change touched are told to this process's live pages (a replay changed nothing, so tells no one).
  private func runTaskChange(
    _ req: Request, id: UUID,
    _ attempt: @escaping @Sendable (_ userID: UUID, _ zone: String, _ touched: AfterCommit<ProjectChange>, _ now: Date) async throws
      -> GameRunner.Step<StoredResponse>
  ) async throws -> Response {
    guard let userID = req.currentSession?.userID else { throw ProjectsError.taskNotFound }
    let services = req.application.services
    let idempotency = try IdempotencyKey.header(of: req).map {
      try IdempotencyKey(userID: userID, namespace: "projects:", key: $0, scope: "\(req.method) \(req.url.path)", body: req)
    }
    let zone = TimeZoneName.parse(req.headers.first(name: "Time-Zone"))?.identifier ?? "UTC"
    let touched = AfterCommit<ProjectChange>()
    let stored = try await services.runner.run(game: id, on: req.db, idempotency: idempotency) { now, _ in
      try await attempt(userID, zone, touched, now)
    }
    if let changed = touched.value, !stored.replayed { services.projectsLive.committed(changed) }
    return stored.response
  }

  /// Records the completion of `project` when this change finished it (its last open task completed).
  static func recordCompletion(
    of project: ProjectRow?, userID: UUID, zone: String, preference: MotionPreference, at now: Date, on db: any Database
  ) async throws -> ProjectCompletionView? {
    guard let project, project.counts.isComplete else { return nil }
    let recorded = try await CompletionRecorder.record(
      ProjectCompletion.completion(projectID: project.id.uuidString, account: userID.uuidString, at: now, timeZone: zone),
      rules: ProjectCompletion.rules, preference: preference, on: db)
    let points = recorded.payments.reduce(0) { sum, outcome in
      if case .recorded(let entry, _) = outcome { return sum + entry.amount }
      return sum
    }
    return ProjectCompletionView(
      isFirst: recorded.isFirst, points: points, celebration: recorded.choreography.map { ChoreographyPayload($0, preference: preference) },
      holdSeconds: ProjectCompletion.holdSeconds)
  }

  /// Completing or reopening a task, the most frequent change, in three statements: the task's flag is
  /// flipped only if it differs (so concurrent toggles count once without a version read), then its
  /// list's counts and the person's revision move. A task already in that state changes nothing.
  func toggleTask(_ req: Request, id: UUID, completed: Bool, preference: MotionPreference) async throws -> Response {
    let services = req.application.services
    return try await runTaskChange(req, id: id) { userID, zone, touched, now in
      .save { db in
        touched.clear()  // as in changeTask: a write may run again
        let sql = try Self.sql(db)
        let flipped = try await sql.raw(
          """
          UPDATE project_tasks SET completed = \(bind: completed), completed_at = \(bind: completed ? now : nil),
            version = version + 1, updated_at = \(bind: now)
          WHERE id = \(bind: id) AND user_id = \(bind: userID) AND completed <> \(bind: completed)
          RETURNING \(unsafeRaw: TaskRow.columns)
          """
        ).first(decoding: TaskRow.self)
        guard let task = flipped else {
          // Not this person's, or already in that state: then answer with things as they are.
          guard let task = try await ProjectStore.task(id, of: userID, on: sql) else { throw ProjectsError.taskNotFound }
          let project = try await task.project_id.asyncMap { try await ProjectStore.project($0, of: userID, on: sql) } ?? nil
          let owner = try await ProjectStore.owner(userID, on: sql)
          return try StoredResponse(TaskChangeResponse(task: task.view, projects: project.map { [$0.view] } ?? [], inbox: owner.inbox, completion: nil))
        }
        let delta = CountDelta.toggled(from: !completed, to: completed)
        var projects: [ProjectRow] = []
        if let list = task.project_id {
          guard let row = try await ProjectStore.bumpProject(list, of: userID, by: delta, at: now, on: sql) else { throw ProjectsError.projectNotFound }
          projects.append(row)
        }
        let owner = try await ProjectStore.bumpOwner(userID, inbox: task.project_id == nil ? delta : .none, positions: 0, on: sql)
        let completion =
          completed
          ? try await Self.recordCompletion(of: projects.first, userID: userID, zone: zone, preference: preference, at: now, on: db) : nil
        let changed = ProjectChange(userID: userID, projects: Set(projects.map(\.id)))
        try await services.projectsLive.announce(changed, on: sql)
        touched.set(changed)
        return try StoredResponse(TaskChangeResponse(task: task.view, projects: projects.map(\.view), inbox: owner.inbox, completion: completion))
      }
    }
  }

  /// `PUT /api/tasks/order` `{projectId, ids}`: every task of that list, in the new order.
  @Sendable func orderTasks(req: Request) async throws -> HTTPStatus {
    let body = try req.decodeJSON(OrderRequest.self)
    let projectID = try body.projectId.map { try Self.id($0, notFound: .projectNotFound) }
    let ids = try body.ids.map { try Self.id($0, notFound: .taskNotFound) }
    guard let userID = req.currentSession?.userID else { throw ProjectsError.orderMismatch }
    let services = req.application.services
    let now = services.clock.now()
    _ = try await services.runner.write(on: req.db) { db -> Bool? in
      let sql = try Self.sql(db)
      if let projectID, try await ProjectStore.project(projectID, of: userID, on: sql) == nil { throw ProjectsError.projectNotFound }
      let existing = try await ProjectStore.tasks(userID, in: projectID, on: sql).map(\.id)
      guard Set(existing) == Set(ids), existing.count == ids.count else { throw ProjectsError.orderMismatch }
      try await Self.setPositions(table: ProjectTables.tasks, ids: ids, userID: userID, bumpRevision: false, on: sql)
      if let projectID {
        guard try await ProjectStore.bumpProject(projectID, of: userID, by: .none, at: now, on: sql) != nil else {
          throw ProjectsError.projectNotFound
        }
      }
      try await ProjectStore.bumpOwner(userID, positions: 0, on: sql)
      try await services.projectsLive.announce(ProjectChange(userID: userID, projects: Set([projectID].compactMap { $0 })), on: sql)
      return true
    }
    services.projectsLive.committed(ProjectChange(userID: userID, projects: Set([projectID].compactMap { $0 })))
    return .noContent
  }

  // MARK: Import and export

  /// `GET /api/projects/export`: everything the person has, as a file.
  @Sendable func export(req: Request) async throws -> Response {
    var export = ProjectsExport(inbox: [], projects: [])
    if let userID = req.currentSession?.userID {
      let db = try Self.sql(req.db)
      let projects = try await ProjectStore.projects(userID, on: db)
      let tasks = try await db.raw(
        "SELECT \(unsafeRaw: TaskRow.columns) FROM project_tasks WHERE user_id = \(bind: userID) ORDER BY position, created_at"
      ).all(decoding: TaskRow.self)
      let byProject = Dictionary(grouping: tasks, by: \.project_id)
      func exported(_ task: TaskRow) -> ProjectsExport.Task {
        ProjectsExport.Task(
          title: task.title, notes: task.notes, priority: (TaskPriority(level: task.priority) ?? .none).rawValue, dueDate: task.due_date,
          completed: task.completed)
      }
      export = ProjectsExport(
        inbox: (byProject[nil] ?? []).map(exported),
        projects: projects.map { project in
          ProjectsExport.Project(name: project.name, color: project.color, notes: project.notes, tasks: (byProject[project.id] ?? []).map(exported))
        })
    }
    let response = try await export.encodeResponse(for: req)
    response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"projects.json\"")
    return response
  }

  /// `POST /api/projects/import`: an export (JSON) or a plain list (text), added to what the person has.
  /// Checked whole first: one bad row refuses everything, with a message per row.
  @Sendable func importProjects(req: Request) async throws -> ProjectsImportResult {
    let export: ProjectsExport
    if req.headers.contentType?.subType == "plain" {
      guard let buffer = req.body.data else { throw ProjectsError.invalidImport(PlainListError.empty.description) }
      switch PlainListImport.parse(String(decoding: Data(buffer: buffer), as: UTF8.self)) {
      case .failure(let error): throw ProjectsError.invalidImport(error.description)
      case .success(let list):
        func task(_ task: PlainListImport.Task) -> ProjectsExport.Task {
          ProjectsExport.Task(title: task.title, notes: "", priority: "none", dueDate: nil, completed: task.completed)
        }
        export = ProjectsExport(
          inbox: list.inbox.map(task),
          projects: list.projects.map { ProjectsExport.Project(name: $0.name, color: ProjectColor.default.rawValue, notes: "", tasks: $0.tasks.map(task)) })
      }
    } else {
      let file: ProjectsExport
      do {
        file = try req.decodeJSON(ProjectsExport.self)
      } catch is DecodingError {
        throw ProjectsError.invalidImport(
          "this is not a CompletionKit projects file. Use a file made by Export, or paste a plain list (one task a line, “# Name” starts a project).")
      }
      try Self.check(file)
      export = try Self.cleaned(file)
    }
    let userID = try await req.userIDCreatingGuest()
    let services = req.application.services
    let now = services.clock.now()
    let result = try await services.runner.write(on: req.db) { db -> ProjectsImportResult? in
      let sql = try Self.sql(db)
      let count = try await sql.raw("SELECT COUNT(*) AS n FROM projects WHERE user_id = \(bind: userID)").first(decoding: Count.self)?.n ?? 0
      guard count + export.projects.count <= ProjectLimits.maxProjects else { throw ProjectsError.tooManyProjects }
      let taskCount = export.inbox.count + export.projects.reduce(0) { $0 + $1.tasks.count }
      let inboxDelta = CountDelta(total: export.inbox.count, completed: export.inbox.filter(\.completed).count)
      let owner = try await ProjectStore.bumpOwner(userID, inbox: inboxDelta, positions: taskCount + export.projects.count, on: sql)
      var position = owner.next_position - (taskCount + export.projects.count)
      func next() -> Int {
        defer { position += 1 }
        return position
      }
      var tasks: [ProjectStore.NewTask] = []
      func add(_ task: ProjectsExport.Task, to projectID: UUID?) {
        tasks.append(
          ProjectStore.NewTask(
            projectID: projectID, title: task.title, notes: task.notes, priority: TaskPriority(rawValue: task.priority) ?? .none,
            dueDate: task.dueDate, completed: task.completed, position: next()))
      }
      for task in export.inbox { add(task, to: nil) }
      for project in export.projects {
        let id = UUID()
        _ = try await ProjectStore.insertProject(
          id, of: userID, name: project.name, color: project.color, notes: project.notes, position: next(),
          counts: CompletionRatio(completed: project.tasks.filter(\.completed).count, total: project.tasks.count), at: now, on: sql)
        for task in project.tasks { add(task, to: id) }
      }
      try await ProjectStore.insert(tasks, of: userID, at: now, on: sql)
      try await services.projectsLive.announce(ProjectChange(userID: userID, projects: [], all: true), on: sql)
      return ProjectsImportResult(projectsAdded: export.projects.count, tasksAdded: taskCount)
    }
    guard let result else { throw RunnerError.busy }
    services.projectsLive.committed(ProjectChange(userID: userID, projects: [], all: true))
    return result
  }

  /// An export's text as typed ones are kept: titles on one line and trimmed, names trimmed (after ``check(_:)``).
  static func cleaned(_ export: ProjectsExport) throws -> ProjectsExport {
    func task(_ task: ProjectsExport.Task) throws -> ProjectsExport.Task {
      ProjectsExport.Task(title: try title(task.title), notes: task.notes, priority: task.priority, dueDate: task.dueDate, completed: task.completed)
    }
    return ProjectsExport(
      inbox: try export.inbox.map(task),
      projects: try export.projects.map { project in
        ProjectsExport.Project(
          name: try name(project.name) ?? ProjectLimits.defaultName, color: project.color, notes: project.notes, tasks: try project.tasks.map(task))
      })
  }

  /// Checks an export before anything is written: every problem, each with where it is.
  static func check(_ export: ProjectsExport) throws {
    var problems: [String] = []
    if export.format != ProjectsExport.formatName || export.version != 1 {
      problems.append("this is not a CompletionKit projects file (format “\(ProjectsExport.formatName)”, version 1).")
    }
    func checkTask(_ task: ProjectsExport.Task, _ place: String) {
      let title = task.title.trimmingCharacters(in: .whitespacesAndNewlines)
      if title.isEmpty { problems.append("\(place): a task needs a title.") }
      if !fits(task.title, ProjectLimits.maxTitleLength) { problems.append("\(place): the title is over \(ProjectLimits.maxTitleLength) characters.") }
      if !fits(task.notes, ProjectLimits.maxNotesLength) { problems.append("\(place): the notes are over \(ProjectLimits.maxNotesLength) characters.") }
      if TaskPriority(rawValue: task.priority) == nil { problems.append("\(place): “\(task.priority)” is not a priority.") }
      if let date = task.dueDate, CalendarDay(date) == nil { problems.append("\(place): “\(date)” is not a date (YYYY-MM-DD).") }
    }
    for (index, task) in export.inbox.enumerated() { checkTask(task, "Inbox task \(index + 1)") }
    for (index, project) in export.projects.enumerated() {
      let place = "Project \(index + 1)"
      let name = project.name.trimmingCharacters(in: .whitespacesAndNewlines)
      if name.isEmpty || !fits(project.name, ProjectLimits.maxNameLength) { problems.append("\(place): a name needs 1–\(ProjectLimits.maxNameLength) characters.") }
      if ProjectColor(rawValue: project.color) == nil { problems.append("\(place): “\(project.color)” is not a project colour.") }
      if !fits(project.notes, ProjectLimits.maxNotesLength) { problems.append("\(place): the notes are too long.") }
      for (taskIndex, task) in project.tasks.enumerated() { checkTask(task, "\(place), task \(taskIndex + 1)") }
    }
    let total = export.inbox.count + export.projects.reduce(0) { $0 + $1.tasks.count }
    if total > ProjectLimits.maxTasksPerImport { problems.append("the file has \(total) tasks; at most \(ProjectLimits.maxTasksPerImport) at once.") }
    if !problems.isEmpty { throw ProjectsError.invalidImport(problems.prefix(20).joined(separator: " ")) }
  }

  // MARK: Live

  /// `GET /api/projects/events`: server-sent events (see ``ProjectsLive``).
  @Sendable func events(req: Request) async throws -> Response {
    guard let userID = req.currentSession?.userID else { throw AppError.unauthenticated }
    let lastSeen = req.headers.first(name: "Last-Event-ID").flatMap(Int.init)
    return try await req.application.services.projectsLive.stream(for: userID, lastSeen: lastSeen, on: req)
  }

  // MARK: Input

  static func sql(_ db: any Database) throws -> any SQLDatabase {
    guard let sql = db as? any SQLDatabase else { preconditionFailure("CompletionKit runs on SQL databases only") }
    return sql
  }

  static func id(_ raw: String?, notFound: ProjectsError) throws -> UUID {
    guard let raw else { throw notFound }
    guard let id = UUID(uuidString: raw) else { throw ProjectsError.invalidID(String(raw.prefix(64))) }
    return id
  }

  /// Whether `text` keeps within `limit`. Limits count what was sent, in code points, as the API document's
  /// `maxLength` does; the same for a request and for a file being imported.
  static func fits(_ text: String, _ limit: Int) -> Bool {
    text.unicodeScalars.count <= limit
  }

  static func name(_ raw: String?) throws -> String? {
    guard let raw else { return nil }
    let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
    guard fits(raw, ProjectLimits.maxNameLength) else { throw ProjectsError.tooLong(field: "name", limit: ProjectLimits.maxNameLength) }
    return name.isEmpty ? ProjectLimits.defaultName : name
  }

  static func title(_ raw: String) throws -> String {
    guard fits(raw, ProjectLimits.maxTitleLength) else { throw ProjectsError.tooLong(field: "title", limit: ProjectLimits.maxTitleLength) }
    // A title is one line of text: line breaks, tabs and other control characters become spaces.
    let oneLine = String(String.UnicodeScalarView(raw.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    let title = oneLine.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty else { throw ProjectsError.emptyTitle }
    return title
  }

  static func notes(_ raw: String?) throws -> String? {
    guard let raw else { return nil }
    guard fits(raw, ProjectLimits.maxNotesLength) else { throw ProjectsError.tooLong(field: "notes", limit: ProjectLimits.maxNotesLength) }
    return raw
  }

  static func color(_ raw: String?) throws -> String? {
    guard let raw else { return nil }
    guard let color = ProjectColor(rawValue: raw) else { throw ProjectsError.invalidColor(String(raw.prefix(40))) }
    return color.rawValue
  }

  static func priority(_ raw: String?) throws -> TaskPriority? {
    guard let raw else { return nil }
    guard let priority = TaskPriority(rawValue: raw) else { throw ProjectsError.invalidPriority(String(raw.prefix(40))) }
    return priority
  }

  static func dueDate(_ raw: String?) throws -> String? {
    guard let raw, !raw.isEmpty else { return nil }
    // Years 1900–2999: a date typed digit by digit passes through "0002-07-04" on its way to 2026.
    guard raw.count == 10, let day = CalendarDay(raw), let year = Int(raw.prefix(4)), (1900...2999).contains(year) else {
      throw ProjectsError.invalidDueDate(String(raw.prefix(40)))
    }
    return day.description
  }
}

extension Optional {
  /// `map` with an async transform.
  func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
    guard let self else { return nil }
    return try await transform(self)
  }
}
