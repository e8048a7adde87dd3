import CompletionCore
import Foundation

/// A person's task lists, or the part of them one command touches, as a value. `handle(_:at:)` applies a
/// command and returns the effects a store writes; a refusal is thrown as a ``ProjectsError`` and changes
/// nothing. The counts are kept: every effect moves them by a ``CountDelta``, none recounts.
///
/// A store loads only a command's ``TaskBoardCommand/footprint`` (the task, the list it leaves and the one
/// it joins, the owner's counters), so completing a task costs the same whatever the size of its project.
/// `apply(_:at:)` is the same effects written to a whole board: the in-memory store is exactly that, and the
/// SQL store writes them the same way (one shared suite checks both).
public struct TaskBoard: Hashable, Sendable {
  public var owner: OwnerCounters
  /// The projects loaded (all of them for a whole board).
  public var projects: [UUID: ProjectItem]
  /// The tasks loaded (all of them for a whole board).
  public var tasks: [UUID: TaskItem]
  /// How many projects the person has (loaded when a command adds projects).
  public var projectCount: Int
  /// The person's undo list, newest last (all of it for a whole board; the last step for an undo).
  public var undo: [UndoStep]
  /// The headings loaded (all of them for a whole board).
  public var headings: [UUID: HeadingItem]

  public init(
    owner: OwnerCounters = .empty, projects: [UUID: ProjectItem] = [:], tasks: [UUID: TaskItem] = [:], projectCount: Int? = nil,
    undo: [UndoStep] = [], headings: [UUID: HeadingItem] = [:]
  ) {
    self.headings = headings
    self.owner = owner
    self.undo = undo
    self.projects = projects
    self.tasks = tasks
    self.projectCount = projectCount ?? projects.count
  }

  // MARK: Handle

