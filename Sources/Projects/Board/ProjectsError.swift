/// Every refusal of the Projects system, each with a stable code and a message for people. The rules return
/// these as values (typed throws); the server adds the HTTP status.
public enum ProjectsError: Error, Hashable, Sendable {
  case projectNotFound
  case taskNotFound
  case invalidColor(String)
  case invalidPriority(String)
  case invalidDueDate(String)
  case emptyTitle
  case tooLong(field: String, limit: Int)
  case invalidID(String)
  case orderMismatch
  case tooManyProjects
  case invalidImport(String)
  case invalidTimeZone(String)
  /// A page size (`limit`) out of range.
  case invalidPageSize(String)
  /// A cursor (`after`) this server did not give.
  case invalidCursor(String)
  /// A later page of a task list asked for after the list changed: read it again from its first page.
  case listChanged
  /// A batch change naming no task, or more than ``ProjectLimits/maxTasksPerBatch``.
  case invalidBatch(count: Int)
  /// A batch change saying both or neither of what to do (complete or move).
  case unclearBatch
  /// A task added or moved into an archived project (by name).
  case projectArchived(String)
  /// An edit made on an older version of the task than the stored one (which it carries).
  case editConflict(TaskItem)
  /// Undo with no change left to take back.
  case nothingToUndo
  /// The last change of this task (by title) can no longer be taken back: the task or its list is gone, or a
  /// batch change (not on the undo list) changed the task since.
  case undoStale(String)
  /// Undo of a named step (a toast's) when the person's last step is another: something changed since (here or
  /// in another window), or that step was undone already. Nothing is undone.
  case undoMovedOn
  /// A heading this person's project does not have (deleted in another window, or never there).
  case headingNotFound
  /// A task put under a heading of another project than the one it is (or goes) in.
  case headingInOtherProject
  /// A project already holds ``ProjectLimits/maxHeadingsPerProject`` headings.
  case tooManyHeadings
  /// A heading renamed from a name it no longer has (renamed in another window since); it carries the heading
  /// as it is now.
  case headingConflict(HeadingItem)
  /// A heading added with an id (proposed by the client) that a heading has already.
  case headingIDTaken

  /// The stable code clients switch on.
  public var code: String {
    switch self {
    case .projectNotFound: "project_not_found"
    case .taskNotFound: "task_not_found"
    case .invalidColor: "invalid_color"
    case .invalidPriority: "invalid_priority"
    case .invalidDueDate: "invalid_due_date"
    case .emptyTitle: "empty_title"
    case .tooLong: "too_long"
    case .invalidID: "invalid_id"
    case .orderMismatch: "order_mismatch"
    case .tooManyProjects: "too_many_projects"
    case .invalidImport: "invalid_import"
    case .invalidTimeZone: "invalid_time_zone"
    case .invalidPageSize: "invalid_parameter"
    case .invalidCursor: "invalid_cursor"
    case .listChanged: "list_changed"
    case .invalidBatch, .unclearBatch: "invalid_batch"
    case .projectArchived: "project_archived"
    case .editConflict: "edit_conflict"
    case .nothingToUndo: "nothing_to_undo"
    case .undoStale: "undo_stale"
    case .undoMovedOn: "undo_moved_on"
    case .headingNotFound: "heading_not_found"
    case .headingInOtherProject: "heading_in_other_project"
    case .tooManyHeadings: "too_many_headings"
    case .headingConflict: "heading_conflict"
    case .headingIDTaken: "heading_id_taken"
    }
  }

  /// What went wrong and what to do, for people.
  public var message: String {
    switch self {
    case .projectNotFound: "That project was not found. It may have been deleted in another window."
    case .taskNotFound: "That task was not found. It may have been deleted in another window."
    case .invalidColor(let color):
      "“\(color)” is not a project colour. Choose one of: \(ProjectColor.allCases.map(\.rawValue).joined(separator: ", "))."
    case .invalidPriority(let priority):
      "“\(priority)” is not a priority. Choose one of: \(TaskPriority.allCases.map(\.rawValue).joined(separator: ", "))."
    case .invalidDueDate(let date): "“\(date)” is not a due date we can keep. Use a date from 1900 to 2999 in the form YYYY-MM-DD, for example 2026-12-24."
    case .emptyTitle: "A task needs a title."
    case .tooLong(let field, let limit): "The \(field) may have at most \(limit) characters."
    case .invalidID(let id): "“\(id)” is not an id this server made."
    case .orderMismatch: "The new order must list every item of that list exactly once. Reload and try again."
    case .tooManyProjects: "You have \(ProjectLimits.maxProjects) projects, the most one person can have. Delete one to add another."
    case .invalidImport(let detail): "Nothing was imported: \(detail)"
    case .invalidTimeZone(let zone): "“\(zone)” is not a time zone this server knows (try Europe/Berlin or UTC)."
    case .invalidPageSize(let limit): "“\(limit)” is not a page size: use a whole number from 1 to \(TaskPage.maxLimit)."
    case .invalidCursor(let cursor): "“\(cursor)” is not a cursor this server gave. Read the list again from its first page."
    case .listChanged: "The list changed while its pages were being read. Read it again from its first page."
    case .unclearBatch: "Say either whether the tasks are done or which project they move to (a heading only with its project), not both."
    case .invalidBatch(let count):
      count == 0
        ? "Select at least one task." : "At most \(ProjectLimits.maxTasksPerBatch) tasks can be changed at once (\(count) were selected)."
    case .projectArchived(let name): "“\(name)” is archived. Unarchive it to add tasks or headings to it, or move tasks into it."
    case .editConflict(let task): "“\(task.title)” was changed somewhere else since you began. Choose which to keep: yours or the one saved."
    case .nothingToUndo: "There is nothing to undo."
    case .undoStale(let title):
      "“\(title)” has changed since (it or its project was deleted, or it was changed with other selected tasks), so that change can't be undone. It was taken off the undo list; undo again for the one before."
    case .undoMovedOn: "Something else changed since, so that change can't be undone from here. Nothing was undone."
    case .headingNotFound: "That heading was not found. It may have been deleted in another window."
    case .headingInOtherProject: "A task can only go under a heading of its own project."
    case .headingConflict(let heading):
      "This heading was renamed “\(heading.name)” somewhere else since you began. Choose which name to keep: yours or the one saved."
    case .headingIDTaken: "That heading id is in use already. Leave the id out to have the server choose one, or propose another."
    case .tooManyHeadings: "A project can have at most \(ProjectLimits.maxHeadingsPerProject) headings. Delete one to add another."
    }
  }
}
