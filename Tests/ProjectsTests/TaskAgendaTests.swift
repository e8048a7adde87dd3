import CompletionCore
import Foundation
import Testing

@testable import Projects

/// Today, Upcoming and overdue in the person's own time zone, and search over titles and notes.
@Suite("Task agenda and search")
struct TaskAgendaTests {
  static let utc = TimeZone(identifier: "UTC")!
  static let auckland = TimeZone(identifier: "Pacific/Auckland")!
  static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

  static func task(_ title: String, due: String?, completed: Bool = false, completedAt: Date? = nil, notes: String = "", position: Int = 0) -> TaskItem {
    TaskItem(
      id: UUID(), projectID: nil, title: title, notes: notes, dueDate: due, completed: completed, completedAt: completedAt, position: position)
  }

  /// 2026-11-25 23:30 UTC: already the 26th in Auckland (UTC+13), still the 25th in Los Angeles (UTC−8).
  static let lateEvening = ISO8601DateFormatter().date(from: "2026-11-25T23:30:00Z")!

  @Test("Today is the person's calendar day: the same instant is the 26th in Auckland and the 25th in Los Angeles")
  func todayDependsOnZone() {
    #expect(TaskAgenda.today(at: Self.lateEvening, in: Self.auckland).description == "2026-11-26")
    #expect(TaskAgenda.today(at: Self.lateEvening, in: Self.losAngeles).description == "2026-11-25")
    #expect(TaskAgenda.today(at: Self.lateEvening, in: Self.utc).description == "2026-11-25")
  }

  @Test("A task due on the 25th is overdue in Auckland and due today in Los Angeles at the same instant")
  func overdueDependsOnZone() {
    let task = Self.task("Call the plumber", due: "2026-11-25")
    let nz = TaskAgenda.today(at: Self.lateEvening, in: Self.auckland)
    let la = TaskAgenda.today(at: Self.lateEvening, in: Self.losAngeles)
    #expect(TaskAgenda.due(task, today: nz, zone: Self.auckland) == .overdue)
    #expect(TaskAgenda.due(task, today: la, zone: Self.losAngeles) == .today)
  }

  @Test("Days late: counted from the person's today, 0 unless the task is overdue (open and due before today)")
  func daysLate() {
    let nz = TaskAgenda.today(at: Self.lateEvening, in: Self.auckland)
    let la = TaskAgenda.today(at: Self.lateEvening, in: Self.losAngeles)
    let late = Self.task("Call the plumber", due: "2026-11-23")
    #expect(TaskAgenda.daysLate(late, today: nz, zone: Self.auckland) == 3)
    #expect(TaskAgenda.daysLate(late, today: la, zone: Self.losAngeles) == 2)
    #expect(TaskAgenda.daysLate(Self.task("Done", due: "2026-11-23", completed: true, completedAt: Self.lateEvening), today: nz, zone: Self.auckland) == 0)
    #expect(TaskAgenda.daysLate(Self.task("Later", due: "2026-12-01"), today: nz, zone: Self.auckland) == 0)
    #expect(TaskAgenda.daysLate(Self.task("Undated", due: nil), today: nz, zone: Self.auckland) == 0)
  }

  @Test("Day boundary: due today until midnight, overdue from the first second of the next day")
  func dayBoundary() {
    let task = Self.task("Pay rent", due: "2026-11-25")
    let lastSecond = ISO8601DateFormatter().date(from: "2026-11-25T23:59:59Z")!
    let midnight = ISO8601DateFormatter().date(from: "2026-11-26T00:00:00Z")!
    #expect(TaskAgenda.due(task, today: TaskAgenda.today(at: lastSecond, in: Self.utc), zone: Self.utc) == .today)
    #expect(TaskAgenda.due(task, today: TaskAgenda.today(at: midnight, in: Self.utc), zone: Self.utc) == .overdue)
    let entry = TaskAgenda.today([task], today: TaskAgenda.today(at: midnight, in: Self.utc), zone: Self.utc)
    #expect(entry.map(\.daysLate) == [1])
  }

  @Test("Today holds overdue tasks first (longest overdue first), then today's in list order; undated and future ones stay out")
  func todayView() {
    let today = CalendarDay("2026-11-25")!
    let tasks = [
      Self.task("Today A", due: "2026-11-25"), Self.task("Late 1", due: "2026-11-24"), Self.task("Someday", due: nil),
      Self.task("Tomorrow", due: "2026-11-26"), Self.task("Late 10", due: "2026-11-15"), Self.task("Today B", due: "2026-11-25"),
    ]
    let view = TaskAgenda.today(tasks, today: today, zone: Self.utc)
    #expect(view.map(\.task.title) == ["Late 10", "Late 1", "Today A", "Today B"])
    #expect(view.map(\.due) == [.overdue, .overdue, .today, .today])
    #expect(view.map(\.daysLate) == [10, 1, 0, 0])
  }

