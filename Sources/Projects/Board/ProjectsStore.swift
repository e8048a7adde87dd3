import CompletionCore
import Foundation

/// A person's projects and tasks behind one boundary: the in-memory store and the SQL store keep the same
/// rules and pass the same tests.
///
/// The writing path is load → handle → save: `board(_:of:)` reads what a command touches,
/// ``TaskBoard/handle(_:at:)`` decides, `save(_:of:at:)` writes the effects in one transaction and answers
/// with the rows as stored, or nil when a task's version check failed or a row it changes is gone (then the
/// command is judged again on a fresh load). `save` takes values and returns values, so running it again
/// (a group commit may) is safe. Counts move by increments, never by a recount.
public protocol ProjectsStore: Sendable {
  /// The person's counters (zeros before their first change).
  func owner(_ user: UUID) async throws -> OwnerCounters
  /// The person's projects in their order.
  func projects(_ user: UUID) async throws -> [ProjectItem]
  /// Some of the person's projects, in their order (missing ones are left out).
  func projects(_ user: UUID, ids: Set<UUID>) async throws -> [ProjectItem]
  func project(_ id: UUID, of user: UUID) async throws -> ProjectItem?
  /// The headings of one project in their order (none for another person's project).
  func headings(_ user: UUID, of project: UUID) async throws -> [HeadingItem]
  /// The tasks of one list in their order: a project's tasks without a heading first, then each heading's
  /// tasks in the headings' order; by position within each group.
  func tasks(_ user: UUID, in list: TaskList) async throws -> [TaskItem]
  /// Part of one list in its order: `page.offset` tasks left out, then at most `page.readLimit` (one more than
  /// the page asks for, so the caller knows whether more follow).
  func tasks(_ user: UUID, in list: TaskList, page: TaskPage) async throws -> [TaskItem]
  /// Every task of the person in their order (an export, a search).
  func allTasks(_ user: UUID) async throws -> [TaskItem]
  /// The person's tasks with a due date that are open or were completed at or after `doneSince`, in their
  /// order: what the Today and Upcoming views are chosen from (see ``TaskAgenda``).
  func datedTasks(_ user: UUID, doneSince: Date) async throws -> [TaskItem]
  /// The title and notes of every task of the person, in their order: all a search reads of each.
  func taskTexts(_ user: UUID) async throws -> [TaskSearch.Text]
  /// The person's tasks with these ids, in the order of `ids` (missing ones left out).
  func tasks(_ user: UUID, ids: [UUID]) async throws -> [TaskItem]
  /// The person's undo list, oldest first (at most ``ProjectLimits/undoDepth`` steps).
  func undoSteps(_ user: UUID) async throws -> [UndoStep]
  /// What `footprint` names, and the owner's counters.
  func board(_ footprint: Footprint, of user: UUID) async throws -> TaskBoard
  /// Writes a handled command's effects (nothing for none); nil when a version check failed or a row is gone.
  func save(_ effects: [TaskBoardEffect], of user: UUID, at now: Date) async throws -> SavedChange?
}

extension ProjectsStore {
  /// Load → handle → save, once: the effects and what was stored (nil: judge again on a fresh load).
  public func perform(_ command: TaskBoardCommand, of user: UUID, at now: Date) async throws -> (
    board: TaskBoard, effects: [TaskBoardEffect], saved: SavedChange
  )? {
    var board = try await board(command.footprint, of: user)
    let effects = try board.handle(command, at: now)
    guard let saved = try await save(effects, of: user, at: now) else { return nil }
    return (board, effects, saved)
  }
}

/// The in-memory store (tests, previews, a device without a server): each person's whole ``TaskBoard``,
/// written by ``TaskBoard/apply(_:at:)``.
public actor InMemoryProjectsStore: ProjectsStore {
  private var boards: [UUID: TaskBoard] = [:]
  /// Insertion order, the tie-break of equal positions (the SQL store's `created_at`).
  private var sequence: [UUID: Int] = [:]

  public init() {}

  /// A person's whole board.
  public func wholeBoard(of user: UUID) -> TaskBoard { boards[user] ?? TaskBoard() }

  public func owner(_ user: UUID) -> OwnerCounters { wholeBoard(of: user).owner }

  public func projects(_ user: UUID) -> [ProjectItem] { ordered(Array(wholeBoard(of: user).projects.values)) }

  public func projects(_ user: UUID, ids: Set<UUID>) -> [ProjectItem] { projects(user).filter { ids.contains($0.id) } }

  public func project(_ id: UUID, of user: UUID) -> ProjectItem? { wholeBoard(of: user).projects[id] }

  public func headings(_ user: UUID, of project: UUID) -> [HeadingItem] { wholeBoard(of: user).headingOrder(of: project) }

  public func tasks(_ user: UUID, in list: TaskList) -> [TaskItem] {
    let board = wholeBoard(of: user)
    // The group a task is in: none first (-1), then the headings' places.
    let group = Dictionary(uniqueKeysWithValues: (list.projectID.map(board.headingOrder(of:)) ?? []).enumerated().map { ($1.id, $0) })
    func place(_ task: TaskItem) -> Int { task.headingID.flatMap { group[$0] } ?? -1 }
    return ordered(board.tasks.values.filter { $0.projectID == list.projectID }).enumerated()
      .sorted { (place($0.element), $0.offset) < (place($1.element), $1.offset) }
      .map(\.element)
  }

  public func tasks(_ user: UUID, in list: TaskList, page: TaskPage) -> [TaskItem] {
    Array(tasks(user, in: list).dropFirst(page.offset).prefix(page.readLimit ?? .max))
  }

  public func allTasks(_ user: UUID) -> [TaskItem] { ordered(Array(wholeBoard(of: user).tasks.values)) }

  public func taskTexts(_ user: UUID) -> [TaskSearch.Text] {
    allTasks(user).map { TaskSearch.Text(id: $0.id, title: $0.title, notes: $0.notes) }
  }

  public func tasks(_ user: UUID, ids: [UUID]) -> [TaskItem] {
    let board = wholeBoard(of: user)
    return ids.compactMap { board.tasks[$0] }
  }

  public func datedTasks(_ user: UUID, doneSince: Date) -> [TaskItem] {
    allTasks(user).filter { task in
      task.dueDate != nil && (!task.completed || (task.completedAt.map { $0 >= doneSince } ?? false))
    }
  }

  public func undoSteps(_ user: UUID) -> [UndoStep] { wholeBoard(of: user).undo }

  public func board(_ footprint: Footprint, of user: UUID) -> TaskBoard { wholeBoard(of: user).slice(footprint) }

  public func save(_ effects: [TaskBoardEffect], of user: UUID, at now: Date) -> SavedChange? {
    var board = wholeBoard(of: user)
    guard let saved = board.apply(effects, at: now) else { return nil }
    for case .taskInserted(let task) in effects { sequence[task.id] = sequence.count }
    for case .projectInserted(let project) in effects { sequence[project.id] = sequence.count }
    for case .headingInserted(let heading) in effects { sequence[heading.id] = sequence.count }
    boards[user] = board
    return saved
  }

  private func ordered(_ tasks: [TaskItem]) -> [TaskItem] {
    tasks.sorted { ($0.position, sequence[$0.id] ?? 0) < ($1.position, sequence[$1.id] ?? 0) }
  }

  private func ordered(_ projects: [ProjectItem]) -> [ProjectItem] {
    projects.sorted { ($0.position, sequence[$0.id] ?? 0) < ($1.position, sequence[$1.id] ?? 0) }
  }
}