  /// Applies `command` at `now`; returns what a store must write (nothing when nothing changes).
  public mutating func handle(_ command: TaskBoardCommand, at now: Date) throws(ProjectsError) -> [TaskBoardEffect] {
    switch command {
    case .addTask(let new):
      if let project = new.projectID {
        guard let list = projects[project] else { throw .projectNotFound }
        // An archived project is finished with: nothing new goes in until it is unarchived.
        if list.archived { throw .projectArchived(list.name) }
      }
      if let heading = new.headingID {
        guard let under = headings[heading] else { throw .headingNotFound }
        guard under.projectID == new.projectID else { throw .headingInOtherProject }
      }
      let first = owner.reserve(1)
      let task = TaskItem(
        id: new.id, projectID: new.projectID, title: new.title, notes: new.notes, priority: new.priority, dueDate: new.dueDate,
        completed: new.completed, completedAt: new.completed ? now : nil, position: first, headingID: new.headingID)
      tasks[task.id] = task
      return changed(
        [.positionsReserved(count: 1, first: first), .taskInserted(task), count(task.projectID, .added(completed: task.completed))]
          + record(nil, task))

    case .editTask(let id, let edit):
      guard let task = tasks[id] else { throw .taskNotFound }
      let target = edit.projectID ?? task.projectID
      let moved = target != task.projectID
      if moved, let target {
        guard let list = projects[target] else { throw .projectNotFound }
        if list.archived { throw .projectArchived(list.name) }
      }
      var after = task
      after.projectID = target
      // A task keeps its heading in its project; moved to another, it goes under none unless the edit names one.
      switch edit.headingID {
      case .none: after.headingID = moved ? nil : task.headingID
      case .some(nil): after.headingID = nil
      case .some(let headingID?):
        guard let heading = headings[headingID] else { throw .headingNotFound }
        guard heading.projectID == target else { throw .headingInOtherProject }
        after.headingID = headingID
      }
      let regrouped = after.headingID != task.headingID
      after.title = edit.title ?? task.title
      after.notes = edit.notes ?? task.notes
      after.priority = edit.priority ?? task.priority
      after.dueDate = edit.dueDate ?? task.dueDate
      after.completed = edit.completed ?? task.completed
      after.completedAt = after.completed ? (task.completed ? task.completedAt : now) : nil
      // Made on an older version: someone changed the task since this edit began. Unless it changes nothing
      // (both sides wrote the same), the person chooses between theirs and the stored task.
      if let base = edit.baseRevision, base != task.version, !after.hasSameContent(as: task) { throw .editConflict(task) }
      after.version += 1
      var effects: [TaskBoardEffect] = []
      if moved || regrouped {
        // A moved task goes to the end of its new list (or of its new heading's tasks).
        let first = owner.reserve(1)
        after.position = first
        effects.append(.positionsReserved(count: 1, first: first))
      }
      tasks[id] = after
      effects.append(.taskSaved(after, expectedVersion: task.version, placed: moved || regrouped))
      // What each list's counts do: leaving one and joining another, or a toggle in place.
      if moved {
        effects.append(count(task.projectID, .removed(completed: task.completed)))
        effects.append(count(target, .added(completed: after.completed)))
      } else {
        effects.append(count(task.projectID, .toggled(from: task.completed, to: after.completed)))
      }
      if !task.completed, after.completed, let target { effects.append(.taskCompleted(projectID: target)) }
      return changed(effects + record(task, after))

    case .setCompleted(let id, let completed):
      guard let task = tasks[id] else { throw .taskNotFound }
      guard task.completed != completed else { return [] }
      var after = task
      after.completed = completed
      after.completedAt = completed ? now : nil
      after.version += 1
      tasks[id] = after
      var effects: [TaskBoardEffect] = [
        .taskSaved(after, expectedVersion: task.version, placed: false), count(task.projectID, .toggled(from: !completed, to: completed)),
      ]
      if completed, let project = task.projectID { effects.append(.taskCompleted(projectID: project)) }
      return changed(effects + record(task, after))

    case .deleteTask(let id):
      guard let task = tasks[id] else { throw .taskNotFound }
      tasks[id] = nil
      return changed([.taskDeleted(id, expectedVersion: task.version), count(task.projectID, .removed(completed: task.completed))] + record(task, nil))

    case .orderTasks(let list, let ids):
      if let project = list.projectID, projects[project] == nil { throw .projectNotFound }
      let existing = tasks.values.filter { $0.projectID == list.projectID }.map(\.id)
      guard Set(existing) == Set(ids), existing.count == ids.count else { throw .orderMismatch }
      for (position, id) in ids.enumerated() { tasks[id]?.position = position }
      var effects: [TaskBoardEffect] = [.tasksOrdered(ids)]
      if let project = list.projectID { effects.append(count(project, .none)) }
      return changed(effects)

    case .addProject(let new):
      guard projectCount < ProjectLimits.maxProjects else { throw .tooManyProjects }
      let first = owner.reserve(1)
      let project = ProjectItem(
        id: new.id, name: new.name, color: new.color.rawValue, notes: new.notes, position: first, counts: CompletionRatio(completed: 0, total: 0),
        revision: 1)
      projects[project.id] = project
      projectCount += 1
      return changed([.positionsReserved(count: 1, first: first), .projectInserted(project), .projectsAtMost(ProjectLimits.maxProjects)])

    case .editProject(let id, let edit):
      guard var project = projects[id] else { throw .projectNotFound }
      project.name = edit.name ?? project.name
      project.color = edit.color?.rawValue ?? project.color
      project.notes = edit.notes ?? project.notes
      project.archived = edit.archived ?? project.archived
      project.revision += 1
      projects[id] = project
      return changed([.projectEdited(id, edit)])

    case .deleteProject(let id):
      guard projects[id] != nil else { throw .projectNotFound }
      projects[id] = nil
      projectCount -= 1
      tasks = tasks.filter { $0.value.projectID != id }
      headings = headings.filter { $0.value.projectID != id }
      return changed([.projectDeleted(id)])

    case .orderProjects(let ids):
      guard Set(projects.keys) == Set(ids), projects.count == ids.count else { throw .orderMismatch }
      for (position, id) in ids.enumerated() {
        projects[id]?.position = position
        projects[id]?.revision += 1
      }
      return changed([.projectsOrdered(ids)])

    case .importItems(let inbox, let imported):
      guard projectCount + imported.count <= ProjectLimits.maxProjects else { throw .tooManyProjects }
      let taskCount = inbox.count + imported.reduce(0) { $0 + $1.tasks.count }
      let headingCount = imported.reduce(0) { $0 + $1.headings.count }
      // A file's headings are its projects' own (ProjectsFile checks them whole; a command made otherwise too).
      for item in imported {
        let ids = Set(item.headings.map(\.id))
        guard item.headings.count <= ProjectLimits.maxHeadingsPerProject, item.tasks.allSatisfy({ $0.headingID.map(ids.contains) ?? true }) else {
          throw .invalidImport("a task names a heading its project does not have.")
        }
      }
      guard inbox.allSatisfy({ $0.headingID == nil }) else { throw .invalidImport("a task in the Inbox has no heading.") }
      var position = owner.reserve(taskCount + imported.count + headingCount)
      var effects: [TaskBoardEffect] = [.positionsReserved(count: taskCount + imported.count + headingCount, first: position)]
      func add(_ new: NewTask, to projectID: UUID?) {
        let task = TaskItem(
          id: new.id, projectID: projectID, title: new.title, notes: new.notes, priority: new.priority, dueDate: new.dueDate,
          completed: new.completed, completedAt: new.completed ? now : nil, position: position, headingID: new.headingID)
        position += 1
        tasks[task.id] = task
        effects.append(.taskInserted(task))
      }
      for task in inbox { add(task, to: nil) }
      for item in imported {
        // A project arrives with its tasks' counts already known.
        let project = ProjectItem(
          id: item.project.id, name: item.project.name, color: item.project.color.rawValue, notes: item.project.notes, position: position,
          counts: CompletionRatio(completed: item.tasks.filter(\.completed).count, total: item.tasks.count), revision: 1, archived: item.archived)
        position += 1
        projects[project.id] = project
        projectCount += 1
        effects.append(.projectInserted(project))
        for new in item.headings {
          let heading = HeadingItem(id: new.id, projectID: project.id, name: new.name, position: position)
          position += 1
          headings[heading.id] = heading
          effects.append(.headingInserted(heading))
        }
        for task in item.tasks { add(task, to: project.id) }
      }
      effects.append(count(nil, CountDelta(total: inbox.count, completed: inbox.filter(\.completed).count)))
      if !imported.isEmpty { effects.append(.projectsAtMost(ProjectLimits.maxProjects)) }
      return changed(effects)

    case .batchTasks(let ids, let change):
      return try batch(ids, change, at: now)

    case .undo(let step):
      return try takeBack(step)

    case .addHeading(let new):
      guard let project = projects[new.projectID] else { throw .projectNotFound }
      if project.archived { throw .projectArchived(project.name) }
      // A proposed id this project's headings have already (the store refuses one any other heading has).
      if headings[new.id] != nil { throw .headingIDTaken }
      guard headings.values.count(where: { $0.projectID == new.projectID }) < ProjectLimits.maxHeadingsPerProject else {
        throw .tooManyHeadings
      }
      // After every heading the project has: its position comes from the owner's counter, as a task's does.
      let first = owner.reserve(1)
      let heading = HeadingItem(id: new.id, projectID: new.projectID, name: new.name, position: first)
      let place = headingOrder(of: new.projectID).count
      headings[heading.id] = heading
      // The project's revision goes up (its list looks different), its counts do not move.
      return changed(
        [.positionsReserved(count: 1, first: first), count(new.projectID, .none), .headingInserted(heading)] + record(heading: nil, heading, place: place))

    case .editHeading(let id, let project, let name, let place, let since):
      guard let heading = headings[id], heading.projectID == project else { throw .headingNotFound }
      // Renamed from a name it no longer has: renamed elsewhere since this rename began. Unless both wrote the
      // same name, nothing changes and the person chooses between theirs and the saved one (as for a task's title).
      if let since, let name, since != heading.name, name != heading.name { throw .headingConflict(heading) }
      let was = headingOrder(of: project).firstIndex { $0.id == id } ?? 0
      var effects: [TaskBoardEffect] = []
      // The new order first: the renamed row a store answers with then carries its new place.
      if let place {
        var order = headingOrder(of: project).map(\.id)
        let from = order.firstIndex(of: id) ?? 0
        let to = min(max(place, 0), order.count - 1)
        if from != to {
          order.remove(at: from)
          order.insert(id, at: to)
          for (position, id) in order.enumerated() { headings[id]?.position = position }
          effects.append(.headingsOrdered(order))
        }
      }
      var step: [TaskBoardEffect] = []
      if let name, name != heading.name {
        headings[id]?.name = name
        effects.append(.headingRenamed(id, name: name))
        // A new name can be taken back; a new place alone is not a change the undo list keeps. Naming a heading
        // whose add is the last step is part of adding it: that step takes the name, so one undo removes it.
        if let last = undo.last, last.kind == .headingAdded, last.taskID == id, let named = headings[id] {
          undo.removeLast()
          step = [.undoTaken(last)] + record(heading: nil, named, place: last.heading?.place ?? was)
        } else {
          step = record(heading: heading, headings[id], place: was)
        }
      }
      guard !effects.isEmpty else { return [] }
      return changed([count(project, .none)] + effects + step)

    case .deleteHeading(let id, let project):
      guard let heading = headings[id], heading.projectID == project else { throw .headingNotFound }
      let place = headingOrder(of: project).firstIndex { $0.id == id } ?? 0
      // The tasks under it (loaded by the footprint), in their order: its undo puts them back under it.
      let under = tasks.values.filter { $0.headingID == id }.sorted { ($0.position, $0.id.uuidString) < ($1.position, $1.id.uuidString) }.map(\.id)
      headings[id] = nil
      for taskID in under { tasks[taskID]?.headingID = nil }
      // The project's row first: a store that writes it first holds it while the heading goes, so a task put
      // under this heading at the same time is either cleared with the others or refused (see the SQL store).
      return changed([count(project, .none), .headingDeleted(id)] + record(heading: heading, nil, place: place, tasks: under))
    }
  }