  @Test("A task done today stays in Today, ticked and never overdue; one done on another day leaves")
  func doneTasks() {
    let now = ISO8601DateFormatter().date(from: "2026-11-25T10:00:00Z")!
    let today = TaskAgenda.today(at: now, in: Self.utc)
    let doneToday = Self.task("Late but done", due: "2026-11-20", completed: true, completedAt: now)
    let doneYesterday = Self.task("Done yesterday", due: "2026-11-24", completed: true, completedAt: now.addingTimeInterval(-86_400))
    #expect(TaskAgenda.due(doneToday, today: today, zone: Self.utc) == .today)
    #expect(TaskAgenda.due(doneYesterday, today: today, zone: Self.utc) == nil)
    #expect(TaskAgenda.today([doneToday, doneYesterday], today: today, zone: Self.utc).map(\.task.title) == ["Late but done"])
    // The store's look-back covers every zone's today.
    #expect(TaskAgenda.doneSince(now) <= now.addingTimeInterval(-26 * 3600))
  }

  @Test("Upcoming: open tasks due after today, grouped by day, soonest first")
  func upcomingView() {
    let today = CalendarDay("2026-11-25")!
    let tasks = [
      Self.task("Dec 1", due: "2026-12-01"), Self.task("Tomorrow A", due: "2026-11-26"), Self.task("Today", due: "2026-11-25"),
      Self.task("Tomorrow B", due: "2026-11-26"), Self.task("Done later", due: "2026-11-27", completed: true, completedAt: Date()),
    ]
    let days = TaskAgenda.upcoming(tasks, today: today, zone: Self.utc)
    #expect(days.map(\.day.description) == ["2026-11-26", "2026-12-01"])
    #expect(days.map { $0.tasks.map(\.title) } == [["Tomorrow A", "Tomorrow B"], ["Dec 1"]])
  }

  @Test("An archived project's tasks leave Today and Upcoming (the Inbox's and other projects' stay) and come back with it")
  func archivedProjectsStayOut() {
    let today = CalendarDay("2026-11-25")!
    let (kept, archived) = (UUID(), UUID())
    func task(_ title: String, _ project: UUID?, due: String) -> TaskItem {
      TaskItem(id: UUID(), projectID: project, title: title, notes: "", dueDate: due, completed: false, completedAt: nil, position: 0)
    }
    let tasks = [
      task("Inbox today", nil, due: "2026-11-25"), task("Kept late", kept, due: "2026-11-20"), task("Archived late", archived, due: "2026-11-20"),
      task("Archived today", archived, due: "2026-11-25"), task("Kept tomorrow", kept, due: "2026-11-26"), task("Archived tomorrow", archived, due: "2026-11-26"),
    ]
    let shelved: Set<UUID> = [archived]
    #expect(TaskAgenda.today(tasks, today: today, zone: Self.utc, archived: shelved).map(\.task.title) == ["Kept late", "Inbox today"])
    #expect(TaskAgenda.upcoming(tasks, today: today, zone: Self.utc, archived: shelved).flatMap { $0.tasks.map(\.title) } == ["Kept tomorrow"])
    // Unarchived, they are back where they were.
    #expect(TaskAgenda.today(tasks, today: today, zone: Self.utc).map(\.task.title) == ["Kept late", "Archived late", "Inbox today", "Archived today"])
    #expect(TaskAgenda.upcoming(tasks, today: today, zone: Self.utc).flatMap { $0.tasks.map(\.title) } == ["Kept tomorrow", "Archived tomorrow"])
  }

  @Test("Search ignores case and accents in any script; a blank query is no query; a long one is refused")
  func search() throws {
    let tasks = [
      Self.task("Été à la plage", due: nil), Self.task("Купить МОЛОКО", due: nil), Self.task("Plain", due: nil, notes: "ask about the café"),
      Self.task("Straße fegen", due: nil),
    ]
    #expect(TaskSearch.search(tasks, for: "ÉTÉ").tasks.map(\.title) == ["Été à la plage"])
    #expect(TaskSearch.search(tasks, for: "молоко").tasks.map(\.title) == ["Купить МОЛОКО"])
    #expect(TaskSearch.search(tasks, for: "CAFE").tasks.map(\.title) == ["Plain"])
    #expect(TaskSearch.search(tasks, for: "straße").tasks.map(\.title) == ["Straße fegen"])
    #expect(try TaskSearch.query("  ") == nil)
    #expect(try TaskSearch.query(nil) == nil)
    #expect(try TaskSearch.query("  milk\n") == "milk")
    #expect(throws: ProjectsError.tooLong(field: "search", limit: TaskSearch.maxQueryLength)) {
      try TaskSearch.query(String(repeating: "a", count: TaskSearch.maxQueryLength + 1))
    }
  }

  @Test("Search puts title matches before notes-only ones and stops at the limit, saying there are more")
  func searchBounded() {
    var tasks = [Self.task("Notes only", due: nil, notes: "milk")]
    tasks += (0..<60).map { Self.task("Milk \($0)", due: nil) }
    let found = TaskSearch.search(tasks, for: "milk")
    #expect(found.tasks.count == TaskSearch.maxResults && found.more)
    #expect(found.tasks.first?.title == "Milk 0")
    let few = TaskSearch.search(Array(tasks.prefix(5)), for: "milk")
    #expect(few.tasks.map(\.title) == ["Milk 0", "Milk 1", "Milk 2", "Milk 3", "Notes only"] && !few.more)
  }
}
