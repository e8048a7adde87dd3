import CompletionCore
import Projects

/// A project as the API shows it: its kept counts and the ring's value.
public struct ProjectView: Codable, Hashable, Sendable {
  public let id: String
  public let name: String
  /// One of ``ProjectColor``'s names.
  public let color: String
  public let notes: String
  /// Place in the person's list (0 first).
  public let position: Int
  /// All tasks in the project.
  public let total: Int
  public let completed: Int
  /// Tasks still to do.
  public let active: Int
  /// The ring's value, 0…1 (0 for an empty project).
  public let fraction: Double
  /// Whole percent for people: 100 only when every task is done.
  public let percent: Int
  public let isComplete: Bool
  /// Goes up with every change to the project or its tasks (a client refetches its task list when it moved).
  public let revision: Int
  /// Archived: listed apart from the others and taking no new tasks (its counts and ring mean what they did).
  public let archived: Bool

  public init(
    id: String, name: String, color: String, notes: String, position: Int, counts: CompletionRatio, revision: Int, archived: Bool = false
  ) {
    self.archived = archived
    self.id = id
    self.name = name
    self.color = color
    self.notes = notes
    self.position = position
    total = counts.total
    completed = counts.completed
    active = counts.total - counts.completed
    fraction = counts.fraction
    percent = counts.displayPercent
    isComplete = counts.isComplete
    self.revision = revision
  }
}

/// The Inbox: tasks without a project.
public struct InboxView: Codable, Hashable, Sendable {
  public let total: Int
  public let completed: Int
  public let active: Int
  public let revision: Int

  public init(total: Int, completed: Int, revision: Int) {
    self.total = total
    self.completed = completed
    active = total - completed
    self.revision = revision
  }
}

/// How the completion ring moves between values: the core's progress animator, sampled for clients that
/// cannot run Swift. `samples[i]` is the curve's progress at `i / (samples.count - 1)` of `duration`.
public struct RingAnimationPayload: Codable, Hashable, Sendable {
  public let duration: Double
  public let samples: [Double]
  /// How the ring is drawn (nil from servers before it was sent).
  public let geometry: RingGeometryView?

  public init(duration: Double, samples: [Double], geometry: RingGeometryView? = .current) {
    self.duration = duration
    self.samples = samples
    self.geometry = geometry
  }
}

/// The completion ring's picture as fractions of its size (``ProjectRing/Geometry``), sent so a page that
/// draws the ring keeps no copy of it.
public struct RingGeometryView: Codable, Hashable, Sendable {
  /// The outer ring's stroke, in points at the listed sizes.
  public let outerStroke: Double
  /// The inner ring's diameter, shown once progress > 0.
  public let innerRing: Double
  /// The pie slice's diameter.
  public let pie: Double

  public init(outerStroke: Double, innerRing: Double, pie: Double) {
    self.outerStroke = outerStroke
    self.innerRing = innerRing
    self.pie = pie
  }

  /// The geometry the Swift ring draws.
  public static let current = RingGeometryView(
    outerStroke: ProjectRing.Geometry.outerStroke, innerRing: ProjectRing.Geometry.innerRing, pie: ProjectRing.Geometry.pie)
}

/// `GET /api/projects`: the sidebar.
public struct ProjectsOverview: Codable, Hashable, Sendable {
  public let inbox: InboxView
  public let projects: [ProjectView]
  /// The colours a project may have, in the picker's order.
  public let colors: [String]
  /// How rings animate (reduced motion and calm mode set values without it).
  public let ring: RingAnimationPayload
  /// The person's change counter: the live stream's event id.
  public let revision: Int
  /// The colours with their names for people, in the picker's order (nil from servers before they were sent).
  public let colorLabels: [LabelledValue]?
  /// The priorities with their names for people, lowest first.
  public let priorities: [LabelledValue]?
  /// What a project or task may hold: the server refuses more.
  public let limits: ProjectLimitsView?

  public init(
    inbox: InboxView, projects: [ProjectView], colors: [String], ring: RingAnimationPayload, revision: Int, colorLabels: [LabelledValue]? = nil,
    priorities: [LabelledValue]? = nil, limits: ProjectLimitsView? = nil
  ) {
    self.inbox = inbox
    self.projects = projects
    self.colors = colors
    self.ring = ring
    self.revision = revision
    self.colorLabels = colorLabels
    self.priorities = priorities
    self.limits = limits
  }
}