  /// The loaded headings of `project`, in their order.
  public func headingOrder(of project: UUID) -> [HeadingItem] {
    headings.values.filter { $0.projectID == project }.sorted { ($0.position, $0.id.uuidString) < ($1.position, $1.id.uuidString) }
  }

  /// Undo: the last step's task goes back to what it was before the step, if it is still as the step left it.
  /// `asked`: the step the person saw (a toast's); any other last step, or none, is not taken back.
  private mutating func takeBack(_ asked: Int?) throws(ProjectsError) -> [TaskBoardEffect] {
    // Checked before anything else: a toast's Undo never takes back a change it did not name (a later one, made
    // here or in another window), and pressed twice it finds its step gone instead of undoing the one before.
    if let asked, undo.last?.seq != asked { throw .undoMovedOn }
    guard let step = undo.popLast() else { throw .nothingToUndo }
    if let change = step.heading { return try takeBack(step, heading: change) }
    let current = tasks[step.taskID]
    let unchanged =
      switch (step.after, current) {
      case (nil, nil): true
      case (let after?, let current?): after.hasSameContent(as: current)
      default: false
      }
    // The list it goes back to must still be there (a deleted project took the step's task with it).
    let home = step.before?.projectID.map { projects[$0] != nil } ?? true
    guard unchanged, home else { return changed([.undoTaken(step), .refused(.undoStale(step.title))]) }
    var effects: [TaskBoardEffect] = [.undoTaken(step)]
    switch (step.before, current) {
    case (let before?, nil):
      // A deleted task comes back exactly as it was, in its place (under its heading, if that is still there).
      var restored = before
      restored.headingID = restored.headingID.flatMap { headings[$0] == nil ? nil : $0 }
      restored.version = before.version + 1
      tasks[before.id] = restored
      effects += [.taskInserted(restored), count(before.projectID, .added(completed: before.completed))]
    case (nil, let current?):
      tasks[current.id] = nil
      effects += [.taskDeleted(current.id, expectedVersion: current.version), count(current.projectID, .removed(completed: current.completed))]
    case (let before?, let current?):
      var restored = before
      restored.headingID = restored.headingID.flatMap { headings[$0] == nil ? nil : $0 }
      restored.version = current.version + 1
      tasks[before.id] = restored
      effects.append(.taskSaved(restored, expectedVersion: current.version, placed: false))
      if before.projectID != current.projectID {
        effects += [count(current.projectID, .removed(completed: current.completed)), count(before.projectID, .added(completed: before.completed))]
      } else {
        effects.append(count(before.projectID, .toggled(from: current.completed, to: before.completed)))
      }
      if !current.completed, before.completed, let project = before.projectID { effects.append(.taskCompleted(projectID: project)) }
    case (nil, nil):
      preconditionFailure("an undo step always names a task before or after its change")
    }
    return changed(effects)
  }

