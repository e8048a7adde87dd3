import CompletionAPI
import Foundation

/// What `completionkit tasks …` does, as text: the command line's Projects over the HTTP API, so a change
/// made here reaches every open page of that person live, exactly like one made in a browser.
public struct TaskConsole: Sendable {
  /// A task with the list it is in, for finding it by id or title.
  public struct Found: Sendable, Hashable {
    public let task: TaskView
    /// The project's name, or nil for the Inbox.
    public let list: String?
  }

  /// What the person typed did not pick out one task or project.
  public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
    case noTask(String)
    case ambiguousTask(String, [String])
    case noProject(String)
    case ambiguousProject(String, [String])

    public var description: String {
      switch self {
      case .noTask(let query): "No task matches “\(query)”. `completionkit tasks list` shows them with their ids."
      case .ambiguousTask(let query, let titles):
        "“\(query)” matches \(titles.count) tasks (\(titles.prefix(5).joined(separator: ", "))): give more of the id or the title."
      case .noProject(let name): "There is no project called “\(name)”."
      case .ambiguousProject(let name, let names): "“\(name)” matches several projects: \(names.joined(separator: ", "))."
      }
    }
  }

  public let client: CompletionClient

  public init(client: CompletionClient) {
    self.client = client
  }

  /// Every list with its tasks: the Inbox first, then the projects in their order (one request per list,
  /// sent together).
  public func lists() async throws -> [(project: ProjectView?, inbox: InboxView?, tasks: [TaskView], headings: [HeadingView])] {
    let overview = try await client.projects()
    let ids: [String?] = [nil] + overview.projects.map(\.id)
    let client = self.client
    let fetched = try await withThrowingTaskGroup(of: (Int, TaskListResponse).self) { group in
      for (index, id) in ids.enumerated() { group.addTask { (index, try await client.tasks(inProject: id)) } }
      return try await group.reduce(into: [Int: TaskListResponse]()) { $0[$1.0] = $1.1 }
    }
    return ids.indices.map { index in
      let list = fetched[index]!
      return (index == 0 ? nil : overview.projects[index - 1], index == 0 ? overview.inbox : nil, list.tasks, list.headings)
    }
  }

  /// The lists as text: each project with the percentage the server computed, each task with a short id, a
  /// project's tasks under their headings (in the server's order: those without a heading first).
  public func list(project name: String? = nil) async throws -> String {
    var lists = try await lists()
    if let name {
      let project = try Self.project(named: name, among: lists.compactMap(\.project))
      lists = lists.filter { $0.project?.id == project?.id }
    }
    var lines: [String] = []
    for list in lists {
      if let project = list.project {
        lines.append("\(project.name) — \(project.percent) % (\(project.completed) of \(project.total) done)")
      } else if let inbox = list.inbox {
        lines.append("Inbox — \(inbox.active) to do")
      }
      if list.tasks.isEmpty && list.headings.isEmpty { lines.append("    (no tasks)") }
      let names = Dictionary(list.headings.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
      func line(_ task: TaskView, indent: String) -> String {
        "\(indent)\(task.completed ? "[x]" : "[ ]") \(Self.shortID(task.id))  \(task.title)"
      }
      for task in list.tasks where task.headingId.flatMap({ names[$0] }) == nil { lines.append(line(task, indent: "  ")) }
      for heading in list.headings {
        lines.append("  \(heading.name)")
        let under = list.tasks.filter { $0.headingId == heading.id }
        if under.isEmpty { lines.append("      (no tasks)") }
        for task in under { lines.append(line(task, indent: "    ")) }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Adds a task to the Inbox, or to the project called `projectName`.
  public func add(_ title: String, project projectName: String? = nil) async throws -> String {
    var target: FieldUpdate<String> = .unchanged
    var where_ = "the Inbox"
    if let projectName, let project = try Self.project(named: projectName, among: try await client.projects().projects) {
      target = .set(project.id)
      where_ = project.name
    }
    let change = try await client.createTask(TaskRequest(title: title, projectId: target))
    return "Added “\(change.task?.title ?? title)” (\(Self.shortID(change.task?.id ?? ""))) to \(where_)."
  }

  /// Completes (or reopens) the task whose id starts with, or whose title is, `query`.
  public func setCompleted(_ query: String, _ completed: Bool) async throws -> String {
    let found = try await find(query)
    let change = try await client.updateTask(found.task.id, TaskRequest(completed: completed))
    var line = "\(completed ? "Completed" : "Reopened") “\(found.task.title)”"
    if let project = change.projects.first {
      line += " — \(project.name) is at \(project.percent) %"
    }
    line += "."
    if let completion = change.completion, completion.isFirst {
      line += " 🎉 Project complete" + (completion.points > 0 ? ": +\(completion.points) points." : ".")
    }
    return line
  }

  /// Takes back the person's last change of a task, as Undo on the page does (open pages follow live).
  public func undo() async throws -> String {
    let change = try await client.undoTaskChange()
    return "Undone: \(change.undone?.label ?? "the last change")."
  }

  /// The one task `query` names: an id or the start of one (at least 4 characters), else a title
  /// (exactly, ignoring case; failing that the start of one; failing that a part of one).
  public func find(_ query: String) async throws -> Found {
    let all = try await lists().flatMap { list in list.tasks.map { Found(task: $0, list: list.project?.name) } }
    let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
    let candidates: [[Found]] = [
      all.filter { $0.task.id.lowercased() == needle },
      needle.count >= 4 ? all.filter { $0.task.id.lowercased().hasPrefix(needle) } : [],
      all.filter { $0.task.title.lowercased() == needle },
      all.filter { $0.task.title.lowercased().hasPrefix(needle) },
      all.filter { $0.task.title.lowercased().contains(needle) },
    ]
    for matches in candidates where !matches.isEmpty {
      if matches.count == 1 { return matches[0] }
      throw Problem.ambiguousTask(query, matches.map { "\(Self.shortID($0.task.id)) \($0.task.title)" })
    }
    throw Problem.noTask(query)
  }

  /// The first eight characters of an id: enough to name a task on the command line.
  public static func shortID(_ id: String) -> String { String(id.lowercased().prefix(8)) }

  /// The project called `name` (ignoring case); nil for "inbox".
  static func project(named name: String, among projects: [ProjectView]) throws -> ProjectView? {
    if name.lowercased() == "inbox" { return nil }
    let matches = projects.filter { $0.name.lowercased() == name.lowercased() }
    if matches.count > 1 { throw Problem.ambiguousProject(name, matches.map(\.name)) }
    guard let project = matches.first else { throw Problem.noProject(name) }
    return project
  }
}
