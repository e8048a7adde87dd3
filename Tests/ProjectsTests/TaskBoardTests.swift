import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Projects

/// The task board's rules, handled directly on values: counts, moves, completion, limits, input and import.
@Suite("Task board")
struct TaskBoardTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  static let taskIDs = (0..<12).map { UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", $0))! }
  static let projectIDs = (0..<4).map { UUID(uuidString: String(format: "10000000-0000-0000-0000-%012d", $0))! }
  static let headingIDs = (0..<4).map { UUID(uuidString: String(format: "20000000-0000-0000-0000-%012d", $0))! }

  /// A command from a generated operation on the board as it is: (kind, task, flag, list) over a small world,
  /// so commands often meet the same tasks and lists (and sometimes refer to ones that are gone).
  static func command(_ kind: Int, _ task: Int, _ flag: Bool, _ list: Int, on board: TaskBoard) -> TaskBoardCommand {
    let taskID = taskIDs[task]
    let target: UUID? = list == 3 ? nil : projectIDs[list]
    switch kind {
    case 0: return .addTask(NewTask(id: board.tasks[taskID] == nil ? taskID : UUID(), projectID: target, title: "T\(task)", completed: flag))
    case 1, 2: return .setCompleted(taskID, flag)
    case 3: return .editTask(taskID, TaskEdit(projectID: .some(target)))
    case 4: return .editTask(taskID, TaskEdit(title: "Edited", priority: .high, dueDate: .some(flag ? "2026-12-24" : nil), completed: flag))
    case 5: return .deleteTask(taskID)
    case 6:
      let id = projectIDs[list]
      return board.projects[id] == nil ? .addProject(NewProject(id: id, name: "P\(list)")) : .editProject(id, ProjectEdit(name: "Renamed", color: .green, archived: flag))
    case 7: return flag ? .deleteProject(projectIDs[list]) : .addProject(NewProject(id: board.projects[projectIDs[list]] == nil ? projectIDs[list] : UUID()))
    case 8:
      let ids = board.tasks.values.filter { $0.projectID == target }.sorted { $0.position < $1.position }.map(\.id)
      return .orderTasks(TaskList(target), flag ? ids.reversed() : Array(ids.dropFirst()))
    case 9:
      let ids = board.projects.values.sorted { $0.position < $1.position }.map(\.id)
      return .orderProjects(flag ? ids.reversed() : ids + [UUID()])
    case 11: return flag ? .undo() : .undo(step: board.undo.last.map { $0.seq - task % 2 })
    case 14:
      // A heading in a project (list 3: one that does not exist).
      let id = headingIDs[task % 4]
      return .addHeading(NewHeading(id: board.headings[id] == nil ? id : UUID(), projectID: list == 3 ? UUID() : projectIDs[list], name: "H\(task)"))
    case 15:
      // Renamed or moved in its own project, or (list 3) asked for in another.
      let id = headingIDs[task % 4]
      let project = list == 3 ? projectIDs[0] : board.headings[id]?.projectID ?? projectIDs[list]
      return .editHeading(id, in: project, name: flag ? "Renamed" : nil, to: flag ? nil : task % 3)
    case 16:
      let id = headingIDs[task % 4]
      return .deleteHeading(id, in: list == 3 ? projectIDs[1] : board.headings[id]?.projectID ?? projectIDs[list])
    case 17:
      // Under a heading (of its project or another), out of it, or moved to another project with a heading.
      // Mostly a heading that exists (so tasks often sit under one), sometimes one that is gone.
      let existing = board.headings.values.sorted { $0.id.uuidString < $1.id.uuidString }
      let heading = list < 3 && !existing.isEmpty ? existing[list % existing.count].id : headingIDs[list]
      if flag { return .editTask(taskID, TaskEdit(headingID: .some(task % 2 == 0 ? heading : nil))) }
      return .editTask(taskID, TaskEdit(projectID: .some(board.headings[heading]?.projectID), headingID: .some(heading)))
    case 12, 13:
      // A batch of three (sometimes naming a task that is gone, which refuses the whole batch).
      let named = [taskID, taskIDs[(task + 4) % taskIDs.count], taskIDs[(task + 7) % taskIDs.count]]
      return .batchTasks(named, kind == 12 ? .complete(flag) : .move(to: target))
    default:
      return .importItems(
        inbox: [NewTask(id: UUID(), projectID: nil, title: "Imported", completed: flag)],
        projects: flag ? [] : [ImportedProject(project: NewProject(id: UUID(), name: "Imported"), tasks: [NewTask(id: UUID(), projectID: nil, title: "A", completed: true)])])
    }
  }

