import CompletionCore
import Foundation

/// A task as kept.
public struct TaskItem: Hashable, Sendable {
  public let id: UUID
  /// Nil: the Inbox.
  public var projectID: UUID?
  public var title: String
  public var notes: String
  public var priority: TaskPriority
  /// "YYYY-MM-DD", or nil.
  public var dueDate: String?
  public var completed: Bool
  public var completedAt: Date?
  /// Place in the person's lists (smaller first).
  public var position: Int
  /// Goes up with every saved change; a save names the version it changed, so a concurrent change is never lost.
  public var version: Int
  /// The heading of its project it sits under (nil: none; always nil in the Inbox).
  public var headingID: UUID?

  public init(
    id: UUID, projectID: UUID?, title: String, notes: String = "", priority: TaskPriority = .none, dueDate: String? = nil,
    completed: Bool = false, completedAt: Date? = nil, position: Int, version: Int = 0, headingID: UUID? = nil
  ) {
    self.headingID = headingID
    self.id = id
    self.projectID = projectID
    self.title = title
    self.notes = notes
    self.priority = priority
    self.dueDate = dueDate
    self.completed = completed
    self.completedAt = completedAt
    self.position = position
    self.version = version
  }
}

/// A project as kept, with its kept counts (moved by every task change, never recounted).
public struct ProjectItem: Hashable, Sendable {
  public let id: UUID
  public var name: String
  /// One of ``ProjectColor``'s names.
  public var color: String
  public var notes: String
  public var position: Int
  public var counts: CompletionRatio
  /// Goes up with every change to the project or its tasks.
  public var revision: Int
  /// Out of the way: listed apart, taking no new tasks; its counts and ring keep their meaning.
  public var archived: Bool

  public init(
    id: UUID, name: String, color: String, notes: String, position: Int, counts: CompletionRatio, revision: Int, archived: Bool = false
  ) {
    self.archived = archived
    self.id = id
    self.name = name
    self.color = color
    self.notes = notes
    self.position = position
    self.counts = counts
    self.revision = revision
  }

  /// A project whose every task is done (and which has one): a task completed in it finishes it.
  public var isFinished: Bool { counts.isComplete }
}

/// A named group of a project's tasks (Things' headings, Todoist's sections). Not a task: a project's counts,
/// ring and completion know nothing of headings. A project's tasks without a heading come first, then each
/// heading's tasks in the headings' order.
public struct HeadingItem: Hashable, Sendable {
  public let id: UUID
  public let projectID: UUID
  public var name: String
  /// Place among its project's headings (smaller first).
  public var position: Int

  public init(id: UUID, projectID: UUID, name: String, position: Int) {
    self.id = id
    self.projectID = projectID
    self.name = name
    self.position = position
  }
}

/// A person's own counters: the Inbox's kept counts, the change counter (the live stream's event id) and
/// the last list position handed out.
public struct OwnerCounters: Hashable, Sendable {
  public var inbox: CompletionRatio
  public var revision: Int
  public var nextPosition: Int

  public init(inbox: CompletionRatio, revision: Int, nextPosition: Int) {
    self.inbox = inbox
    self.revision = revision
    self.nextPosition = nextPosition
  }

  /// Before a person's first change.
  public static let empty = OwnerCounters(inbox: CompletionRatio(completed: 0, total: 0), revision: 0, nextPosition: 0)

  /// Hands out `count` positions at the end of every list; returns the first.
  mutating func reserve(_ count: Int) -> Int {
    let first = nextPosition + 1
    nextPosition += count
    return first
  }
}

/// One of a person's task lists.
public enum TaskList: Hashable, Sendable {
  case inbox
  case project(UUID)

  /// The list a task with `projectID` is in.
  public init(_ projectID: UUID?) {
    self = projectID.map(TaskList.project) ?? .inbox
  }

  /// Nil for the Inbox.
  public var projectID: UUID? {
    if case .project(let id) = self { id } else { nil }
  }
}
