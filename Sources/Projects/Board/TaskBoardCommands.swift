import CompletionCore
import Foundation

/// A task to add (checked with ``ProjectInput`` first). The caller picks its id.
public struct NewTask: Hashable, Sendable {
  public let id: UUID
  public var projectID: UUID?
  public var title: String
  public var notes: String
  public var priority: TaskPriority
  public var dueDate: String?
  public var completed: Bool
  /// A heading of its project to go under (nil: none).
  public var headingID: UUID?

  public init(
    id: UUID, projectID: UUID?, title: String, notes: String = "", priority: TaskPriority = .none, dueDate: String? = nil,
    completed: Bool = false, headingID: UUID? = nil
  ) {
    self.headingID = headingID
    self.id = id
    self.projectID = projectID
    self.title = title
    self.notes = notes
    self.priority = priority
    self.dueDate = dueDate
    self.completed = completed
  }
}

/// A change of a task's fields; nil leaves a field as it is. `dueDate: .some(nil)` clears the date and
/// `projectID: .some(nil)` moves the task to the Inbox.
public struct TaskEdit: Hashable, Sendable {
  public var title: String?
  public var notes: String?
  public var priority: TaskPriority?
  public var dueDate: String??
  public var completed: Bool?
  public var projectID: UUID??
  /// `.some(id)` puts the task under that heading of its project (of the project it moves to, when it moves);
  /// `.some(nil)` takes it out of its heading. Nil: it keeps its heading, unless it moves to another project,
  /// which clears it.
  public var headingID: UUID??
  /// The task's version the edit was made on, when the client sends it: an edit made on an older version than
  /// the stored one is refused with ``ProjectsError/editConflict(_:)`` (and the task as it is now), so the
  /// person chooses. Nil: the edit wins over whatever came before (older clients).
  public var baseRevision: Int?

  public init(
    title: String? = nil, notes: String? = nil, priority: TaskPriority? = nil, dueDate: String?? = nil, completed: Bool? = nil,
    projectID: UUID?? = nil, headingID: UUID?? = nil, baseRevision: Int? = nil
  ) {
    self.headingID = headingID
    self.baseRevision = baseRevision
    self.title = title
    self.notes = notes
    self.priority = priority
    self.dueDate = dueDate
    self.completed = completed
    self.projectID = projectID
  }
}

/// A project to add. The caller picks its id.
public struct NewProject: Hashable, Sendable {
  public let id: UUID
  public var name: String
  public var color: ProjectColor
  public var notes: String

  public init(id: UUID, name: String = ProjectLimits.defaultName, color: ProjectColor = .default, notes: String = "") {
    self.id = id
    self.name = name
    self.color = color
    self.notes = notes
  }
}

/// A change of a project's fields; nil leaves a field as it is.
public struct ProjectEdit: Hashable, Sendable {
  public var name: String?
  public var color: ProjectColor?
  public var notes: String?
  /// Archives (true) or unarchives (false) the project.
  public var archived: Bool?

  public init(name: String? = nil, color: ProjectColor? = nil, notes: String? = nil, archived: Bool? = nil) {
    self.archived = archived
    self.name = name
    self.color = color
    self.notes = notes
  }
}

/// A heading to add at the end of its project's headings. The caller picks its id.
public struct NewHeading: Hashable, Sendable {
  public let id: UUID
  public var projectID: UUID
  public var name: String

  public init(id: UUID, projectID: UUID, name: String = ProjectLimits.defaultHeadingName) {
    self.id = id
    self.projectID = projectID
    self.name = name
  }
}

/// A project brought in by an import, with its tasks.
public struct ImportedProject: Hashable, Sendable {
  public var project: NewProject
  public var tasks: [NewTask]
  /// Its headings in order (the project's id is the one `project` names); a task names one by `headingID`.
  public var headings: [NewHeading]
  /// Arrives archived (with its tasks, as an archived project keeps them).
  public var archived: Bool

  public init(project: NewProject, tasks: [NewTask], headings: [NewHeading] = [], archived: Bool = false) {
    self.archived = archived
    self.headings = headings
    self.project = project
    self.tasks = tasks
  }
}

/// What a batch change does to every task it names.
public enum TaskBatchChange: Hashable, Sendable {
  /// Complete (true) or reopen (false); a task already so is left as it is.
  case complete(Bool)
  /// Move to a project (nil: the Inbox), to the end of it in the order named; a task already there stays.
  /// With `heading` (one of that project's headings), every task goes under it, to the end of its tasks;
  /// a task already under it stays.
  case move(to: UUID?, heading: UUID? = nil)
}