  @Test("Property: after any sequence of commands (headings too) the kept counts equal a recount, every task's heading is its project's, and a command handled on the part of the board it touches decides and writes exactly what it would on the whole board")
  func countsAndLocality() async {
    let operation = PropertyBased.zip(Gen.int(in: 0...17), Gen.int(in: 0...11), Gen.bool, Gen.int(in: 0...3))
    await propertyCheck(count: 300, input: operation.array(of: 1...60)) { operations in
      var whole = TaskBoard()
      for (kind, task, flag, list) in operations {
        let command = Self.command(kind, task, flag, list, on: whole)
        var handledWhole = whole
        var slice = whole.slice(command.footprint)
        let onWhole = Result { () throws(ProjectsError) in try handledWhole.handle(command, at: Self.now) }
        let onSlice = Result { () throws(ProjectsError) in try slice.handle(command, at: Self.now) }
        #expect(onWhole == onSlice, "\(command)")
        guard case .success(let effects) = onSlice else {
          #expect(handledWhole == whole)  // a refusal changes nothing
          continue
        }
        var written = whole
        let saved = written.apply(effects, at: Self.now)
        #expect(saved != nil)
        #expect(written == handledWhole, "\(command)")
        whole = written
        let recount = whole.recount()
        #expect(whole.owner.inbox == recount.inbox)
        for (id, project) in whole.projects { #expect(project.counts == recount.projects[id]) }
        #expect(whole.projectCount == whole.projects.count)
        // Every task's heading is one of its own project's; every heading's project exists.
        for task in whole.tasks.values {
          if let heading = task.headingID { #expect(whole.headings[heading]?.projectID == task.projectID, "\(command)") }
        }
        #expect(whole.headings.values.allSatisfy { whole.projects[$0.projectID] != nil }, "\(command)")
      }
    }
  }

  @Test("A toggle loads one task and its list, whatever the size of the project")
  func toggleIsLocal() throws {
    var board = TaskBoard()
    let project = Self.projectIDs[0]
    _ = try board.handle(.addProject(NewProject(id: project, name: "Big")), at: Self.now)
    for index in 0..<10_000 {
      _ = try board.handle(.addTask(NewTask(id: UUID(), projectID: index.isMultiple(of: 2) ? project : nil, title: "T\(index)")), at: Self.now)
    }
    let id = try #require(board.tasks.values.first { $0.projectID == project }?.id)
    let command = TaskBoardCommand.setCompleted(id, true)
    let slice = board.slice(command.footprint)
    #expect(slice.tasks.count == 1 && slice.projects.count == 1)
  }

  @Test("Completing the last open task of a project finishes it; the store's counts decide")
  func completion() throws {
    var board = TaskBoard()
    let project = Self.projectIDs[0]
    _ = try board.handle(.addProject(NewProject(id: project)), at: Self.now)
    for id in Self.taskIDs.prefix(2) { _ = try board.handle(.addTask(NewTask(id: id, projectID: project, title: "x")), at: Self.now) }
    let first = try board.handle(.setCompleted(Self.taskIDs[0], true), at: Self.now)
    #expect(first.contains(.taskCompleted(projectID: project)))
    #expect(TaskBoard.finished(by: first, stored: [board.projects[project]!]).isEmpty)  // 1 of 2
    let last = try board.handle(.setCompleted(Self.taskIDs[1], true), at: Self.now)
    #expect(TaskBoard.finished(by: last, stored: [board.projects[project]!]).map(\.id) == [project])
    // Already done: nothing changes, nothing is written, the change counter stays.
    let revision = board.owner.revision
    #expect(try board.handle(.setCompleted(Self.taskIDs[1], true), at: Self.now).isEmpty)
    #expect(board.owner.revision == revision)
    // Reopening finishes nothing; an Inbox task never finishes a project.
    let reopened = try board.handle(.setCompleted(Self.taskIDs[1], false), at: Self.now)
    #expect(TaskBoard.finished(by: reopened, stored: [board.projects[project]!]).isEmpty)
    _ = try board.handle(.addTask(NewTask(id: Self.taskIDs[5], projectID: nil, title: "Inbox")), at: Self.now)
    #expect(!(try board.handle(.setCompleted(Self.taskIDs[5], true), at: Self.now)).contains { if case .taskCompleted = $0 { true } else { false } })
  }

  @Test("A move leaves one list and joins the other with the task's state, at the end of the new list")
  func move() throws {
    var board = TaskBoard()
    let (a, b) = (Self.projectIDs[0], Self.projectIDs[1])
    _ = try board.handle(.addProject(NewProject(id: a)), at: Self.now)
    _ = try board.handle(.addProject(NewProject(id: b)), at: Self.now)
    let id = Self.taskIDs[0]
    _ = try board.handle(.addTask(NewTask(id: id, projectID: a, title: "Paint", completed: true)), at: Self.now)
    let effects = try board.handle(.editTask(id, TaskEdit(projectID: .some(b))), at: Self.now)
    #expect(effects.contains(.listCounted(a, .removed(completed: true))) && effects.contains(.listCounted(b, .added(completed: true))))
    #expect(board.projects[a]?.counts == CompletionRatio(completed: 0, total: 0) && board.projects[b]?.counts == CompletionRatio(completed: 1, total: 1))
    #expect(board.tasks[id]?.position == board.owner.nextPosition)
    #expect(throws: ProjectsError.projectNotFound) { try board.handle(.editTask(id, TaskEdit(projectID: .some(UUID()))), at: Self.now) }
    #expect(throws: ProjectsError.taskNotFound) { try board.handle(.deleteTask(UUID()), at: Self.now) }
  }

  @Test("A batch: every list's counts move once by the sum, the revision once; one unknown task refuses it all")
  func batch() throws {
    var board = TaskBoard()
    let (a, b) = (Self.projectIDs[0], Self.projectIDs[1])
    _ = try board.handle(.addProject(NewProject(id: a)), at: Self.now)
    _ = try board.handle(.addProject(NewProject(id: b)), at: Self.now)
    let ids = Array(Self.taskIDs.prefix(4))
    for (index, id) in ids.enumerated() {
      _ = try board.handle(.addTask(NewTask(id: id, projectID: index < 3 ? a : nil, title: "T\(index)", completed: index == 2)), at: Self.now)
    }
    let before = board
    #expect(throws: ProjectsError.taskNotFound) { try board.handle(.batchTasks([ids[0], UUID()], .complete(true)), at: Self.now) }
    #expect(throws: ProjectsError.invalidBatch(count: 0)) { try board.handle(.batchTasks([], .complete(true)), at: Self.now) }
    #expect(board == before)
    let revision = board.owner.revision
    let done = try board.handle(.batchTasks([ids[0], ids[1], ids[2], ids[3]], .complete(true)), at: Self.now)
    #expect(done.filter { if case .listCounted = $0 { true } else { false } } == [.listCounted(a, CountDelta(completed: 2)), .listCounted(nil, CountDelta(completed: 1))])
    #expect(done.filter { if case .taskCompleted = $0 { true } else { false } } == [.taskCompleted(projectID: a)])
    #expect(board.owner.revision == revision + 1 && board.projects[a]?.isFinished == true)
    let moved = try board.handle(.batchTasks([ids[2], ids[0]], .move(to: b)), at: Self.now)
    #expect(moved.contains(.listCounted(a, CountDelta(total: -2, completed: -2))) && moved.contains(.listCounted(b, CountDelta(total: 2, completed: 2))))
    #expect(board.tasks[ids[0]].map(\.position) == board.owner.nextPosition && board.tasks[ids[2]].map(\.position) == board.owner.nextPosition - 1)
    #expect(try board.handle(.batchTasks([ids[2]], .move(to: b)), at: Self.now).isEmpty)
    // Into an archived project: refused whole, not even the tasks that could move do.
    _ = try board.handle(.editProject(b, ProjectEdit(archived: true)), at: Self.now)
    let unmoved = board
    let name = try #require(board.projects[b]?.name)
    #expect(throws: ProjectsError.projectArchived(name)) { try board.handle(.batchTasks([ids[1], ids[3]], .move(to: b)), at: Self.now) }
    #expect(board == unmoved)
  }

  @Test("Archiving keeps a project's counts and tasks; an archived project takes no new or moved tasks until it is unarchived")
  func archive() throws {
    var board = TaskBoard()
    let (a, b) = (Self.projectIDs[0], Self.projectIDs[1])
    _ = try board.handle(.addProject(NewProject(id: a, name: "Garden")), at: Self.now)
    _ = try board.handle(.addProject(NewProject(id: b, name: "House")), at: Self.now)
    _ = try board.handle(.addTask(NewTask(id: Self.taskIDs[0], projectID: a, title: "Dig", completed: true)), at: Self.now)
    _ = try board.handle(.addTask(NewTask(id: Self.taskIDs[1], projectID: a, title: "Sow")), at: Self.now)
    _ = try board.handle(.addTask(NewTask(id: Self.taskIDs[2], projectID: b, title: "Paint")), at: Self.now)
    let counts = board.projects[a]?.counts
    _ = try board.handle(.editProject(a, ProjectEdit(archived: true)), at: Self.now)
    #expect(board.projects[a]?.archived == true && board.projects[a]?.counts == counts)
    #expect(throws: ProjectsError.projectArchived("Garden")) {
      try board.handle(.addTask(NewTask(id: UUID(), projectID: a, title: "x")), at: Self.now)
    }
    #expect(throws: ProjectsError.projectArchived("Garden")) { try board.handle(.editTask(Self.taskIDs[2], TaskEdit(projectID: .some(a))), at: Self.now) }
    // Its own tasks can still be finished, moved out and changed.
    _ = try board.handle(.setCompleted(Self.taskIDs[1], true), at: Self.now)
    #expect(board.projects[a]?.isFinished == true)
    _ = try board.handle(.editProject(a, ProjectEdit(archived: false)), at: Self.now)
    _ = try board.handle(.addTask(NewTask(id: UUID(), projectID: a, title: "Water")), at: Self.now)
    #expect(board.projects[a]?.counts == CompletionRatio(completed: 2, total: 3) && board.projects[a]?.archived == false)
    #expect(ProjectsError.projectArchived("x").code == "project_archived")
  }

  @Test("An edit made on an older revision is refused with the task as it is now, unless it changes nothing; without a revision the last write wins")
  func editConflict() throws {
    var board = TaskBoard()
    let id = Self.taskIDs[0]
    _ = try board.handle(.addTask(NewTask(id: id, projectID: nil, title: "Water")), at: Self.now)
    let base = try #require(board.tasks[id]?.version)
    _ = try board.handle(.editTask(id, TaskEdit(title: "Water roses", baseRevision: base)), at: Self.now)
    let theirs = try #require(board.tasks[id])
    let unchanged = board
    #expect(throws: ProjectsError.editConflict(theirs)) { try board.handle(.editTask(id, TaskEdit(title: "Water beds", baseRevision: base)), at: Self.now) }
    #expect(board == unchanged)
    #expect(ProjectsError.editConflict(theirs).code == "edit_conflict")
    // The same words from both sides are no conflict; an edit on the current revision, or without one, goes through.
    _ = try board.handle(.editTask(id, TaskEdit(title: "Water roses", baseRevision: base)), at: Self.now)
    let current = try #require(board.tasks[id]?.version)
    _ = try board.handle(.editTask(id, TaskEdit(notes: "Mine", baseRevision: current)), at: Self.now)
    _ = try board.handle(.editTask(id, TaskEdit(notes: "Last")), at: Self.now)
    #expect(board.tasks[id]?.notes == "Last")
  }

  @Test("Limits: at most 500 projects, also when an import brings them; reorders must name every item once")
  func limits() throws {
    var board = TaskBoard(projectCount: ProjectLimits.maxProjects - 1)
    _ = try board.handle(.addProject(NewProject(id: UUID())), at: Self.now)
    #expect(throws: ProjectsError.tooManyProjects) { try board.handle(.addProject(NewProject(id: UUID())), at: Self.now) }
    let one = ImportedProject(project: NewProject(id: UUID()), tasks: [])
    #expect(throws: ProjectsError.tooManyProjects) { try board.handle(.importItems(inbox: [], projects: [one]), at: Self.now) }
    var small = TaskBoard()
    _ = try small.handle(.addProject(NewProject(id: Self.projectIDs[0])), at: Self.now)
    #expect(throws: ProjectsError.orderMismatch) { try small.handle(.orderProjects([]), at: Self.now) }
    #expect(throws: ProjectsError.orderMismatch) {
      try small.handle(.orderProjects([Self.projectIDs[0], Self.projectIDs[0]]), at: Self.now)
    }
  }