  /// Undo of a heading's step: an added heading goes (tasks moved under it since stay in the project, as a
  /// deletion leaves them), a renamed one gets its name back, a deleted one comes back at its place with the
  /// tasks that were under it and are still in the project under no heading. A heading or project gone (or a
  /// deleted heading's id back already) makes the step stale.
  private mutating func takeBack(_ step: UndoStep, heading change: UndoStep.HeadingChange) throws(ProjectsError) -> [TaskBoardEffect] {
    let project = change.projectID
    let stale: [TaskBoardEffect] = [.undoTaken(step), .refused(.undoStale(step.title))]
    guard projects[project] != nil else { return changed(stale) }
    switch (change.before, change.after) {
    case (nil, let added?):
      guard headings[added.id]?.projectID == project else { return changed(stale) }
      headings[added.id] = nil
      for (taskID, task) in tasks where task.headingID == added.id { tasks[taskID]?.headingID = nil }
      return changed([.undoTaken(step), count(project, .none), .headingDeleted(added.id)])
    case (let before?, let after?):
      guard headings[after.id]?.projectID == project else { return changed(stale) }
      headings[after.id]?.name = before.name
      return changed([.undoTaken(step), count(project, .none), .headingRenamed(after.id, name: before.name)])
    case (let before?, nil):
      guard headings[before.id] == nil else { return changed(stale) }
      var order = headingOrder(of: project).map(\.id)
      guard order.count < ProjectLimits.maxHeadingsPerProject else { throw .tooManyHeadings }
      let place = min(max(change.place, 0), order.count)
      order.insert(before.id, at: place)
      var restored = before
      restored.position = place
      headings[before.id] = restored
      for (position, id) in order.enumerated() { headings[id]?.position = position }
      let back = change.tasks.filter { tasks[$0]?.projectID == project && tasks[$0]?.headingID == nil }
      for id in back { tasks[id]?.headingID = before.id }
      return changed([
        .undoTaken(step), count(project, .none), .headingInserted(restored), .headingsOrdered(order),
        .tasksPutUnder(heading: before.id, project: project, tasks: back),
      ])
    case (nil, nil):
      preconditionFailure("a heading's undo step always names the heading before or after its change")
    }
  }

