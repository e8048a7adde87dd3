import Fluent
import FluentSQL

extension Database {
  /// This database as SQLKit sees it: the one cast to SQL in the server. Every database CompletionKit opens
  /// (SQLite, PostgreSQL, the group-commit writer's transaction) is one.
  var sql: any SQLDatabase {
    guard let sql = self as? any SQLDatabase else { preconditionFailure("CompletionKit runs on SQL databases only") }
    return sql
  }

  /// Asks the database the smallest question there is (`SELECT 1`): whether it answers at all.
  func answers() async throws {
    _ = try await sql.raw("SELECT 1").all()
  }
}
