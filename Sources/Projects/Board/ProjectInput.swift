import CompletionCore
import Foundation

/// What a project or task may hold, checked before anything is handled: each function returns the value as
/// it is kept (trimmed, on one line) or the refusal.
public enum ProjectInput {
  /// An id this server made (`notFound` when none was given).
  public static func id(_ raw: String?, notFound: ProjectsError) throws(ProjectsError) -> UUID {
    guard let raw else { throw notFound }
    guard let id = UUID(uuidString: raw) else { throw .invalidID(String(raw.prefix(64))) }
    return id
  }

  /// Whether `text` keeps within `limit`. Limits count what was sent, in code points, as the API document's
  /// `maxLength` does; the same for a request and for a file being imported.
  public static func fits(_ text: String, _ limit: Int) -> Bool {
    text.unicodeScalars.count <= limit
  }

  /// A project's name: one line, trimmed (blank: the default name); nil when none was given.
  public static func name(_ raw: String?) throws(ProjectsError) -> String? {
    guard let raw else { return nil }
    guard fits(raw, ProjectLimits.maxNameLength) else { throw .tooLong(field: "name", limit: ProjectLimits.maxNameLength) }
    let name = oneLine(raw).trimmingCharacters(in: .whitespacesAndNewlines)
    return name.isEmpty ? ProjectLimits.defaultName : name
  }

  /// A heading's name: as a project's (one line, trimmed, at most ``ProjectLimits/maxNameLength``), blank
  /// giving ``ProjectLimits/defaultHeadingName``; nil when none was given.
  public static func headingName(_ raw: String?) throws(ProjectsError) -> String? {
    guard let raw else { return nil }
    guard fits(raw, ProjectLimits.maxNameLength) else { throw .tooLong(field: "name", limit: ProjectLimits.maxNameLength) }
    let name = oneLine(raw).trimmingCharacters(in: .whitespacesAndNewlines)
    return name.isEmpty ? ProjectLimits.defaultHeadingName : name
  }

  /// A task's title: one line of text, trimmed, not empty.
  public static func title(_ raw: String) throws(ProjectsError) -> String {
    guard fits(raw, ProjectLimits.maxTitleLength) else { throw .tooLong(field: "title", limit: ProjectLimits.maxTitleLength) }
    let title = oneLine(raw).trimmingCharacters(in: .whitespacesAndNewlines)
    guard !title.isEmpty else { throw .emptyTitle }
    return title
  }

  /// Notes as kept: lines and tabs stay, every other control character goes (see ``notesText(_:)``).
  public static func notes(_ raw: String?) throws(ProjectsError) -> String? {
    guard let raw else { return nil }
    guard fits(raw, ProjectLimits.maxNotesLength) else { throw .tooLong(field: "notes", limit: ProjectLimits.maxNotesLength) }
    return notesText(raw)
  }

  /// `text` on one line: line breaks, tabs and every other control character become spaces, so a name or
  /// title shown in a terminal can never move its cursor, retitle its window or change its colours.
  /// Explicit direction overrides and isolates are taken out too (see `Unicode.Scalar.isBidiFormatting`).
  public static func oneLine(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isControl($0) || $0.isBidiFormatting }) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.lazy.filter { !$0.isBidiFormatting }.map { isControl($0) ? " " : $0 }))
  }

  /// Notes' text: line breaks (CR LF and CR become LF) and tabs kept, every other control character (an
  /// escape sequence's ESC, a bell, C1 controls) taken out.
  public static func notesText(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { (isControl($0) && $0 != "\n" && $0 != "\t") || $0.isBidiFormatting }) else { return text }
    let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    return String(
      String.UnicodeScalarView(lines.unicodeScalars.filter { !$0.isBidiFormatting && (!isControl($0) || $0 == "\n" || $0 == "\t") }))
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }

  public static func color(_ raw: String?) throws(ProjectsError) -> ProjectColor? {
    guard let raw else { return nil }
    guard let color = ProjectColor(rawValue: raw) else { throw .invalidColor(String(raw.prefix(40))) }
    return color
  }

  public static func priority(_ raw: String?) throws(ProjectsError) -> TaskPriority? {
    guard let raw else { return nil }
    guard let priority = TaskPriority(rawValue: raw) else { throw .invalidPriority(String(raw.prefix(40))) }
    return priority
  }

  /// A due date as kept ("YYYY-MM-DD"); nil for none (an empty string clears it).
  public static func dueDate(_ raw: String?) throws(ProjectsError) -> String? {
    guard let raw, !raw.isEmpty else { return nil }
    // Years 1900–2999: a date typed digit by digit passes through "0002-07-04" on its way to 2026.
    guard raw.count == 10, let day = CalendarDay(raw), let year = Int(raw.prefix(4)), (1900...2999).contains(year) else {
      throw .invalidDueDate(String(raw.prefix(40)))
    }
    return day.description
  }
}
