import CompletionCore

/// The eight project colours of the original todo app, in the picker's order.
public enum ProjectColor: String, CaseIterable, Codable, Sendable {
  case red, orange, yellow, green, blue, purple, pink, gray

  /// A new project's colour.
  public static let `default` = ProjectColor.gray

  /// The colour's name for people (a screen reader reads it beside the swatch).
  public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// A task's priority (the original stores 0–3).
public enum TaskPriority: String, CaseIterable, Codable, Sendable, Comparable {
  case none, low, medium, high

  /// 0 (none) … 3 (high), as stored.
  public var level: Int { Self.allCases.firstIndex(of: self)! }

  public init?(level: Int) {
    guard Self.allCases.indices.contains(level) else { return nil }
    self = Self.allCases[level]
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.level < rhs.level }

  /// The priority's name for people.
  public var label: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// The limits a project or task must keep; checked by the server before anything is stored.
public enum ProjectLimits {
  /// A new project's name when none is given.
  public static let defaultName = "Untitled Project"
  public static let maxNameLength = 120
  public static let maxTitleLength = 500
  public static let maxNotesLength = 10_000
  public static let maxProjects = 500
  public static let maxTasksPerImport = 5_000
  /// The most tasks one batch change (complete or move several) names.
  public static let maxTasksPerBatch = 200
  /// How many of a person's last task changes can be undone.
  public static let undoDepth = 20
  /// The most headings one project holds.
  public static let maxHeadingsPerProject = 100
  /// A new heading's name when none (or a blank one) is given.
  public static let defaultHeadingName = "Untitled Heading"
}

/// How a task change moves its project's kept counts: the server adds these in the same transaction as
/// the change, so a count is never recounted.
public struct CountDelta: Hashable, Sendable {
  public var total: Int
  public var completed: Int

  public init(total: Int = 0, completed: Int = 0) {
    self.total = total
    self.completed = completed
  }

  public static let none = CountDelta()
  public var isZero: Bool { total == 0 && completed == 0 }

  /// A task that now exists (or arrived from another list).
  public static func added(completed: Bool) -> CountDelta { CountDelta(total: 1, completed: completed ? 1 : 0) }
  /// A task that is gone (or left for another list).
  public static func removed(completed: Bool) -> CountDelta { CountDelta(total: -1, completed: completed ? -1 : 0) }
  /// A task whose completion changed from `was` to `now`.
  public static func toggled(from was: Bool, to now: Bool) -> CountDelta {
    CountDelta(completed: was == now ? 0 : (now ? 1 : -1))
  }

  /// The counts after this change.
  public func applied(to counts: CompletionRatio) -> CompletionRatio {
    CompletionRatio(completed: counts.completed + completed, total: counts.total + total)
  }
}