/// A value a client sends and the words it shows for it.
public struct LabelledValue: Codable, Hashable, Sendable {
  public let value: String
  public let label: String

  public init(value: String, label: String) {
    self.value = value
    self.label = label
  }
}

/// The Projects system's limits, in code points (as the API document's `maxLength`), and counts.
public struct ProjectLimitsView: Codable, Hashable, Sendable {
  public let name: Int
  public let title: Int
  public let notes: Int
  public let projects: Int
  public let tasksPerImport: Int
  /// The longest search query.
  public let search: Int?
  /// How many tasks a page asks for first when it opens a list (`?limit=`), the rest following after.
  public let firstTaskPage: Int?
  /// The most tasks one batch change (`POST /api/tasks/batch`) names.
  public let tasksPerBatch: Int?
  /// The name a heading added without one gets (a page shows it on a heading added offline until the server has it).
  public let defaultHeadingName: String?

  public init(
    name: Int, title: Int, notes: Int, projects: Int, tasksPerImport: Int, search: Int? = nil, firstTaskPage: Int? = nil,
    tasksPerBatch: Int? = nil, defaultHeadingName: String? = nil
  ) {
    self.name = name
    self.title = title
    self.notes = notes
    self.projects = projects
    self.tasksPerImport = tasksPerImport
    self.search = search
    self.firstTaskPage = firstTaskPage
    self.tasksPerBatch = tasksPerBatch
    self.defaultHeadingName = defaultHeadingName
  }

  /// The limits the server keeps.
  public static let current = ProjectLimitsView(
    name: ProjectLimits.maxNameLength, title: ProjectLimits.maxTitleLength, notes: ProjectLimits.maxNotesLength,
    projects: ProjectLimits.maxProjects, tasksPerImport: ProjectLimits.maxTasksPerImport, search: TaskSearch.maxQueryLength,
    firstTaskPage: TaskPage.firstPageSize, tasksPerBatch: ProjectLimits.maxTasksPerBatch, defaultHeadingName: ProjectLimits.defaultHeadingName)
}

/// A task as the API shows it.
public struct TaskView: Codable, Hashable, Sendable {
  public let id: String
  /// Nil for a task in the Inbox.
  public let projectId: String?
  public let title: String
  public let notes: String
  /// "none", "low", "medium" or "high".
  public let priority: String
  /// "YYYY-MM-DD", or nil.
  public let dueDate: String?
  public let completed: Bool
  public let completedAt: Double?
  public let position: Int
  /// Goes up with every change of the task: send it back as `baseRevision` with an edit, and an edit made on
  /// an older one is refused (`409 edit_conflict`, with the task as it is now) instead of overwriting it.
  public let revision: Int
  /// The heading of its project it sits under (see ``HeadingView``); nil: none.
  public let headingId: String?
  /// Where a dated task stands on the person's today in the request's time zone, as Today and Upcoming say it:
  /// `overdue`, `today` or `upcoming`; absent for an undated task or one done on another day (and in answers
  /// that do not mark it). Sent with a list's tasks and a change's, so a row shows "Overdue" as Today does.
  public let due: String?
  /// Days past its due date when `due` is `overdue` (1: due yesterday).
  public let daysLate: Int?

  public init(
    id: String, projectId: String?, title: String, notes: String, priority: String, dueDate: String?, completed: Bool,
    completedAt: Double?, position: Int, revision: Int = 0, headingId: String? = nil, due: String? = nil, daysLate: Int? = nil
  ) {
    self.due = due
    self.daysLate = daysLate
    self.headingId = headingId
    self.revision = revision
    self.id = id
    self.projectId = projectId
    self.title = title
    self.notes = notes
    self.priority = priority
    self.dueDate = dueDate
    self.completed = completed
    self.completedAt = completedAt
    self.position = position
  }
}

/// `GET /api/projects/{id}/tasks` and `GET /api/projects/inbox/tasks`.
public struct TaskListResponse: Codable, Hashable, Sendable {
  /// Nil for the Inbox.
  public let project: ProjectView?
  public let inbox: InboxView?
  public let tasks: [TaskView]
  /// The cursor of the next page (`?after=`) when this answer is a page and more tasks follow; nil at the end.
  public let next: String?
  /// The project's headings in their order (none for the Inbox), on every page. The tasks come without a
  /// heading first, then each heading's in this order.
  public let headings: [HeadingView]