  @Test("Writing effects: a stale version writes nothing; positions reserved on an older board move to the stored counter")
  func applyRules() throws {
    var board = TaskBoard()
    let id = Self.taskIDs[0]
    _ = try board.handle(.addTask(NewTask(id: id, projectID: nil, title: "x")), at: Self.now)
    var stale = board
    var fresh = board
    _ = try fresh.handle(.setCompleted(id, true), at: Self.now)
    let late = try stale.handle(.setCompleted(id, true), at: Self.now)
    var stored = fresh
    #expect(stored.apply(late, at: Self.now) == nil)
    #expect(stored == fresh)
    // Two additions decided on the same board take different places.
    var first = board
    var second = board
    let a = try first.handle(.addTask(NewTask(id: Self.taskIDs[1], projectID: nil, title: "a")), at: Self.now)
    let b = try second.handle(.addTask(NewTask(id: Self.taskIDs[2], projectID: nil, title: "b")), at: Self.now)
    var both = board
    let appliedA = both.apply(a, at: Self.now)
    let appliedB = both.apply(b, at: Self.now)
    let savedA = try #require(appliedA)
    let savedB = try #require(appliedB)
    #expect(savedA.tasks[0].position < savedB.tasks[0].position)
    #expect(both.owner.inbox == CompletionRatio(completed: 0, total: 3) && both.owner.revision == board.owner.revision + 2)
    // The project limit is checked again when written.
    var full = TaskBoard(projectCount: ProjectLimits.maxProjects - 1)
    var racing = full
    let add = try racing.handle(.addProject(NewProject(id: UUID())), at: Self.now)
    _ = full.apply(try full.handle(.addProject(NewProject(id: UUID())), at: Self.now), at: Self.now)
    #expect(full.apply(add, at: Self.now) == nil)
  }

