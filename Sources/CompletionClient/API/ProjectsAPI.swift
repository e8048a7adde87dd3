import CompletionAPI
import CompletionCore
import Foundation

// Projects (seed 003): projects, tasks, order, import and export, and the live stream of counts.
extension CompletionClient {
  /// Every project with its counts, the Inbox, and the ring's animation.
  public func projects() async throws -> ProjectsOverview {
    try await send(.getProjectsOverview)
  }

  /// Makes a project ("Untitled Project" when the name is left out).
  public func createProject(_ request: ProjectRequest) async throws -> ProjectView {
    try await send(.createProject, body: .json(request))
  }

  /// Renames, recolours or re-notes a project.
  public func updateProject(_ id: String, _ request: ProjectRequest) async throws -> ProjectView {
    try await send(.updateProject, id, body: .json(request))
  }

  /// Deletes a project and its tasks.
  public func deleteProject(_ id: String) async throws {
    try await sendExpectingNoContent(.deleteProject, id)
  }

  /// Every heading of the person's projects, by project in the projects' order, then in each project's order.
  public func allHeadings() async throws -> [HeadingView] {
    let list: HeadingListResponse = try await send(.listHeadings)
    return list.headings
  }

  /// Adds a heading at the end of a project's headings ("Untitled Heading" when the name is left out or blank), with
  /// `id` when the client chooses it (`heading_id_taken` when a heading has it already).
  public func createHeading(inProject projectID: String, name: String? = nil, id: String? = nil) async throws -> HeadingsResponse {
    try await send(.createHeading, projectID, body: .json(HeadingRequest(name: name, id: id)))
  }

  /// Renames a heading, moves it to `position` among its project's headings (0 first), or both.
  public func updateHeading(_ headingID: String, inProject projectID: String, name: String? = nil, position: Int? = nil, baseName: String? = nil)
    async throws -> HeadingsResponse
  {
    try await send(.updateHeading, projectID, headingID, body: .json(HeadingRequest(name: name, position: position, baseName: baseName)))
  }

  /// Deletes a heading; its tasks stay in the project, under no heading.
  public func deleteHeading(_ headingID: String, inProject projectID: String) async throws -> HeadingsResponse {
    try await send(.deleteHeading, projectID, headingID)
  }

  /// Puts a task under a heading of its project (nil: under none).
  public func setHeading(ofTask taskID: String, to headingID: String?) async throws -> TaskChangeResponse {
    try await send(.updateTask, taskID, body: .json(TaskRequest(headingId: .set(headingID))))
  }

  /// Puts the projects in the order of `ids` (all of them).
  public func orderProjects(_ ids: [String]) async throws {
    try await sendExpectingNoContent(.orderProjects, body: .json(OrderRequest(ids: ids)))
  }

  /// The tasks of a project, or of the Inbox when `projectID` is nil, in their order: all of them, or with
  /// `limit` a page whose `next` is passed as `after` for the following one (`409 list_changed` when the list
  /// changed in between: start again).
  public func tasks(inProject projectID: String?, limit: Int? = nil, after: String? = nil) async throws -> TaskListResponse {
    let query = [("limit", limit.map(String.init)), ("after", after)]
    if let projectID { return try await send(.listProjectTasks, projectID, query: query) }
    return try await send(.listInboxTasks, query: query)
  }

  /// Adds a task (title required).
  public func createTask(_ request: TaskRequest) async throws -> TaskChangeResponse {
    try await send(.createTask, body: .json(request))
  }

  /// Changes a task: any field of `request` that is set. Completing a project's last task is a completion:
  /// `timeZone` names the person's day for its streak, `preference` adapts its celebration.
  public func updateTask(
    _ id: String, _ request: TaskRequest, timeZone: String? = nil, preference: MotionPreference? = nil
  ) async throws -> TaskChangeResponse {
    try await send(
      .updateTask, id, query: [("preference", preference?.rawValue)], body: .json(request),
      headers: Self.zone(timeZone))
  }

  /// Completes or reopens (`done`) several tasks at once, all or none; `timeZone` and `preference` as for
  /// ``updateTask(_:_:timeZone:preference:)`` when this finishes a project.
  public func setTasksDone(
    _ ids: [String], _ done: Bool, timeZone: String? = nil, preference: MotionPreference? = nil
  ) async throws -> TaskBatchResponse {
    try await send(
      .batchTasks, query: [("preference", preference?.rawValue)], body: .json(TaskBatchRequest(taskIds: ids, done: done)),
      headers: Self.zone(timeZone))
  }