  public init(project: ProjectView?, inbox: InboxView?, tasks: [TaskView], next: String? = nil, headings: [HeadingView] = []) {
    self.headings = headings
    self.project = project
    self.inbox = inbox
    self.tasks = tasks
    self.next = next
  }
}

/// A heading inside a project: a named group of its tasks. Not a task: counts and the ring ignore it.
public struct HeadingView: Codable, Hashable, Sendable {
  public let id: String
  public let projectId: String
  public let name: String
  /// Place among the project's headings (smaller first).
  public let position: Int

  public init(id: String, projectId: String, name: String, position: Int) {
    self.id = id
    self.projectId = projectId
    self.name = name
    self.position = position
  }
}

/// `POST /api/projects/{id}/headings` `{name?}` and `PATCH /api/projects/{id}/headings/{headingId}`
/// `{name?, position?}`: `position` is the heading's new place among its project's headings (0 first; past
/// the end: last).
public struct HeadingRequest: Codable, Hashable, Sendable {
  public let name: String?
  public let position: Int?
  /// On a rename: the name it was made on, as the client showed it. When the heading was renamed elsewhere since,
  /// the rename is refused (`409 heading_conflict`, with the heading as it is now) instead of overwriting that.
  public let baseName: String?
  /// On create: the id the client proposes (a UUID), so it can name the heading before the server has answered (a
  /// heading added offline, and the tasks put under it meanwhile). An id in use is `409 heading_id_taken`.
  public let id: String?

  public init(name: String? = nil, position: Int? = nil, baseName: String? = nil, id: String? = nil) {
    self.name = name
    self.position = position
    self.baseName = baseName
    self.id = id
  }
}

/// `409 heading_conflict`: a rename made on a name the heading no longer has, with the heading as it is now.
public struct HeadingConflictBody: Codable, Hashable, Sendable {
  public let code: String
  public let message: String
  public let heading: HeadingView

  public init(code: String, message: String, heading: HeadingView) {
    self.code = code
    self.message = message
    self.heading = heading
  }
}

/// `GET /api/projects/headings`: every heading of the person's projects, by project (in the projects' order),
/// then in each project's order: what a move of several tasks offers as places.
public struct HeadingListResponse: Codable, Hashable, Sendable {
  public let headings: [HeadingView]

  public init(headings: [HeadingView]) {
    self.headings = headings
  }
}

/// The answer to a heading change: the heading (nil after a delete), every heading of its project in order, and
/// the project (its revision moved; its counts did not).
public struct HeadingsResponse: Codable, Hashable, Sendable {
  public let heading: HeadingView?
  public let headings: [HeadingView]
  public let project: ProjectView
  /// The change this request made, which `POST /api/tasks/undo` takes back (absent when nothing was renamed,
  /// added or deleted: a new place alone).
  public let undo: UndoStepView?

  public init(heading: HeadingView?, headings: [HeadingView], project: ProjectView, undo: UndoStepView? = nil) {
    self.heading = heading
    self.headings = headings
    self.project = project
    self.undo = undo
  }
}

/// `POST /api/projects`, `PATCH /api/projects/{id}`: absent fields are left as they are.
public struct ProjectRequest: Codable, Hashable, Sendable {
  public let name: String?
  public let color: String?
  public let notes: String?
  /// On a change: archive (true) or unarchive (false); a new project is never archived.
  public let archived: Bool?

  public init(name: String? = nil, color: String? = nil, notes: String? = nil, archived: Bool? = nil) {
    self.archived = archived
    self.name = name
    self.color = color
    self.notes = notes
  }
}

/// `PUT /api/projects/order` and `PUT /api/tasks/order`: ids in their new order. For tasks, `projectId`
/// names the list (nil: the Inbox) and `ids` must be exactly its tasks.
public struct OrderRequest: Codable, Hashable, Sendable {
  public let projectId: String?
  public let ids: [String]

  public init(projectId: String? = nil, ids: [String]) {
    self.projectId = projectId
    self.ids = ids
  }
}

