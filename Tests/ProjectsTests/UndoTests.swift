import CompletionCore
import Foundation
import Testing

@testable import Projects

/// Undo on the board: every kind of task change is taken back exactly, newest first, at most
/// ``ProjectLimits/undoDepth`` of them; a step whose task is gone is refused and taken off the list.
@Suite("Undo")
struct UndoTests {
  static let now = Date(timeIntervalSince1970: 1_800_000_000)
  static let later = Date(timeIntervalSince1970: 1_800_003_600)
  let garden = UUID()
  let house = UUID()
  let task = UUID()

  /// A board with two projects and one task in Garden with every field set.
  func board() throws -> TaskBoard {
    var board = TaskBoard()
    _ = try board.handle(.addProject(NewProject(id: garden, name: "Garden")), at: Self.now)
    _ = try board.handle(.addProject(NewProject(id: house, name: "House")), at: Self.now)
    _ = try board.handle(
      .addTask(NewTask(id: task, projectID: garden, title: "Water", notes: "Both beds", priority: .high, dueDate: "2026-12-24")), at: Self.now)
    _ = try board.handle(.addTask(NewTask(id: UUID(), projectID: garden, title: "Dig")), at: Self.now)
    return board
  }

  /// `command`, then an undo: the task is as it was (only its version moves on) and the counts equal a recount.
  func expectTakenBack(_ command: TaskBoardCommand, label: String, kind: UndoStep.Kind) throws {
    var board = try board()
    let before = try #require(board.tasks[task])
    let counts = (board.owner.inbox, board.projects.mapValues(\.counts))
    let effects = try board.handle(command, at: Self.later)
    let step = try #require(effects.lazy.compactMap { if case .undoRecorded(let step) = $0 { step } else { nil } }.first)
    #expect(step.label == label && step.kind == kind, "\(command)")
    #expect(board.undo.last == step)

    let undone = try board.handle(.undo(), at: Self.later)
    #expect(undone.contains(.undoTaken(step)))
    let after = try #require(board.tasks[task])
    var expected = before
    expected.version = after.version
    #expect(after == expected, "\(command)")
    #expect(after.version > before.version)
    #expect(board.owner.inbox == counts.0 && board.projects.mapValues(\.counts) == counts.1)
    let recount = board.recount()
    #expect(board.owner.inbox == recount.inbox && board.projects.mapValues(\.counts) == recount.projects)
    // An undo is not itself undone: the list goes back to where it was before the change.
    #expect(board.undo.map(\.kind) == [.added, .added])
  }

  @Test("Complete, reopen, edit, move and delete are each taken back exactly (title, notes, due date, priority, place, done state)")
  func eachKind() throws {
    try expectTakenBack(.setCompleted(task, true), label: "Completed “Water”", kind: .completed)
    try expectTakenBack(.editTask(task, TaskEdit(completed: true)), label: "Completed “Water”", kind: .completed)
    try expectTakenBack(.editTask(task, TaskEdit(title: "Water well", dueDate: .some(nil))), label: "Edited “Water well”", kind: .edited)
    try expectTakenBack(.editTask(task, TaskEdit(projectID: .some(house))), label: "Moved “Water” to House", kind: .moved)
    try expectTakenBack(.editTask(task, TaskEdit(projectID: .some(nil))), label: "Moved “Water” to the Inbox", kind: .moved)
    try expectTakenBack(.deleteTask(task), label: "Deleted “Water”", kind: .deleted)
  }

  @Test("Undoing a reopen completes the task again at its first time, and can finish its project")
  func reopenTakenBack() throws {
    var board = try board()
    for id in board.tasks.keys { _ = try board.handle(.setCompleted(id, true), at: Self.now) }
    let done = try #require(board.tasks[task])
    let reopened = try board.handle(.setCompleted(task, false), at: Self.later)
    #expect(reopened.contains { if case .undoRecorded(let step) = $0 { step.label == "Reopened “Water”" } else { false } })
    let undone = try board.handle(.undo(), at: Self.later)
    #expect(board.tasks[task]?.completedAt == done.completedAt)
    #expect(TaskBoard.finished(by: undone, stored: [try #require(board.projects[garden])]).map(\.id) == [garden])
  }

  @Test("Undo of an added task removes it; a change nobody would see is not a step")
  func addedAndNoChange() throws {
    var board = try board()
    let steps = board.undo.count
    _ = try board.handle(.editTask(task, TaskEdit(title: "Water")), at: Self.now)
    #expect(board.undo.count == steps)
    _ = try board.handle(.undo(), at: Self.now)
    #expect(board.tasks.count == 1 && board.projects[garden]?.counts == CompletionRatio(completed: 0, total: 1))
  }

  @Test("Newest first, at most undoDepth steps; then there is nothing to undo and nothing changes")
  func depth() throws {
    var board = try board()
    for index in 0..<(ProjectLimits.undoDepth + 5) { _ = try board.handle(.setCompleted(task, index.isMultiple(of: 2)), at: Self.now) }
    #expect(board.undo.count == ProjectLimits.undoDepth)
    #expect(board.undo.map(\.seq) == board.undo.map(\.seq).sorted())
    for _ in 0..<ProjectLimits.undoDepth { _ = try board.handle(.undo(), at: Self.now) }
    let empty = board
    #expect(throws: ProjectsError.nothingToUndo) { try board.handle(.undo(), at: Self.now) }
    #expect(board == empty)
  }

