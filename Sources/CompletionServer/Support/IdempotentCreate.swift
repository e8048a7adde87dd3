import FluentSQL
import Foundation
import Vapor

/// `Idempotency-Key` on creates (comments, follows, reports, photos, videos, tokens), with the semantics game
/// moves have: the first successful answer to a key is stored (for ``IdempotencyRecord/lifetime``) and
/// replayed to every retry with `Idempotent-Replayed: true`; the same key with another request is refused
/// (`409 idempotency_key_reused`); a refusal is not stored, so a retry is judged again. Requests with one key
/// sent at once wait for the first (in one process) and then replay it; another process meanwhile answers
/// `409 idempotency_key_in_use`, which a client retries. The key is claimed before the create runs, so a
/// create happens at most once per key across processes. Only a request that names its account (a session
/// or a token) can be replayed: a visitor's first write makes a new guest each time anyway.
enum IdempotentCreate {
  /// The status a claimed key has while its create runs.
  private static let inProgress = 0
  /// A claim this old was left by a process that stopped mid-create: the key may be claimed again.
  static let abandonedAfter: TimeInterval = 5 * 60

  /// Runs `create` once per `Idempotency-Key` of the signed-in person; without a key (or a session), just runs it.
  /// `secret`: the answer carries a secret (a new token) that must not be readable from the database, so it
  /// is stored encrypted with a key derived from the client's `Idempotency-Key`, which is stored only hashed.
  /// `streamed`: the route reads its body as a stream (an upload), so its type and length stand for it (a
  /// small one may arrive whole, a large one in pieces: the fingerprint must not depend on which).
  static func run(
    _ req: Request, secret: Bool = false, streamed: Bool = false, _ create: @escaping @Sendable (Request) async throws -> Response
  ) async throws -> Response {
    guard let raw = req.context.idempotencyKey, let userID = req.currentSession?.userID else { return try await create(req) }
    // What makes a retry the same request: route, query, and the body (or, for a streamed upload, its type and length).
    var scope = "\(req.method.rawValue) \(req.url.path)?\(req.url.query ?? "")"
    if streamed {
      scope += " \(req.headers.first(name: .contentType) ?? "") \(req.headers.first(name: .contentLength) ?? "")"
    }
    let stored = secret ? "token:" + Digest.sha256Hex(Data(raw.utf8)) : raw
    guard !raw.isEmpty, raw.count <= IdempotencyKey.maxLength, raw.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
      throw IdempotencyError.invalidKey
    }
    let key =
      streamed
      ? try IdempotencyKey(userID: userID, namespace: "create:", key: stored, scope: scope, parameters: Data())
      : try IdempotencyKey(userID: userID, namespace: "create:", key: stored, scope: scope, body: req)
    let cipher = secret ? SymmetricKey(data: SHA256.hash(data: Data(("completionkit replay " + raw).utf8))) : nil
    let turn = UUID(uuid: Self.uuidBytes(Digest.sha256Hex(Data((userID.uuidString + key.key).utf8))))
    let services = req.application.services
    return try await services.people.run(turn) {
      let db = req.db
      let now = services.clock.now()
      if try await !claim(key, at: now, on: db) {
        guard let earlier = try await key.replay(on: db) else { throw IdempotencyError.keyInUse }
        guard earlier.status.code != UInt(inProgress) else { throw IdempotencyError.keyInUse }
        if streamed { try await drain(req) }
        var body = earlier.body
        if let cipher { body = try open(body, with: cipher) }
        return StoredResponse(status: earlier.status, body: body, replayed: true).response
      }
      let response: Response
      do {
        response = try await create(req)
      } catch {
        try await release(key, on: db)
        throw error
      }
      guard (200..<300).contains(response.status.code), let buffer = response.body.buffer else {
        try await release(key, on: db)
        return response
      }
      var body = Data(buffer: buffer)
      if let cipher { body = try seal(body, with: cipher) }
      try await finish(key, status: Int(response.status.code), body: body, on: db)
      return response
    }
  }

  /// Claims the key (or takes over a claim abandoned by a stopped process); false when it is taken.
  private static func claim(_ key: IdempotencyKey, at now: Date, on db: any Database) async throws -> Bool {
    let sql = db.sql
    try await sql.raw(
      """
      DELETE FROM idempotency_records WHERE user_id = \(bind: key.userID) AND "key" = \(bind: key.key) AND status = \(bind: inProgress)
      AND created_at < \(bind: now.addingTimeInterval(-abandonedAfter))
      """
    ).run()
    return try await key.store(StoredResponse(status: HTTPResponseStatus(statusCode: inProgress), body: Data(), replayed: false), at: now, on: db)
  }

  private static func finish(_ key: IdempotencyKey, status: Int, body: Data, on db: any Database) async throws {
    let sql = db.sql
    try await sql.raw(
      """
      UPDATE idempotency_records SET status = \(bind: status), body = \(bind: String(decoding: body, as: UTF8.self))
      WHERE user_id = \(bind: key.userID) AND "key" = \(bind: key.key)
      """
    ).run()
  }

  private static func release(_ key: IdempotencyKey, on db: any Database) async throws {
    let sql = db.sql
    try await sql.raw(
      """
      DELETE FROM idempotency_records WHERE user_id = \(bind: key.userID) AND "key" = \(bind: key.key) AND status = \(bind: inProgress)
      """
    ).run()
  }

  /// Reads and drops a streamed body a replay does not need (left unread, it would stall the connection).
  private static func drain(_ req: Request) async throws {
    var seen = 0
    for try await chunk in req.bodyChunks() {
      seen += chunk.readableBytes
      if seen > BodyRefusal.drainLimit { break }
    }
  }

  /// The stored body is text: a sealed one is kept as base64.
  private static func seal(_ body: Data, with key: SymmetricKey) throws -> Data {
    guard let combined = try AES.GCM.seal(body, using: key).combined else { throw Abort(.internalServerError) }
    return Data(combined.base64EncodedString().utf8)
  }

  private static func open(_ stored: Data, with key: SymmetricKey) throws -> Data {
    guard let combined = Data(base64Encoded: stored) else { throw Abort(.internalServerError) }
    return try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key)
  }

  private static func uuidBytes(_ hex: String) -> uuid_t {
    var bytes = [UInt8](repeating: 0, count: 16)
    let digits = Array(hex.utf8)
    func value(_ c: UInt8) -> UInt8 { c >= 97 ? c - 87 : c - 48 }
    for index in 0..<16 { bytes[index] = value(digits[2 * index]) << 4 | value(digits[2 * index + 1]) }
    return (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
  }
}
