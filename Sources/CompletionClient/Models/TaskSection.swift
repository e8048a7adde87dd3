import CompletionAPI

/// One part of a project's task list as the server orders it: the tasks under no heading, or one heading with
/// the tasks under it. The server sends a list already in this order (see `TaskListResponse`); this only
/// groups it, so a view can draw each heading as a section.
public struct TaskSection: Identifiable, Hashable, Sendable {
  /// Nil: the project's tasks under no heading (the first section).
  public let heading: HeadingView?
  /// Its tasks, in the list's order.
  public let tasks: [TaskView]

  public init(heading: HeadingView?, tasks: [TaskView]) {
    self.heading = heading
    self.tasks = tasks
  }

  /// The heading's id; "" for the tasks under no heading.
  public var id: String { heading?.id ?? "" }

  /// The sections of a list: its tasks under no heading first (left out when there are none and the list has
  /// headings), then every heading in the server's order with its tasks (a heading without tasks too). A task
  /// naming a heading the list does not have (deleted meanwhile) is shown with those under none.
  public static func of(_ tasks: [TaskView], headings: [HeadingView]) -> [TaskSection] {
    let known = Set(headings.map(\.id))
    var grouped: [String: [TaskView]] = [:]
    var loose: [TaskView] = []
    for task in tasks {
      if let heading = task.headingId, known.contains(heading) { grouped[heading, default: []].append(task) } else { loose.append(task) }
    }
    let top = loose.isEmpty && !headings.isEmpty ? [] : [TaskSection(heading: nil, tasks: loose)]
    return top + headings.map { TaskSection(heading: $0, tasks: grouped[$0.id] ?? []) }
  }
}