  @Test("Input: titles become one trimmed line, limits count code points, dates are real days from 1900 to 2999")
  func input() throws {
    #expect(try ProjectInput.title("  Two\nlines\u{7} ") == "Two lines")
    #expect(throws: ProjectsError.emptyTitle) { try ProjectInput.title(" \n ") }
    #expect(throws: ProjectsError.tooLong(field: "title", limit: 500)) { try ProjectInput.title(String(repeating: "x", count: 501)) }
    #expect(throws: ProjectsError.tooLong(field: "notes", limit: 10_000)) { try ProjectInput.notes(String(repeating: "e\u{301}", count: 5_001)) }
    #expect(try ProjectInput.name("   ") == ProjectLimits.defaultName)
    #expect(try ProjectInput.name(nil) == nil)
    #expect(throws: ProjectsError.invalidColor("teal")) { try ProjectInput.color("teal") }
    #expect(throws: ProjectsError.invalidPriority("urgent")) { try ProjectInput.priority("urgent") }
    #expect(try ProjectInput.dueDate("2026-12-24") == "2026-12-24")
    #expect(try ProjectInput.dueDate("") == nil)
    for bad in ["2026-02-30", "0002-07-04", "3000-01-01", "2026-1-1"] {
      #expect(throws: ProjectsError.invalidDueDate(bad)) { try ProjectInput.dueDate(bad) }
    }
    #expect(throws: ProjectsError.invalidID("nope")) { try ProjectInput.id("nope", notFound: .taskNotFound) }
    #expect(throws: ProjectsError.taskNotFound) { try ProjectInput.id(nil, notFound: .taskNotFound) }
    #expect(ProjectsError.tooManyProjects.code == "too_many_projects")
  }