  /// Moves several tasks at once to a project (nil: the Inbox), to the end of it in this order; all or none.
  /// With `headingID` (one of that project's headings) they go under it, to the end of its tasks.
  public func moveTasks(_ ids: [String], toProject projectID: String?, heading headingID: String? = nil) async throws -> TaskBatchResponse {
    try await send(.batchTasks, body: .json(TaskBatchRequest(taskIds: ids, projectId: .set(projectID), headingId: headingID)))
  }

  /// Deletes a task; the answer carries the counts after it.
  public func deleteTask(_ id: String) async throws -> TaskChangeResponse {
    try await send(.deleteTask, id)
  }

  /// Puts the tasks of one list (a project, or the Inbox when `projectID` is nil) in the order of `ids`.
  public func orderTasks(_ ids: [String], inProject projectID: String?) async throws {
    try await sendExpectingNoContent(.orderTasks, body: .json(OrderRequest(projectId: projectID, ids: ids)))
  }

  /// Takes back the person's last change of a task (on the server, so every window follows); `undone` says
  /// which. Refused with `nothing_to_undo` or `undo_stale`. With `step` (an ``UndoStepView/seq`` shown to the
  /// person), only that change: `undo_moved_on` when the last change is another. A lost answer is retried with
  /// the same key, so it undoes once.
  public func undoTaskChange(step: Int? = nil, timeZone: String? = nil, preference: MotionPreference? = nil) async throws -> TaskChangeResponse {
    try await send(
      .undoTaskChange, query: [("preference", preference?.rawValue)], body: step.map { .json(UndoRequest(step: $0)) } ?? .none,
      headers: Self.zone(timeZone))
  }

  /// The Today view: overdue tasks and those due today in `timeZone` (an IANA name; UTC when nil).
  public func tasksToday(timeZone: String? = nil) async throws -> TodayResponse {
    try await send(.tasksToday, headers: Self.zone(timeZone))
  }

  /// The Upcoming view: open tasks due after today in `timeZone`, by day.
  public func tasksUpcoming(timeZone: String? = nil) async throws -> UpcomingResponse {
    try await send(.tasksUpcoming, headers: Self.zone(timeZone))
  }

  /// Tasks whose title or notes contain `query` (any case, any accents), at most 50 and whether there are more.
  public func searchTasks(_ query: String, timeZone: String? = nil) async throws -> TaskSearchResponse {
    try await send(.searchTasks, query: [("q", query)], headers: Self.zone(timeZone))
  }

  /// Everything the person has in Projects, as the file Export writes.
  public func exportProjects() async throws -> ProjectsExport {
    try await send(.exportProjects)
  }

  /// Adds the projects and tasks of an exported file.
  public func importProjects(_ file: ProjectsExport) async throws -> ProjectsImportResult {
    try await send(.importProjects, body: .json(file))
  }

  /// Adds a plain list: one task a line, `# Name` starts a project.
  public func importProjects(plainList text: String) async throws -> ProjectsImportResult {
    try await send(.importProjects, body: .bytes(Data(text.utf8), contentType: "text/plain; charset=utf-8"))
  }

  /// What importing `text` (a plain list) would add, and each line whose text it changes or that stops it;
  /// nothing is written.
  public func previewImport(plainList text: String) async throws -> ProjectsImportPreview {
    try await send(.previewImport, body: .bytes(Data(text.utf8), contentType: "text/plain; charset=utf-8"))
  }

  /// What importing an exported file would add (or why it would be refused); nothing is written.
  public func previewImport(_ file: ProjectsExport) async throws -> ProjectsImportPreview {
    try await send(.previewImport, body: .json(file))
  }

  /// The live counts: a snapshot first, then an update whenever a task of this person changes anywhere
  /// (coalesced by the server). `after` resumes after the last update seen (its `revision`).
  public func projectsUpdates(after revision: Int? = nil) -> AsyncThrowingStream<ProjectsLiveUpdate, any Error> {
    decodedEvents(.projectsEvents, lastEventID: revision.map(String.init), as: ProjectsLiveUpdate.self)
  }

  /// A live stream's events decoded as `type` (events of another shape, such as heartbeats, are skipped).
  func decodedEvents<Event: Decodable & Sendable>(
    _ endpoint: Endpoint, lastEventID: String?, as type: Event.Type
  ) -> AsyncThrowingStream<Event, any Error> {
    let raw = events(endpoint, lastEventID: lastEventID)
    let (stream, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
    let task = Task {
      do {
        for try await event in raw {
          if let value = try? Self.decoder().decode(Event.self, from: Data(event.data.utf8)) { continuation.yield(value) }
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error)
      }
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }
}