  @Test("A step whose task went with its project is refused as stale and taken off; the next undo takes the one before")
  func stale() throws {
    var board = try board()
    _ = try board.handle(.setCompleted(task, true), at: Self.now)
    let inbox = UUID()
    _ = try board.handle(.addTask(NewTask(id: inbox, projectID: nil, title: "Call")), at: Self.now)
    _ = try board.handle(.setCompleted(inbox, true), at: Self.now)
    _ = try board.handle(.editTask(task, TaskEdit(title: "Water!")), at: Self.now)
    _ = try board.handle(.deleteProject(garden), at: Self.now)
    let refused = try board.handle(.undo(), at: Self.now)
    #expect(refused.contains(.refused(.undoStale("Water!"))))
    #expect(ProjectsError.undoStale("x").code == "undo_stale" && ProjectsError.nothingToUndo.code == "nothing_to_undo")
    _ = try board.handle(.undo(), at: Self.now)
    #expect(board.tasks[inbox]?.completed == false)
  }

  @Test("An undo naming the step a toast showed takes back that step or nothing: a later change (here or in another window) refuses it, and named twice the second finds it gone")
  func namedStep() throws {
    var board = try board()
    let dig = try #require(board.tasks.values.first { $0.title == "Dig" }?.id)
    let ticked = try board.handle(.setCompleted(task, true), at: Self.now)
    let tick = try #require(ticked.lazy.compactMap { if case .undoRecorded(let step) = $0 { step } else { nil } }.first)
    #expect(tick.seq == board.owner.revision)
    let pack = UUID()
    _ = try board.handle(.addTask(NewTask(id: pack, projectID: garden, title: "Pack passport")), at: Self.now)
    let added = try #require(board.undo.last)
    // The toast still showed the tick: refused, and nothing changes (the add stays, the tick stays, the list too).
    let unchanged = board
    #expect(throws: ProjectsError.undoMovedOn) { try board.handle(.undo(step: tick.seq), at: Self.now) }
    #expect(board == unchanged)
    #expect(ProjectsError.undoMovedOn.code == "undo_moved_on")
    // Its own step is taken back; the same step again (a double-click) is refused and the tick stays.
    let undone = try board.handle(.undo(step: added.seq), at: Self.now)
    #expect(undone.contains(.undoTaken(added)) && board.tasks[pack] == nil)
    #expect(throws: ProjectsError.undoMovedOn) { try board.handle(.undo(step: added.seq), at: Self.now) }
    #expect(board.tasks[task]?.completed == true)
    // A change recorded in between (another window's) is not passed over; without a step, undo takes the last.
    _ = try board.handle(.setCompleted(dig, true), at: Self.now)
    #expect(throws: ProjectsError.undoMovedOn) { try board.handle(.undo(step: tick.seq), at: Self.now) }
    _ = try board.handle(.undo(), at: Self.now)
    #expect(board.tasks[dig]?.completed == false && board.tasks[task]?.completed == true)
    _ = try board.handle(.undo(step: tick.seq), at: Self.now)
    #expect(board.tasks[task]?.completed == false)
    // Nothing left: a named step is gone too.
    board.undo = []
    #expect(throws: ProjectsError.undoMovedOn) { try board.handle(.undo(step: tick.seq), at: Self.now) }
    #expect(throws: ProjectsError.nothingToUndo) { try board.handle(.undo(), at: Self.now) }
  }

  @Test("An undo decided while its step was the last is written nowhere once a newer step is on the list: judged again")
  func undoAfterNewerStep() throws {
    var board = try board()
    let dig = try #require(board.tasks.values.first { $0.title == "Dig" }?.id)
    _ = try board.handle(.setCompleted(task, true), at: Self.now)
    var loaded = board.slice(TaskBoardCommand.undo().footprint)
    let late = try loaded.handle(.undo(), at: Self.now)
    var stored = board
    var other = board
    #expect(stored.apply(try other.handle(.setCompleted(dig, true), at: Self.now), at: Self.now) != nil)
    #expect(stored.apply(late, at: Self.now) == nil)
    #expect(stored.tasks[task]?.completed == true)
  }

  @Test("Two undos decided on the same board take back one step once: the second is judged again")
  func concurrentUndo() throws {
    var board = try board()
    _ = try board.handle(.setCompleted(task, true), at: Self.now)
    var one = board.slice(TaskBoardCommand.undo().footprint)
    var two = one
    let first = try one.handle(.undo(), at: Self.now)
    let second = try two.handle(.undo(), at: Self.now)
    var stored = board
    #expect(stored.apply(first, at: Self.now) != nil)
    #expect(stored.apply(second, at: Self.now) == nil)
    #expect(stored.tasks[task]?.completed == false)
  }

  @Test("A batch is not on the undo list: undo takes back the single change before it, and an earlier change of a task the batch changed since is refused as stale, never reverting the batch")
  func batchIsNotUndone() throws {
    var board = try board()
    let dig = try #require(board.tasks.values.first { $0.title == "Dig" }?.id)
    _ = try board.handle(.editTask(task, TaskEdit(title: "Water roses")), at: Self.later)
    _ = try board.handle(.setCompleted(dig, true), at: Self.later)
    let steps = board.undo
    let effects = try board.handle(.batchTasks([task], .move(to: house)), at: Self.later)
    #expect(!effects.contains { if case .undoRecorded = $0 { true } else { false } })
    #expect(board.undo == steps)
    // The last single change (Dig, which the batch did not touch) is taken back.
    _ = try board.handle(.undo(), at: Self.later)
    #expect(board.tasks[dig]?.completed == false)
    // The edit of Water came before the batch moved it: refused and taken off; Water stays where the batch put it.
    let moved = try #require(board.tasks[task])
    let refused = try board.handle(.undo(), at: Self.later)
    #expect(refused.contains(.refused(.undoStale("Water roses"))))
    #expect(board.tasks[task] == moved && moved.projectID == house)
    #expect(board.undo.count == steps.count - 2)
  }
}
