import Foundation

/// A person's existing list, parsed from plain text so a newcomer can bring it in seconds: one task a
/// line, `# Name` starts a project, tasks before any heading go to the Inbox. A list marker — `-`, `*`,
/// `•`, `+`, or a number with `.` or `)` — is dropped only when a space follows it, so a line's own text is
/// never cut ("1.5 kg flour", "12.30 pick up the kids" and "#2 pencils" stay as written); `[x]` / `[ ]`
/// after a marker mark a task done or not.
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
      // Control characters (an escape sequence, a bell) never reach a name or a title.
      let line = ProjectInput.oneLine(String(rawLine)).trimmingCharacters(in: .whitespaces)
      if line.isEmpty { continue }
      if let name = headingName(line) {
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

  /// The name of a heading line (`# Name`, up to six `#` followed by a space, or `#` alone: a heading
  /// without a name), nil when the line is a task ("#2 pencils" is one).
  static func headingName(_ line: String) -> String? {
    let hashes = line.prefix { $0 == "#" }
    guard (1...6).contains(hashes.count) else { return nil }
    let rest = line.dropFirst(hashes.count)
    if rest.isEmpty { return "" }
    guard let first = rest.first, first == " " || first == "\t" else { return nil }
    return rest.trimmingCharacters(in: .whitespaces)
  }

  /// The title and done mark of a task line, without its list marker. A marker counts only when a space
  /// follows it (or it is the whole line: a marker with no task).
  static func taskText(_ line: String) -> (String, Bool) {
    var rest = Substring(line)
    if let marker = listMarker(rest) { rest = rest.dropFirst(marker).drop { $0 == " " || $0 == "\t" } }
    // A done mark, after a marker or alone, followed by a space ("[x]ray" is a task's own text).
    for (mark, done) in [("[x]", true), ("[X]", true), ("[ ]", false)] where rest.hasPrefix(mark) {
      let after = rest.dropFirst(mark.count)
      guard after.isEmpty || after.first == " " || after.first == "\t" else { continue }
      return (String(after).trimmingCharacters(in: .whitespaces), done)
    }
    return (String(rest).trimmingCharacters(in: .whitespaces), false)
  }

  /// The length of the list marker `line` starts with: a bullet or a number of at most four digits with `.`
  /// or `)`, followed by a space or ending the line. Nil when the line starts with its own text.
  static func listMarker(_ line: Substring) -> Int? {
    guard let first = line.first else { return nil }
    var length: Int
    if "-*•+".contains(first) {
      length = 1
    } else {
      let digits = line.prefix { $0.isASCII && $0.isNumber }
      guard (1...4).contains(digits.count) else { return nil }
      let after = line.dropFirst(digits.count)
      guard let close = after.first, close == "." || close == ")" else { return nil }
      length = digits.count + 1
    }
    let after = line.dropFirst(length)
    guard after.isEmpty || after.first == " " || after.first == "\t" else { return nil }
    return length
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
