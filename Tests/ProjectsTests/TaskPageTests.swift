import Foundation
import Testing

@testable import Projects

/// A long task list in pages: what `limit` and `after` may be, the next page's cursor, and a later page of a
/// list that changed in between refused.
@Suite("Task list pages")
struct TaskPageTests {
  @Test("No limit and no cursor: the whole list, and no next page")
  func whole() throws {
    let page = try TaskPage.parse(limit: nil, after: nil)
    #expect(page == .whole && page.readLimit == nil)
    #expect(page.next(read: 10_000, revision: 7) == nil)
    try page.check(revision: 7)
  }

  @Test("A first page reads one more than asked for; a next page follows only when that one came")
  func firstPage() throws {
    let page = try TaskPage.parse(limit: "100", after: nil)
    #expect(page == TaskPage(offset: 0, limit: 100, revision: nil) && page.readLimit == 101)
    #expect(page.next(read: 101, revision: 7) == "7.100")
    #expect(page.next(read: 100, revision: 7) == nil, "exactly 100 tasks: the list ends here")
    #expect(page.next(read: 3, revision: 7) == nil)
    // A first page takes the revision it read, whatever it is.
    try page.check(revision: 12)
  }

  @Test("A later page keeps the first page's revision, moves on by its limit, and the rest has no next page")
  func laterPages() throws {
    let second = try TaskPage.parse(limit: "100", after: "7.100")
    #expect(second == TaskPage(offset: 100, limit: 100, revision: 7))
    #expect(second.next(read: 101, revision: 7) == "7.200")
    let rest = try TaskPage.parse(limit: nil, after: "7.100")
    #expect(rest == TaskPage(offset: 100, limit: nil, revision: 7) && rest.readLimit == nil)
    #expect(rest.next(read: 9_900, revision: 7) == nil)
  }

  @Test("A later page of a list that changed since its first page is refused")
  func changedList() throws {
    let page = try TaskPage.parse(limit: nil, after: "7.100")
    try page.check(revision: 7)
    #expect(throws: ProjectsError.listChanged) { try page.check(revision: 8) }
    #expect(ProjectsError.listChanged.code == "list_changed")
  }

  @Test("Bad sizes and cursors get their codes", arguments: ["0", "-1", "10001", "ten", "1.5", "", " 5"])
  func badLimit(limit: String) {
    #expect(throws: ProjectsError.invalidPageSize(limit)) { try TaskPage.parse(limit: limit, after: nil) }
    #expect(ProjectsError.invalidPageSize(limit).code == "invalid_parameter")
  }

  @Test("Cursors the server did not give are refused", arguments: ["", "7", "7.", ".7", "7.1.2", "a.b", "-1.5", "7.-5", "٣.٤", "1234567890123456789.1", "7 .1"])
  func badCursor(cursor: String) {
    #expect(throws: ProjectsError.invalidCursor(cursor)) { try TaskPage.parse(limit: "10", after: cursor) }
    #expect(ProjectsError.invalidCursor(cursor).code == "invalid_cursor")
  }

  @Test("The largest page size is accepted")
  func largest() throws {
    #expect(try TaskPage.parse(limit: String(TaskPage.maxLimit), after: nil).limit == TaskPage.maxLimit)
    #expect(TaskPage.firstPageSize <= TaskPage.maxLimit)
  }
}
