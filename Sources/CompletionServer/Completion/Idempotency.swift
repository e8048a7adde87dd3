import CompletionCore
import Fluent
import FluentSQL
import Foundation
import StreamingJSON
import Vapor

/// Table of stored first responses.
enum IdempotencyRecord {
  static let schema = "idempotency_records"
  /// How long a stored response is replayed (at least 24 hours, as promised to clients).
  static let lifetime: TimeInterval = 48 * 3600
}

/// A request's idempotency key: the client's key, whose request it is, and a fingerprint of what it asked
/// for, so that the same key with other parameters is told apart from a retry.
struct IdempotencyKey: Sendable {
  let userID: UUID
  let key: String
  let fingerprint: String
  /// For keys fingerprinted from a decoded request: the route and raw body, whose canonical form older
  /// servers fingerprinted (their records live on for a while), so a retry across an upgrade is still a
  /// retry. Made into a fingerprint only when a stored one differs.
  private var earlierForm: (scope: String, body: Data)? = nil

  /// The longest key accepted.
  static let maxLength = 128

  /// A key for `userID`'s request; `scope` and `parameters` make the fingerprint (route and body).
  /// `namespace` keeps one domain's keys apart from another's; the client's `key` is checked on its own.
  init(userID: UUID, namespace: String = "", key: String, scope: String, parameters: Data) throws {
    try self.init(userID: userID, namespace: namespace, key: key, scope: scope, encoded: Self.canonical(parameters))
  }

  /// A key for `userID`'s already decoded `request`, which is the parameters: encoded again it has one
  /// key order, so it needs no canonical form (parsing the body once more cost more than the request's rules).
  init(userID: UUID, namespace: String = "", key: String, scope: String, request: some Encodable, body req: Request) throws {
    try self.init(userID: userID, namespace: namespace, key: key, scope: scope, encoded: Data(try StreamingJSONEncoder().encode(request)))
    earlierForm = (scope, req.body.data.map { Data(buffer: $0) } ?? Data())
  }

  private init(userID: UUID, namespace: String, key: String, scope: String, encoded: Data) throws {
    guard !key.isEmpty, key.count <= Self.maxLength, key.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
      throw IdempotencyError.invalidKey
    }
    self.userID = userID
    self.key = namespace + key
    fingerprint = scope + " " + Digest.sha256Hex(encoded)
  }

  /// A key for `userID`'s request `req`: its body is the parameters.
  init(userID: UUID, namespace: String = "", key: String, scope: String, body req: Request) throws {
    try self.init(userID: userID, namespace: namespace, key: key, scope: scope, parameters: req.body.data.map { Data(buffer: $0) } ?? Data())
  }

  /// JSON with its keys sorted, so the same request encoded twice (in another key order) matches itself.
  static func canonical(_ body: Data) -> Data {
    guard !body.isEmpty, let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
      let sorted = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    else { return body }
    return sorted
  }

  /// The stored response for this key, if one was committed; throws when the key was used for another request.
  func replay(on database: any Database) async throws -> StoredResponse? {
    let db = database.sql
    struct Row: Decodable {
      let fingerprint: String
      let status: Int
      let body: String
    }
    guard let row = try await Self.replaySQL(userID, key, on: db).first(decoding: Row.self) else { return nil }
    guard row.fingerprint == fingerprint || row.fingerprint == earlierForm.map({ $0.scope + " " + Digest.sha256Hex(Self.canonical($0.body)) })
    else { throw IdempotencyError.keyReused }
    return StoredResponse(status: HTTPResponseStatus(statusCode: row.status), body: Data(row.body.utf8), replayed: true)
  }

  /// Stores `response` for this key in the caller's transaction; false when another request stored one first.
  func store(_ response: StoredResponse, at now: Date, on database: any Database) async throws -> Bool {
    let db = database.sql
    let row = try await Self.storeSQL(
      userID, key, fingerprint, Int(response.status.code), String(decoding: response.body, as: UTF8.self), now, on: db
    ).first()
    return row != nil
  }

  // Every idempotent request stores its response, so these keep their text (see FixedSQL).
  private static let replaySQL = FixedSQL(
    """
    SELECT fingerprint, status, body FROM idempotency_records WHERE user_id = ? AND "key" = ?
    """)

  private static let storeSQL = FixedSQL(
    """
    INSERT INTO idempotency_records (user_id, "key", fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (user_id, "key") DO NOTHING RETURNING "key"
    """)

  /// Removes stored responses older than ``IdempotencyRecord/lifetime``; returns how many.
  @discardableResult
  static func prune(before now: Date, on database: any Database) async throws -> Int {
    let db = database.sql
    let rows = try await db.delete(from: IdempotencyRecord.schema)
      .where("created_at", .lessThan, SQLBind(now.addingTimeInterval(-IdempotencyRecord.lifetime)))
      .returning("key")
      .all()
    return rows.count
  }
}

/// Idempotency refusals.
enum IdempotencyError: APIErrorConvertible, Equatable {
  case invalidKey
  case keyReused
  /// Another request with this key is still being answered (by another server process).
  case keyInUse

  var status: HTTPResponseStatus {
    switch self {
    case .invalidKey: .badRequest
    case .keyReused, .keyInUse: .conflict
    }
  }

  var code: String {
    switch self {
    case .invalidKey: "invalid_idempotency_key"
    case .keyReused: "idempotency_key_reused"
    case .keyInUse: "idempotency_key_in_use"
    }
  }

  var message: String {
    switch self {
    case .invalidKey: "An idempotency key is 1–128 visible ASCII characters (a UUID is ideal)."
    case .keyReused: "This idempotency key was already used for a different request. Use a new key for a new request."
    case .keyInUse: "A request with this idempotency key is still being answered. Try again in a moment with the same key."
    }
  }

  var retryAfter: Int? { self == .keyInUse ? 1 : nil }
}
