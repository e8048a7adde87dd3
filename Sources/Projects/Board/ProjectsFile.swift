import CompletionCore
import Foundation

/// A file of projects and tasks to import (the export format's content), checked whole before anything is
/// handled: one bad row refuses everything, with a message per row.
public struct ProjectsFile: Hashable, Sendable {
  public struct Task: Hashable, Sendable {
    public var title: String
    public var notes: String
    public var priority: String
    public var dueDate: String?
    public var completed: Bool
    /// Its heading's place in its project's `headings` (nil: none).
    public var heading: Int?

    public init(title: String, notes: String, priority: String, dueDate: String?, completed: Bool, heading: Int? = nil) {
      self.heading = heading
      self.title = title
      self.notes = notes
      self.priority = priority
      self.dueDate = dueDate
      self.completed = completed
    }
  }

  public struct Project: Hashable, Sendable {
    public var name: String
    public var color: String
    public var notes: String
    public var tasks: [Task]
    /// Heading names in their order.
    public var headings: [String]
    /// Imported archived (an archived project exported comes back archived).
    public var archived: Bool

    public init(name: String, color: String, notes: String, tasks: [Task], headings: [String] = [], archived: Bool = false) {
      self.archived = archived
      self.headings = headings
      self.name = name
      self.color = color
      self.notes = notes
      self.tasks = tasks
    }
  }

  /// The export format's name and version.
  public static let formatName = "completionkit.projects"
  public static let formatVersion = 1

  public var format: String
  public var version: Int
  public var inbox: [Task]
  public var projects: [Project]

  public init(format: String = Self.formatName, version: Int = Self.formatVersion, inbox: [Task], projects: [Project]) {
    self.format = format
    self.version = version
    self.inbox = inbox
    self.projects = projects
  }

  /// Every task in the file.
  public var taskCount: Int { inbox.count + projects.reduce(0) { $0 + $1.tasks.count } }

  /// Every problem of the file, each with where it is (at most 20 in the refusal).
  public func check() throws(ProjectsError) {
    var problems: [String] = []
    if format != Self.formatName || version != Self.formatVersion {
      problems.append("this is not a CompletionKit projects file (format “\(Self.formatName)”, version \(Self.formatVersion)).")
    }
    func checkTask(_ task: Task, _ place: String) {
      let title = task.title.trimmingCharacters(in: .whitespacesAndNewlines)
      if title.isEmpty { problems.append("\(place): a task needs a title.") }
      if !ProjectInput.fits(task.title, ProjectLimits.maxTitleLength) {
        problems.append("\(place): the title is over \(ProjectLimits.maxTitleLength) characters.")
      }
      if !ProjectInput.fits(task.notes, ProjectLimits.maxNotesLength) {
        problems.append("\(place): the notes are over \(ProjectLimits.maxNotesLength) characters.")
      }
      if TaskPriority(rawValue: task.priority) == nil { problems.append("\(place): “\(task.priority)” is not a priority.") }
      if let date = task.dueDate, CalendarDay(date) == nil { problems.append("\(place): “\(date)” is not a date (YYYY-MM-DD).") }
    }
    for (index, task) in inbox.enumerated() {
      checkTask(task, "Inbox task \(index + 1)")
      if task.heading != nil { problems.append("Inbox task \(index + 1): a task in the Inbox has no heading.") }
    }
    for (index, project) in projects.enumerated() {
      let place = "Project \(index + 1)"
      let name = project.name.trimmingCharacters(in: .whitespacesAndNewlines)
      if name.isEmpty || !ProjectInput.fits(project.name, ProjectLimits.maxNameLength) {
        problems.append("\(place): a name needs 1–\(ProjectLimits.maxNameLength) characters.")
      }
      if ProjectColor(rawValue: project.color) == nil { problems.append("\(place): “\(project.color)” is not a project colour.") }
      if !ProjectInput.fits(project.notes, ProjectLimits.maxNotesLength) { problems.append("\(place): the notes are too long.") }
      for (taskIndex, task) in project.tasks.enumerated() {
        checkTask(task, "\(place), task \(taskIndex + 1)")
        if let heading = task.heading, !project.headings.indices.contains(heading) {
          problems.append("\(place), task \(taskIndex + 1): heading \(heading) is not one of the project's \(project.headings.count) headings (counted from 0).")
        }
      }
      if project.headings.count > ProjectLimits.maxHeadingsPerProject {
        problems.append("\(place): at most \(ProjectLimits.maxHeadingsPerProject) headings.")
      }
      for (index, heading) in project.headings.enumerated() where !ProjectInput.fits(heading, ProjectLimits.maxNameLength) {
        problems.append("\(place), heading \(index + 1): a heading's name has at most \(ProjectLimits.maxNameLength) characters.")
      }
    }
    if taskCount > ProjectLimits.maxTasksPerImport {
      problems.append("the file has \(taskCount) tasks; at most \(ProjectLimits.maxTasksPerImport) at once.")
    }
    if !problems.isEmpty { throw .invalidImport(problems.prefix(20).joined(separator: " ")) }
  }

  /// The import command for this file, checked first; text kept as typed ones are (titles on one line and
  /// trimmed, names trimmed). `newID` names every new project and task.
  public func command(newID: () -> UUID) throws(ProjectsError) -> TaskBoardCommand {
    try check()
    func task(_ task: Task) throws(ProjectsError) -> NewTask {
      NewTask(
        id: newID(), projectID: nil, title: try ProjectInput.title(task.title), notes: ProjectInput.notesText(task.notes),
        priority: TaskPriority(rawValue: task.priority) ?? .none, dueDate: task.dueDate, completed: task.completed)
    }
    var inbox: [NewTask] = []
    for item in self.inbox { inbox.append(try task(item)) }
    var imported: [ImportedProject] = []
    for project in projects {
      let projectID = newID()
      var headings: [NewHeading] = []
      for name in project.headings {
        headings.append(NewHeading(id: newID(), projectID: projectID, name: try ProjectInput.headingName(name) ?? ProjectLimits.defaultHeadingName))
      }
      var tasks: [NewTask] = []
      for item in project.tasks {
        var new = try task(item)
        new.headingID = item.heading.map { headings[$0].id }
        tasks.append(new)
      }
      imported.append(
        ImportedProject(
          project: NewProject(
            id: projectID, name: try ProjectInput.name(project.name) ?? ProjectLimits.defaultName, color: ProjectColor(rawValue: project.color) ?? .default,
            notes: ProjectInput.notesText(project.notes)),
          tasks: tasks, headings: headings, archived: project.archived))
    }
    return .importItems(inbox: inbox, projects: imported)
  }
}

extension PlainListImport {
  /// The import command for this (already parsed and checked) list: projects in the default colour.
  public func command(newID: () -> UUID) -> TaskBoardCommand {
    func task(_ task: Task) -> NewTask { NewTask(id: newID(), projectID: nil, title: task.title, completed: task.completed) }
    return .importItems(
      inbox: inbox.map(task),
      projects: projects.map { ImportedProject(project: NewProject(id: newID(), name: $0.name), tasks: $0.tasks.map(task)) })
  }
}
