import Foundation

/// Reads an operator's challenges from JSON: an array of `{slug, type, title, description, requirements,
/// date?, days?}` (the built-in catalogue's own format). Every row is checked; a file with any bad row is
/// refused whole, with a message per row (as the quote import does).
public enum ChallengeImport {
  /// A row that cannot be imported, and why.
  public struct RowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based position in the array.
    public let row: Int
    public let message: String

    public var description: String { "row \(row): \(message)" }
  }

  /// Why a whole file was refused.
  public enum FileError: Error, Hashable, Sendable, CustomStringConvertible {
    case unreadable(String)
    case badRows([RowError])
    case empty

    public var description: String {
      switch self {
      case .unreadable(let reason): "The file could not be read: \(reason)"
      case .empty: "The file holds no challenges."
      case .badRows(let rows):
        "The file was not imported because \(rows.count) row\(rows.count == 1 ? " has" : "s have") problems:\n"
          + rows.map { "  " + $0.description }.joined(separator: "\n")
      }
    }
  }

  /// Parses and checks every row against ``ChallengeRules`` and against `existing` (a slug or title the
  /// catalogue already has is refused, and so is a row repeating another row of the file).
  public static func parse(_ data: Data, existing: ChallengeCatalogue) throws(FileError) -> [ChallengeTemplate] {
    let value: Any
    do {
      value = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw .unreadable("it is not valid JSON")
    }
    guard let array = value as? [Any] else { throw .unreadable("the file must hold a JSON array of challenges") }
    guard !array.isEmpty else { throw .empty }
    let existingTitles = Set(existing.templates.map { $0.title.lowercased() })
    var errors: [RowError] = []
    var templates: [ChallengeTemplate] = []
    var firstRowBySlug: [String: Int] = [:]
    var firstRowByTitle: [String: Int] = [:]
    for (offset, element) in array.enumerated() {
      let row = offset + 1
      let template: ChallengeTemplate
      switch decode(element) {
      case .failure(let message):
        errors.append(RowError(row: row, message: message))
        continue
      case .success(let decoded): template = decoded
      }
      var problems = ChallengeRules.problems(with: template)
      if existing.template(template.slug) != nil { problems.append("the slug \(template.slug) is already in the catalogue") }
      if existingTitles.contains(template.title.lowercased()) { problems.append("the title \(template.title) is already in the catalogue") }
      if let first = firstRowBySlug[template.slug] { problems.append("its slug repeats row \(first)") }
      if let first = firstRowByTitle[template.title.lowercased()] { problems.append("its title repeats row \(first)") }
      firstRowBySlug[template.slug] = firstRowBySlug[template.slug] ?? row
      firstRowByTitle[template.title.lowercased()] = firstRowByTitle[template.title.lowercased()] ?? row
      if problems.isEmpty {
        templates.append(template)
      } else {
        errors.append(RowError(row: row, message: problems.joined(separator: "; ")))
      }
    }
    guard errors.isEmpty else { throw .badRows(errors) }
    return templates
  }

  private enum Decoded {
    case success(ChallengeTemplate)
    case failure(String)
  }

  private static func decode(_ element: Any) -> Decoded {
    guard let object = element as? [String: Any] else { return .failure("expected an object") }
    func text(_ key: String) -> String? { object[key] as? String }
    guard let slug = text("slug") else { return .failure("slug is missing or not text") }
    guard let typeName = text("type") else { return .failure("type is missing or not text") }
    guard let type = ChallengeType(rawValue: typeName) else { return .failure("type must be daily, weekly, monthly or special") }
    guard let title = text("title") else { return .failure("title is missing or not text") }
    guard let description = text("description") else { return .failure("description is missing or not text") }
    guard let requirements = object["requirements"] as? [Any] else { return .failure("requirements must be a list of text") }
    let texts = requirements.compactMap { $0 as? String }
    guard texts.count == requirements.count else { return .failure("requirements must be a list of text") }
    var date: MonthDay?
    if let raw = object["date"], !(raw is NSNull) {
      guard let value = raw as? String, let parsed = MonthDay(value) else { return .failure("date must be MM-DD, a real day of the year") }
      date = parsed
    }
    var days: Int?
    if let raw = object["days"], !(raw is NSNull) {
      // JSON's true and false arrive as numbers too; their type code is "c".
      guard let number = raw as? NSNumber, number.objCType.pointee != 0x63, let whole = Int(exactly: number.doubleValue) else {
        return .failure("days must be a whole number")
      }
      days = whole
    }
    return .success(ChallengeTemplate(slug: slug, type: type, title: title, description: description, requirements: texts, date: date, days: days))
  }
}
