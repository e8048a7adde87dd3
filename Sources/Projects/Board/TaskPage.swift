import Foundation

/// A long task list read in pages: `?limit=` asks for at most that many tasks, and an answer that leaves
/// some out names the next page with a cursor (`?after=`). The cursor carries the list's revision when its
/// first page was read: a later page of a list that changed in between is refused (``ProjectsError/listChanged``)
/// rather than answered with rows that were moved, repeated or skipped. Without `limit` and `after` a list is
/// read whole, as before pages existed.
public struct TaskPage: Hashable, Sendable {
  /// The most tasks one page may ask for (a list never holds more than this in practice).
  public static let maxLimit = 10_000
  /// What a page shows first: enough rows to fill a tall screen twice, small enough to answer at once.
  public static let firstPageSize = 100

  /// How many tasks of the list come before this page.
  public let offset: Int
  /// At most this many tasks (nil: every task from `offset` on).
  public let limit: Int?
  /// The list's revision when its first page was read (nil: this is the first page).
  public let revision: Int?

  public init(offset: Int = 0, limit: Int? = nil, revision: Int? = nil) {
    self.offset = offset
    self.limit = limit
    self.revision = revision
  }

  /// The whole list in one answer.
  public static let whole = TaskPage()

  /// The page a request's `limit` and `after` ask for.
  public static func parse(limit rawLimit: String?, after rawAfter: String?) throws(ProjectsError) -> TaskPage {
    var limit: Int?
    if let rawLimit {
      guard let value = Int(rawLimit), (1...maxLimit).contains(value) else {
        throw .invalidPageSize(String(rawLimit.prefix(32)))
      }
      limit = value
    }
    guard let rawAfter else { return TaskPage(limit: limit) }
    guard let cursor = Cursor(rawAfter) else {
      throw .invalidCursor(String(rawAfter.prefix(32)))
    }
    return TaskPage(offset: cursor.offset, limit: limit, revision: cursor.revision)
  }

  /// Throws ``ProjectsError/listChanged`` when the list is no longer at the revision its first page was read at.
  /// A later page is read first and its revision after, so an equal revision means no change came between.
  public func check(revision current: Int) throws(ProjectsError) {
    if let revision, revision != current { throw .listChanged }
  }

  /// The cursor of the page after this one, given the tasks read for it (read one more than `limit`, to know
  /// whether more follow) and the list's revision (the first page's: a later page keeps the cursor's); nil
  /// when the list ends here.
  public func next(read count: Int, revision current: Int) -> String? {
    guard let limit, count > limit else { return nil }
    return Cursor(revision: revision ?? current, offset: offset + limit).text
  }

  /// How many tasks to read for this page: one more than asked, to know whether a next page exists.
  public var readLimit: Int? { limit.map { $0 + 1 } }

  /// A cursor: `<revision>.<offset>`, both whole numbers (opaque to clients).
  struct Cursor: Hashable {
    let revision: Int
    let offset: Int

    init(revision: Int, offset: Int) {
      self.revision = revision
      self.offset = offset
    }

    init?(_ text: String) {
      let parts = text.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 18 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
        let revision = Int(parts[0]), let offset = Int(parts[1])
      else { return nil }
      self.init(revision: revision, offset: offset)
    }

    var text: String { "\(revision).\(offset)" }
  }
}
