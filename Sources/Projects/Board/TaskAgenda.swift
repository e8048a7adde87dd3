import CompletionCore
import Foundation

/// Where a dated task stands against the person's own today.
public enum TaskDue: String, Hashable, Sendable, CaseIterable {
  /// Still open, and due before today.
  case overdue
  /// Due today, or done today (so ticking a task off in the Today view keeps it there, ticked).
  case today
  /// Due after today.
  case upcoming
}

/// The Today and Upcoming views: which tasks they hold and in what order. "Today" is the person's calendar
/// day in their time zone, never the server's, so a task due on the 24th is overdue in Auckland hours before
/// it is in Los Angeles.
public enum TaskAgenda {
  /// A task in the Today view, with how many days late it is (0 when due today).
  public struct Entry: Hashable, Sendable {
    public let task: TaskItem
    public let due: TaskDue
    public let daysLate: Int

    public init(task: TaskItem, due: TaskDue, daysLate: Int) {
      self.task = task
      self.due = due
      self.daysLate = daysLate
    }
  }

  /// One day of the Upcoming view.
  public struct Day: Hashable, Sendable {
    public let day: CalendarDay
    public let tasks: [TaskItem]

    public init(day: CalendarDay, tasks: [TaskItem]) {
      self.day = day
      self.tasks = tasks
    }
  }

  /// The person's today at `now` in `zone`.
  public static func today(at now: Date, in zone: TimeZone) -> CalendarDay { CalendarDay(now, in: zone) }

  /// How far back a store must look for done tasks: one that was completed before this instant was not
  /// completed on any day that can be someone's today at `now` (time zones span 26 hours).
  public static func doneSince(_ now: Date) -> Date { now.addingTimeInterval(-2 * 86_400) }

  /// Where `task` stands on `today` (in `zone`, which decides the day a completion fell on); nil for an
  /// undated task, or one done on another day than today.
  public static func due(_ task: TaskItem, today: CalendarDay, zone: TimeZone) -> TaskDue? {
    guard let raw = task.dueDate, let date = CalendarDay(raw) else { return nil }
    if task.completed {
      guard let at = task.completedAt, CalendarDay(at, in: zone) == today else { return nil }
      return date > today ? .upcoming : .today
    }
    if date < today { return .overdue }
    return date == today ? .today : .upcoming
  }

  /// How many days late `task` is on `today` (0 unless it is overdue): what "2 days late" says.
  public static func daysLate(_ task: TaskItem, today: CalendarDay, zone: TimeZone) -> Int {
    guard due(task, today: today, zone: zone) == .overdue, let date = task.dueDate.flatMap(CalendarDay.init) else { return 0 }
    return today.dayNumber - date.dayNumber
  }

  /// Whether `task` may be in Today and Upcoming: not while its project is archived (an archived project is
  /// put away with its tasks as they were; they come back with it). Search still finds them.
  public static func isActive(_ task: TaskItem, archived: Set<UUID>) -> Bool {
    guard let project = task.projectID else { return true }
    return !archived.contains(project)
  }

  /// The Today view: overdue tasks first (the longest overdue first), then those due or done today; within
  /// each, in the person's list order (`tasks` as the store orders them). Tasks of the `archived` projects stay out.
  public static func today(_ tasks: [TaskItem], today: CalendarDay, zone: TimeZone, archived: Set<UUID> = []) -> [Entry] {
    let entries: [Entry] = tasks.compactMap { task in
      guard isActive(task, archived: archived), let due = due(task, today: today, zone: zone), due != .upcoming,
        let date = task.dueDate.flatMap(CalendarDay.init)
      else {
        return nil
      }
      return Entry(task: task, due: due, daysLate: max(0, today.dayNumber - date.dayNumber))
    }
    return entries.enumerated().sorted { a, b in
      let (x, y) = (a.element, b.element)
      if (x.due == .overdue) != (y.due == .overdue) { return x.due == .overdue }
      if x.due == .overdue, x.daysLate != y.daysLate { return x.daysLate > y.daysLate }
      return a.offset < b.offset
    }.map(\.element)
  }

  /// The Upcoming view: open tasks due after today, grouped by day (soonest first), each day in list order.
  /// Tasks of the `archived` projects stay out.
  public static func upcoming(_ tasks: [TaskItem], today: CalendarDay, zone: TimeZone, archived: Set<UUID> = []) -> [Day] {
    var byDay: [CalendarDay: [TaskItem]] = [:]
    for task in tasks where !task.completed && isActive(task, archived: archived) && due(task, today: today, zone: zone) == .upcoming {
      guard let date = task.dueDate.flatMap(CalendarDay.init) else { continue }
      byDay[date, default: []].append(task)
    }
    return byDay.keys.sorted().map { Day(day: $0, tasks: byDay[$0] ?? []) }
  }
}

/// Search over a person's task titles and notes: case-insensitive and accent-insensitive in every script
/// ("ÉTÉ" finds "été", "МОЛОКО" finds "молоко"), bounded so an answer stays small on any board.
public enum TaskSearch {
  /// The most results one answer holds; past it the answer says there are more.
  public static let maxResults = 50
  /// The longest query, in code points.
  public static let maxQueryLength = 200

  /// The query as matched: on one line and trimmed; nil for a blank one (which finds nothing).
  public static func query(_ raw: String?) throws(ProjectsError) -> String? {
    guard let raw else { return nil }
    guard ProjectInput.fits(raw, maxQueryLength) else { throw .tooLong(field: "search", limit: maxQueryLength) }
    let query = ProjectInput.oneLine(raw).trimmingCharacters(in: .whitespacesAndNewlines)
    return query.isEmpty ? nil : query
  }

  /// Whether `text` contains `query`, ignoring case and accents.
  public static func contains(_ text: String, _ query: String) -> Bool {
    text.range(of: query, options: [.caseInsensitive, .diacriticInsensitive]) != nil
  }

  /// A task's searchable text: all a search reads of each task (a store reads only these columns).
  public struct Text: Hashable, Sendable {
    public let id: UUID
    public let title: String
    public let notes: String

    public init(id: UUID, title: String, notes: String) {
      self.id = id
      self.title = title
      self.notes = notes
    }
  }

  /// The tasks whose title or notes contain `query`: title matches first, then notes-only ones, each in the
  /// order given; at most `limit`, and whether more matched.
  public static func search(_ tasks: [TaskItem], for query: String, limit: Int = maxResults) -> (tasks: [TaskItem], more: Bool) {
    let found = search(tasks.map { Text(id: $0.id, title: $0.title, notes: $0.notes) }, for: query, limit: limit)
    let byID = Dictionary(tasks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    return (found.ids.compactMap { byID[$0] }, found.more)
  }

  /// The ids of the texts that contain `query`, in the same order (title matches first), and whether more matched.
  public static func search(_ tasks: [Text], for query: String, limit: Int = maxResults) -> (ids: [UUID], more: Bool) {
    var titled: [UUID] = []
    var noted: [UUID] = []
    for task in tasks {
      if contains(task.title, query) {
        titled.append(task.id)
        // Enough title matches to fill the answer and tell that there are more: the rest need not be read.
        if titled.count > limit { break }
      } else if noted.count <= limit, !task.notes.isEmpty, contains(task.notes, query) {
        noted.append(task.id)
      }
    }
    let found = titled + noted
    return (Array(found.prefix(limit)), found.count > limit)
  }
}