  /// A batch change: every task named must be the person's (else nothing changes); the tasks it changes are
  /// saved one by one, each list's counts move once by the sum, and the owner's counter moves once.
  /// A batch records no undo step: it is not taken back by undo. An earlier step of a task it changed no
  /// longer matches that task, so undoing it is refused as stale instead of silently reverting the batch.
  private mutating func batch(_ ids: [UUID], _ change: TaskBatchChange, at now: Date) throws(ProjectsError) -> [TaskBoardEffect] {
    var seen = Set<UUID>()
    let unique = ids.filter { seen.insert($0).inserted }
    guard !unique.isEmpty, unique.count <= ProjectLimits.maxTasksPerBatch else { throw .invalidBatch(count: unique.count) }
    var named: [TaskItem] = []
    for id in unique {
      guard let task = tasks[id] else { throw .taskNotFound }
      named.append(task)
    }
    // Each list's counts move once, in the order the lists first appear (so effects are deterministic).
    var lists: [UUID?] = []
    var deltas: [UUID?: CountDelta] = [:]
    func move(_ list: UUID?, _ delta: CountDelta) {
      if deltas[list] == nil { lists.append(list) }
      let current = deltas[list] ?? .none
      deltas[list] = CountDelta(total: current.total + delta.total, completed: current.completed + delta.completed)
    }
    var effects: [TaskBoardEffect] = []
    switch change {
    case .complete(let completed):
      let changing = named.filter { $0.completed != completed }
      guard !changing.isEmpty else { return [] }
      var finishing: [UUID] = []
      for task in changing {
        var after = task
        after.completed = completed
        after.completedAt = completed ? now : nil
        after.version += 1
        tasks[task.id] = after
        effects.append(.taskSaved(after, expectedVersion: task.version, placed: false))
        move(task.projectID, .toggled(from: task.completed, to: completed))
        if completed, let project = task.projectID, !finishing.contains(project) { finishing.append(project) }
      }
      for list in lists { effects.append(count(list, deltas[list] ?? .none)) }
      effects += finishing.map { .taskCompleted(projectID: $0) }
    case .move(let target, let heading):
      if let target {
        guard let list = projects[target] else { throw .projectNotFound }
        // As for one task: an archived project takes none, so the whole batch is refused.
        if list.archived { throw .projectArchived(list.name) }
      }
      if let heading {
        guard let under = headings[heading] else { throw .headingNotFound }
        guard let target, under.projectID == target else { throw .headingInOtherProject }
      }
      // Under a heading: every task not under it yet moves (one in the project under another heading or none
      // too). Without: only tasks from other lists (one already in the project keeps its heading).
      let moving = named.filter { heading == nil ? $0.projectID != target : $0.projectID != target || $0.headingID != heading }
      guard !moving.isEmpty else { return [] }
      // The moved tasks go to the end of their new list, in the order named.
      let first = owner.reserve(moving.count)
      effects.append(.positionsReserved(count: moving.count, first: first))
      for (offset, task) in moving.enumerated() {
        var after = task
        after.projectID = target
        after.headingID = heading
        after.position = first + offset
        after.version += 1
        tasks[task.id] = after
        effects.append(.taskSaved(after, expectedVersion: task.version, placed: true))
        if task.projectID == target {
          // Regrouped within the project: its counts stay, its revision goes up (its list looks different).
          move(target, .none)
        } else {
          move(task.projectID, .removed(completed: task.completed))
          move(target, .added(completed: task.completed))
        }
      }
      for list in lists { effects.append(count(list, deltas[list] ?? .none)) }
    }
    return changed(effects)
  }

