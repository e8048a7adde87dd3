import CompletionCore
import Fluent
import FluentSQL
import Foundation
import Projects
import PropertyBased
import Testing
import Vapor

@testable import CompletionServer

/// One suite of Projects store rules, run on the in-memory store and on the SQL store (SQLite here,
/// PostgreSQL in CI): load → handle → save keeps every count equal to a recount, a save on a stale version
/// writes nothing, positions never collide, and both stores answer the same to the same commands.
@Suite("Projects stores", .serialized)
struct ProjectsStoreTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)

  /// The SQL store as the server uses it: every save one write through the runner (grouped on SQLite, and
  /// rolled back whole when it answers nil).
  struct RunnerSQLStore: ProjectsStore {
    let app: Application
    var sql: SQLProjectsStore { SQLProjectsStore(app.db) }
    func owner(_ user: UUID) async throws -> OwnerCounters { try await sql.owner(user) }
    func projects(_ user: UUID) async throws -> [ProjectItem] { try await sql.projects(user) }
    func projects(_ user: UUID, ids: Set<UUID>) async throws -> [ProjectItem] { try await sql.projects(user, ids: ids) }
    func project(_ id: UUID, of user: UUID) async throws -> ProjectItem? { try await sql.project(id, of: user) }
    func tasks(_ user: UUID, in list: TaskList) async throws -> [TaskItem] { try await sql.tasks(user, in: list) }
    func headings(_ user: UUID, of project: UUID) async throws -> [HeadingItem] { try await sql.headings(user, of: project) }
    func tasks(_ user: UUID, in list: TaskList, page: TaskPage) async throws -> [TaskItem] { try await sql.tasks(user, in: list, page: page) }
    func allTasks(_ user: UUID) async throws -> [TaskItem] { try await sql.allTasks(user) }
    func datedTasks(_ user: UUID, doneSince: Date) async throws -> [TaskItem] { try await sql.datedTasks(user, doneSince: doneSince) }
    func taskTexts(_ user: UUID) async throws -> [TaskSearch.Text] { try await sql.taskTexts(user) }
    func tasks(_ user: UUID, ids: [UUID]) async throws -> [TaskItem] { try await sql.tasks(user, ids: ids) }
    func undoSteps(_ user: UUID) async throws -> [UndoStep] { try await sql.undoSteps(user) }
    func board(_ footprint: Footprint, of user: UUID) async throws -> TaskBoard { try await sql.board(footprint, of: user) }
    func save(_ effects: [TaskBoardEffect], of user: UUID, at now: Date) async throws -> SavedChange? {
      try await app.services.runner.write(on: app.db) { db in try await SQLProjectsStore(db).save(effects, of: user, at: now) }
    }
  }

  static func newUser(on db: any Database) async throws -> UUID {
    let user = User(displayName: "Projects store test", isGuest: true)
    try await user.create(on: db)
    return try user.requireID()
  }

  @discardableResult
  static func perform(_ store: some ProjectsStore, _ command: TaskBoardCommand, _ user: UUID) async throws -> (
    board: TaskBoard, effects: [TaskBoardEffect], saved: SavedChange
  ) {
    try #require(try await store.perform(command, of: user, at: now))
  }

  /// Every kept count equals a recount of the stored tasks.
  static func expectCountsMatch(_ store: some ProjectsStore, _ user: UUID) async throws {
    let tasks = try await store.allTasks(user)
    func counted(_ list: UUID?) -> CompletionRatio {
      let inList = tasks.filter { $0.projectID == list }
      return CompletionRatio(completed: inList.filter(\.completed).count, total: inList.count)
    }
    #expect(try await store.owner(user).inbox == counted(nil))
    for project in try await store.projects(user) { #expect(project.counts == counted(project.id), "\(project.name)") }
  }

  /// The shared rules. `user` and `other` are two people the store accepts.
  static func rules(_ store: some ProjectsStore, _ user: UUID, _ other: UUID) async throws {
    #expect(try await store.owner(user) == .empty)
    let garden = UUID()
    let created = try await perform(store, .addProject(NewProject(id: garden, name: "Garden", color: .green)), user)
    #expect(created.saved.projects.map(\.name) == ["Garden"] && created.saved.owner.revision == 1)
    var ids: [UUID] = []
    for title in ["Seeds", "Dig", "Water"] {
      ids.append(UUID())
      try await perform(store, .addTask(NewTask(id: ids.last!, projectID: garden, title: title)), user)
    }
    #expect(try await store.tasks(user, in: .project(garden)).map(\.title) == ["Seeds", "Dig", "Water"])

    // Toggles move the counts; the last open task finishes the project, by the counts as stored.
    let first = try await perform(store, .setCompleted(ids[0], true), user)
    #expect(first.saved.projects.map(\.counts) == [CompletionRatio(completed: 1, total: 3)])
    #expect(first.saved.tasks.map(\.completed) == [true] && first.saved.tasks.first?.version == 1)
    #expect(first.saved.tasks.first?.completedAt == now)
    try await perform(store, .setCompleted(ids[1], true), user)
    let last = try await perform(store, .setCompleted(ids[2], true), user)
    #expect(TaskBoard.finished(by: last.effects, stored: last.saved.projects).map(\.id) == [garden])
    // Already done: nothing is written, the change counter stays.
    let revision = try await store.owner(user).revision
    #expect(try await perform(store, .setCompleted(ids[2], true), user).effects.isEmpty)
    #expect(try await store.owner(user).revision == revision)

    // A save handled on a board loaded before another change of the task writes nothing at all.
    var stale = try await store.board(TaskBoardCommand.setCompleted(ids[0], false).footprint, of: user)
    let staleEffects = try stale.handle(.setCompleted(ids[0], false), at: now)
    try await perform(store, .editTask(ids[0], TaskEdit(title: "Seeds!")), user)
    let before = try await store.owner(user)
    #expect(try await store.save(staleEffects, of: user, at: now) == nil)
    #expect(try await store.owner(user) == before)
    #expect(try await store.project(garden, of: user)?.counts == CompletionRatio(completed: 3, total: 3))

    // Two additions decided on the same loaded board take different places, in the order they were saved.
    let footprint = TaskBoardCommand.addTask(NewTask(id: UUID(), projectID: nil, title: "x")).footprint
    var one = try await store.board(footprint, of: user)
    var two = one
    let a = try one.handle(.addTask(NewTask(id: UUID(), projectID: nil, title: "A")), at: now)
    let b = try two.handle(.addTask(NewTask(id: UUID(), projectID: nil, title: "B")), at: now)
    let savedA = try #require(try await store.save(a, of: user, at: now))
    let savedB = try #require(try await store.save(b, of: user, at: now))
    #expect(savedA.tasks[0].position < savedB.tasks[0].position)
    #expect(try await store.tasks(user, in: .inbox).map(\.title) == ["A", "B"])

    // A move leaves one list and joins the end of the other with its state.
    let moved = try await perform(store, .editTask(ids[0], TaskEdit(projectID: .some(nil))), user)
    #expect(moved.saved.owner.inbox == CompletionRatio(completed: 1, total: 3))
    #expect(moved.saved.projects.map(\.counts) == [CompletionRatio(completed: 2, total: 2)])
    #expect(try await store.tasks(user, in: .inbox).map(\.title) == ["A", "B", "Seeds!"])

    // Orders, a project's edit (only the fields given), deletes.
    let second = UUID()
    try await perform(store, .addProject(NewProject(id: second, name: "Second")), user)
    try await perform(store, .orderProjects([second, garden]), user)
    #expect(try await store.projects(user).map(\.id) == [second, garden])
    try await perform(store, .orderTasks(.project(garden), [ids[2], ids[1]]), user)
    #expect(try await store.tasks(user, in: .project(garden)).map(\.id) == [ids[2], ids[1]])
    let edited = try await perform(store, .editProject(garden, ProjectEdit(notes: "Spring")), user)
    #expect(edited.saved.projects.map { [$0.name, $0.color, $0.notes] } == [["Garden", "green", "Spring"]])
    // Archived and back: stored, counts untouched, and an archived project refuses a task.
    let countsBefore = try await store.project(garden, of: user)?.counts
    let archived = try await perform(store, .editProject(garden, ProjectEdit(archived: true)), user)
    #expect(archived.saved.projects.map(\.archived) == [true])
    #expect(try await store.projects(user).first { $0.id == garden }?.archived == true)
    #expect(try await store.project(garden, of: user)?.counts == countsBefore)
    await #expect(throws: ProjectsError.projectArchived("Garden")) {
      try await store.perform(.addTask(NewTask(id: UUID(), projectID: garden, title: "x")), of: user, at: now)
    }
    try await perform(store, .editProject(garden, ProjectEdit(archived: false)), user)
    #expect(try await store.project(garden, of: user)?.archived == false)
    try await perform(store, .deleteProject(garden), user)
    #expect(try await store.project(garden, of: user) == nil)
    #expect(try await store.allTasks(user).allSatisfy { $0.projectID != garden })
    try await perform(store, .deleteTask(ids[0]), user)
    #expect(try await store.owner(user).inbox == CompletionRatio(completed: 0, total: 2))

    // An import: Inbox tasks and a project that arrives with its counts; an archived one arrives archived.
    let imported = UUID(), shelf = UUID()
    try await perform(
      store,
      .importItems(
        inbox: [NewTask(id: UUID(), projectID: nil, title: "Milk", completed: true)],
        projects: [
          ImportedProject(
            project: NewProject(id: imported, name: "Kitchen"),
            tasks: [NewTask(id: UUID(), projectID: nil, title: "Paint", completed: true), NewTask(id: UUID(), projectID: nil, title: "Tiles")]),
          ImportedProject(
            project: NewProject(id: shelf, name: "Old shelf"), tasks: [NewTask(id: UUID(), projectID: nil, title: "Sand", completed: true)],
            archived: true),
        ]), user)
    #expect(try await store.project(imported, of: user)?.counts == CompletionRatio(completed: 1, total: 2))
    #expect(try await store.project(imported, of: user)?.archived == false)
    #expect(try await store.project(shelf, of: user).map { [$0.archived, $0.counts.isComplete] } == [true, true])
    #expect(try await store.tasks(user, in: .project(imported)).map(\.title) == ["Paint", "Tiles"])

    // Dated tasks (the Today and Upcoming views' rows): open ones with a date, and done ones only when done
    // at or after the instant asked for; undated ones never. Another person's never.
    let due = UUID(), doneRecently = UUID(), undated = UUID()
    try await perform(store, .addTask(NewTask(id: due, projectID: nil, title: "Due", dueDate: "2027-01-15")), user)
    try await perform(store, .addTask(NewTask(id: doneRecently, projectID: nil, title: "Done", dueDate: "2027-01-14")), user)
    try await perform(store, .addTask(NewTask(id: undated, projectID: nil, title: "Someday")), user)
    try await perform(store, .setCompleted(doneRecently, true), user)
    #expect(try await store.datedTasks(user, doneSince: now).map(\.id) == [due, doneRecently])
    #expect(try await store.datedTasks(user, doneSince: now.addingTimeInterval(1)).map(\.id) == [due])
    #expect(try await store.datedTasks(other, doneSince: now).isEmpty)
    // What a search reads: every task's title and notes in list order, then the matched rows by id, in the
    // order asked for; another person's ids give nothing.
    let texts = try await store.taskTexts(user)
    #expect(texts.map(\.id) == (try await store.allTasks(user)).map(\.id))
    #expect(texts.first { $0.id == due }?.title == "Due")
    #expect(try await store.tasks(user, ids: [undated, due, UUID()]).map(\.title) == ["Someday", "Due"])
    #expect(try await store.tasks(other, ids: [due]).isEmpty)

    // Pages of a list: slices of the whole list in its order, each one task longer than asked for (so the
    // reader knows whether more follow); past the end, nothing; another person's list, nothing.
    let inbox = try await store.tasks(user, in: .inbox)
    #expect(inbox.count == 6)
    #expect(try await store.tasks(user, in: .inbox, page: TaskPage(limit: 2)) == Array(inbox.prefix(3)))
    #expect(try await store.tasks(user, in: .inbox, page: TaskPage(offset: 2, limit: 2, revision: 1)) == Array(inbox[2..<5]))
    #expect(try await store.tasks(user, in: .inbox, page: TaskPage(offset: 3, revision: 1)) == Array(inbox.dropFirst(3)))
    #expect(try await store.tasks(user, in: .inbox, page: TaskPage(offset: 5, limit: 4, revision: 1)) == [inbox[5]])
    #expect(try await store.tasks(user, in: .inbox, page: TaskPage(offset: 9, revision: 1)).isEmpty)
    #expect(try await store.tasks(user, in: .project(imported), page: TaskPage(offset: 1, revision: 1)).map(\.title) == ["Tiles"])
    #expect(try await store.tasks(other, in: .inbox, page: TaskPage(limit: 2)).isEmpty)
    // Undo: a deleted task comes back exactly (notes, priority, date, place, done state), newest first; the
    // list is kept per person, stored, and bounded.
    let kept = UUID()
    try await perform(
      store, .addTask(NewTask(id: kept, projectID: imported, title: "Grout", notes: "Grey", priority: .high, dueDate: "2027-02-01")), user)
    try await perform(store, .setCompleted(kept, true), user)
    let whole = try #require(try await store.tasks(user, ids: [kept]).first)
    try await perform(store, .deleteTask(kept), user)
    #expect(try await store.undoSteps(user).last?.label == "Deleted “Grout”")
    #expect(try await store.undoSteps(other).isEmpty)
    let restored = try await perform(store, .undo(), user)
    #expect(restored.saved.tasks.count == 1)
    var back = try #require(try await store.tasks(user, ids: [kept]).first)
    back.version = whole.version
    #expect(back == whole)
    #expect(try await store.project(imported, of: user)?.counts == CompletionRatio(completed: 2, total: 3))
    try await perform(store, .undo(), user)  // the completion
    #expect(try await store.tasks(user, ids: [kept]).first?.completed == false)
    // Two undos decided on one load take back one step once (the second save writes nothing).
    var loadedOne = try await store.board(TaskBoardCommand.undo().footprint, of: user)
    var loadedTwo = loadedOne
    let undoOne = try loadedOne.handle(.undo(), at: now)
    let undoTwo = try loadedTwo.handle(.undo(), at: now)
    #expect(try await store.save(undoOne, of: user, at: now) != nil)
    let steps = try await store.undoSteps(user)
    #expect(try await store.save(undoTwo, of: user, at: now) == nil)
    #expect(try await store.undoSteps(user) == steps)
    #expect(try await store.tasks(user, ids: [kept]).isEmpty)  // its add was taken back
    for _ in 0..<(ProjectLimits.undoDepth + 3) { try await perform(store, .editTask(due, TaskEdit(title: "Due \(UUID())")), user) }
    #expect(try await store.undoSteps(user).count == ProjectLimits.undoDepth)
    // An undo naming a step (a toast's) takes back that step only. A later change makes it refused with nothing
    // undone; named twice (a double-click), the second finds its step gone and the change before stays.
    let tick = UUID(), pack = UUID()
    try await perform(store, .addTask(NewTask(id: tick, projectID: imported, title: "Tick")), user)
    let ticked = try await perform(store, .setCompleted(tick, true), user)
    let tickStep = ticked.saved.owner.revision
    #expect(try await store.undoSteps(user).last.map { [$0.seq, $0.label] as [AnyHashable] } == [tickStep, "Completed “Tick”"])
    let packStep = try await perform(store, .addTask(NewTask(id: pack, projectID: imported, title: "Pack")), user).saved.owner.revision
    let (tasksBefore, stepsBefore) = (try await store.allTasks(user), try await store.undoSteps(user))
    await #expect(throws: ProjectsError.undoMovedOn) { try await store.perform(.undo(step: tickStep), of: user, at: now) }
    #expect(try await store.allTasks(user) == tasksBefore)
    #expect(try await store.undoSteps(user) == stepsBefore)
    try await perform(store, .undo(step: packStep), user)
    #expect(try await store.tasks(user, ids: [pack]).isEmpty)
    await #expect(throws: ProjectsError.undoMovedOn) { try await store.perform(.undo(step: packStep), of: user, at: now) }
    #expect(try await store.tasks(user, ids: [tick]).first?.completed == true)
    // Decided while its step was the last, saved after another change put a newer step on the list: written
    // nowhere (judged again, it is refused), so an undo never passes over a change it did not see.
    for command in [TaskBoardCommand.undo(step: tickStep), .undo()] {
      var loaded = try await store.board(command.footprint, of: user)
      let late = try loaded.handle(command, at: now)
      try await perform(store, .addTask(NewTask(id: UUID(), projectID: imported, title: "Later")), user)
      #expect(try await store.save(late, of: user, at: now) == nil, "\(command)")
      #expect(try await store.tasks(user, ids: [tick]).first?.completed == true)
    }
    await #expect(throws: ProjectsError.undoMovedOn) { try await store.perform(.undo(step: tickStep), of: user, at: now) }

    // A batch: all of the named tasks or none; each list's counts and the owner's revision move once.
    let shed = UUID()
    let attic = UUID()
    try await perform(store, .addProject(NewProject(id: shed, name: "Shed")), user)
    try await perform(store, .addProject(NewProject(id: attic, name: "Attic")), user)
    var batch: [UUID] = []
    for (title, list) in [("Saw", shed), ("Rake", shed), ("Oil", shed), ("Box", attic)] as [(String, UUID)] {
      batch.append(UUID())
      try await perform(store, .addTask(NewTask(id: batch.last!, projectID: list, title: title)), user)
    }
    let loose = UUID()
    try await perform(store, .addTask(NewTask(id: loose, projectID: nil, title: "Loose")), user)
    let inboxBefore = try await store.owner(user).inbox
    let unchanged = try await store.allTasks(user)
    for refused in [[batch[0], UUID()], [batch[1], ids[1]]] {
      // An unknown task, or another person's (ids[1] is `user`'s, asked for as `other`'s below).
      await #expect(throws: ProjectsError.taskNotFound) { try await store.perform(.batchTasks(refused, .complete(true)), of: user, at: now) }
    }
    await #expect(throws: ProjectsError.taskNotFound) { try await store.perform(.batchTasks([batch[0]], .complete(true)), of: other, at: now) }
    await #expect(throws: ProjectsError.projectNotFound) { try await store.perform(.batchTasks([batch[0]], .move(to: UUID())), of: user, at: now) }
    await #expect(throws: ProjectsError.invalidBatch(count: 0)) { try await store.perform(.batchTasks([], .complete(true)), of: user, at: now) }
    let tooMany = (0...ProjectLimits.maxTasksPerBatch).map { _ in UUID() }
    await #expect(throws: ProjectsError.invalidBatch(count: tooMany.count)) {
      try await store.perform(.batchTasks(tooMany, .complete(true)), of: user, at: now)
    }
    #expect(try await store.allTasks(user) == unchanged)
    let batchRevision = try await store.owner(user).revision
    let completed = try await perform(store, .batchTasks([batch[0], batch[1], loose, batch[0]], .complete(true)), user)
    #expect(completed.saved.tasks.map(\.id) == [batch[0], batch[1], loose] && completed.saved.tasks.allSatisfy(\.completed))
    #expect(completed.saved.projects.map(\.id) == [shed] && completed.saved.projects.first?.counts == CompletionRatio(completed: 2, total: 3))
    #expect(completed.saved.owner.inbox == CompletionRatio(completed: inboxBefore.completed + 1, total: inboxBefore.total))
    #expect(completed.saved.owner.revision == batchRevision + 1)
    // Already done: nothing changes, not even the revision.
    #expect(try await perform(store, .batchTasks([batch[0], loose], .complete(true)), user).effects.isEmpty)
    #expect(try await store.owner(user).revision == batchRevision + 1)
    // Completing the last open tasks finishes the project once.
    let finishing = try await perform(store, .batchTasks([batch[2], batch[1]], .complete(true)), user)
    #expect(TaskBoard.finished(by: finishing.effects, stored: finishing.saved.projects).map(\.id) == [shed])
    // A move: to the end of the new list in the order named, a task already there staying.
    let movedBatch = try await perform(store, .batchTasks([batch[2], batch[3], batch[0]], .move(to: attic)), user)
    #expect(movedBatch.saved.tasks.map(\.id) == [batch[2], batch[0]])
    #expect(try await store.tasks(user, in: .project(attic)).map(\.title) == ["Box", "Oil", "Saw"])
    #expect(try await store.project(shed, of: user)?.counts == CompletionRatio(completed: 1, total: 1))
    #expect(try await store.project(attic, of: user)?.counts == CompletionRatio(completed: 2, total: 3))
    try await perform(store, .batchTasks([batch[1], batch[3]], .move(to: nil)), user)
    #expect(try await store.tasks(user, in: .inbox).suffix(2).map(\.title) == ["Rake", "Box"])
    try await expectCountsMatch(store, user)

    // Refusals are values and write nothing; another person's things are not found.
    await #expect(throws: ProjectsError.taskNotFound) { try await store.perform(.setCompleted(UUID(), true), of: user, at: now) }
    await #expect(throws: ProjectsError.taskNotFound) { try await store.perform(.setCompleted(ids[1], false), of: other, at: now) }
    await #expect(throws: ProjectsError.projectNotFound) {
      try await store.perform(.addTask(NewTask(id: UUID(), projectID: second, title: "x")), of: other, at: now)
    }
    #expect(try await store.projects(other).isEmpty)
    try await expectCountsMatch(store, user)
  }

  /// Headings on a store: added, renamed, reordered, deleted; tasks under them come in the list's order, a
  /// page of it is a slice of that order; another person's project or heading is not found.
  static func headingRules(_ store: some ProjectsStore, _ user: UUID, _ other: UUID) async throws {
    let garden = UUID(), shed = UUID()
    try await perform(store, .addProject(NewProject(id: garden, name: "Garden")), user)
    try await perform(store, .addProject(NewProject(id: shed, name: "Shed")), user)
    let spring = UUID(), autumn = UUID(), tools = UUID()
    let added = try await perform(store, .addHeading(NewHeading(id: spring, projectID: garden, name: "Spring")), user)
    #expect(added.saved.headings.map(\.name) == ["Spring"] && added.saved.projects.map(\.id) == [garden])
    try await perform(store, .addHeading(NewHeading(id: autumn, projectID: garden, name: "Autumn")), user)
    try await perform(store, .addHeading(NewHeading(id: tools, projectID: shed, name: "Tools")), user)
    #expect(try await store.headings(user, of: garden).map(\.name) == ["Spring", "Autumn"])
    #expect(try await store.headings(other, of: garden).isEmpty)
    var ids: [UUID] = []
    for (title, heading) in [("a", autumn), ("b", nil), ("c", spring), ("d", autumn), ("e", nil)] as [(String, UUID?)] {
      ids.append(UUID())
      try await perform(store, .addTask(NewTask(id: ids.last!, projectID: garden, title: title)), user)
      if let heading { try await perform(store, .editTask(ids.last!, TaskEdit(headingID: .some(heading))), user) }
    }
    let grouped = try await store.tasks(user, in: .project(garden))
    #expect(grouped.map(\.title) == ["b", "e", "c", "a", "d"])
    #expect(grouped.map(\.headingID) == [nil, nil, spring, autumn, autumn])
    #expect(try await store.tasks(user, in: .project(garden), page: TaskPage(offset: 2, limit: 2, revision: 1)) == Array(grouped[2..<5]))
    // Renamed and moved first, in one change; the list follows the new order.
    let edited = try await perform(store, .editHeading(autumn, in: garden, name: "Fall", to: 0), user)
    #expect(edited.saved.headings.map(\.name) == ["Fall"] && edited.saved.headings.first?.position == 0)
    #expect(try await store.headings(user, of: garden).map(\.name) == ["Fall", "Spring"])
    // A rename made on the name before (another window renamed it since): refused with the heading as stored.
    let fall = try #require(try await store.headings(user, of: garden).first)
    await #expect(throws: ProjectsError.headingConflict(fall)) {
      try await store.perform(.editHeading(autumn, in: garden, name: "Harvest", to: nil, since: "Autumn"), of: user, at: now)
    }
    #expect(try await store.headings(user, of: garden).map(\.name) == ["Fall", "Spring"])
    #expect(try await store.tasks(user, in: .project(garden)).map(\.title) == ["b", "e", "a", "d", "c"])
    // Refusals: another project's heading, a heading that is not there, another person's.
    await #expect(throws: ProjectsError.headingInOtherProject) {
      try await store.perform(.editTask(ids[1], TaskEdit(headingID: .some(tools))), of: user, at: now)
    }
    await #expect(throws: ProjectsError.headingNotFound) { try await store.perform(.editHeading(tools, in: garden, name: "x", to: nil), of: user, at: now) }
    await #expect(throws: ProjectsError.headingNotFound) { try await store.perform(.deleteHeading(spring, in: garden), of: other, at: now) }
    await #expect(throws: ProjectsError.projectNotFound) {
      try await store.perform(.addHeading(NewHeading(id: UUID(), projectID: garden)), of: other, at: now)
    }
    // A task moved to another project leaves its heading.
    try await perform(store, .editTask(ids[0], TaskEdit(projectID: .some(shed))), user)
    #expect(try await store.tasks(user, ids: [ids[0]]).first?.headingID == nil)
    // A task put under a heading that was deleted after the load is written nowhere (judged again: refused).
    var loaded = try await store.board(TaskBoardCommand.editTask(ids[1], TaskEdit(headingID: .some(spring))).footprint, of: user)
    let late = try loaded.handle(.editTask(ids[1], TaskEdit(headingID: .some(spring))), at: now)
    let counts = try await store.project(garden, of: user)?.counts
    let deleted = try await perform(store, .deleteHeading(spring, in: garden), user)
    #expect(deleted.saved.projects.map(\.id) == [garden])
    #expect(try await store.save(late, of: user, at: now) == nil)
    #expect(try await store.tasks(user, ids: [ids[1]]).first?.headingID == nil)
    // Its tasks stay in the project, under none; the counts do not move.
    #expect(try await store.tasks(user, ids: [ids[2]]).first.map { [$0.projectID, $0.headingID] } == [garden, nil])
    #expect(try await store.project(garden, of: user)?.counts == counts)
    #expect(try await store.headings(user, of: garden).map(\.name) == ["Fall"])
    // Undo of a task's delete puts it back under its heading.
    try await perform(store, .deleteTask(ids[3]), user)
    try await perform(store, .undo(), user)
    #expect(try await store.tasks(user, ids: [ids[3]]).first?.headingID == autumn)
    // Several under a heading at once: all or none (another project's heading refuses every one).
    await #expect(throws: ProjectsError.headingInOtherProject) {
      try await store.perform(.batchTasks([ids[1], ids[0]], .move(to: garden, heading: tools)), of: user, at: now)
    }
    #expect(try await store.tasks(user, ids: [ids[0], ids[1]]).map(\.headingID) == [nil, nil])
    let batch = try await perform(store, .batchTasks([ids[0], ids[1]], .move(to: garden, heading: autumn)), user)
    #expect(batch.saved.tasks.map(\.id) == [ids[0], ids[1]] && batch.saved.tasks.allSatisfy { $0.headingID == autumn })
    #expect(Set(batch.saved.projects.map(\.id)) == [garden, shed])
    #expect(try await store.tasks(user, in: .project(garden)).map(\.title) == ["c", "e", "d", "a", "b"])
    try await expectCountsMatch(store, user)
    try await perform(store, .deleteProject(garden), user)
    #expect(try await store.headings(user, of: garden).isEmpty)
    try await expectCountsMatch(store, user)
  }

  /// A heading's add, rename and delete taken back on a store: a deleted heading comes back at its place with
  /// the tasks that were under it (and still are in the project under none), as stored; the undo list holds
  /// heading steps beside task steps.
  static func headingUndoRules(_ store: some ProjectsStore, _ user: UUID) async throws {
    let garden = UUID()
    try await perform(store, .addProject(NewProject(id: garden, name: "Garden")), user)
    let spring = UUID(), summer = UUID(), autumn = UUID()
    for (id, name) in [(spring, "Spring"), (summer, "Summer"), (autumn, "Autumn")] {
      try await perform(store, .addHeading(NewHeading(id: id, projectID: garden, name: name)), user)
    }
    var ids: [UUID] = []
    for title in ["a", "b", "c"] {
      ids.append(UUID())
      try await perform(store, .addTask(NewTask(id: ids.last!, projectID: garden, title: title, headingID: title == "c" ? nil : summer)), user)
    }
    let before = try await store.tasks(user, in: .project(garden))
    #expect(before.map(\.title) == ["c", "a", "b"])
    let deleted = try await perform(store, .deleteHeading(summer, in: garden), user)
    #expect(deleted.effects.contains { if case .undoRecorded(let step) = $0 { step.heading?.tasks == [ids[0], ids[1]] } else { false } })
    let steps = try await store.undoSteps(user)
    #expect(steps.last?.kind == .headingDeleted && steps.last?.heading?.tasks == [ids[0], ids[1]] && steps.last?.heading?.place == 1)
    #expect(steps.last?.heading?.before?.name == "Summer" && steps.last?.label == "Deleted heading “Summer”")
    #expect(try await store.tasks(user, in: .project(garden)).allSatisfy { $0.headingID == nil })
    let undone = try await perform(store, .undo(), user)
    #expect(undone.saved.projects.map(\.id) == [garden])
    #expect(try await store.headings(user, of: garden).map(\.name) == ["Spring", "Summer", "Autumn"])
    #expect(try await store.tasks(user, in: .project(garden)) == before)
    // Rename, undone; add, undone (a task put under it since by a batch stays in the project, under none).
    try await perform(store, .editHeading(autumn, in: garden, name: "Fall", to: nil), user)
    #expect(try await store.undoSteps(user).last?.label == "Renamed heading “Autumn” to “Fall”")
    try await perform(store, .undo(), user)
    #expect(try await store.headings(user, of: garden).map(\.name) == ["Spring", "Summer", "Autumn"])
    let winter = UUID()
    try await perform(store, .addHeading(NewHeading(id: winter, projectID: garden, name: "Winter")), user)
    try await perform(store, .batchTasks([ids[2]], .move(to: garden, heading: winter)), user)
    try await perform(store, .undo(), user)
    #expect(try await store.headings(user, of: garden).map(\.name) == ["Spring", "Summer", "Autumn"])
    #expect(try await store.tasks(user, ids: [ids[2]]).first.map { [$0.projectID, $0.headingID] } == [garden, nil])
    try await expectCountsMatch(store, user)
  }

  /// A command from a generated operation on `board` (the person's whole board), over a small world of
  /// ids so commands often meet the same tasks and lists.
  static func command(
    _ kind: Int, _ task: Int, _ flag: Bool, _ list: Int, on board: TaskBoard, tasks: [UUID], projects: [UUID], headings: [UUID]
  ) -> TaskBoardCommand {
    let taskID = tasks[task]
    let target: UUID? = list == 3 ? nil : projects[list]
    switch kind {
    case 0: return .addTask(NewTask(id: board.tasks[taskID] == nil ? taskID : UUID(), projectID: target, title: "T\(task)", completed: flag))
    case 1, 2: return .setCompleted(taskID, flag)
    case 3: return .editTask(taskID, TaskEdit(projectID: .some(target)))
    case 4: return .editTask(taskID, TaskEdit(title: "Edited", dueDate: .some(flag ? "2026-12-24" : nil), completed: flag))
    case 5: return .deleteTask(taskID)
    case 6:
      let id = projects[list]
      return board.projects[id] == nil ? .addProject(NewProject(id: id, name: "P\(list)")) : .editProject(id, ProjectEdit(name: "Renamed", archived: flag))
    case 7: return .deleteProject(projects[list])
    case 8:
      let ids = board.tasks.values.filter { $0.projectID == target }.sorted { $0.position < $1.position }.map(\.id)
      return .orderTasks(TaskList(target), flag ? ids.reversed() : Array(ids.dropFirst()))
    case 9:
      // A batch, sometimes naming a task that does not exist (then nothing changes).
      let named = [taskID, tasks[(task + 3) % tasks.count], tasks[(task + 5) % tasks.count]]
      return .batchTasks(named, list == 0 ? .complete(flag) : .move(to: target))
    case 10:
      let ids = board.projects.values.sorted { $0.position < $1.position }.map(\.id)
      return .orderProjects(flag ? ids.reversed() : Array(ids.dropFirst()))
    case 11:
      let id = headings[task % 4]
      return .addHeading(NewHeading(id: board.headings[id] == nil ? id : UUID(), projectID: projects[list], name: "H\(task)"))
    case 12:
      let id = headings[task % 4]
      return .editHeading(id, in: board.headings[id]?.projectID ?? projects[list], name: flag ? "Renamed" : nil, to: flag ? nil : task % 3)
    case 13:
      let id = headings[task % 4]
      return .deleteHeading(id, in: board.headings[id]?.projectID ?? projects[list])
    case 14:
      let existing = board.headings.values.sorted { $0.id.uuidString < $1.id.uuidString }
      let heading = list < 3 && !existing.isEmpty ? existing[list % existing.count].id : headings[list]
      if flag { return .editTask(taskID, TaskEdit(headingID: .some(task % 2 == 0 ? heading : nil))) }
      return .editTask(taskID, TaskEdit(projectID: .some(board.headings[heading]?.projectID), headingID: .some(heading)))
    // Undo of the last change, or of a step named as a toast names it (the last one, or the one before).
    default: return flag ? .undo() : .undo(step: board.undo.last.map { $0.seq - task % 2 })
    }
  }

  /// Random commands on both stores side by side: the same answers (refusal or rows as stored), and kept
  /// counts equal to a recount after every command.
  static func property(_ makeSQL: @escaping @Sendable () async throws -> (any ProjectsStore, UUID), count: Int) async {
    let operation = PropertyBased.zip(Gen.int(in: 0...16), Gen.int(in: 0...7), Gen.bool, Gen.int(in: 0...3))
    await propertyCheck(count: count, input: operation.array(of: 1...45)) { operations in
      do {
        let memory = InMemoryProjectsStore()
        let (sql, user) = try await makeSQL()
        let tasks = (0..<8).map { _ in UUID() }
        let projects = (0..<4).map { _ in UUID() }
        let headings = (0..<4).map { _ in UUID() }
        for (kind, task, flag, list) in operations {
          let command = Self.command(kind, task, flag, list, on: await memory.wholeBoard(of: user), tasks: tasks, projects: projects, headings: headings)
          let inMemory: Result<SavedChange?, ProjectsError>
          let inSQL: Result<SavedChange?, ProjectsError>
          do { inMemory = .success(try await memory.perform(command, of: user, at: now)?.saved) } catch let error as ProjectsError { inMemory = .failure(error) }
          do { inSQL = .success(try await sql.perform(command, of: user, at: now)?.saved) } catch let error as ProjectsError { inSQL = .failure(error) }
          #expect(inMemory == inSQL, "\(command)")
          try await expectCountsMatch(sql, user)
          // The undo list after every command: the SQL store's ring keeps what the in-memory list keeps.
          #expect(try await sql.undoSteps(user) == memory.undoSteps(user), "\(command)")
        }
        #expect(try await sql.projects(user) == memory.projects(user))
        #expect(try await sql.allTasks(user) == memory.allTasks(user))
        #expect(try await sql.undoSteps(user) == memory.undoSteps(user))
        for project in projects {
          #expect(try await sql.headings(user, of: project) == memory.headings(user, of: project))
          #expect(try await sql.tasks(user, in: .project(project)) == memory.tasks(user, in: .project(project)))
        }
        // Every task's heading is one of its own project's.
        let board = await memory.wholeBoard(of: user)
        for task in try await sql.allTasks(user) {
          if let heading = task.headingID { #expect(board.headings[heading]?.projectID == task.projectID) }
        }
      } catch {
        Issue.record(error)
      }
    }
  }

  @Test("In-memory store: the shared rules")
  func memoryRules() async throws {
    try await Self.rules(InMemoryProjectsStore(), UUID(), UUID())
    try await Self.headingRules(InMemoryProjectsStore(), UUID(), UUID())
    try await Self.headingUndoRules(InMemoryProjectsStore(), UUID())
  }

  @Test("SQL store: the shared rules, and `projects verify` finds nothing wrong")
  func sqlRules() async throws {
    try await withTestApp { _, app in
      let store = RunnerSQLStore(app: app)
      try await Self.rules(store, try await Self.newUser(on: app.db), try await Self.newUser(on: app.db))
      try await Self.headingRules(store, try await Self.newUser(on: app.db), try await Self.newUser(on: app.db))
      try await Self.headingUndoRules(store, try await Self.newUser(on: app.db))
      let mismatches = try await SQLProjectsStore(app.db).verify().mismatches
      #expect(mismatches.isEmpty)
    }
  }

  @Test("SQL store: an undo step stored before heading steps existed (no heading column value, a task without headingID) is read and taken back")
  func oldUndoStepsStayReadable() async throws {
    try await withTestApp { _, app in
      let store = RunnerSQLStore(app: app)
      let user = try await Self.newUser(on: app.db)
      let garden = UUID(), task = UUID()
      try await Self.perform(store, .addProject(NewProject(id: garden, name: "Garden")), user)
      try await Self.perform(store, .addTask(NewTask(id: task, projectID: garden, title: "Water")), user)
      try await Self.perform(store, .setCompleted(task, true), user)
      // The completion's step as an older server wrote it: its own columns only, its tasks without headingID.
      let sql = try #require(app.db as? any SQLDatabase)
      let stored = try #require(try await store.undoSteps(user).last)
      func old(_ done: Bool, _ version: Int) -> String {
        #"{"id":"\#(task.uuidString)","projectID":"\#(garden.uuidString)","title":"Water","notes":"","priority":0,"completed":\#(done),"position":\#(stored.after!.position),"version":\#(version)}"#
      }
      try await sql.raw("DELETE FROM project_undo WHERE user_id = \(bind: user)").run()
      try await sql.raw(
        """
        INSERT INTO project_undo (user_id, seq, kind, task_id, label, before_task, after_task, created_at)
        VALUES (\(bind: user), \(bind: stored.seq), 'completed', \(bind: task), 'Completed “Water”', \(bind: old(false, 0)), \(bind: old(true, 1)),
          \(bind: Date()))
        """
      ).run()
      let read = try #require(try await store.undoSteps(user).last)
      #expect(read.kind == .completed && read.heading == nil && read.before?.headingID == nil && read.after?.completed == true)
      try await Self.perform(store, .undo(), user)
      #expect(try await store.tasks(user, ids: [task]).first?.completed == false)
      #expect(try await store.undoSteps(user).isEmpty)
    }
  }

  @Test("SQL store: steps stored before the undo ring are numbered oldest first; the ring then keeps the newest 20 and gives each back once")
  func undoRingFromOlderSteps() async throws {
    try await withTestApp { _, app in
      let store = RunnerSQLStore(app: app)
      let user = try await Self.newUser(on: app.db)
      let other = try await Self.newUser(on: app.db)
      let task = UUID(), theirs = UUID()
      try await Self.perform(store, .addTask(NewTask(id: task, projectID: nil, title: "Water 0")), user)
      try await Self.perform(store, .addTask(NewTask(id: theirs, projectID: nil, title: "Theirs")), other)
      for done in [true, false, true, false] { try await Self.perform(store, .setCompleted(task, done), user) }
      // As a server before the ring left them: no slots, no top.
      let sql = try #require(app.db as? any SQLDatabase)
      try await sql.raw("UPDATE project_undo SET slot = NULL").run()
      try await sql.raw("UPDATE project_owners SET undo_top = 0").run()
      let older = try await store.undoSteps(user)
      try await AddProjectUndoSlots.numberSlots(on: sql)
      struct Slot: Decodable { let slot: Int }
      let slots = try await sql.raw("SELECT slot FROM project_undo WHERE user_id = \(bind: user) ORDER BY seq").all(decoding: Slot.self)
      #expect(slots.map(\.slot) == [0, 1, 2, 3, 4])
      #expect(try await store.undoSteps(user) == older)
      // Past the ring's size: the newest 20 steps are kept, in order, and the other person's is untouched.
      for index in 1...22 { try await Self.perform(store, .editTask(task, TaskEdit(title: "Water \(index)")), user) }
      let kept = try await store.undoSteps(user)
      #expect(kept.map { $0.after?.title } == (3...22).map { "Water \($0)" })
      #expect(try await store.undoSteps(other).map(\.taskID) == [theirs])
      // Each undo gives back the newest step; after 20 there is nothing left.
      for index in (3...22).reversed() {
        try await Self.perform(store, .undo(), user)
        #expect(try await store.tasks(user, ids: [task]).first?.title == "Water \(index - 1)")
      }
      #expect(try await store.undoSteps(user).isEmpty)
      await #expect(throws: ProjectsError.nothingToUndo) { try await store.perform(.undo(), of: user, at: Self.now) }
      // Recorded again from an empty list: the first step is taken back as it should be.
      try await Self.perform(store, .setCompleted(task, true), user)
      try await Self.perform(store, .undo(), user)
      #expect(try await store.tasks(user, ids: [task]).first?.completed == false)
    }
  }

  @Test("Property: the SQL store answers every command as the in-memory store does")
  func sameAnswers() async throws {
    try await withTestApp { _, app in
      let makeSQL: @Sendable () async throws -> (any ProjectsStore, UUID) = {
        (RunnerSQLStore(app: app), try await Self.newUser(on: app.db))
      }
      await Self.property(makeSQL, count: 20)
      let mismatches = try await SQLProjectsStore(app.db).verify().mismatches
      #expect(mismatches.isEmpty)
    }
  }
}
