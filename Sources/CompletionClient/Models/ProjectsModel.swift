import CompletionAPI
import CompletionCore
import Foundation
import Observation

/// The state behind the Projects screens: the lists with the counts the server keeps, the tasks of the list
/// open, and a project's completion when the last task of it is done.
///
/// Counts, percentages and "complete" come from the server (its kept counts, the core's ratio); the ring's
/// movement between values is the core's `ProgressAnimator`, which the views run. ``followLive()`` keeps the
/// counts following the database: a change from another tab, device, script or the command line arrives
/// as an update, and a dropped connection resumes after the last revision seen.
@Observable
@MainActor
public final class ProjectsModel {
  /// The projects in their order, with their counts.
  public private(set) var projects: [ProjectView] = []
  /// The Inbox's counts.
  public private(set) var inbox: InboxView?
  /// The eight colours a project may have, as the server lists them.
  public private(set) var colors: [String] = []
  /// The list open: a project's id, or nil for the Inbox.
  public private(set) var openList: String?
  /// The open list's tasks, in their order.
  public private(set) var tasks: [TaskView] = []
  /// The open project's headings, in the server's order (none for the Inbox).
  public private(set) var headings: [HeadingView] = []
  /// The last project completion (the celebration to play), until ``dismissCompletion()``.
  public private(set) var completion: ProjectCompletionView?
  /// The project that completion belongs to.
  public private(set) var completedProject: ProjectView?
  /// What went wrong last, in words; nil when all is well.
  public internal(set) var problem: String?
  /// Whether the live stream is connected.
  public private(set) var isLive = false
  /// The last change of a task made here, in the server's words ("Completed “Water”"), which ``undo()`` takes
  /// back; nil after an undo, and when a later change (on another device too) or an undo elsewhere overtook it.
  public private(set) var undoable: UndoStepView?

  @ObservationIgnored public let client: CompletionClient
  @ObservationIgnored private let clock: any ModelClock
  @ObservationIgnored private let haptics: any HapticsPlaying
  @ObservationIgnored private let animator: any StateAnimating
  @ObservationIgnored private let timeZone: TimeZone
  /// The person's motion setting, sent with a change that may complete a project.
  @ObservationIgnored public var preference: MotionPreference
  @ObservationIgnored private var revision = 0
  @ObservationIgnored private var live: Task<Void, Never>?
  @ObservationIgnored private var completionTimer: ScheduledAction?

  /// `timeZone` names the person's day for the streak a project's completion counts in; `preference` is the
  /// person's motion setting, which the server adapts the completion's celebration to.
  public init(
    client: CompletionClient, clock: any ModelClock, timeZone: TimeZone = .current, preference: MotionPreference = .full,
    haptics: (any HapticsPlaying)? = nil, animator: (any StateAnimating)? = nil
  ) {
    let plain = PlainPlatform()
    self.timeZone = timeZone
    self.preference = preference
    self.client = client
    self.clock = clock
    self.haptics = haptics ?? plain
    self.animator = animator ?? plain
  }

  /// The open project, or nil for the Inbox.
  public var openProject: ProjectView? { projects.first { $0.id == openList } }

  /// The open list's tasks as sections: those under no heading, then each heading with its tasks.
  public var sections: [TaskSection] { TaskSection.of(tasks, headings: headings) }

  // MARK: Loading and following

  /// Loads the lists and the open list's tasks.
  public func load() async {
    await attempt {
      let overview = try await client.projects()
      apply(overview)
      try await loadTasks()
    }
  }

  /// Opens a list (a project's id, or nil for the Inbox) and loads its tasks.
  public func open(_ projectID: String?) async {
    openList = projectID
    await attempt { try await loadTasks() }
  }