  /// Puts the change of a task from `before` to `after` on the undo list (nothing when a person would see no
  /// change). The step's `seq` is the change counter after this change (``changed(_:)`` moves it once).
  private mutating func record(_ before: TaskItem?, _ after: TaskItem?) -> [TaskBoardEffect] {
    // The name of the list a moved task went to (loaded: a move's footprint names it).
    let target = after?.projectID.flatMap { projects[$0]?.name }
    let heading = after?.headingID.flatMap { headings[$0]?.name }
    guard let step = UndoStep.of(before, after, seq: owner.revision + 1, target: target, heading: heading) else { return [] }
    Self.push(step, on: &undo)
    return [.undoRecorded(step)]
  }

  /// Puts a heading's change on the undo list (nothing for one a person would not take back).
  private mutating func record(heading before: HeadingItem?, _ after: HeadingItem?, place: Int, tasks: [UUID] = []) -> [TaskBoardEffect] {
    guard let step = UndoStep.of(heading: before, after, place: place, tasks: tasks, seq: owner.revision + 1) else { return [] }
    Self.push(step, on: &undo)
    return [.undoRecorded(step)]
  }

  /// Adds `step` to an undo list, keeping the last ``ProjectLimits/undoDepth``.
  static func push(_ step: UndoStep, on list: inout [UndoStep]) {
    list.append(step)
    if list.count > ProjectLimits.undoDepth { list.removeFirst(list.count - ProjectLimits.undoDepth) }
  }

  /// Moves a list's kept counts by `delta` (a project's revision goes up with it) and says so.
  private mutating func count(_ list: UUID?, _ delta: CountDelta) -> TaskBoardEffect {
    if let list, var project = projects[list] {
      project.counts = delta.applied(to: project.counts)
      project.revision += 1
      projects[list] = project
    } else if list == nil {
      owner.inbox = delta.applied(to: owner.inbox)
    }
    return .listCounted(list, delta)
  }

