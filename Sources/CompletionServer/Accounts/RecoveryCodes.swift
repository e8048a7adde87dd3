import FluentSQL
import Foundation

/// Recovery codes: ten one-time codes made when an account is saved (and again whenever the person asks, with
/// their password), each able to set a new password once. Only their SHA-256 is stored: a code carries 80
/// random bits, so unlike a password it cannot be guessed back from its hash.
enum RecoveryCodes {
  static let schema = "recovery_codes"
  /// How many codes an account gets at a time.
  static let count = 10
  /// Crockford's base-32 digits: no i, l, o or u to misread or mistype.
  private static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
  /// Digits in a code (5 bits each), shown in groups of four: `k3f9-2xqa-…`.
  static let length = 16

  /// Ten new codes, as they are shown.
  static func makeCodes() -> [String] {
    var generator = SystemRandomNumberGenerator()
    return (0..<count).map { _ in
      let digits = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
      return stride(from: 0, to: length, by: 4).map { String(digits[$0..<$0 + 4]) }.joined(separator: "-")
    }
  }

  /// A code as typed, made comparable: case, spaces and dashes do not matter, and the letters Crockford's
  /// alphabet leaves out read as the digits they look like (i and l as 1, o as 0).
  static func normalized(_ typed: String) -> String {
    String(
      typed.lowercased().compactMap { character -> Character? in
        switch character {
        case " ", "-", "\t": nil
        case "i", "l": "1"
        case "o": "0"
        default: character
        }
      })
  }

  /// What is stored for a code.
  static func hash(_ typed: String) -> String {
    Digest.sha256Hex(Data(normalized(typed).utf8))
  }

  /// Replaces every code of the account with `codes` (the earlier ones stop working).
  static func replace(for userID: UUID, with codes: [String], at now: Date, on db: any Database) async throws {
    let sql = db.sql
    try await sql.delete(from: schema).where("user_id", .equal, SQLBind(userID)).run()
    let insert = sql.insert(into: schema).columns("id", "user_id", "code_hash", "created_at")
    for code in codes { insert.values(SQLBind(UUID()), SQLBind(userID), SQLBind(hash(code)), SQLBind(now)) }
    try await insert.run()
  }

  /// Whether `codeHash` is one of the account's unused codes (read only; ``consume(_:userID:on:)`` uses it up).
  static func contains(_ codeHash: String, userID: UUID, on db: any Database) async throws -> Bool {
    try await db.sql.select().column("id").from(schema).where("user_id", .equal, SQLBind(userID))
      .where("code_hash", .equal, SQLBind(codeHash)).first() != nil
  }

  /// Uses a code up: true when it was one of the account's unused codes, which is deleted in the same statement,
  /// so two requests with one code never both succeed.
  static func consume(_ codeHash: String, userID: UUID, on db: any Database) async throws -> Bool {
    try await db.sql.raw(
      "DELETE FROM \(ident: schema) WHERE user_id = \(bind: userID) AND code_hash = \(bind: codeHash) RETURNING id"
    ).first() != nil
  }

  /// How many unused codes the account has.
  static func remaining(userID: UUID, on db: any Database) async throws -> Int {
    try await db.sql.raw("SELECT COUNT(*) AS n FROM \(ident: schema) WHERE user_id = \(bind: userID)")
      .first(decoding: CountRow.self)?.n ?? 0
  }

  private struct CountRow: Decodable {
    let n: Int
  }
}
