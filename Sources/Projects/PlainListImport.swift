import Foundation

/// A person's existing list, parsed from plain text so a newcomer can bring it in seconds: one task a
/// line, `# Name` starts a project, tasks before any heading go to the Inbox. Bullets (`-`, `*`, `•`,
/// `1.`) are dropped, and `[x]` / `[ ]` after a bullet mark a task done or not.
public struct PlainListImport: Hashable, Sendable {
  /// A task as read from a line.
  public struct Task: Hashable, Sendable {
    public let title: String
    public let completed: Bool

    public init(title: String, completed: Bool = false) {
      self.title = title
      self.completed = completed
    }
  }

  /// A `# Heading` and the tasks under it.
  public struct Project: Hashable, Sendable {
    public let name: String
    public var tasks: [Task]

    public init(name: String, tasks: [Task] = []) {
      self.name = name
      self.tasks = tasks
    }
  }

  /// A line the import cannot take, with its 1-based number.
  public struct Problem: Hashable, Sendable, CustomStringConvertible {
    public let line: Int
    public let message: String
    public var description: String { "Line \(line): \(message)" }
  }

  public var inbox: [Task] = []
  public var projects: [Project] = []

  /// Every task, in order.
  public var taskCount: Int { inbox.count + projects.reduce(0) { $0 + $1.tasks.count } }

  public init(inbox: [Task] = [], projects: [Project] = []) {
    self.inbox = inbox
    self.projects = projects
  }

  /// Parses `text`; the whole list is refused (with a problem per bad line) when any line is bad.
  public static func parse(_ text: String) -> Result<PlainListImport, PlainListError> {
    var list = PlainListImport()
    var problems: [Problem] = []
    var lineNumber = 0
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lineNumber += 1
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty { continue }
      if line.hasPrefix("#") {
        let name = String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)
        if name.isEmpty {
          problems.append(Problem(line: lineNumber, message: "a heading needs a project name after “#”."))
        } else if name.count > ProjectLimits.maxNameLength {
          problems.append(Problem(line: lineNumber, message: "a project name may have at most \(ProjectLimits.maxNameLength) characters."))
        } else {
          list.projects.append(Project(name: name))
        }
        continue
      }
      let (title, completed) = taskText(line)
      if title.isEmpty {
        problems.append(Problem(line: lineNumber, message: "this line has a bullet but no task."))
      } else if title.count > ProjectLimits.maxTitleLength {
        problems.append(Problem(line: lineNumber, message: "a task may have at most \(ProjectLimits.maxTitleLength) characters."))
      } else if list.projects.isEmpty {
        list.inbox.append(Task(title: title, completed: completed))
      } else {
        list.projects[list.projects.count - 1].tasks.append(Task(title: title, completed: completed))
      }
    }
    if !problems.isEmpty { return .failure(.badLines(problems)) }
    if list.taskCount == 0 && list.projects.isEmpty { return .failure(.empty) }
    if list.taskCount > ProjectLimits.maxTasksPerImport { return .failure(.tooMany(list.taskCount)) }
    return .success(list)
  }

  /// The title and done mark of a task line, without its bullet.
  private static func taskText(_ line: String) -> (String, Bool) {
    var rest = Substring(line)
    if let first = rest.first, "-*•+".contains(first) {
      rest = rest.dropFirst()
    } else if let dot = rest.firstIndex(where: { $0 == "." || $0 == ")" }), dot > rest.startIndex,
      rest[rest.startIndex..<dot].allSatisfy(\.isNumber), rest[rest.startIndex..<dot].count <= 4
    {
      rest = rest[rest.index(after: dot)...]
    }
    rest = rest.drop { $0 == " " || $0 == "\t" }
    var completed = false
    for (mark, done) in [("[x]", true), ("[X]", true), ("[ ]", false)] where rest.hasPrefix(mark) {
      completed = done
      rest = rest.dropFirst(mark.count).drop { $0 == " " || $0 == "\t" }
    }
    return (String(rest).trimmingCharacters(in: .whitespaces), completed)
  }
}

/// Why a plain list was refused.
public enum PlainListError: Error, Hashable, Sendable, CustomStringConvertible {
  case empty
  case badLines([PlainListImport.Problem])
  case tooMany(Int)

  public var description: String {
    switch self {
    case .empty: "The list is empty: write one task a line, and “# Name” to start a project."
    case .badLines(let problems): problems.map(\.description).joined(separator: " ")
    case .tooMany(let count): "The list has \(count) tasks; at most \(ProjectLimits.maxTasksPerImport) can be imported at once."
    }
  }
}
