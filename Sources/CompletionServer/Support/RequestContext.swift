import CompletionCore
import Foundation
import Vapor

/// What every feature reads from a request besides its path and body, read in one place: the person's time
/// zone, their motion preference, the `Idempotency-Key` and paging (`cursor`, `limit`). Each value is read when
/// it is asked for, and the query only when the request has one and the value is not in a header (the pages
/// send `Time-Zone` and `?preference=` with every change; Vapor's query decoder parses the whole query for
/// each value asked, and costs more than a move's rules).
struct RequestContext {
  /// The `Idempotency-Key` header, if sent: a write sent again with it answers as the first one did.
  let idempotencyKey: String?
  private let request: Request

  init(_ req: Request) {
    request = req
    idempotencyKey = req.headers.first(name: "Idempotency-Key")
  }

  /// The zone as the client named it, if it did: the `Time-Zone` header (the spelling `openapi.json` names),
  /// else the older spellings `?timeZone=` and `?tz=`; a body's `timeZone` is the caller's fallback. An empty
  /// value counts as not sent.
  var timeZoneName: String? {
    if let header = request.headers.first(name: "Time-Zone"), !header.isEmpty { return header }
    for name in ["timeZone", "tz"] {
      if let value = Self.query(request, name), !value.isEmpty { return value }
    }
    return nil
  }

  // MARK: Time zone

  /// The person's zone (UTC when none was sent; `body` is an older client's `timeZone` field); a name no zone
  /// has throws `invalid(name)`, the feature's own error.
  func timeZone(body: String? = nil, invalid: (String) -> any Error) throws -> TimeZone {
    let name = timeZoneName ?? body.flatMap { $0.isEmpty ? nil : $0 }
    guard let zone = TimeZoneName.parse(name) else { throw invalid(String((name ?? "").prefix(64))) }
    return zone
  }

  /// The person's zone, UTC when none was sent or the name is no zone (for reads that never refuse over it).
  var timeZoneOrUTC: TimeZone { TimeZoneName.parse(timeZoneName) ?? .gmt }

  // MARK: Motion

  /// `?preference=full|reduced|off`: how much a celebration or animation in the answer moves (full when absent).
  func motionPreference() throws -> MotionPreference {
    try option("preference", default: .full)
  }

  // MARK: Paging

  /// `?cursor=`: where the previous page ended (nil on the first page).
  var pageCursor: String? {
    guard let raw = Self.query(request, "cursor"), !raw.isEmpty else { return nil }
    return raw
  }

  /// `?limit=`: how many items a page holds, `standard` when absent, refused outside 1…`maximum`.
  func pageSize(standard: Int, maximum: Int) throws -> Int {
    try integer("limit", default: standard, in: 1...maximum)
  }

  // MARK: Query values

  /// The whole number `?name=`, `value` when absent, refused with `invalid_parameter` outside `range`.
  func integer(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
    guard let text = Self.query(request, name) else { return value }
    guard let number = Int(text), range.contains(number) else {
      throw AppError.invalidParameter(name, "use a whole number from \(range.lowerBound) to \(range.upperBound).")
    }
    return number
  }

  /// One of `T`'s cases named by `?name=`, `value` when absent, refused with `invalid_parameter` otherwise.
  func option<T: RawRepresentable & CaseIterable>(_ name: String, default value: T) throws -> T where T.RawValue == String {
    guard let text = Self.query(request, name) else { return value }
    guard let option = T(rawValue: text) else {
      throw AppError.invalidParameter(name, "use one of \(T.allCases.map(\.rawValue).joined(separator: ", ")).")
    }
    return option
  }

  /// The query value `name`, without asking the decoder when there is no query.
  private static func query(_ req: Request, _ name: String) -> String? {
    guard let query = req.url.query, !query.isEmpty else { return nil }
    return req.query[String.self, at: name]
  }
}

extension Request {
  /// This request's time zone, motion preference, idempotency key and paging (see ``RequestContext``).
  var context: RequestContext { RequestContext(self) }
}
