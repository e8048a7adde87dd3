import CompletionCore
import Foundation
import Testing

@testable import Projects

/// Headings inside a project, handled directly on values: they group a project's tasks and are never tasks.
@Suite("Headings")
struct HeadingTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// A board with a project "Garden" (two open tasks) and an empty project "Shed", written as a store writes.
  static func garden() throws -> (board: TaskBoard, garden: UUID, shed: UUID, tasks: [UUID]) {
    var board = TaskBoard()
    let garden = UUID(), shed = UUID()
    let tasks = [UUID(), UUID()]
    var commands: [TaskBoardCommand] = [.addProject(NewProject(id: garden, name: "Garden")), .addProject(NewProject(id: shed, name: "Shed"))]
    commands += tasks.enumerated().map { .addTask(NewTask(id: $1, projectID: garden, title: "T\($0)")) }
    for command in commands { try run(&board, command) }
    return (board, garden, shed, tasks)
  }

  /// Handles `command` and writes its effects to the board as it was, as a store does (the two must agree);
  /// returns the effects.
  @discardableResult
  static func run(_ board: inout TaskBoard, _ command: TaskBoardCommand) throws -> [TaskBoardEffect] {
    var handled = board
    let effects = try handled.handle(command, at: now)
    var written = board
    #expect(written.apply(effects, at: now) != nil, "\(command)")
    #expect(written == handled, "\(command)")
    board = written
    return effects
  }

  @Test("A heading is added at the end of its project's headings; the project's revision moves, its counts and ring do not")
  func add() throws {
    var (board, garden, _, _) = try Self.garden()
    let counts = board.projects[garden]?.counts
    let revision = board.projects[garden]!.revision
    let first = UUID(), second = UUID()
    let effects = try Self.run(&board, .addHeading(NewHeading(id: first, projectID: garden, name: "Spring")))
    try Self.run(&board, .addHeading(NewHeading(id: second, projectID: garden, name: "Autumn")))
    #expect(board.headingOrder(of: garden).map(\.name) == ["Spring", "Autumn"])
    #expect(board.projects[garden]?.counts == counts)
    #expect(board.projects[garden]!.revision == revision + 2)
    #expect(TaskBoard.touchedProjects(by: effects) == [garden])
    #expect(!effects.contains { if case .taskCompleted = $0 { true } else { false } })
    // Not in a project that is not there, nor in an archived one.
    #expect(throws: ProjectsError.projectNotFound) { try board.handle(.addHeading(NewHeading(id: UUID(), projectID: UUID())), at: Self.now) }
    try Self.run(&board, .editProject(garden, ProjectEdit(archived: true)))
    #expect(throws: ProjectsError.projectArchived("Garden")) {
      try board.handle(.addHeading(NewHeading(id: UUID(), projectID: garden)), at: Self.now)
    }
  }

  @Test("At most 100 headings a project")
  func limit() throws {
    var (board, garden, shed, _) = try Self.garden()
    for index in 0..<ProjectLimits.maxHeadingsPerProject {
      try Self.run(&board, .addHeading(NewHeading(id: UUID(), projectID: garden, name: "H\(index)")))
    }
    #expect(throws: ProjectsError.tooManyHeadings) { try board.handle(.addHeading(NewHeading(id: UUID(), projectID: garden)), at: Self.now) }
    // Another project has its own.
    try Self.run(&board, .addHeading(NewHeading(id: UUID(), projectID: shed)))
  }

  @Test("A heading's name follows a project name's rules: one trimmed line, control characters out, at most 120, blank gives the default")
  func names() throws {
    #expect(try ProjectInput.headingName("  Spring\u{1B}]0;x\u{07}\n ") == "Spring ]0;x")
    #expect(try ProjectInput.headingName("   ") == ProjectLimits.defaultHeadingName)
    #expect(try ProjectInput.headingName(nil) == nil)
    #expect(try ProjectInput.headingName(String(repeating: "é", count: 120))?.count == 120)
    #expect(throws: ProjectsError.tooLong(field: "name", limit: 120)) { try ProjectInput.headingName(String(repeating: "a", count: 121)) }
  }

  @Test("A task goes under a heading of its own project (to the end of that heading's tasks) and out again; counts stay")
  func taskUnderHeading() throws {
    var (board, garden, shed, tasks) = try Self.garden()
    let spring = UUID(), tools = UUID()
    try Self.run(&board, .addHeading(NewHeading(id: spring, projectID: garden, name: "Spring")))
    try Self.run(&board, .addHeading(NewHeading(id: tools, projectID: shed, name: "Tools")))
    let counts = board.projects[garden]?.counts
    let position = board.tasks[tasks[0]]!.position
    let effects = try Self.run(&board, .editTask(tasks[0], TaskEdit(headingID: .some(spring))))
    #expect(board.tasks[tasks[0]]?.headingID == spring)
    #expect(board.tasks[tasks[0]]!.position > position)
    #expect(board.projects[garden]?.counts == counts)
    #expect(board.undo.last?.label == "Moved “T0” under “Spring”")
    #expect(effects.contains { if case .taskSaved(_, _, placed: true) = $0 { true } else { false } })
    // Another project's heading, or one that is gone, is refused and changes nothing.
    let before = board
    #expect(throws: ProjectsError.headingInOtherProject) { try board.handle(.editTask(tasks[1], TaskEdit(headingID: .some(tools))), at: Self.now) }
    #expect(throws: ProjectsError.headingNotFound) { try board.handle(.editTask(tasks[1], TaskEdit(headingID: .some(UUID()))), at: Self.now) }
    #expect(board == before)
    // A new task can go straight under a heading of its own project.
    let fresh = UUID()
    try Self.run(&board, .addTask(NewTask(id: fresh, projectID: garden, title: "New", headingID: spring)))
    #expect(board.tasks[fresh]?.headingID == spring)
    #expect(throws: ProjectsError.headingInOtherProject) {
      try board.handle(.addTask(NewTask(id: UUID(), projectID: nil, title: "x", headingID: tools)), at: Self.now)
    }
    try Self.run(&board, .deleteTask(fresh))
    try Self.run(&board, .undo())
    try Self.run(&board, .undo())
    // Undo takes it back out.
    try Self.run(&board, .undo())
    #expect(board.tasks[tasks[0]]?.headingID == nil)
    try Self.run(&board, .editTask(tasks[0], TaskEdit(headingID: .some(spring))))
    try Self.run(&board, .editTask(tasks[0], TaskEdit(headingID: .some(nil))))
    #expect(board.tasks[tasks[0]]?.headingID == nil)
    #expect(board.undo.last?.label == "Moved “T0” out of its heading")
  }

  @Test("A task moved to another project leaves its heading (one at a time or in a batch), unless the move names one there")
  func moveClears() throws {
    var (board, garden, shed, tasks) = try Self.garden()
    let spring = UUID(), tools = UUID()
    try Self.run(&board, .addHeading(NewHeading(id: spring, projectID: garden, name: "Spring")))
    try Self.run(&board, .addHeading(NewHeading(id: tools, projectID: shed, name: "Tools")))
    for task in tasks { try Self.run(&board, .editTask(task, TaskEdit(headingID: .some(spring)))) }
    try Self.run(&board, .editTask(tasks[0], TaskEdit(projectID: .some(shed))))
    #expect(board.tasks[tasks[0]]?.projectID == shed && board.tasks[tasks[0]]?.headingID == nil)
    try Self.run(&board, .batchTasks([tasks[1]], .move(to: nil)))
    #expect(board.tasks[tasks[1]]?.projectID == nil && board.tasks[tasks[1]]?.headingID == nil)
    try Self.run(&board, .editTask(tasks[1], TaskEdit(projectID: .some(shed), headingID: .some(tools))))
    #expect(board.tasks[tasks[1]]?.projectID == shed && board.tasks[tasks[1]]?.headingID == tools)
    // A heading of the project it leaves is not one of the project it joins.
    #expect(throws: ProjectsError.headingInOtherProject) {
      try board.handle(.editTask(tasks[0], TaskEdit(projectID: .some(garden), headingID: .some(tools))), at: Self.now)
    }
  }

  @Test("A batch moves several tasks under a heading at once (from other lists and from the project itself), all or none")
  func batchUnderHeading() throws {
    var (board, garden, shed, tasks) = try Self.garden()
    let spring = UUID(), tools = UUID()
    try Self.run(&board, .addHeading(NewHeading(id: spring, projectID: garden, name: "Spring")))
    try Self.run(&board, .addHeading(NewHeading(id: tools, projectID: shed, name: "Tools")))
    let loose = UUID(), rake = UUID()
    try Self.run(&board, .addTask(NewTask(id: loose, projectID: nil, title: "Loose")))
    try Self.run(&board, .addTask(NewTask(id: rake, projectID: shed, title: "Rake", completed: true)))
    let before = board
    // A heading of another project, one that is not there, or one with the Inbox: refused, nothing changes.
    #expect(throws: ProjectsError.headingInOtherProject) {
      try board.handle(.batchTasks([tasks[0], loose], .move(to: garden, heading: tools)), at: Self.now)
    }
    #expect(throws: ProjectsError.headingNotFound) {
      try board.handle(.batchTasks([tasks[0], loose], .move(to: garden, heading: UUID())), at: Self.now)
    }
    #expect(throws: ProjectsError.headingInOtherProject) {
      try board.handle(.batchTasks([loose], .move(to: nil, heading: spring)), at: Self.now)
    }
    #expect(throws: ProjectsError.taskNotFound) {
      try board.handle(.batchTasks([tasks[0], UUID()], .move(to: garden, heading: spring)), at: Self.now)
    }
    #expect(board == before)
    // Two of the project's own tasks, one from the Inbox and one from another project, in the order named.
    let effects = try Self.run(&board, .batchTasks([loose, tasks[1], rake, tasks[0]], .move(to: garden, heading: spring)))
    for id in [loose, tasks[1], rake, tasks[0]] {
      #expect(board.tasks[id]?.projectID == garden && board.tasks[id]?.headingID == spring)
    }
    let placed = [loose, tasks[1], rake, tasks[0]].compactMap { board.tasks[$0]?.position }
    #expect(placed == placed.sorted() && Set(placed).count == 4)
    // Counts: the project gains two (one done), the Inbox and Shed lose theirs; each list counted once.
    #expect(board.projects[garden]?.counts == CompletionRatio(completed: 1, total: 4))
    #expect(board.projects[shed]?.counts == CompletionRatio(completed: 0, total: 0))
    #expect(board.owner.inbox.total == 0)
    #expect(effects.count { if case .listCounted = $0 { true } else { false } } == 3)
    #expect(board.recount().projects[garden] == board.projects[garden]?.counts)
    // A batch is not on the undo list.
    #expect(!effects.contains { if case .undoRecorded = $0 { true } else { false } })
    // Tasks already under it stay as they are: nothing changes.
    #expect(try board.handle(.batchTasks([loose, tasks[0]], .move(to: garden, heading: spring)), at: Self.now).isEmpty)
    // A move to the project without a heading leaves a task of that project where it is.
    #expect(try board.handle(.batchTasks([loose], .move(to: garden)), at: Self.now).isEmpty)
  }

  @Test("Adding, renaming and deleting a heading are on the undo list: a deletion comes back at its place with its tasks under it")
  func undoHeadings() throws {
    var (board, garden, shed, tasks) = try Self.garden()
    let spring = UUID(), summer = UUID(), autumn = UUID()
    for (id, name) in [(spring, "Spring"), (summer, "Summer"), (autumn, "Autumn")] {
      let effects = try Self.run(&board, .addHeading(NewHeading(id: id, projectID: garden, name: name)))
      let step = try #require(effects.lazy.compactMap { if case .undoRecorded(let step) = $0 { step } else { nil } }.first)
      #expect(step.kind == .headingAdded && step.label == "Added heading “\(name)”" && step.taskID == id && step.heading?.projectID == garden)
    }
    for task in tasks { try Self.run(&board, .editTask(task, TaskEdit(headingID: .some(summer)))) }
    let third = UUID()
    try Self.run(&board, .addTask(NewTask(id: third, projectID: garden, title: "T2")))
    let counts = board.projects[garden]?.counts
    let versions = tasks.map { board.tasks[$0]?.version }

    // Delete Summer (the middle one), with two tasks under it; undo: back in the middle, both under it again.
    let deleted = try Self.run(&board, .deleteHeading(summer, in: garden))
    let step = try #require(deleted.lazy.compactMap { if case .undoRecorded(let step) = $0 { step } else { nil } }.first)
    #expect(step.kind == .headingDeleted && step.label == "Deleted heading “Summer”")
    #expect(step.heading?.place == 1 && step.heading?.tasks == tasks)
    #expect(board.headingOrder(of: garden).map(\.name) == ["Spring", "Autumn"])
    // One of its tasks goes elsewhere meanwhile (another project): it stays there. The move is its own step.
    try Self.run(&board, .editTask(tasks[0], TaskEdit(projectID: .some(shed))))
    try Self.run(&board, .undo())
    #expect(board.tasks[tasks[0]]?.projectID == garden && board.tasks[tasks[0]]?.headingID == nil)
    let undone = try Self.run(&board, .undo())
    #expect(undone.contains(.undoTaken(step)))
    #expect(board.headingOrder(of: garden).map(\.name) == ["Spring", "Summer", "Autumn"])
    #expect(board.headingOrder(of: garden).map(\.position) == [0, 1, 2])
    #expect(tasks.map { board.tasks[$0]?.headingID } == [summer, summer])
    // Put back under it, its tasks keep their versions (what a person edits of them did not change).
    #expect(board.tasks[tasks[1]]?.version == versions[1])
    #expect(board.tasks[third]?.headingID == nil)
    #expect(board.projects[garden]?.counts == counts)
    #expect(TaskBoard.touchedProjects(by: undone) == [garden])

    // Rename Spring; undo gives the old name back.
    let renamed = try Self.run(&board, .editHeading(spring, in: garden, name: "Early spring", to: 2))
    #expect(renamed.contains { if case .undoRecorded(let step) = $0 { step.label == "Renamed heading “Spring” to “Early spring”" } else { false } })
    try Self.run(&board, .undo())
    #expect(board.headings[spring]?.name == "Spring")
    // A new place alone is not a step: undo then reaches the change before it.
    let moved = try Self.run(&board, .editHeading(spring, in: garden, name: nil, to: 0))
    #expect(!moved.contains { if case .undoRecorded = $0 { true } else { false } })

    // Undo of an add removes the heading; a task put under it since (by a batch, not on the undo list) stays
    // in the project, under none.
    let winter = UUID()
    try Self.run(&board, .addHeading(NewHeading(id: winter, projectID: garden, name: "Winter")))
    try Self.run(&board, .batchTasks([third], .move(to: garden, heading: winter)))
    #expect(board.tasks[third]?.headingID == winter)
    try Self.run(&board, .undo())
    #expect(board.headings[winter] == nil && board.tasks[third]?.projectID == garden && board.tasks[third]?.headingID == nil)
    #expect(board.projects[garden]?.counts == counts)
    #expect(board.headingOrder(of: garden).map(\.id) == [spring, summer, autumn])

    // A heading's step is stale once its project is gone: refused and taken off the list.
    try Self.run(&board, .editHeading(summer, in: garden, name: "High summer", to: nil))
    var elsewhere = board
    try Self.run(&elsewhere, .deleteProject(garden))
    let stale = try Self.run(&elsewhere, .undo())
    #expect(stale.contains(.refused(.undoStale("High summer"))) && elsewhere.undo.count == board.undo.count - 1)
    // Or once the heading is gone (deleted, that deletion then dropped from the list as a batch would not be on it).
    try Self.run(&board, .deleteHeading(summer, in: garden))
    board.undo.removeLast()
    let gone = try Self.run(&board, .undo())
    #expect(gone.contains(.refused(.undoStale("High summer"))) && board.headings[summer] == nil)
  }

  @Test("What a store may read inside the write: a toggle's or a rename's rows by key, not every task under a deleted heading")
  func footprintsReadByKey() {
    let project = UUID(), heading = UUID()
    #expect(TaskBoardCommand.setCompleted(UUID(), true).footprint.readsByKey)
    #expect(TaskBoardCommand.editHeading(heading, in: project, name: "Spring", to: nil).footprint.readsByKey)
    #expect(!TaskBoardCommand.deleteHeading(heading, in: project).footprint.readsByKey)
    #expect(!TaskBoardCommand.orderTasks(TaskList(project), [UUID()]).footprint.readsByKey)
  }

  @Test("A rename made on a name the heading no longer has (renamed in another window) is refused with the heading as it is; the same name, or no base, goes through")
  func renameConflict() throws {
    var (board, garden, _, _) = try Self.garden()
    let id = UUID()
    try Self.run(&board, .addHeading(NewHeading(id: id, projectID: garden, name: "Spring")))
    // Window B renames it first; window A's rename was begun on "Spring".
    try Self.run(&board, .editHeading(id, in: garden, name: "Early spring", to: nil, since: "Spring"))
    let before = board
    #expect(throws: ProjectsError.headingConflict(try #require(board.headings[id]))) {
      try board.handle(.editHeading(id, in: garden, name: "Spring sowing", to: nil, since: "Spring"), at: Self.now)
    }
    #expect(board == before && ProjectsError.headingConflict(board.headings[id]!).code == "heading_conflict")
    // Both wrote the same name: nothing to choose, nothing changes.
    #expect(try board.handle(.editHeading(id, in: garden, name: "Early spring", to: nil, since: "Spring"), at: Self.now).isEmpty)
    // Keep mine: sent again on the saved name. Without a base (an older client) the last rename wins.
    try Self.run(&board, .editHeading(id, in: garden, name: "Spring sowing", to: nil, since: "Early spring"))
    try Self.run(&board, .editHeading(id, in: garden, name: "Sowing", to: nil))
    #expect(board.headings[id]?.name == "Sowing")
    // A move alone is no rename: it never conflicts.
    try Self.run(&board, .editHeading(id, in: garden, name: nil, to: 0, since: "Spring"))
  }

  @Test("Headings are renamed and reordered (to a place, clamped to the ends); another project's heading is not found")
  func editAndOrder() throws {
    var (board, garden, shed, _) = try Self.garden()
    let ids = [UUID(), UUID(), UUID()]
    for (index, id) in ids.enumerated() { try Self.run(&board, .addHeading(NewHeading(id: id, projectID: garden, name: "H\(index)"))) }
    try Self.run(&board, .editHeading(ids[2], in: garden, name: nil, to: 0))
    #expect(board.headingOrder(of: garden).map(\.id) == [ids[2], ids[0], ids[1]])
    try Self.run(&board, .editHeading(ids[2], in: garden, name: "Last", to: 99))
    #expect(board.headingOrder(of: garden).map(\.name) == ["H0", "H1", "Last"])
    try Self.run(&board, .editHeading(ids[1], in: garden, name: nil, to: -4))
    #expect(board.headingOrder(of: garden).map(\.id) == [ids[1], ids[0], ids[2]])
    // Nothing to change: no effects, the revision stays.
    #expect(try board.handle(.editHeading(ids[1], in: garden, name: "H1", to: 0), at: Self.now).isEmpty)
    #expect(throws: ProjectsError.headingNotFound) { try board.handle(.editHeading(ids[0], in: shed, name: "x", to: nil), at: Self.now) }
    #expect(throws: ProjectsError.headingNotFound) { try board.handle(.deleteHeading(ids[0], in: shed), at: Self.now) }
  }

  @Test("Deleting a heading keeps its tasks in the project, under no heading; deleting the project takes its headings")
  func delete() throws {
    var (board, garden, _, tasks) = try Self.garden()
    let spring = UUID()
    try Self.run(&board, .addHeading(NewHeading(id: spring, projectID: garden, name: "Spring")))
    try Self.run(&board, .setCompleted(tasks[1], true))
    for task in tasks { try Self.run(&board, .editTask(task, TaskEdit(headingID: .some(spring)))) }
    let counts = board.projects[garden]?.counts
    let versions = tasks.map { board.tasks[$0]?.version }
    try Self.run(&board, .deleteHeading(spring, in: garden))
    #expect(board.headings.isEmpty)
    #expect(tasks.allSatisfy { board.tasks[$0]?.projectID == garden && board.tasks[$0]?.headingID == nil })
    #expect(tasks.map { board.tasks[$0]?.version } == versions)
    #expect(board.projects[garden]?.counts == counts)
    // Completing the last open task still finishes the project: headings are not tasks.
    let last = try Self.run(&board, .setCompleted(tasks[0], true))
    #expect(TaskBoard.finished(by: last, stored: Array(board.projects.values)).map(\.id) == [garden])
    try Self.run(&board, .addHeading(NewHeading(id: UUID(), projectID: garden, name: "Again")))
    try Self.run(&board, .deleteProject(garden))
    #expect(board.headings.isEmpty)
  }

  @Test("Undoing a task's delete puts it back under its heading, or under none when the heading is gone")
  func undoAfterHeadingGone() throws {
    var (board, garden, _, tasks) = try Self.garden()
    let spring = UUID()
    try Self.run(&board, .addHeading(NewHeading(id: spring, projectID: garden, name: "Spring")))
    try Self.run(&board, .editTask(tasks[0], TaskEdit(headingID: .some(spring))))
    try Self.run(&board, .deleteTask(tasks[0]))
    try Self.run(&board, .undo())
    #expect(board.tasks[tasks[0]]?.headingID == spring)
    try Self.run(&board, .deleteTask(tasks[0]))
    try Self.run(&board, .deleteHeading(spring, in: garden))
    // The heading's deletion is the newest step: undone first (back, without the task, which is gone), then the task's.
    try Self.run(&board, .undo())
    #expect(board.headings[spring] != nil && board.tasks[tasks[0]] == nil)
    try Self.run(&board, .undo())
    #expect(board.tasks[tasks[0]]?.headingID == spring)
    // With the heading gone and its deletion off the list (pushed out by newer steps), the task comes back under none.
    try Self.run(&board, .deleteTask(tasks[0]))
    try Self.run(&board, .deleteHeading(spring, in: garden))
    board.undo.removeLast()
    try Self.run(&board, .undo())
    #expect(board.tasks[tasks[0]]?.projectID == garden && board.tasks[tasks[0]]?.headingID == nil)
  }

  @Test("A store's list puts tasks without a heading first, then each heading's tasks in the headings' order")
  func listOrder() async throws {
    let store = InMemoryProjectsStore()
    let user = UUID(), garden = UUID(), first = UUID(), second = UUID()
    _ = try await store.perform(.addProject(NewProject(id: garden, name: "Garden")), of: user, at: Self.now)
    for id in [first, second] { _ = try await store.perform(.addHeading(NewHeading(id: id, projectID: garden)), of: user, at: Self.now) }
    var ids: [UUID] = []
    for (title, heading) in [("a", second), ("b", nil), ("c", first), ("d", second)] as [(String, UUID?)] {
      ids.append(UUID())
      _ = try await store.perform(.addTask(NewTask(id: ids.last!, projectID: garden, title: title)), of: user, at: Self.now)
      if let heading { _ = try await store.perform(.editTask(ids.last!, TaskEdit(headingID: .some(heading))), of: user, at: Self.now) }
    }
    #expect(await store.tasks(user, in: .project(garden)).map(\.title) == ["b", "c", "a", "d"])
    _ = try await store.perform(.editHeading(second, in: garden, name: nil, to: 0), of: user, at: Self.now)
    #expect(await store.tasks(user, in: .project(garden)).map(\.title) == ["b", "a", "d", "c"])
  }
}
