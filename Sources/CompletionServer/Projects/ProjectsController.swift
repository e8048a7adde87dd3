import CompletionAPI
import CompletionCore
import Fluent
import Projects
import Vapor

/// Projects and tasks over HTTP (seed 003). Every change is load → handle → save: the store reads what the
/// command touches, the core (``TaskBoard``) decides and says what to write, the store writes it in one
/// transaction through the runner (a task's version is checked on save, so two server processes never lose
/// a change, and an `Idempotency-Key` replays the first answer). A finished project is recorded through the
/// ``CompletionRecorder`` in the same transaction, and the live stream is told after the commit.
struct ProjectsController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(.getProjectsOverview, use: overview)
    routes.on(.createProject, use: createProject)
    routes.on(.orderProjects, use: orderProjects)
    routes.on(.exportProjects, use: export)
    routes.on(.importProjects, use: importProjects)
    routes.on(.previewImport, use: previewImport)
    routes.on(.projectsEvents, use: events)
    routes.on(.listInboxTasks) { try await self.tasks($0, in: .inbox) }
    routes.on(.listProjectTasks) { try await self.tasks($0, in: .project(try ProjectInput.id($0.parameters.get("id"), notFound: .projectNotFound))) }
    routes.on(.updateProject, use: updateProject)
    routes.on(.listHeadings, use: listHeadings)
    routes.on(.createHeading, use: createHeading)
    routes.on(.updateHeading, use: updateHeading)
    routes.on(.deleteHeading, use: deleteHeading)
    routes.on(.deleteProject, use: deleteProject)

    routes.on(.createTask, use: createTask)
    routes.on(.orderTasks, use: orderTasks)
    routes.on(.batchTasks, use: batchTasks)
    routes.on(.tasksToday, use: today)
    routes.on(.tasksUpcoming, use: upcoming)
    routes.on(.searchTasks, use: search)
    routes.on(.undoTaskChange, use: undo)
    routes.on(.updateTask, use: updateTask)
    routes.on(.deleteTask, use: deleteTask)
  }

  // MARK: Reads

  /// `GET /api/projects`: the sidebar (empty for someone who has not started).
  @Sendable func overview(req: Request) async throws -> ProjectsOverview {
    guard let userID = req.currentSession?.userID else { return Self.overview(owner: .empty, projects: []) }
    let store = SQLProjectsStore(req.db)
    async let owner = store.owner(userID)
    async let projects = store.projects(userID)
    return Self.overview(owner: try await owner, projects: try await projects)
  }

  static func overview(owner: OwnerCounters, projects: [ProjectItem]) -> ProjectsOverview {
    ProjectsOverview(
      inbox: owner.inboxView, projects: projects.map(\.view), colors: ProjectColor.allCases.map(\.rawValue), ring: ringPayload,
      revision: owner.revision, colorLabels: colorLabels, priorities: priorities, limits: .current)
  }

  /// The labels a page shows for colours and priorities (sent so no page keeps its own copy).
  static let colorLabels = ProjectColor.allCases.map { LabelledValue(value: $0.rawValue, label: $0.label) }
  static let priorities = TaskPriority.allCases.map { LabelledValue(value: $0.rawValue, label: $0.label) }

  static let ringPayload = RingAnimationPayload(duration: ProjectRing.duration, samples: ProjectRing.samples())

  /// `GET /api/projects/{id}/tasks`, `GET /api/projects/inbox/tasks`: the whole list, or with `?limit=` a page
  /// of it and the cursor of the next (`?after=`; see ``TaskPage``). A first page reads the list's revision
  /// before its tasks and a later page after them, so a cursor whose revision still holds proves that no
  /// change came between the pages; one that does not is refused with `409 list_changed`.
  func tasks(_ req: Request, in list: TaskList) async throws -> TaskListResponse {
    let page = try TaskPage.parse(limit: req.query[String.self, at: "limit"], after: req.query[String.self, at: "after"])
    guard let userID = req.currentSession?.userID else {
      if list != .inbox { throw ProjectsError.projectNotFound }
      try page.check(revision: 0)
      return TaskListResponse(project: nil, inbox: OwnerCounters.empty.inboxView, tasks: [])
    }
    // Headings are few: every page carries the project's, so a page read alone can draw its groups.
    var headings: [HeadingView] = []
    let store = SQLProjectsStore(req.db)
    let firstPage = page.revision == nil
    var tasks: [TaskItem] = []
    if !firstPage { tasks = try await store.tasks(userID, in: list, page: page) }
    let project: ProjectView?
    let inbox: InboxView?
    let revision: Int
    if let projectID = list.projectID {
      guard let item = try await store.project(projectID, of: userID) else { throw ProjectsError.projectNotFound }
      (project, inbox, revision) = (item.view, nil, item.revision)
      headings = try await store.headings(userID, of: projectID).map(\.view)
    } else {
      let owner = try await store.owner(userID)
      (project, inbox, revision) = (nil, owner.inboxView, owner.revision)
    }
    try page.check(revision: revision)
    if firstPage { tasks = try await store.tasks(userID, in: list, page: page) }
    let next = page.next(read: tasks.count, revision: revision)
    // Each task marked as Today marks it (overdue, in the request's time zone): the page draws the words.
    let day = TaskDay(zone: req.context.timeZoneOrUTC, at: req.application.services.clock.now())
    return TaskListResponse(
      project: project, inbox: inbox, tasks: tasks.prefix(page.limit ?? .max).map { $0.view(on: day) }, next: next, headings: headings)
  }

  // MARK: Projects

  /// `POST /api/projects` `{name?, color?, notes?}`; an `Idempotency-Key` makes a retry answer as the first did.
  @Sendable func createProject(req: Request) async throws -> Response {
    let body = try req.decodeJSON(ProjectRequest.self)
    let project = NewProject(
      id: UUID(), name: try ProjectInput.name(body.name) ?? ProjectLimits.defaultName, color: try ProjectInput.color(body.color) ?? .default,
      notes: try ProjectInput.notes(body.notes) ?? "")
    let userID = try await req.userIDCreatingGuest()
    return try await perform(.addProject(project), of: userID, idempotency: try Self.idempotency(req, userID), on: req) { done in
      guard let row = done.saved.projects.first else { throw ProjectsError.projectNotFound }
      return try StoredResponse(row.view, status: .created)
    }.response
  }

  /// `PATCH /api/projects/{id}` `{name?, color?, notes?, archived?}`.
  @Sendable func updateProject(req: Request) async throws -> Response {
    let id = try ProjectInput.id(req.parameters.get("id"), notFound: .projectNotFound)
    let body = try req.decodeJSON(ProjectRequest.self)
    let edit = ProjectEdit(
      name: try ProjectInput.name(body.name), color: try ProjectInput.color(body.color), notes: try ProjectInput.notes(body.notes),
      archived: body.archived)
    guard let userID = req.currentSession?.userID else { throw ProjectsError.projectNotFound }
    return try await perform(.editProject(id, edit), of: userID, queue: id, on: req) { done in
      guard let row = done.saved.projects.first else { throw ProjectsError.projectNotFound }
      return try StoredResponse(row.view)
    }.response
  }

  /// `DELETE /api/projects/{id}`: the project and its tasks.
  @Sendable func deleteProject(req: Request) async throws -> HTTPStatus {
    let id = try ProjectInput.id(req.parameters.get("id"), notFound: .projectNotFound)
    guard let userID = req.currentSession?.userID else { throw ProjectsError.projectNotFound }
    _ = try await perform(.deleteProject(id), of: userID, queue: id, on: req) { _ in .noContent }
    return .noContent
  }

  /// `PUT /api/projects/order` `{ids}`: every project of the person, in the new order.
  @Sendable func orderProjects(req: Request) async throws -> HTTPStatus {
    let body = try req.decodeJSON(OrderRequest.self)
    let ids = try body.ids.map { try ProjectInput.id($0, notFound: .projectNotFound) }
    guard let userID = req.currentSession?.userID else { throw ProjectsError.orderMismatch }
    _ = try await perform(.orderProjects(ids), of: userID, queue: userID, on: req) { _ in .noContent }
    return .noContent
  }

  // MARK: Headings

  /// `GET /api/projects/headings`: every heading of the person's projects, by project in the projects' order
  /// (none for someone who has not started).
  @Sendable func listHeadings(req: Request) async throws -> HeadingListResponse {
    guard let userID = req.currentSession?.userID else { return HeadingListResponse(headings: []) }
    let store = SQLProjectsStore(req.db)
    async let projects = store.projects(userID)
    async let headings = store.allHeadings(userID)
    let byProject = Dictionary(grouping: try await headings, by: \.projectID)
    return HeadingListResponse(headings: try await projects.flatMap { byProject[$0.id] ?? [] }.map(\.view))
  }

  /// `POST /api/projects/{id}/headings` `{name?, id?}`: a heading at the end of the project's headings (a blank name
  /// gives the default), with the id the client proposes or a new one. An `Idempotency-Key` makes a retry answer as
  /// the first did.
  @Sendable func createHeading(req: Request) async throws -> Response {
    let projectID = try ProjectInput.id(req.parameters.get("id"), notFound: .projectNotFound)
    let body = try req.decodeJSON(HeadingRequest.self)
    let id = try body.id.map { try ProjectInput.id($0, notFound: .invalidID($0)) } ?? UUID()
    let heading = NewHeading(id: id, projectID: projectID, name: try ProjectInput.headingName(body.name) ?? ProjectLimits.defaultHeadingName)
    guard let userID = req.currentSession?.userID else { throw ProjectsError.projectNotFound }
    return try await perform(.addHeading(heading), of: userID, queue: projectID, idempotency: try Self.idempotency(req, userID), on: req) { done in
      try StoredResponse(Self.headingsChange(done, project: projectID, heading: heading.id), status: .created)
    }.response
  }

  /// `PATCH /api/projects/{id}/headings/{headingId}` `{name?, position?, baseName?}`: a new name, a new place, or
  /// both; a rename made on a name the heading no longer has (`baseName`) is `409 heading_conflict`.
  @Sendable func updateHeading(req: Request) async throws -> Response {
    let projectID = try ProjectInput.id(req.parameters.get("id"), notFound: .projectNotFound)
    let headingID = try ProjectInput.id(req.parameters.get("headingId"), notFound: .headingNotFound)
    let body = try req.decodeJSON(HeadingRequest.self)
    let name = try ProjectInput.headingName(body.name)
    guard let userID = req.currentSession?.userID else { throw ProjectsError.headingNotFound }
    let command = TaskBoardCommand.editHeading(headingID, in: projectID, name: name, to: body.position, since: body.baseName)
    do {
      return try await perform(command, of: userID, queue: projectID, idempotency: try Self.idempotency(req, userID), on: req) { done in
        try StoredResponse(Self.headingsChange(done, project: projectID, heading: headingID))
      }.response
    } catch ProjectsError.headingConflict(let current) {
      // The refusal carries the heading as it is now: the page shows both names and the person chooses.
      let refusal = ProjectsError.headingConflict(current)
      return try StoredResponse(HeadingConflictBody(code: refusal.code, message: refusal.message, heading: current.view), status: .conflict)
        .response
    }
  }

  /// `DELETE /api/projects/{id}/headings/{headingId}`: the heading goes; its tasks stay in the project, under
  /// no heading. Answers the project's headings as they are after it.
  @Sendable func deleteHeading(req: Request) async throws -> Response {
    let projectID = try ProjectInput.id(req.parameters.get("id"), notFound: .projectNotFound)
    let headingID = try ProjectInput.id(req.parameters.get("headingId"), notFound: .headingNotFound)
    guard let userID = req.currentSession?.userID else { throw ProjectsError.headingNotFound }
    // With an `Idempotency-Key`, a retry after a lost answer answers as the first did (not `heading_not_found`).
    return try await perform(.deleteHeading(headingID, in: projectID), of: userID, queue: projectID, idempotency: try Self.idempotency(req, userID), on: req) { done in
      try StoredResponse(Self.headingsChange(done, project: projectID, heading: nil))
    }.response
  }

  /// The answer to a heading change: the heading as stored, the project's headings in order, the project.
  static func headingsChange(_ done: Handled, project: UUID, heading: UUID?) throws -> HeadingsResponse {
    guard let row = done.saved.projects.first(where: { $0.id == project }) ?? done.board.projects[project] else {
      throw ProjectsError.projectNotFound
    }
    var headings = done.board.headings.filter { $0.value.projectID == project }
    for stored in done.saved.headings { headings[stored.id] = stored }
    let ordered = TaskBoard(headings: headings).headingOrder(of: project)
    return HeadingsResponse(
      heading: heading.flatMap { headings[$0]?.view }, headings: ordered.map(\.view), project: row.view, undo: done.recordedStep?.view)
  }

  // MARK: Tasks

  /// `POST /api/tasks` `{title, notes?, priority?, dueDate?, projectId?, headingId?}`; an `Idempotency-Key` makes a retry
  /// answer as the first did.
  @Sendable func createTask(req: Request) async throws -> Response {
    let body = try req.decodeJSON(TaskRequest.self)
    guard let rawTitle = body.title else { throw ProjectsError.emptyTitle }
    var dueDate: String?
    if case .set(let date) = body.dueDate { dueDate = try ProjectInput.dueDate(date) }
    var projectID: UUID?
    if case .set(let id?) = body.projectId { projectID = try ProjectInput.id(id, notFound: .projectNotFound) }
    // Straight under a heading of its project (refused when the heading is not that project's).
    var headingID: UUID?
    if case .set(let id?) = body.headingId { headingID = try ProjectInput.id(id, notFound: .headingNotFound) }
    let task = NewTask(
      id: UUID(), projectID: projectID, title: try ProjectInput.title(rawTitle), notes: try ProjectInput.notes(body.notes) ?? "",
      priority: try ProjectInput.priority(body.priority) ?? .none, dueDate: dueDate, completed: body.completed ?? false, headingID: headingID)
    let userID = try await req.userIDCreatingGuest()
    return try await perform(.addTask(task), of: userID, idempotency: try Self.idempotency(req, userID), on: req) { done in
      try StoredResponse(Self.taskChange(done, task: task.id, zone: req.context.timeZoneOrUTC), status: .created)
    }.response
  }

  /// `PATCH /api/tasks/{id}`: any of title, notes, priority, dueDate, completed, projectId. A body with only
  /// `completed` is a toggle: a task already in that state changes nothing.
  @Sendable func updateTask(req: Request) async throws -> Response {
    let id = try ProjectInput.id(req.parameters.get("id"), notFound: .taskNotFound)
    let body = try req.decodeJSON(TaskRequest.self)
    var edit = TaskEdit(
      title: try body.title.map { try ProjectInput.title($0) }, notes: try ProjectInput.notes(body.notes),
      priority: try ProjectInput.priority(body.priority), completed: body.completed)
    if case .set(let date) = body.dueDate { edit.dueDate = .some(try ProjectInput.dueDate(date)) }
    edit.baseRevision = body.baseRevision
    switch body.projectId {
    case .unchanged: break
    case .set(nil): edit.projectID = .some(nil)
    case .set(let raw?): edit.projectID = .some(try ProjectInput.id(raw, notFound: .projectNotFound))
    }
    switch body.headingId {
    case .unchanged: break
    case .set(nil): edit.headingID = .some(nil)
    case .set(let raw?): edit.headingID = .some(try ProjectInput.id(raw, notFound: .headingNotFound))
    }
    let preference = try req.context.motionPreference()
    let command: TaskBoardCommand =
      if let completed = body.completed, body == TaskRequest(completed: completed) { .setCompleted(id, completed) } else { .editTask(id, edit) }
    do {
      return try await changeTask(req, id: id, command, preference: preference)
    } catch ProjectsError.editConflict(let current) {
      // The refusal carries the task as it is now: the page shows both and the person chooses.
      let refusal = ProjectsError.editConflict(current)
      return try StoredResponse(TaskConflictBody(code: refusal.code, message: refusal.message, task: current.view), status: .conflict).response
    }
  }

  /// `DELETE /api/tasks/{id}`.
  @Sendable func deleteTask(req: Request) async throws -> Response {
    let id = try ProjectInput.id(req.parameters.get("id"), notFound: .taskNotFound)
    return try await changeTask(req, id: id, .deleteTask(id), preference: .full)
  }

  /// A change of task `id`, queued by the task (so changes of one task take turns, and of different tasks
  /// share group commits), with an `Idempotency-Key` from the header and the time zone a completion is
  /// recorded in.
  private func changeTask(_ req: Request, id: UUID, _ command: TaskBoardCommand, preference: MotionPreference) async throws -> Response {
    guard let userID = req.currentSession?.userID else { throw ProjectsError.taskNotFound }
    let zone = req.context.timeZoneOrUTC
    return try await perform(
      command, of: userID, queue: id, idempotency: try Self.idempotency(req, userID), zone: zone.identifier, preference: preference, on: req
    ) { done in
      try StoredResponse(Self.taskChange(done, task: id, zone: zone))
    }.response
  }

  /// `POST /api/tasks/batch` `{taskIds, done}` or `{taskIds, projectId, headingId?}`: several tasks at once, all
  /// or none (an unknown task refuses every one; so does a heading the project does not have). An `Idempotency-Key` makes a retry answer as the first did.
  @Sendable func batchTasks(req: Request) async throws -> Response {
    let body = try req.decodeJSON(TaskBatchRequest.self)
    let change: TaskBatchChange
    // A heading names where in the project the tasks go; it is checked against the project by the core.
    let heading = try body.headingId.map { try ProjectInput.id($0, notFound: .headingNotFound) }
    switch (body.done, body.projectId) {
    case (let done?, .unchanged) where heading == nil: change = .complete(done)
    case (nil, .set(nil)): change = .move(to: nil, heading: heading)
    case (nil, .set(let raw?)): change = .move(to: try ProjectInput.id(raw, notFound: .projectNotFound), heading: heading)
    default: throw ProjectsError.unclearBatch
    }
    guard !body.taskIds.isEmpty, body.taskIds.count <= ProjectLimits.maxTasksPerBatch else {
      throw ProjectsError.invalidBatch(count: body.taskIds.count)
    }
    let ids = try body.taskIds.map { try ProjectInput.id($0, notFound: .taskNotFound) }
    guard let userID = req.currentSession?.userID else { throw ProjectsError.taskNotFound }
    let zone = req.context.timeZoneOrUTC
    let preference = try req.context.motionPreference()
    return try await perform(
      .batchTasks(ids, change), of: userID, queue: userID, idempotency: try Self.idempotency(req, userID), zone: zone.identifier,
      preference: preference, on: req
    ) { done in
      try StoredResponse(Self.batchChange(done, ids: ids, zone: zone))
    }.response
  }

  /// The answer to a batch change: the tasks saved, or (nothing changed) nothing but the lists as they are.
  static func batchChange(_ done: Handled, ids: [UUID], zone: TimeZone) -> TaskBatchResponse {
    guard !done.effects.isEmpty else {
      let projects = Set(ids.compactMap { done.board.tasks[$0]?.projectID }).compactMap { done.board.projects[$0]?.view }
      return TaskBatchResponse(tasks: [], projects: projects, inbox: done.board.owner.inboxView, completion: nil)
    }
    let day = TaskDay(zone: zone, at: done.now)
    return TaskBatchResponse(
      tasks: done.saved.tasks.map { $0.view(on: day) }, projects: done.saved.projects.map(\.view),
      inbox: done.saved.owner.inboxView, completion: done.completion)
  }

  /// `POST /api/tasks/undo`: takes back the person's last change of a task (complete, reopen, edit, move,
  /// delete, add), on the server, so every window sees it through the live stream. Queued by the person, so
  /// undos take turns; an `Idempotency-Key` makes a retried undo answer as the first did and undo once. A
  /// stale step is taken off the list and its refusal is stored like an answer (a retry replays it). A body
  /// `{"step": seq}` (a toast's step) takes back that change only: `409 undo_moved_on` when the last is another.
  @Sendable func undo(req: Request) async throws -> Response {
    let body = req.body.data == nil ? UndoRequest() : try req.decodeJSON(UndoRequest.self)
    guard let userID = req.currentSession?.userID else { throw ProjectsError.nothingToUndo }
    let zone = req.context.timeZoneOrUTC
    let preference = try req.context.motionPreference()
    return try await perform(
      .undo(step: body.step), of: userID, queue: userID, idempotency: try Self.idempotency(req, userID), zone: zone.identifier,
      preference: preference, on: req
    ) { done in
      for case .refused(let refusal) in done.effects {
        return try StoredResponse(APIErrorBody(code: refusal.code, message: refusal.message), status: refusal.status)
      }
      guard let step = done.effects.lazy.compactMap({ if case .undoTaken(let step) = $0 { step } else { nil } }).first else {
        throw ProjectsError.nothingToUndo
      }
      // A heading's step changes no task row (`task` is absent); its project's row moved (the list is read anew).
      let change = Self.taskChange(done, task: step.taskID, zone: zone)
      return try StoredResponse(
        TaskChangeResponse(task: change.task, projects: change.projects, inbox: change.inbox, completion: change.completion, undone: step.view))
    }.response
  }

  /// `PUT /api/tasks/order` `{projectId, ids}`: every task of that list, in the new order.
  @Sendable func orderTasks(req: Request) async throws -> HTTPStatus {
    let body = try req.decodeJSON(OrderRequest.self)
    let list = TaskList(try body.projectId.map { try ProjectInput.id($0, notFound: .projectNotFound) })
    let ids = try body.ids.map { try ProjectInput.id($0, notFound: .taskNotFound) }
    guard let userID = req.currentSession?.userID else { throw ProjectsError.orderMismatch }
    _ = try await perform(.orderTasks(list, ids), of: userID, queue: list.projectID ?? userID, on: req) { _ in .noContent }
    return .noContent
  }

  /// The answer to a task change: the task as stored (nil after a delete), the projects whose rows changed
  /// and the Inbox; when nothing changed, things as they are. The task is marked on the person's today in `zone`.
  static func taskChange(_ done: Handled, task id: UUID, zone: TimeZone) -> TaskChangeResponse {
    let day = TaskDay(zone: zone, at: done.now)
    guard !done.effects.isEmpty else {
      let task = done.board.tasks[id]
      let project = task?.projectID.flatMap { done.board.projects[$0] }
      return TaskChangeResponse(task: task?.view(on: day), projects: project.map { [$0.view] } ?? [], inbox: done.board.owner.inboxView, completion: nil)
    }
    return TaskChangeResponse(
      task: done.saved.tasks.first { $0.id == id }?.view(on: day), projects: done.saved.projects.map(\.view), inbox: done.saved.owner.inboxView,
      completion: done.completion, undo: done.recordedStep?.view)
  }

  // MARK: Running a command

  /// A command handled and saved: what an answer is made from.
  struct Handled: Sendable {
    /// The loaded board after the command.
    let board: TaskBoard
    let effects: [TaskBoardEffect]
    /// The rows as stored (the owner's counters only when nothing changed).
    let saved: SavedChange
    let completion: ProjectCompletionView?
    /// When it was handled (what a task's overdue mark is judged at).
    let now: Date

    /// The undo step the change recorded, numbered as stored: the change counter the store wrote (the
    /// handled board's guess may be behind it), which is what a toast sends back as its step.
    var recordedStep: UndoStep? {
      guard var step = effects.lazy.compactMap({ if case .undoRecorded(let step) = $0 { step } else { nil } }).first else { return nil }
      step.seq = saved.owner.revision
      return step
    }
  }

  /// Runs `command` for `userID` through the runner: load (only what the command touches) → handle →
  /// save. The save takes the effects and returns the answer, so a group commit that runs it again writes
  /// and answers the same. A lost version check loads and handles again; a refusal is thrown. `queue` orders
  /// requests in this process (by default a key's retries take turns, and keyless creates run freely).
  ///
  /// A command whose rows are found by key (a toggle, an edit: ``Footprint/readsByKey``) is loaded inside
  /// the write that saves it, where it costs less than a read of its own (see
  /// ``GameRunner/Step/decideInWrite(_:)``); a whole list, every project or a batch is read before.
  private func perform(
    _ command: TaskBoardCommand, of userID: UUID, queue: UUID? = nil, idempotency: IdempotencyKey? = nil, zone: String = "UTC",
    preference: MotionPreference = .full, on req: Request, respond: @escaping @Sendable (Handled) throws -> StoredResponse
  ) async throws -> StoredResponse {
    let db = req.db
    let services = req.application.services
    let queue = queue ?? (idempotency == nil ? UUID() : userID)
    let footprint = command.footprint
    // What open pages are told once the change is durable.
    let change = { @Sendable (effects: [TaskBoardEffect]) in
      ProjectChange(userID: userID, projects: TaskBoard.touchedProjects(by: effects), all: command.changesEveryList)
    }
    // Writes what was decided and answers; nil when a version check failed.
    let save = { @Sendable (handled: TaskBoard, effects: [TaskBoardEffect], now: Date, db: any Database) async throws -> StoredResponse? in
      guard let saved = try await SQLProjectsStore(db).save(effects, of: userID, at: now) else { return nil }
      var completion: ProjectCompletionView?
      for project in TaskBoard.finished(by: effects, stored: saved.projects) {
        completion = try await Self.recordCompletion(of: project, userID: userID, zone: zone, preference: preference, at: now, on: db)
      }
      try await services.projectsLive.announce(change(effects), on: db)
      return try respond(Handled(board: handled, effects: effects, saved: saved, completion: completion, now: now))
    }
    // Loads what the command touches and handles it; when nothing changes, the answer is ready at once.
    let decide = { @Sendable (now: Date, db: any Database) async throws -> (board: TaskBoard, effects: [TaskBoardEffect], unchanged: StoredResponse?) in
      var board = try await SQLProjectsStore(db).board(footprint, of: userID)
      let effects = try board.handle(command, at: now)
      let unchanged = effects.isEmpty
        ? try respond(Handled(board: board, effects: [], saved: SavedChange(owner: board.owner), completion: nil, now: now)) : nil
      return (board, effects, unchanged)
    }
    return try await services.runner.run(game: queue, on: db, idempotency: idempotency) { now, _ in
      if footprint.readsByKey {
        return .decideInWrite { db in
          let decided = try await decide(now, db)
          if let unchanged = decided.unchanged { return GameRunner.Decided(unchanged) }
          guard let output = try await save(decided.board, decided.effects, now, db) else { return nil }
          return GameRunner.Decided(saved: output, committed: { services.projectsLive.committed(change(decided.effects)) })
        }
      }
      let decided = try await decide(now, db)
      if let unchanged = decided.unchanged { return .respond(unchanged) }
      return .save(
        commit: { db in try await save(decided.board, decided.effects, now, db) },
        committed: { services.projectsLive.committed(change(decided.effects)) })
    }
  }

  /// The request's `Idempotency-Key` (if sent) for `userID`: the route and body are its parameters.
  static func idempotency(_ req: Request, _ userID: UUID) throws -> IdempotencyKey? {
    try req.context.idempotencyKey.map {
      try IdempotencyKey(userID: userID, namespace: "projects:", key: $0, scope: "\(req.method) \(req.url.path)", body: req)
    }
  }

  /// Records the completion of `project`, which this change finished.
  static func recordCompletion(
    of project: ProjectItem, userID: UUID, zone: String, preference: MotionPreference, at now: Date, on db: any Database
  ) async throws -> ProjectCompletionView {
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

  // MARK: Import and export

  /// `GET /api/projects/export`: everything the person has, as a file.
  @Sendable func export(req: Request) async throws -> Response {
    var export = ProjectsExport(inbox: [], projects: [])
    if let userID = req.currentSession?.userID {
      let store = SQLProjectsStore(req.db)
      let projects = try await store.projects(userID)
      let byProject = Dictionary(grouping: try await store.allTasks(userID), by: \.projectID)
      let headings = Dictionary(grouping: try await store.allHeadings(userID), by: \.projectID)
      func exported(_ task: TaskItem, headings: [HeadingItem] = []) -> ProjectsExport.Task {
        ProjectsExport.Task(
          title: task.title, notes: task.notes, priority: task.priority.rawValue, dueDate: task.dueDate, completed: task.completed,
          heading: task.headingID.flatMap { id in headings.firstIndex { $0.id == id } })
      }
      export = ProjectsExport(
        inbox: (byProject[nil] ?? []).map { exported($0) },
        projects: projects.map { (project: ProjectItem) -> ProjectsExport.Project in
          let own = headings[project.id] ?? []
          // A project's tasks in its list's order: without a heading first, then each heading's.
          let place = Dictionary(uniqueKeysWithValues: own.enumerated().map { ($1.id, $0) })
          let tasks = (byProject[project.id] ?? []).enumerated()
            .sorted { ($0.element.headingID.flatMap { place[$0] } ?? -1, $0.offset) < ($1.element.headingID.flatMap { place[$0] } ?? -1, $1.offset) }
            .map { exported($0.element, headings: own) }
          return ProjectsExport.Project(
            name: project.name, color: project.color, notes: project.notes, tasks: tasks, headings: own.isEmpty ? nil : own.map(\.name),
            archived: project.archived)
        })
    }
    let response = try await export.encodeResponse(for: req)
    response.headers.replaceOrAdd(name: .contentDisposition, value: "attachment; filename=\"projects.json\"")
    return response
  }

  /// `POST /api/projects/import`: an export (JSON) or a plain list (text), added to what the person has.
  /// Checked whole first: one bad row refuses everything, with a message per row. An `Idempotency-Key`
  /// makes a retry answer as the first did (and import nothing again).
  @Sendable func importProjects(req: Request) async throws -> Response {
    let command: TaskBoardCommand
    if req.headers.contentType?.subType == "plain" {
      guard let buffer = req.body.data else { throw ProjectsError.invalidImport(PlainListError.empty.description) }
      switch PlainListImport.parse(String(decoding: Data(buffer: buffer), as: UTF8.self)) {
      case .failure(let error): throw ProjectsError.invalidImport(error.description)
      case .success(let list): command = list.command(newID: UUID.init)
      }
    } else {
      let file: ProjectsExport
      do {
        file = try req.decodeJSON(ProjectsExport.self)
      } catch is DecodingError {
        throw ProjectsError.invalidImport(Self.notAFile)
      }
      command = try ProjectsFile(file).command(newID: UUID.init)
    }
    guard case .importItems(let inbox, let projects) = command else { throw ProjectsError.invalidImport("") }
    let result = ProjectsImportResult(projectsAdded: projects.count, tasksAdded: inbox.count + projects.reduce(0) { $0 + $1.tasks.count })
    let userID = try await req.userIDCreatingGuest()
    return try await perform(command, of: userID, idempotency: try Self.idempotency(req, userID), on: req) { _ in
      try StoredResponse(result)
    }.response
  }

  /// `POST /api/projects/import/preview`: the body an import would take, read by the same rules, answered
  /// with what it would add and each plain-list line it changes or refuses. Writes nothing (no guest is made).
  @Sendable func previewImport(req: Request) async throws -> ProjectsImportPreview {
    typealias Preview = ProjectsImportPreview
    func preview(_ tasks: [PlainListImport.Task]) -> [Preview.Task] { tasks.map { Preview.Task(title: $0.title, completed: $0.completed) } }
    if req.headers.contentType?.subType == "plain" {
      let text = req.body.data.map { String(decoding: Data(buffer: $0), as: UTF8.self) } ?? ""
      let reading = PlainListImport.read(text)
      return Preview(
        inbox: preview(reading.list.inbox), projects: reading.list.projects.map { Preview.Project(name: $0.name, tasks: preview($0.tasks)) },
        lines: reading.notes.map { Preview.Line(line: $0.line, kind: $0.kind.rawValue, message: $0.message, refuses: $0.refuses) },
        refusal: reading.error.map { Self.previewRefusal($0.description) })
    }
    let command: TaskBoardCommand
    do {
      command = try ProjectsFile(try req.decodeJSON(ProjectsExport.self)).command(newID: UUID.init)
    } catch let error as ProjectsError {
      if case .invalidImport(let detail) = error { return Preview(inbox: [], projects: [], lines: [], refusal: Self.previewRefusal(detail)) }
      return Preview(inbox: [], projects: [], lines: [], refusal: error.message)
    } catch is DecodingError {
      // Not a projects file at all (JSON of another shape): refused as the import refuses it, not previewed.
      throw ProjectsError.invalidImport(Self.notAFile)
    }
    guard case .importItems(let inbox, let projects) = command else { throw ProjectsError.invalidImport("") }
    func tasks(_ tasks: [NewTask]) -> [Preview.Task] { tasks.map { Preview.Task(title: $0.title, completed: $0.completed) } }
    return Preview(
      inbox: tasks(inbox), projects: projects.map { Preview.Project(name: $0.project.name, tasks: tasks($0.tasks)) }, lines: [], refusal: nil)
  }

  /// Why a previewed import would be refused (the import's own detail; nothing was tried yet).
  static func previewRefusal(_ detail: String) -> String { "This cannot be imported as it is: \(detail)" }

  static let notAFile =
    "this is not a CompletionKit projects file. Use a file made by Export, or paste a plain list (one task a line, “# Name” starts a project)."

  // MARK: Live

  /// `GET /api/projects/events`: server-sent events (see ``ProjectsLive``).
  @Sendable func events(req: Request) async throws -> Response {
    guard let userID = req.currentSession?.userID else { throw AppError.unauthenticated }
    let lastSeen = req.headers.first(name: "Last-Event-ID").flatMap(Int.init)
    return try await req.application.services.projectsLive.stream(for: userID, lastSeen: lastSeen, on: req)
  }
}

extension StoredResponse {
  /// An answer without a body.
  static let noContent = StoredResponse(status: .noContent, body: Data(), replayed: false)
}

extension ProjectsFile {
  /// The content of an export file.
  init(_ export: ProjectsExport) {
    func task(_ task: ProjectsExport.Task) -> Task {
      Task(title: task.title, notes: task.notes, priority: task.priority, dueDate: task.dueDate, completed: task.completed, heading: task.heading)
    }
    self.init(
      format: export.format, version: export.version, inbox: export.inbox.map(task),
      projects: export.projects.map {
        Project(name: $0.name, color: $0.color, notes: $0.notes, tasks: $0.tasks.map(task), headings: $0.headings ?? [], archived: $0.archived ?? false)
      })
  }
}

extension Optional {
  /// `map` with an async transform.
  func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
    guard let self else { return nil }
    return try await transform(self)
  }
}
