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

  /// What the import does to one line, for the preview shown before anything is written: a change to the
  /// line's text, or a reason the list cannot be imported as it is.
  public struct LineNote: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
      /// A list marker (`- `, `* `, `1. `…) was taken off the start of the line.
      case markerRemoved = "marker_removed"
      /// A `[x]` or `[ ]` after the marker was read as the task's state and taken off.
      case doneMarkRead = "done_mark_read"
      /// Control characters (an escape sequence, a bell) became spaces.
      case controlCharactersRemoved = "control_characters_removed"
      /// Longer than a title or a name may be: refused.
      case tooLong = "too_long"
      /// `#` without a name: refused.
      case emptyHeading = "empty_heading"
      /// A marker with no task after it: refused.
      case emptyTask = "empty_task"
    }

    /// The line's 1-based number.
    public let line: Int
    public let kind: Kind
    /// What happened, for people.
    public let message: String

    /// Whether the list is refused while this line stays as it is.
    public var refuses: Bool { [.tooLong, .emptyHeading, .emptyTask].contains(kind) }

    public init(line: Int, kind: Kind, message: String) {
      self.line = line
      self.kind = kind
      self.message = message
    }
  }

  /// A list as read, with a note for every line whose text the import changes or refuses, and why the whole
  /// list cannot be imported (nil when it can).
  public struct Reading: Hashable, Sendable {
    public let list: PlainListImport
    public let notes: [LineNote]
    public let error: PlainListError?
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
    let reading = read(text)
    if let error = reading.error { return .failure(error) }
    return .success(reading.list)
  }

  /// Reads `text` as ``parse(_:)`` does, noting every line it changes or refuses (the import's preview).
  public static func read(_ text: String) -> Reading {
    var list = PlainListImport()
    var notes: [LineNote] = []
    var lineNumber = 0
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lineNumber += 1
      func note(_ kind: LineNote.Kind, _ message: String) { notes.append(LineNote(line: lineNumber, kind: kind, message: message)) }
      // Control characters (an escape sequence, a bell) never reach a name or a title.
      let line = ProjectInput.oneLine(String(rawLine)).trimmingCharacters(in: .whitespaces)
      if line.isEmpty { continue }
      // A tab is only a wide space; anything else that became a space is said.
      if rawLine.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\t" }) {
        note(.controlCharactersRemoved, "control characters (such as an escape or a bell) were replaced by spaces.")
      }
      if let name = headingName(line) {
        if name.isEmpty {
          note(.emptyHeading, "a heading needs a project name after “#”.")
        } else if name.count > ProjectLimits.maxNameLength {
          note(.tooLong, "a project name may have at most \(ProjectLimits.maxNameLength) characters; this one has \(name.count).")
        } else {
          list.projects.append(Project(name: name))
        }
        continue
      }
      let read = taskLine(line)
      if let marker = read.marker { note(.markerRemoved, "the list marker “\(marker)” was taken off.") }
      if let mark = read.doneMark { note(.doneMarkRead, read.completed ? "“\(mark)” marks this task done." : "“\(mark)” (an open task) was taken off.") }
      let title = read.title
      if title.isEmpty {
        note(.emptyTask, "this line has a bullet but no task.")
      } else if title.count > ProjectLimits.maxTitleLength {
        note(.tooLong, "a task may have at most \(ProjectLimits.maxTitleLength) characters; this one has \(title.count).")
      } else if list.projects.isEmpty {
        list.inbox.append(Task(title: title, completed: read.completed))
      } else {
        list.projects[list.projects.count - 1].tasks.append(Task(title: title, completed: read.completed))
      }
    }
    let problems = notes.filter(\.refuses).map { Problem(line: $0.line, message: $0.message) }
    let error: PlainListError? =
      if !problems.isEmpty { .badLines(problems) } else if list.taskCount == 0 && list.projects.isEmpty { .empty } else if list.taskCount > ProjectLimits.maxTasksPerImport {
        .tooMany(list.taskCount)
      } else { nil }
    return Reading(list: list, notes: notes, error: error)
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
    let read = taskLine(line)
    return (read.title, read.completed)
  }

  /// A task line read: its title, whether it is done, and the marker and done mark taken off (nil: none).
  static func taskLine(_ line: String) -> (title: String, completed: Bool, marker: String?, doneMark: String?) {
    var rest = Substring(line)
    var marker: String?
    if let length = listMarker(rest) {
      marker = String(rest.prefix(length))
      rest = rest.dropFirst(length).drop { $0 == " " || $0 == "\t" }
    }
    // A done mark, after a marker or alone, followed by a space ("[x]ray" is a task's own text).
    for (mark, done) in [("[x]", true), ("[X]", true), ("[ ]", false)] where rest.hasPrefix(mark) {
      let after = rest.dropFirst(mark.count)
      guard after.isEmpty || after.first == " " || after.first == "\t" else { continue }
      return (String(after).trimmingCharacters(in: .whitespaces), done, marker, mark)
    }
    return (String(rest).trimmingCharacters(in: .whitespaces), false, marker, nil)
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