/// A field of a partial update: left out, set to a value, or (for optional fields) cleared with `null`.
public enum FieldUpdate<Value: Codable & Hashable & Sendable>: Hashable, Sendable {
  case unchanged
  case set(Value?)
}

/// `POST /api/tasks` (title required) and `PATCH /api/tasks/{id}` (every field optional; `dueDate: null`
/// clears the date, `projectId: null` moves the task to the Inbox).
public struct TaskRequest: Codable, Hashable, Sendable {
  public var title: String?
  public var notes: String?
  public var priority: String?
  public var dueDate: FieldUpdate<String>
  public var completed: Bool?
  public var projectId: FieldUpdate<String>
  /// A heading of the task's project (of the one it moves to, with `projectId`) to put it under; `null` takes
  /// it out of its heading. Left out, it keeps its heading, unless it moves to another project.
  public var headingId: FieldUpdate<String>
  /// On a change: the task's `revision` the edit was made on (see ``TaskView/revision``); absent, the edit
  /// overwrites whatever came before.
  public var baseRevision: Int?

  public init(
    title: String? = nil, notes: String? = nil, priority: String? = nil, dueDate: FieldUpdate<String> = .unchanged,
    completed: Bool? = nil, projectId: FieldUpdate<String> = .unchanged, headingId: FieldUpdate<String> = .unchanged, baseRevision: Int? = nil
  ) {
    self.headingId = headingId
    self.baseRevision = baseRevision
    self.title = title
    self.notes = notes
    self.priority = priority
    self.dueDate = dueDate
    self.completed = completed
    self.projectId = projectId
  }

  enum CodingKeys: String, CodingKey { case title, notes, priority, dueDate, completed, projectId, headingId, baseRevision }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    title = try container.decodeIfPresent(String.self, forKey: .title)
    notes = try container.decodeIfPresent(String.self, forKey: .notes)
    priority = try container.decodeIfPresent(String.self, forKey: .priority)
    completed = try container.decodeIfPresent(Bool.self, forKey: .completed)
    baseRevision = try container.decodeIfPresent(Int.self, forKey: .baseRevision)
    dueDate = container.contains(.dueDate) ? .set(try container.decodeIfPresent(String.self, forKey: .dueDate)) : .unchanged
    projectId = container.contains(.projectId) ? .set(try container.decodeIfPresent(String.self, forKey: .projectId)) : .unchanged
    headingId = container.contains(.headingId) ? .set(try container.decodeIfPresent(String.self, forKey: .headingId)) : .unchanged
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(title, forKey: .title)
    try container.encodeIfPresent(notes, forKey: .notes)
    try container.encodeIfPresent(priority, forKey: .priority)
    try container.encodeIfPresent(completed, forKey: .completed)
    try container.encodeIfPresent(baseRevision, forKey: .baseRevision)
    if case .set(let value) = dueDate { try container.encode(value, forKey: .dueDate) }
    if case .set(let value) = projectId { try container.encode(value, forKey: .projectId) }
    if case .set(let value) = headingId { try container.encode(value, forKey: .headingId) }
  }
}

/// `409 edit_conflict` on `PATCH /api/tasks/{id}`: the refusal and the task as it is stored now, so the
/// person can choose between their edit and it.
public struct TaskConflictBody: Codable, Hashable, Sendable {
  public let code: String
  public let message: String
  public let task: TaskView

  public init(code: String, message: String, task: TaskView) {
    self.code = code
    self.message = message
    self.task = task
  }
}

/// What a project's completion earned (sent once, with the change that completed it).
public struct ProjectCompletionView: Codable, Hashable, Sendable {
  /// False when this project had been completed before: nothing was paid again.
  public let isFirst: Bool
  public let points: Int
  /// The celebration to play, when there is one (the choreography "projectComplete": ring, check, name).
  public let celebration: ChoreographyPayload?
  /// Seconds the celebration stays after its last step before it dismisses itself.
  public let holdSeconds: Double

  public init(isFirst: Bool, points: Int, celebration: ChoreographyPayload?, holdSeconds: Double) {
    self.isFirst = isFirst
    self.points = points
    self.celebration = celebration
    self.holdSeconds = holdSeconds
  }
}

