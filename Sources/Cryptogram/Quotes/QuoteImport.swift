import Foundation

/// Reads quotes to add to the library from JSON (an array of `{text, author, year?, source?}`) or CSV
/// (a header row naming `text` and `author`, optionally `year` and `source`). Every row is checked; a file
/// with any bad row is refused whole, with a message per row.
public enum QuoteImport {
  public enum Format: String, CaseIterable, Sendable {
    case json, csv

    /// Guesses the format from a file name's extension.
    public init?(fileName: String) {
      switch URL(fileURLWithPath: fileName).pathExtension.lowercased() {
      case "json": self = .json
      case "csv": self = .csv
      default: return nil
      }
    }
  }

  /// A row that cannot be imported, and why.
  public struct RowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based: the array position for JSON, the line for CSV (the header is line 1).
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
      case .empty: "The file holds no quotes."
      case .badRows(let rows):
        "The file was not imported because \(rows.count) row\(rows.count == 1 ? " has" : "s have") problems:\n"
          + rows.map { "  " + $0.description }.joined(separator: "\n")
      }
    }
  }

  /// Parses and checks every row. Rows repeating another row of the same file are errors too.
  public static func parse(_ data: Data, format: Format) throws(FileError) -> [Quote] {
    let rows: [(row: Int, result: Result<Quote, RowError>)]
    switch format {
    case .json: rows = try parseJSON(data)
    case .csv: rows = try parseCSV(data)
    }
    guard !rows.isEmpty else { throw .empty }
    var errors: [RowError] = []
    var quotes: [Quote] = []
    var firstRowByID: [String: Int] = [:]
    for (row, result) in rows {
      switch result {
      case .failure(let error): errors.append(error)
      case .success(let quote):
        let problems = QuoteRules.problems(with: quote)
        if !problems.isEmpty {
          errors.append(RowError(row: row, message: problems.map(\.description).joined(separator: "; ")))
        } else if let first = firstRowByID[quote.id] {
          errors.append(RowError(row: row, message: "it repeats row \(first)"))
        } else {
          firstRowByID[quote.id] = row
          quotes.append(quote)
        }
      }
    }
    guard errors.isEmpty else { throw .badRows(errors) }
    return quotes
  }

  private static func parseJSON(_ data: Data) throws(FileError) -> [(row: Int, result: Result<Quote, RowError>)] {
    let value: Any
    do {
      value = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw .unreadable("it is not valid JSON")
    }
    guard let array = value as? [Any] else { throw .unreadable("JSON files hold an array of quotes") }
    return array.enumerated().map { offset, element in
      let row = offset + 1
      guard let object = element as? [String: Any] else {
        return (row, .failure(RowError(row: row, message: "expected an object with text and author")))
      }
      guard let text = object["text"] as? String else { return (row, .failure(RowError(row: row, message: "text is missing or not a string"))) }
      guard let author = object["author"] as? String else {
        return (row, .failure(RowError(row: row, message: "author is missing or not a string")))
      }
      var year: Int?
      if let raw = object["year"], !(raw is NSNull) {
        guard let number = raw as? Int else { return (row, .failure(RowError(row: row, message: "year must be a whole number"))) }
        year = number
      }
      var source: String?
      if let raw = object["source"], !(raw is NSNull) {
        guard let text = raw as? String else { return (row, .failure(RowError(row: row, message: "source must be text"))) }
        source = text.isEmpty ? nil : text
      }
      return (row, .success(Quote(text: text, author: author, year: year, source: source)))
    }
  }

  private static func parseCSV(_ data: Data) throws(FileError) -> [(row: Int, result: Result<Quote, RowError>)] {
    guard let text = String(data: data, encoding: .utf8) else { throw .unreadable("CSV files must be UTF-8 text") }
    let records: [[String]]
    do {
      records = try CSV.records(in: text)
    } catch {
      throw .unreadable(error.description)
    }
    guard let header = records.first?.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) else { throw .empty }
    guard let textColumn = header.firstIndex(of: "text"), let authorColumn = header.firstIndex(of: "author") else {
      throw .unreadable("the first line must name the columns, including text and author")
    }
    let yearColumn = header.firstIndex(of: "year")
    let sourceColumn = header.firstIndex(of: "source")
    return records.dropFirst().enumerated().compactMap { offset, fields in
      let row = offset + 2
      if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { return nil }
      guard fields.count == header.count else {
        return (row, .failure(RowError(row: row, message: "expected \(header.count) fields, found \(fields.count)")))
      }
      var year: Int?
      if let yearColumn, !fields[yearColumn].trimmingCharacters(in: .whitespaces).isEmpty {
        guard let number = Int(fields[yearColumn].trimmingCharacters(in: .whitespaces)) else {
          return (row, .failure(RowError(row: row, message: "year must be a whole number")))
        }
        year = number
      }
      let source = sourceColumn.map { fields[$0] }.flatMap { $0.isEmpty ? nil : $0 }
      return (row, .success(Quote(text: fields[textColumn], author: fields[authorColumn], year: year, source: source)))
    }
  }
}

/// A small RFC 4180 reader: commas, quoted fields, doubled quotes inside quotes, CRLF or LF lines.
enum CSV {
  struct ParseError: Error, CustomStringConvertible {
    let line: Int
    var description: String { "line \(line) has a quoted field that never ends" }
  }

  static func records(in text: String) throws(ParseError) -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var inQuotes = false
    var line = 1
    var startLine = 1
    var iterator = Array(text).makeIterator()
    var pending: Character? = iterator.next()
    while let character = pending {
      pending = iterator.next()
      if inQuotes {
        if character == "\"" {
          if pending == "\"" {
            field.append("\"")
            pending = iterator.next()
          } else {
            inQuotes = false
          }
        } else {
          if character == "\n" || character == "\r\n" { line += 1 }
          field.append(character)
        }
        continue
      }
      switch character {
      case "\"" where field.isEmpty:
        inQuotes = true
        startLine = line
      case ",":
        record.append(field)
        field = ""
      case "\n", "\r\n", "\r":
        record.append(field)
        records.append(record)
        record = []
        field = ""
        line += 1
      default:
        field.append(character)
      }
    }
    if inQuotes { throw ParseError(line: startLine) }
    if !field.isEmpty || !record.isEmpty {
      record.append(field)
      records.append(record)
    }
    return records
  }
}
