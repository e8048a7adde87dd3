import Foundation

/// One change of a task a person can take back: what the task was before it (whole, so a deleted task comes
/// back exactly: title, notes, due date, priority, position, done state and when it was done) and what it
/// was after. Kept per person, newest last, at most ``ProjectLimits/undoDepth`` of them.
public struct UndoStep: Hashable, Sendable {
  /// What the change did, as a person says it.
  public enum Kind: String, CaseIterable, Codable, Sendable {
    case added, completed, reopened, edited, moved, deleted
  }

  /// The person's change counter after the change: orders the steps (a store sets it to what it stored).
  public var seq: Int
  public var kind: Kind
  /// The task this step changed.
  public let taskID: UUID
  /// The task before the change; nil when the change added it.
  public var before: TaskItem?
  /// The task after the change; nil when the change deleted it.
  public var after: TaskItem?
  /// What the toast says: "Completed “Water the plants”", "Moved “Seeds” to Garden".
  public var label: String

  public init(seq: Int, kind: Kind, taskID: UUID, before: TaskItem?, after: TaskItem?, label: String) {
    self.seq = seq
    self.kind = kind
    self.taskID = taskID
    self.before = before
    self.after = after
    self.label = label
  }

  /// The task's title as the step shows it.
  public var title: String { (after ?? before)?.title ?? "" }

  /// What undoing this step reads: the task as it is now and the lists it is in and goes back to.
  public var footprint: Footprint {
    Footprint(
      task: taskID, projects: Set([before?.projectID, after?.projectID].compactMap { $0 }), headings: Set([before?.headingID].compactMap { $0 }))
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