  @Test("Import: a file is checked whole, every problem with its place; a good file becomes one command")
  func importFile() throws {
    let bad = ProjectsFile(
      version: 2,
      inbox: [.init(title: " ", notes: "", priority: "urgent", dueDate: "soon", completed: false)],
      projects: [.init(name: "", color: "teal", notes: "", tasks: [])])
    do {
      try bad.check()
      Issue.record("a bad file passed")
    } catch {
      guard case .invalidImport(let message) = error else { throw error }
      for part in ["version 1", "Inbox task 1: a task needs a title", "“urgent” is not a priority", "“soon” is not a date", "Project 1: a name needs",
        "“teal” is not a project colour"]
      {
        #expect(message.contains(part), "\(part)")
      }
    }
    let good = ProjectsFile(
      inbox: [.init(title: "Call\tMum ", notes: "", priority: "high", dueDate: "2026-12-24", completed: true)],
      projects: [
        .init(name: " Garden ", color: "green", notes: "", tasks: [.init(title: "Dig", notes: "", priority: "none", dueDate: nil, completed: false)]),
        .init(name: "Old shed", color: "blue", notes: "", tasks: [], archived: true),
      ])
    guard case .importItems(let inbox, let projects) = try good.command(newID: UUID.init) else {
      Issue.record("an import command")
      return
    }
    #expect(inbox.map(\.title) == ["Call Mum"] && inbox.first?.priority == .high && inbox.first?.completed == true)
    #expect(projects.map(\.project.name) == ["Garden", "Old shed"] && projects.first?.project.color == .green && projects.first?.tasks.count == 1)
    #expect(projects.map(\.archived) == [false, true])
    var board = TaskBoard()
    _ = try board.handle(.importItems(inbox: inbox, projects: projects), at: Self.now)
    #expect(board.owner.inbox == CompletionRatio(completed: 1, total: 1))
    let garden = try #require(board.projects.values.first { $0.name == "Garden" })
    #expect(garden.counts == CompletionRatio(completed: 0, total: 1) && !garden.archived)
    // An archived project in a file comes back archived.
    #expect(board.projects.values.first { $0.name == "Old shed" }?.archived == true)
    let plain = try PlainListImport.parse("Milk\n# Kitchen\n- [x] Paint").get().command(newID: UUID.init)
    guard case .importItems(let plainInbox, let plainProjects) = plain else { return }
    #expect(plainInbox.map(\.title) == ["Milk"] && plainProjects.first?.tasks.first?.completed == true)
    #expect(plainProjects.map(\.archived) == [false])
  }
}
