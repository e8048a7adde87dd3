import FluentSQL
import Synchronization

/// A statement whose text never changes, only its values: the text is made once per SQL dialect and reused.
///
/// SQLKit's builders rebuild and re-quote a statement's text on every call; on the paths every guess, event
/// and toggle takes that was about a tenth of the server's CPU. A `FixedSQL` is written once as plain SQL
/// with a `?` where each value goes (identifiers unquoted, so only lower-case names without keywords), and
/// each `?` becomes the dialect's own placeholder (`?1` on SQLite, `$1` on PostgreSQL).
final class FixedSQL: Sendable {
  /// The text between the values.
  private let pieces: [Substring]
  /// The finished text for each dialect seen so far (by the dialect's name).
  private let texts = Mutex<[String: String]>([:])

  /// `template` with one `?` per value, in the order the values are passed.
  init(_ template: StaticString) {
    pieces = template.description.split(separator: "?", omittingEmptySubsequences: false)
  }

  /// How many values the statement takes.
  var valueCount: Int { pieces.count - 1 }

  /// The statement with `values` (one per `?`), ready to run on `db`.
  func callAsFunction(_ values: any Encodable & Sendable..., on db: any SQLDatabase) -> Call {
    precondition(values.count == valueCount, "FixedSQL: \(values.count) values for \(valueCount) placeholders")
    return Call(query: Bound(text: text(for: db), binds: values), database: db)
  }

  private func text(for db: any SQLDatabase) -> String {
    let dialect = db.dialect
    let name = dialect.name
    if let text = texts.withLock({ $0[name] }) { return text }
    var serializer = SQLSerializer(database: db)
    for (index, piece) in pieces.enumerated() {
      if index > 0 { dialect.bindPlaceholder(at: index).serialize(to: &serializer) }
      serializer.write(String(piece))
    }
    let text = serializer.sql
    texts.withLock { $0[name] = text }
    return text
  }

  /// The finished text and its values as an expression.
  private struct Bound: SQLExpression {
    let text: String
    let binds: [any Encodable & Sendable]

    func serialize(to serializer: inout SQLSerializer) {
      serializer.write(text)
      serializer.binds.append(contentsOf: binds)
    }
  }

  /// One run of the statement: `run()`, `first(decoding:)`, `all(decoding:)` as on any SQLKit builder.
  final class Call: SQLQueryFetcher {
    let query: any SQLExpression
    let database: any SQLDatabase

    fileprivate init(query: any SQLExpression, database: any SQLDatabase) {
      self.query = query
      self.database = database
    }
  }
}