  /// Follows the counts live until ``stopFollowing()``; reconnects after a lost connection, resuming after the
  /// last update seen so nothing is missed. The pause between tries is the server's `retry` advice, kept short.
  public func followLive() {
    guard live == nil else { return }
    live = Task { [weak self] in
      while !Task.isCancelled {
        guard let self else { return }
        do {
          for try await update in self.client.projectsUpdates(after: self.revision == 0 ? nil : self.revision) {
            self.isLive = true
            self.apply(update)
          }
        } catch {
          if Task.isCancelled { return }
        }
        self.isLive = false
        // Wait a moment on the model's clock before reconnecting.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
          self.clock.schedule(after: 1) { done.resume() }
        }
      }
    }
  }

  /// Stops following.
  public func stopFollowing() {
    live?.cancel()
    live = nil
    isLive = false
  }

  // MARK: Changes

  /// Makes a project and opens it.
  public func createProject(name: String? = nil, color: String? = nil) async {
    await attempt {
      let project = try await client.createProject(ProjectRequest(name: name, color: color))
      upsert(project)
      openList = project.id
      tasks = []
    }
  }

  /// Renames, recolours, re-notes, archives or unarchives a project.
  public func updateProject(_ id: String, name: String? = nil, color: String? = nil, notes: String? = nil, archived: Bool? = nil) async {
    await attempt { upsert(try await client.updateProject(id, ProjectRequest(name: name, color: color, notes: notes, archived: archived))) }
  }

  /// The projects in the list (archived ones are listed apart: ``archivedProjects``).
  public var listedProjects: [ProjectView] { projects.filter { !$0.archived } }
  /// The archived projects, with their counts as they were.
  public var archivedProjects: [ProjectView] { projects.filter(\.archived) }

  /// Deletes a project and its tasks; the Inbox opens if it was open.
  public func deleteProject(_ id: String) async {
    await attempt {
      try await client.deleteProject(id)
      projects.removeAll { $0.id == id }
      if openList == id {
        openList = nil
        try await loadTasks()
      }
    }
  }

  /// Adds a task to the open list.
  public func addTask(_ title: String) async {
    let list = openList
    await attempt {
      let change = try await client.createTask(TaskRequest(title: title, projectId: list.map { .set($0) } ?? .unchanged))
      apply(change)
    }
  }

  /// Completes or reopens a task. Completing a project's last task brings its completion.
  public func setCompleted(_ taskID: String, _ completed: Bool) async {
    await attempt {
      apply(try await client.updateTask(taskID, TaskRequest(completed: completed), timeZone: timeZone.identifier, preference: preference))
    }
  }

  /// Changes a task's fields, on the revision of it this model holds: when it was changed elsewhere since, the
  /// server refuses (`edit_conflict`, said in ``problem``) and the model takes the task as it is now, so the
  /// person sees theirs and can make the change again on it.
  public func updateTask(_ taskID: String, _ request: TaskRequest) async {
    var request = request
    if request.baseRevision == nil { request.baseRevision = tasks.first { $0.id == taskID }?.revision }
    await attempt {
      do {
        apply(try await client.updateTask(taskID, request, timeZone: timeZone.identifier, preference: preference))
      } catch let error as APIError where error.errorCode == .editConflict {
        if let conflict = try? JSONDecoder().decode(TaskConflictBody.self, from: error.body),
          let index = tasks.firstIndex(where: { $0.id == taskID })
        {
          tasks[index] = conflict.task
        }
        throw error
      }
    }
  }

  /// Deletes a task.
  public func deleteTask(_ taskID: String) async {
    await attempt { apply(try await client.deleteTask(taskID)) }
  }

  /// Puts the open list's tasks in a new order (all of its ids).
  public func orderTasks(_ ids: [String]) async {
    let list = openList
    await attempt {
      try await client.orderTasks(ids, inProject: list)
      let byID = Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, $0) })
      tasks = ids.compactMap { byID[$0] }
    }
  }

  /// Puts the projects in a new order (all of their ids).
  public func orderProjects(_ ids: [String]) async {
    await attempt {
      try await client.orderProjects(ids)
      let byID = Dictionary(uniqueKeysWithValues: projects.map { ($0.id, $0) })
      projects = ids.compactMap { byID[$0] }
    }
  }

  /// Takes back ``undoable`` (the person's last change of a task when there is none shown), on the server (every
  /// window follows through its stream). When something else changed since, nothing is undone and the problem
  /// says so.
  public func undo() async {
    let shown = undoable
    await attempt {
      // Undone or refused, the offer is spent (a change made meanwhile keeps its own).
      defer { if undoable == shown { undoable = nil } }
      let change = try await client.undoTaskChange(step: shown?.seq, timeZone: timeZone.identifier, preference: preference)
      if change.task == nil, let id = change.undone?.taskId { tasks.removeAll { $0.id == id } }
      apply(change)
      // A heading's change: no task came back, the list's groups did (a deleted heading with its tasks).
      if change.undone?.headingId != nil {
        try await loadTasks()
        undoable = nil
        return
      }
      // A task that came back takes its old place.
      tasks.sort { $0.position < $1.position }
    }
  }

  /// Takes the completion off the screen.
  public func dismissCompletion() {
    completionTimer?.cancel()
    completion = nil
    completedProject = nil
  }

  // MARK: Applying answers

  private func loadTasks() async throws {
    let list = openList
    let response = try await client.tasks(inProject: list)
    guard openList == list else { return }
    tasks = response.tasks
    headings = response.headings
    if let project = response.project { upsert(project) }
    if let inbox = response.inbox { self.inbox = inbox }
  }

  private func apply(_ overview: ProjectsOverview) {
    projects = overview.projects
    inbox = overview.inbox
    colors = overview.colors
    revision = max(revision, overview.revision)
  }

  private func apply(_ update: ProjectsLiveUpdate) {
    animator.animate {
      revision = max(revision, update.revision)
      // A later change or an undo (here or elsewhere) took the shown step's place: undo would not take it back.
      if let seq = undoable?.seq, update.revision >= seq, update.undoSeq != seq { undoable = nil }
      inbox = update.inbox
      if update.snapshot {
        projects = update.projects
      } else {
        for project in update.projects { upsert(project) }
        projects.removeAll { update.deleted.contains($0.id) }
      }
      if let openList, update.deleted.contains(openList) {
        self.openList = nil
        tasks = []
        headings = []
      }
    }
  }

  private func apply(_ change: TaskChangeResponse) {
    animator.animate {
      inbox = change.inbox
      if let step = change.undo { undoable = step }
      for project in change.projects { upsert(project) }
      if let task = change.task {
        if let index = tasks.firstIndex(where: { $0.id == task.id }) {
          if task.projectId == openList { tasks[index] = task } else { tasks.remove(at: index) }
        } else if task.projectId == openList {
          tasks.append(task)
        }
      }
      if let completion = change.completion, completion.isFirst {
        haptics.play(.success)
        self.completion = completion
        completedProject = change.projects.first { $0.isComplete }
        completionTimer?.cancel()
        // The card stays for the hold the server named, then goes by itself.
        completionTimer = clock.schedule(after: completion.holdSeconds) { [weak self] in self?.dismissCompletion() }
      }
    }
  }

  /// Puts a project's new counts in place (or adds it), keeping the order.
  private func upsert(_ project: ProjectView) {
    if let index = projects.firstIndex(where: { $0.id == project.id }) {
      projects[index] = project
    } else {
      projects.append(project)
      projects.sort { $0.position < $1.position }
    }
  }
}

extension ProjectsModel: ShowsProblems {}