/// Something a person does to their lists.
public enum TaskBoardCommand: Hashable, Sendable {
  case addTask(NewTask)
  case editTask(UUID, TaskEdit)
  /// Completing or reopening a task, the most frequent change: a task already in that state changes nothing.
  case setCompleted(UUID, Bool)
  case deleteTask(UUID)
  /// Every task of the list, in the new order.
  case orderTasks(TaskList, [UUID])
  case addProject(NewProject)
  case editProject(UUID, ProjectEdit)
  /// The project and every task in it.
  case deleteProject(UUID)
  /// Every project of the person, in the new order.
  case orderProjects([UUID])
  /// Tasks for the Inbox and new projects with theirs, added after what the person has (checked whole first).
  case importItems(inbox: [NewTask], projects: [ImportedProject])
  /// Several tasks completed, reopened or moved at once: all of them or none (an unknown one refuses all).
  case batchTasks([UUID], TaskBatchChange)
  /// Takes back the person's last change of a task or heading (see ``UndoStep``): the task goes back to exactly
  /// what it was; an added heading goes, a renamed one gets its name back, a deleted one comes back at its
  /// place with the tasks that were under it. Refused when there is nothing to undo; when the task or heading
  /// changed since in a way the step cannot take back (its project was deleted), the step is taken off the
  /// list and the undo is refused. With `step` (the ``UndoStep/seq`` a toast showed), only that step is taken
  /// back: when the person's last step is another (something changed since, or that step was undone already)
  /// nothing is undone (``ProjectsError/undoMovedOn``).
  case undo(step: Int? = nil)
  /// A heading at the end of its project's headings.
  case addHeading(NewHeading)
  /// A heading of the project (second id) gets a new name (nil: as it is) and goes to place `to` among its
  /// project's headings (0 first; past the end: last; nil: where it is).
  /// `since`: the name the rename was made on (as the person saw it); when the heading has another name by now
  /// (renamed in another window) and the rename would change it, it is refused with
  /// ``ProjectsError/headingConflict(_:)`` so the person chooses. Nil: the rename wins (older clients).
  case editHeading(UUID, in: UUID, name: String?, to: Int?, since: String? = nil)
  /// A heading of the project goes; its tasks stay in the project, under no heading.
  case deleteHeading(UUID, in: UUID)

  /// What a store loads for this command: only what it touches, so a change costs the same in a list of
  /// ten tasks as in one of ten thousand.
  public var footprint: Footprint {
    switch self {
    case .addTask(let task): Footprint(projects: Set([task.projectID].compactMap { $0 }), headings: Set([task.headingID].compactMap { $0 }))
    case .editTask(let id, let edit):
      Footprint(task: id, projects: Set([edit.projectID ?? nil].compactMap { $0 }), headings: Set([edit.headingID ?? nil].compactMap { $0 }))
    case .setCompleted(let id, _), .deleteTask(let id): Footprint(task: id)
    case .orderTasks(let list, _): Footprint(projects: Set([list.projectID].compactMap { $0 }), tasksOf: list)
    case .addProject, .importItems: Footprint(projectCount: true)
    case .editProject(let id, _), .deleteProject(let id): Footprint(projects: [id])
    case .orderProjects: Footprint(allProjects: true)
    case .batchTasks(let ids, let change):
      if case .move(let target, let heading) = change {
        Footprint(projects: Set([target].compactMap { $0 }), taskIDs: Set(ids), headings: Set([heading].compactMap { $0 }))
      } else {
        Footprint(taskIDs: Set(ids))
      }
    // The last step first, then what it names (see ``UndoStep/footprint``).
    case .undo: Footprint(undo: true)
    case .addHeading(let heading): Footprint(projects: [heading.projectID], headingsOf: [heading.projectID])
    // The last undo step too: naming a heading just added changes its add's step instead of adding one.
    case .editHeading(_, let project, _, _, _): Footprint(projects: [project], headingsOf: [project], lastUndoStep: true)
    // The tasks under it too: its undo step names them, so an undo puts them back under it.
    case .deleteHeading(let id, let project): Footprint(projects: [project], headingsOf: [project], tasksUnder: [id])
    }
  }

  /// Whether every project may have changed (the live stream then sends a snapshot).
  public var changesEveryList: Bool {
    switch self {
    case .orderProjects, .importItems: true
    default: false
    }
  }
}

/// The part of a person's lists a command reads: the owner's counters always, then what it names.
public struct Footprint: Hashable, Sendable {
  /// A task, with the project it is in.
  public var task: UUID?
  /// Projects by id (a move's destination, a new task's project, the project edited).
  public var projects: Set<UUID>
  /// Every task of one list (a reorder).
  public var tasksOf: TaskList?
  /// Every project (a reorder of projects).
  public var allProjects: Bool
  /// How many projects the person has (for the limit).
  public var projectCount: Bool
  /// Several tasks, with the projects they are in (a batch change).
  public var taskIDs: Set<UUID>
  /// The person's last undo step, with the task it names and the lists that task is in and goes back to.
  public var undo: Bool
  /// Headings by id (the one a task goes under).
  public var headings: Set<UUID>
  /// Every heading of these projects (a heading added, renamed, moved or deleted).
  public var headingsOf: Set<UUID>
  /// Every task under these headings (a heading deleted: its undo step names them).
  public var tasksUnder: Set<UUID>
  /// The person's last undo step alone (not what it names).
  public var lastUndoStep: Bool

