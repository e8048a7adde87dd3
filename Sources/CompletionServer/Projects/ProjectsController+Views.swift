import CompletionAPI
import CompletionCore
import Foundation
import Projects
import Vapor

/// The views across lists: Today, Upcoming and search. The core decides what each holds
/// (``TaskAgenda``, ``TaskSearch``); each answer costs two reads (the tasks, the projects), whatever the
/// size of the board.
extension ProjectsController {
  /// The person's time zone (UTC when none is sent); a name no zone has is refused.
  static func zone(_ req: Request) throws -> TimeZone {
    try req.context.timeZone(invalid: ProjectsError.invalidTimeZone)
  }

  /// `GET /api/tasks/today?tz=`: overdue tasks (the longest overdue first), then those due or done today.
  @Sendable func today(req: Request) async throws -> TodayResponse {
    let zone = try Self.zone(req)
    let now = req.application.services.clock.now()
    let today = TaskAgenda.today(at: now, in: zone)
    guard let userID = req.currentSession?.userID else {
      return TodayResponse(today: today.description, timeZone: zone.identifier, tasks: [], overdue: 0)
    }
    let store = SQLProjectsStore(req.db)
    async let tasks = store.datedTasks(userID, doneSince: TaskAgenda.doneSince(now))
    async let projects = store.projects(userID)
    let lists = Self.lists(try await projects)
    let entries = TaskAgenda.today(try await tasks, today: today, zone: zone, archived: Self.archived(lists))
    return TodayResponse(
      today: today.description, timeZone: zone.identifier,
      tasks: entries.map { Self.entry($0.task, lists: lists, due: $0.due, daysLate: $0.daysLate) },
      overdue: entries.filter { $0.due == .overdue }.count)
  }

  /// `GET /api/tasks/upcoming?tz=`: open tasks due after today, by day.
  @Sendable func upcoming(req: Request) async throws -> UpcomingResponse {
    let zone = try Self.zone(req)
    let now = req.application.services.clock.now()
    let today = TaskAgenda.today(at: now, in: zone)
    guard let userID = req.currentSession?.userID else { return UpcomingResponse(today: today.description, timeZone: zone.identifier, days: []) }
    let store = SQLProjectsStore(req.db)
    async let tasks = store.datedTasks(userID, doneSince: now)
    async let projects = store.projects(userID)
    let lists = Self.lists(try await projects)
    let days = TaskAgenda.upcoming(try await tasks, today: today, zone: zone, archived: Self.archived(lists)).map { day in
      UpcomingDayView(
        date: day.day.description, daysAhead: day.day.dayNumber - today.dayNumber,
        tasks: day.tasks.map { Self.entry($0, lists: lists, due: .upcoming, daysLate: 0) })
    }
    return UpcomingResponse(today: today.description, timeZone: zone.identifier, days: days)
  }

  /// `GET /api/tasks/search?q=&tz=`: tasks whose title or notes contain `q` (any case, any accents), title
  /// matches first, at most ``TaskSearch/maxResults``. A bounded scan: one read of the title and notes of the
  /// person's tasks (SQL's LIKE folds only ASCII letters, and one person's tasks are few enough to scan),
  /// matched by the core, then one read of the matched rows.
  @Sendable func search(req: Request) async throws -> TaskSearchResponse {
    let zone = try Self.zone(req)
    let raw = req.query[String.self, at: "q"]
    guard let query = try TaskSearch.query(raw), let userID = req.currentSession?.userID else {
      return TaskSearchResponse(query: "", tasks: [], more: false)
    }
    let store = SQLProjectsStore(req.db)
    async let texts = store.taskTexts(userID)
    async let projects = store.projects(userID)
    let found = TaskSearch.search(try await texts, for: query)
    let tasks = try await store.tasks(userID, ids: found.ids)
    let lists = Self.lists(try await projects)
    let today = TaskAgenda.today(at: req.application.services.clock.now(), in: zone)
    return TaskSearchResponse(
      query: query,
      tasks: tasks.map { task in
        Self.entry(task, lists: lists, due: TaskAgenda.due(task, today: today, zone: zone), daysLate: TaskAgenda.daysLate(task, today: today, zone: zone))
      },
      more: found.more)
  }

  static func lists(_ projects: [ProjectItem]) -> [UUID: ProjectItem] {
    Dictionary(projects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
  }

  /// The archived projects among `lists`: their tasks stay out of Today and Upcoming.
  static func archived(_ lists: [UUID: ProjectItem]) -> Set<UUID> {
    Set(lists.values.lazy.filter(\.archived).map(\.id))
  }

  static func entry(_ task: TaskItem, lists: [UUID: ProjectItem], due: TaskDue?, daysLate: Int) -> TaskEntryView {
    let project = task.projectID.flatMap { lists[$0] }
    return TaskEntryView(
      task: task.view, list: project?.id.uuidString ?? "inbox", listName: project?.name ?? "Inbox", color: project?.color, due: due?.rawValue,
      daysLate: daysLate)
  }
}