/// The answer to every task change: the task, the lists whose counts it changed, and a completion.
public struct TaskChangeResponse: Codable, Hashable, Sendable {
  /// Nil after a delete.
  public let task: TaskView?
  /// The projects whose counts changed (one, or two after a move).
  public let projects: [ProjectView]
  public let inbox: InboxView
  public let completion: ProjectCompletionView?
  /// The change this request made, which `POST /api/tasks/undo` takes back (absent when a person would see
  /// no change, and on an undo).
  public let undo: UndoStepView?
  /// The change an undo took back (only on `POST /api/tasks/undo`).
  public let undone: UndoStepView?

  public init(
    task: TaskView?, projects: [ProjectView], inbox: InboxView, completion: ProjectCompletionView?, undo: UndoStepView? = nil,
    undone: UndoStepView? = nil
  ) {
    self.task = task
    self.projects = projects
    self.inbox = inbox
    self.completion = completion
    self.undo = undo
    self.undone = undone
  }
}

/// A change of a task or heading a person can take back, as a toast shows it.
public struct UndoStepView: Codable, Hashable, Sendable {
  /// `added`, `completed`, `reopened`, `edited`, `moved` or `deleted` (a task's), `heading_added`,
  /// `heading_renamed` or `heading_deleted` (a heading's).
  public let kind: String
  /// The task the change was of (absent for a heading's).
  public let taskId: String?
  /// The heading the change was of, and its project (absent for a task's).
  public let headingId: String?
  public let projectId: String?
  /// What the change did, for people: "Completed “Water the plants”", "Deleted heading “Spring”".
  public let label: String
  /// The step's number (the person's change counter after it): sent as `step` to `POST /api/tasks/undo`, the undo
  /// takes back this change and no other. Absent from servers before it.
  public let seq: Int?

  public init(kind: String, taskId: String?, headingId: String? = nil, projectId: String? = nil, label: String, seq: Int? = nil) {
    self.kind = kind
    self.taskId = taskId
    self.headingId = headingId
    self.projectId = projectId
    self.label = label
    self.seq = seq
  }
}

/// `POST /api/tasks/undo`: which change to take back. Without `step` (or without a body), the person's last one.
public struct UndoRequest: Codable, Hashable, Sendable {
  /// The `seq` of the step a toast showed (``UndoStepView/seq``): when the person's last step is another, nothing
  /// is undone (`409 undo_moved_on`).
  public var step: Int?

  public init(step: Int? = nil) {
    self.step = step
  }

  private enum CodingKeys: String, CodingKey, CaseIterable { case step }

  /// Refuses fields other than `step`: `{"stpe": 3}` read as "no step" would undo the last change, not step 3.
  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(besides: CodingKeys.self)
    step = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .step)
  }
}

/// `POST /api/tasks/batch`: several tasks completed or reopened (`done`) or moved (`projectId`, null for the
/// Inbox; with `headingId`, under that heading of the project) at once; exactly one of the two.
public struct TaskBatchRequest: Codable, Hashable, Sendable {
  public var taskIds: [String]
  public var done: Bool?
  public var projectId: FieldUpdate<String>
  /// A heading of `projectId` every task goes under (only with `projectId`).
  public var headingId: String?

  public init(taskIds: [String], done: Bool? = nil, projectId: FieldUpdate<String> = .unchanged, headingId: String? = nil) {
    self.taskIds = taskIds
    self.done = done
    self.projectId = projectId
    self.headingId = headingId
  }

  private enum CodingKeys: String, CodingKey, CaseIterable { case taskIds, done, projectId, headingId }

  /// Refuses fields it does not know: `{"projectID": …, "done": true}` would otherwise complete the tasks.
  public init(from decoder: any Decoder) throws {
    try decoder.refuseUnknownFields(besides: CodingKeys.self)
    let container = try decoder.container(keyedBy: CodingKeys.self)
    taskIds = try container.decode([String].self, forKey: .taskIds)
    done = try container.decodeIfPresent(Bool.self, forKey: .done)
    projectId = container.contains(.projectId) ? .set(try container.decodeIfPresent(String.self, forKey: .projectId)) : .unchanged
    headingId = try container.decodeIfPresent(String.self, forKey: .headingId)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(taskIds, forKey: .taskIds)
    try container.encodeIfPresent(done, forKey: .done)
    if case .set(let id) = projectId {
      if let id { try container.encode(id, forKey: .projectId) } else { try container.encodeNil(forKey: .projectId) }
    }
    try container.encodeIfPresent(headingId, forKey: .headingId)
  }
}