  /// Whether every row it names is found by key (a task, projects and headings by id, the last undo step,
  /// the headings of a project or two): a few rows whatever the size of the lists, so a store may read them
  /// inside the write that saves the change. Not so for a whole list, every project, a batch or every task
  /// under a heading.
  public var readsByKey: Bool { tasksOf == nil && !allProjects && taskIDs.isEmpty && tasksUnder.isEmpty }

  public init(
    task: UUID? = nil, projects: Set<UUID> = [], tasksOf: TaskList? = nil, allProjects: Bool = false, projectCount: Bool = false,
    taskIDs: Set<UUID> = [], undo: Bool = false, headings: Set<UUID> = [], headingsOf: Set<UUID> = [], tasksUnder: Set<UUID> = [],
    lastUndoStep: Bool = false
  ) {
    self.lastUndoStep = lastUndoStep
    self.tasksUnder = tasksUnder
    self.headings = headings
    self.headingsOf = headingsOf
    self.undo = undo
    self.task = task
    self.taskIDs = taskIDs
    self.projects = projects
    self.tasksOf = tasksOf
    self.allProjects = allProjects
    self.projectCount = projectCount
  }
}

/// What a store must write for a handled command. A store applies a change's effects in one transaction,
/// bumps the owner's change counter once for it, and answers with what it stored (``SavedChange``).
public enum TaskBoardEffect: Hashable, Sendable {
  /// `count` positions at the end of every list are taken from the owner's counter. `first` is the first as
  /// the handled board saw it: a store whose counter has moved on since shifts every position placed in this
  /// block by the difference, so two changes never share a place.
  case positionsReserved(count: Int, first: Int)
  case taskInserted(TaskItem)
  /// The task as it is now, saved only if it still has `expectedVersion` (else the change is judged again).
  /// `placed`: its position is from this change's reserved block (it moved to another list).
  case taskSaved(TaskItem, expectedVersion: Int, placed: Bool)
  case taskDeleted(UUID, expectedVersion: Int)
  /// A list's kept counts move by `delta`; a project's revision goes up (its task list changed), counts or not.
  case listCounted(UUID?, CountDelta)
  case projectInserted(ProjectItem)
  /// The given fields change; the project's revision goes up.
  case projectEdited(UUID, ProjectEdit)
  /// The project and every task in it are gone.
  case projectDeleted(UUID)
  /// The list's tasks take positions 0, 1, 2… in this order.
  case tasksOrdered([UUID])
  /// The person's projects take positions 0, 1, 2… in this order, each revision going up.
  case projectsOrdered([UUID])
  /// After the change the person has at most this many projects, else it is judged again: two additions at
  /// once never pass the limit together.
  case projectsAtMost(Int)
  /// A task in this project became done: if the project's counts, as stored after the change, are complete,
  /// the change finished it (see ``TaskBoard/finished(by:stored:)``).
  case taskCompleted(projectID: UUID)
  /// A change a person can take back goes on their undo list (the store sets its `seq` to the change
  /// counter it stored, and keeps the last ``ProjectLimits/undoDepth``).
  case undoRecorded(UndoStep)
  /// This step (by its `seq`) is taken off the undo list if it is still the last one there (else the change is
  /// judged again: two undos at once never take back one step twice, and a change recorded meanwhile is not
  /// passed over).
  case undoTaken(UndoStep)
  /// The command is refused with this error, and what else the effects say is still written (a stale undo
  /// step is taken off the list). The answer is the refusal.
  case refused(ProjectsError)
  /// A new heading (its position from this change's reserved block, as a task's).
  case headingInserted(HeadingItem)
  /// A heading's new name (else the change is judged again when the heading is gone).
  case headingRenamed(UUID, name: String)
  /// These headings of one project take positions 0, 1, 2… in this order.
  case headingsOrdered([UUID])
  /// The heading is gone (else the change is judged again) and every task under it is under none. The tasks'
  /// versions stay: what a person edits of them did not change.
  case headingDeleted(UUID)
  /// These tasks go under the heading (an undone deletion), each only if it is still in the heading's
  /// project under no heading; their versions stay, as a deletion's do.
  case tasksPutUnder(heading: UUID, project: UUID, tasks: [UUID])
}

/// What a store kept for a change: the rows as they are after it.
public struct SavedChange: Hashable, Sendable {
  public var owner: OwnerCounters
  /// Tasks inserted or saved, in the order of the effects.
  public var tasks: [TaskItem]
  /// Projects inserted, edited or counted, in the order of the effects (each once).
  public var projects: [ProjectItem]
  /// Headings inserted or renamed, as stored.
  public var headings: [HeadingItem]

  public init(owner: OwnerCounters, tasks: [TaskItem] = [], projects: [ProjectItem] = [], headings: [HeadingItem] = []) {
    self.headings = headings
    self.owner = owner
    self.tasks = tasks
    self.projects = projects
  }
}