  /// Every change moves the owner's change counter once.
  private mutating func changed(_ effects: [TaskBoardEffect]) -> [TaskBoardEffect] {
    owner.revision += 1
    return effects
  }

  /// The projects a change finished: a task in each became done, and its counts as stored after the change
  /// are complete (read after the write, so two last tasks completed at once finish the project once).
  public static func finished(by effects: [TaskBoardEffect], stored: [ProjectItem]) -> [ProjectItem] {
    let candidates = Set(effects.compactMap { if case .taskCompleted(let id) = $0 { id } else { nil } })
    return stored.filter { candidates.contains($0.id) && $0.isFinished }
  }

  /// The projects whose rows a change touched or removed (the live stream reads them again).
  public static func touchedProjects(by effects: [TaskBoardEffect]) -> Set<UUID> {
    Set(
      effects.compactMap { effect in
        switch effect {
        case .listCounted(let id, _): id
        case .projectInserted(let project): project.id
        case .projectEdited(let id, _), .projectDeleted(let id): id
        default: nil
        }
      })
  }

  // MARK: Apply

  /// Writes `effects` to this whole board, as a store does: all of them or none. Nil when a task's version
  /// check fails or a row it changes is gone (the command is then judged again on a fresh board).
  public mutating func apply(_ effects: [TaskBoardEffect], at now: Date) -> SavedChange? {
    guard !effects.isEmpty else { return SavedChange(owner: owner) }
    var board = self
    var shift = 0
    var saved = SavedChange(owner: owner)
    var inbox = CountDelta.none
    for case .listCounted(nil, let delta) in effects { inbox = CountDelta(total: inbox.total + delta.total, completed: inbox.completed + delta.completed) }
    board.owner.inbox = inbox.applied(to: board.owner.inbox)
    board.owner.revision += 1
    for case .positionsReserved(let count, let first) in effects { shift = board.owner.reserve(count) - first }
    func keep(_ project: ProjectItem) {
      saved.projects.removeAll { $0.id == project.id }
      saved.projects.append(project)
    }
    for effect in effects {
      switch effect {
      case .positionsReserved, .taskCompleted, .listCounted(nil, _), .refused: continue
      case .undoRecorded(var step):
        step.seq = board.owner.revision
        Self.push(step, on: &board.undo)
      case .undoTaken(let step):
        // Still the last step: a change recorded since (another window's) makes the undo be judged again.
        guard board.undo.last?.seq == step.seq else { return nil }
        board.undo.removeLast()
      case .taskInserted(var task):
        task.position += shift
        board.tasks[task.id] = task
        saved.tasks.append(task)
      case .taskSaved(var task, let expected, let placed):
        guard let stored = board.tasks[task.id], stored.version == expected else { return nil }
        if placed { task.position += shift }
        board.tasks[task.id] = task
        saved.tasks.append(task)
      case .taskDeleted(let id, let expected):
        guard board.tasks[id]?.version == expected else { return nil }
        board.tasks[id] = nil
      case .listCounted(let id?, let delta):
        guard var project = board.projects[id] else { return nil }
        project.counts = delta.applied(to: project.counts)
        project.revision += 1
        board.projects[id] = project
        keep(project)
      case .projectInserted(var project):
        project.position += shift
        board.projects[project.id] = project
        board.projectCount += 1
        keep(project)
      case .projectEdited(let id, let edit):
        guard var project = board.projects[id] else { return nil }
        project.name = edit.name ?? project.name
        project.color = edit.color?.rawValue ?? project.color
        project.notes = edit.notes ?? project.notes
        project.archived = edit.archived ?? project.archived
        project.revision += 1
        board.projects[id] = project
        keep(project)
      case .projectDeleted(let id):
        guard board.projects.removeValue(forKey: id) != nil else { return nil }
        board.projectCount -= 1
        board.tasks = board.tasks.filter { $0.value.projectID != id }
        board.headings = board.headings.filter { $0.value.projectID != id }
      case .headingInserted(var heading):
        guard board.projects[heading.projectID] != nil else { return nil }
        heading.position += shift
        board.headings[heading.id] = heading
        saved.headings.append(heading)
      case .headingRenamed(let id, let name):
        guard var heading = board.headings[id] else { return nil }
        heading.name = name
        board.headings[id] = heading
        saved.headings.append(heading)
      case .headingsOrdered(let ids):
        for (position, id) in ids.enumerated() { board.headings[id]?.position = position }
      case .headingDeleted(let id):
        guard board.headings.removeValue(forKey: id) != nil else { return nil }
        for (taskID, task) in board.tasks where task.headingID == id { board.tasks[taskID]?.headingID = nil }
      case .tasksPutUnder(let heading, let project, let ids):
        guard board.headings[heading]?.projectID == project else { return nil }
        for id in ids where board.tasks[id]?.projectID == project && board.tasks[id]?.headingID == nil { board.tasks[id]?.headingID = heading }
      case .projectsAtMost(let limit):
        guard board.projectCount <= limit else { return nil }
      case .tasksOrdered(let ids):
        for (position, id) in ids.enumerated() { board.tasks[id]?.position = position }
      case .projectsOrdered(let ids):
        for (position, id) in ids.enumerated() {
          board.projects[id]?.position = position
          board.projects[id]?.revision += 1
        }
      }
    }
    // A task saved under a heading that is gone meanwhile: judged again (and refused).
    for task in saved.tasks {
      if let heading = task.headingID, board.headings[heading]?.projectID != task.projectID { return nil }
    }
    saved.owner = board.owner
    self = board
    return saved
  }