/// The answer to a batch change: the tasks it changed, as stored (none when nothing changed), the projects
/// whose counts moved, and the Inbox.
public struct TaskBatchResponse: Codable, Hashable, Sendable {
  public let tasks: [TaskView]
  public let projects: [ProjectView]
  public let inbox: InboxView
  /// Set when the change finished a project (the last one, if it finished several).
  public let completion: ProjectCompletionView?

  public init(tasks: [TaskView], projects: [ProjectView], inbox: InboxView, completion: ProjectCompletionView?) {
    self.tasks = tasks
    self.projects = projects
    self.inbox = inbox
    self.completion = completion
  }
}

/// One message of the live stream (`GET /api/projects/events`, server-sent events named `projects`, with
/// the person's revision as the event id). A snapshot replaces everything the client knows; a change
/// updates the projects it lists and removes the deleted ones.
public struct ProjectsLiveUpdate: Codable, Hashable, Sendable {
  public let revision: Int
  public let snapshot: Bool
  public let inbox: InboxView
  public let projects: [ProjectView]
  public let deleted: [String]
  /// The `seq` of the person's last undo step as of `revision` (absent: none left): a toast showing another step
  /// offers a change undo would no longer take back, and goes.
  public let undoSeq: Int?

  public init(revision: Int, snapshot: Bool, inbox: InboxView, projects: [ProjectView], deleted: [String], undoSeq: Int? = nil) {
    self.revision = revision
    self.snapshot = snapshot
    self.inbox = inbox
    self.projects = projects
    self.deleted = deleted
    self.undoSeq = undoSeq
  }
}

/// The export format (`GET /api/projects/export`); importing it back gives the same projects and tasks.
public struct ProjectsExport: Codable, Hashable, Sendable {
  public struct Task: Codable, Hashable, Sendable {
    public let title: String
    public let notes: String
    public let priority: String
    public let dueDate: String?
    public let completed: Bool
    /// Its heading: a place in its project's `headings` (absent: none).
    public let heading: Int?

    public init(title: String, notes: String, priority: String, dueDate: String?, completed: Bool, heading: Int? = nil) {
      self.heading = heading
      self.title = title
      self.notes = notes
      self.priority = priority
      self.dueDate = dueDate
      self.completed = completed
    }
  }

  public struct Project: Codable, Hashable, Sendable {
    public let name: String
    public let color: String
    public let notes: String
    public let tasks: [Task]
    /// The names of its headings in their order (absent: none; files written before headings have none).
    public let headings: [String]?
    /// Whether it is archived (absent: not; files written before archiving have none). It is imported so.
    public let archived: Bool?

    public init(name: String, color: String, notes: String, tasks: [Task], headings: [String]? = nil, archived: Bool? = nil) {
      self.archived = archived
      self.headings = headings
      self.name = name
      self.color = color
      self.notes = notes
      self.tasks = tasks
    }
  }

  /// Always "completionkit.projects".
  public let format: String
  /// 1.
  public let version: Int
  public let inbox: [Task]
  public let projects: [Project]

  public static let formatName = ProjectsFile.formatName

  public init(inbox: [Task], projects: [Project]) {
    format = Self.formatName
    version = 1
    self.inbox = inbox
    self.projects = projects
  }
}

/// `POST /api/projects/import`: what was added.
public struct ProjectsImportResult: Codable, Hashable, Sendable {
  public let projectsAdded: Int
  public let tasksAdded: Int

  public init(projectsAdded: Int, tasksAdded: Int) {
    self.projectsAdded = projectsAdded
    self.tasksAdded = tasksAdded
  }
}

/// `POST /api/projects/import/preview`: what importing the same body would add, and each line whose text the
/// import changes or that stops it. Nothing is written.
public struct ProjectsImportPreview: Codable, Hashable, Sendable {
  public struct Task: Codable, Hashable, Sendable {
    public let title: String
    public let completed: Bool

    public init(title: String, completed: Bool) {
      self.title = title
      self.completed = completed
    }
  }

  public struct Project: Codable, Hashable, Sendable {
    public let name: String
    public let tasks: [Task]

