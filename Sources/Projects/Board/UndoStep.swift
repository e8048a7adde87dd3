import Foundation

/// One change a person can take back: of a task, what the task was before it (whole, so a deleted task comes
/// back exactly: title, notes, due date, priority, position, done state and when it was done) and what it
/// was after; of a heading, the same of the heading (``HeadingChange``). Kept per person, newest last, at
/// most ``ProjectLimits/undoDepth`` of them.
public struct UndoStep: Hashable, Sendable {
  /// What the change did, as a person says it.
  public enum Kind: String, CaseIterable, Codable, Sendable {
    case added, completed, reopened, edited, moved, deleted
    case headingAdded = "heading_added"
    case headingRenamed = "heading_renamed"
    case headingDeleted = "heading_deleted"
  }

  /// A heading's change: the heading before and after it, where it stood and which tasks were under it.
  public struct HeadingChange: Hashable, Sendable {
    /// The heading's project.
    public var projectID: UUID
    /// The heading before the change; nil when the change added it.
    public var before: HeadingItem?
    /// The heading after the change; nil when the change deleted it.
    public var after: HeadingItem?
    /// Its place among its project's headings before the change (0 first): a deleted heading comes back there.
    public var place: Int
    /// The tasks that were under it when it was deleted, in their order: they go back under it.
    public var tasks: [UUID]

    public init(projectID: UUID, before: HeadingItem?, after: HeadingItem?, place: Int, tasks: [UUID] = []) {
      self.projectID = projectID
      self.before = before
      self.after = after
      self.place = place
      self.tasks = tasks
    }
  }

  /// The person's change counter after the change: orders the steps (a store sets it to what it stored).
  public var seq: Int
  public var kind: Kind
  /// What this step changed: the task, or for a heading's step (``heading`` set) the heading.
  public let taskID: UUID
  /// The task before the change; nil when the change added it (and for a heading's step).
  public var before: TaskItem?
  /// The task after the change; nil when the change deleted it (and for a heading's step).
  public var after: TaskItem?
  /// What the toast says: "Completed “Water the plants”", "Moved “Seeds” to Garden", "Deleted heading “Spring”".
  public var label: String
  /// Set for a heading's step: what the heading was and is.
  public var heading: HeadingChange?

  public init(seq: Int, kind: Kind, taskID: UUID, before: TaskItem?, after: TaskItem?, label: String, heading: HeadingChange? = nil) {
    self.seq = seq
    self.kind = kind
    self.taskID = taskID
    self.before = before
    self.after = after
    self.label = label
    self.heading = heading
  }

  /// The task's (or heading's) title as the step shows it.
  public var title: String {
    if let heading { return (heading.after ?? heading.before)?.name ?? "" }
    return (after ?? before)?.title ?? ""
  }

  /// What undoing this step reads: the task as it is now and the lists it is in and goes back to; for a
  /// heading's, its project with every heading of it and the tasks that were under it.
  public var footprint: Footprint {
    if let heading {
      return Footprint(projects: [heading.projectID], taskIDs: Set(heading.tasks), headingsOf: [heading.projectID])
    }
    return Footprint(
      task: taskID, projects: Set([before?.projectID, after?.projectID].compactMap { $0 }), headings: Set([before?.headingID].compactMap { $0 }))
  }

  /// The step for a heading's change from `before` to `after` (nil: a change a person would not take back,
  /// such as a new place only). `place` is where it stood, `tasks` the tasks under it when deleted.
  static func of(heading before: HeadingItem?, _ after: HeadingItem?, place: Int, tasks: [UUID] = [], seq: Int) -> UndoStep? {
    guard let changed = after ?? before else { return nil }
    let kind: Kind
    let label: String
    switch (before, after) {
    case (nil, let after?):
      kind = .headingAdded
      label = "Added heading “\(after.name)”"
    case (let before?, nil):
      kind = .headingDeleted
      label = "Deleted heading “\(before.name)”"
    case (let before?, let after?):
      guard before.name != after.name else { return nil }
      kind = .headingRenamed
      label = "Renamed heading “\(before.name)” to “\(after.name)”"
    case (nil, nil): return nil
    }
    return UndoStep(
      seq: seq, kind: kind, taskID: changed.id, before: nil, after: nil, label: label,
      heading: HeadingChange(projectID: changed.projectID, before: before, after: after, place: place, tasks: tasks))
  }

  /// The step for a change of a task from `before` to `after` (nil when the change is not one a person
  /// would take back: nothing a person sees changed). `target` is the name of the list a moved task went to,
  /// `heading` the name of the heading it went under (nil: none).
  static func of(_ before: TaskItem?, _ after: TaskItem?, seq: Int, target: String?, heading: String? = nil) -> UndoStep? {
    guard let changed = before ?? after else { return nil }
    let kind: Kind
    switch (before, after) {
    case (nil, _): kind = .added
    case (_, nil): kind = .deleted
    case (let before?, let after?):
      if before.hasSameContent(as: after) { return nil }
      if before.projectID != after.projectID || before.headingID != after.headingID {
        kind = .moved
      } else if before.completed != after.completed, before.hasSameContent(as: after, ignoringDone: true) {
        kind = after.completed ? .completed : .reopened
      } else {
        kind = .edited
      }
    }
    let quoted = "“\((after ?? changed).title)”"
    let label =
      switch kind {
      case .added: "Added \(quoted)"
      case .completed: "Completed \(quoted)"
      case .reopened: "Reopened \(quoted)"
      case .edited: "Edited \(quoted)"
      case .moved:
        if before?.projectID == after?.projectID {
          heading.map { "Moved \(quoted) under “\($0)”" } ?? "Moved \(quoted) out of its heading"
        } else {
          "Moved \(quoted) to \(target ?? "the Inbox")"
        }
      case .deleted: "Deleted \(quoted)"
      case .headingAdded, .headingRenamed, .headingDeleted: preconditionFailure("a task's change is never a heading's")
      }
    return UndoStep(seq: seq, kind: kind, taskID: changed.id, before: before, after: after, label: label)
  }
}

extension TaskItem {
  /// Whether a person would see the same task: list, heading, title, notes, priority, due date and done state (its
  /// place in the list and its version are not what they changed).
  public func hasSameContent(as other: TaskItem, ignoringDone: Bool = false) -> Bool {
    id == other.id && projectID == other.projectID && headingID == other.headingID && title == other.title && notes == other.notes && priority == other.priority
      && dueDate == other.dueDate && (ignoringDone || completed == other.completed)
  }
}