  // MARK: Reads

  /// The part of this (whole) board `footprint` names: what a store loads for a command.
  public func slice(_ footprint: Footprint) -> TaskBoard {
    var footprint = footprint
    var slice = TaskBoard(owner: owner, projectCount: footprint.projectCount ? projectCount : 0)
    if footprint.lastUndoStep, let step = undo.last { slice.undo = [step] }
    if footprint.undo, let step = undo.last {
      slice.undo = [step]
      let named = step.footprint
      footprint.task = named.task
      footprint.projects.formUnion(named.projects)
      footprint.headings.formUnion(named.headings)
      footprint.headingsOf.formUnion(named.headingsOf)
      footprint.taskIDs.formUnion(named.taskIDs)
    }
    for id in footprint.headings { slice.headings[id] = headings[id] }
    for heading in headings.values where footprint.headingsOf.contains(heading.projectID) { slice.headings[heading.id] = heading }
    var projectIDs = footprint.projects
    if let id = footprint.task, let task = tasks[id] {
      slice.tasks[id] = task
      if let project = task.projectID { projectIDs.insert(project) }
    }
    if let list = footprint.tasksOf {
      for task in tasks.values where task.projectID == list.projectID { slice.tasks[task.id] = task }
    }
    for task in tasks.values where task.headingID.map(footprint.tasksUnder.contains) ?? false { slice.tasks[task.id] = task }
    for id in footprint.taskIDs {
      guard let task = tasks[id] else { continue }
      slice.tasks[id] = task
      if let project = task.projectID { projectIDs.insert(project) }
    }
    if footprint.allProjects { projectIDs.formUnion(projects.keys) }
    for id in projectIDs { slice.projects[id] = projects[id] }
    return slice
  }

  /// Counts recounted from the tasks: what the kept counts must always equal.
  public func recount() -> (inbox: CompletionRatio, projects: [UUID: CompletionRatio]) {
    var inbox = CountDelta.none
    var counted = projects.mapValues { _ in CountDelta.none }
    for task in tasks.values {
      let add = CountDelta.added(completed: task.completed)
      if let project = task.projectID {
        let current = counted[project] ?? .none
        counted[project] = CountDelta(total: current.total + add.total, completed: current.completed + add.completed)
      } else {
        inbox = CountDelta(total: inbox.total + add.total, completed: inbox.completed + add.completed)
      }
    }
    let zero = CompletionRatio(completed: 0, total: 0)
    return (inbox.applied(to: zero), counted.mapValues { $0.applied(to: zero) })
  }
}