    public init(name: String, tasks: [Task]) {
      self.name = name
      self.tasks = tasks
    }
  }

  /// A line of a plain list that the import changes (a marker taken off, control characters replaced) or
  /// refuses (`refuses`: too long, a heading without a name, a marker without a task).
  public struct Line: Codable, Hashable, Sendable {
    /// 1-based.
    public let line: Int
    /// `marker_removed`, `done_mark_read`, `control_characters_removed`, `too_long`, `empty_heading` or `empty_task`.
    public let kind: String
    public let message: String
    public let refuses: Bool

    public init(line: Int, kind: String, message: String, refuses: Bool) {
      self.line = line
      self.kind = kind
      self.message = message
      self.refuses = refuses
    }
  }

  /// Tasks that would go to the Inbox, in order.
  public let inbox: [Task]
  public let projects: [Project]
  public let projectsAdded: Int
  public let tasksAdded: Int
  /// The lines changed or refused, in order (empty for a JSON export).
  public let lines: [Line]
  /// Nil when the import can go ahead; otherwise why it would be refused (the import's own message).
  public let refusal: String?

  public init(inbox: [Task], projects: [Project], lines: [Line], refusal: String?) {
    self.inbox = inbox
    self.projects = projects
    projectsAdded = projects.count
    tasksAdded = inbox.count + projects.reduce(0) { $0 + $1.tasks.count }
    self.lines = lines
    self.refusal = refusal
  }
}

/// A task shown outside its list (Today, Upcoming, search results): with the list it is in and where it
/// stands against the person's today, as the server decided.
public struct TaskEntryView: Codable, Hashable, Sendable {
  public let task: TaskView
  /// The list's key: "inbox" or the project's id.
  public let list: String
  public let listName: String
  /// The project's colour; nil for the Inbox.
  public let color: String?
  /// "overdue", "today" or "upcoming"; nil for an undated task (or one done on another day).
  public let due: String?
  /// Whole days past the due date (0 unless overdue).
  public let daysLate: Int

  public init(task: TaskView, list: String, listName: String, color: String?, due: String?, daysLate: Int) {
    self.task = task
    self.list = list
    self.listName = listName
    self.color = color
    self.due = due
    self.daysLate = daysLate
  }
}

/// `GET /api/tasks/today?tz=`: overdue tasks first, then those due (or done) today, across every list.
public struct TodayResponse: Codable, Hashable, Sendable {
  /// The person's today ("YYYY-MM-DD") in `timeZone`.
  public let today: String
  public let timeZone: String
  public let tasks: [TaskEntryView]
  /// How many of `tasks` are overdue.
  public let overdue: Int

  public init(today: String, timeZone: String, tasks: [TaskEntryView], overdue: Int) {
    self.today = today
    self.timeZone = timeZone
    self.tasks = tasks
    self.overdue = overdue
  }
}

/// One day of the Upcoming view.
public struct UpcomingDayView: Codable, Hashable, Sendable {
  /// "YYYY-MM-DD".
  public let date: String
  /// Days after today (1 for tomorrow).
  public let daysAhead: Int
  public let tasks: [TaskEntryView]

  public init(date: String, daysAhead: Int, tasks: [TaskEntryView]) {
    self.date = date
    self.daysAhead = daysAhead
    self.tasks = tasks
  }
}

/// `GET /api/tasks/upcoming?tz=`: open tasks due after today, grouped by day.
public struct UpcomingResponse: Codable, Hashable, Sendable {
  public let today: String
  public let timeZone: String
  public let days: [UpcomingDayView]

  public init(today: String, timeZone: String, days: [UpcomingDayView]) {
    self.today = today
    self.timeZone = timeZone
    self.days = days
  }
}

/// `GET /api/tasks/search?q=&tz=`: tasks whose title or notes contain the query.
public struct TaskSearchResponse: Codable, Hashable, Sendable {
  /// The query as matched (trimmed; empty finds nothing).
  public let query: String
  public let tasks: [TaskEntryView]
  /// More tasks matched than an answer holds: a longer query narrows them.
  public let more: Bool

  public init(query: String, tasks: [TaskEntryView], more: Bool) {
    self.query = query
    self.tasks = tasks
    self.more = more
  }
}
