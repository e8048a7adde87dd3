import Foundation
import NIOCore
import Vapor

extension Request {
  /// Decodes a JSON body, refusing other content types with 415 and bad JSON with 400 `invalid_json`.
  func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
    guard Self.isJSON(contentType: headers[.contentType]) else { throw AppError.unsupportedMediaType }
    guard var body = body.data else { throw AppError.invalidJSON("the body is empty.") }
    // A NUL character would cut stored text short (SQLite) or be refused by the database (PostgreSQL); it is
    // never part of text a person meant, so it is dropped, as a title's other control characters are.
    if let cleaned = Self.droppingEscapedNUL(body.readableBytesView) { body = cleaned }
    return try JSONDecoder().decode(T.self, from: body)
  }

  /// Whether a request's `Content-Type` header lines say JSON and nothing else: one line, `application/json`,
  /// optionally with parameters, of which `charset` may only be UTF-8 (JSON's only encoding). Vapor's own parser
  /// reads `application/json, text/html` as JSON (it takes the first of a list); a body is one thing, so a list,
  /// a second header line or another charset is refused.
  static func isJSON(contentType lines: [String]) -> Bool {
    guard lines.count == 1, let line = lines.first else { return false }
    // The forms clients send, answered without taking the line apart (Foundation's trimming costs microseconds).
    if line == "application/json" || line == "application/json; charset=utf-8" || line == "application/json;charset=UTF-8" { return true }
    guard !line.contains(",") else { return false }
    var parts = line.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    guard parts.removeFirst().lowercased() == "application/json" else { return false }
    for parameter in parts where !parameter.isEmpty {
      let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      guard pair.count == 2, !pair[0].isEmpty else { return false }
      if pair[0].lowercased() == "charset" {
        let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        guard value == "utf-8" || value == "utf8" else { return false }
      }
    }
    return true
  }

  /// JSON text without its `\u0000` escapes (an escaped backslash followed by "u0000" is text and stays), or
  /// nil when it has none.
  static func droppingEscapedNUL(_ bytes: ByteBufferView) -> ByteBuffer? {
    let nul = Array("u0000".utf8)
    var escaped = false
    var found: [Int] = []  // offsets of the backslashes that start a `\u0000`
    var offset = 0
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if escaped {
        escaped = false
        if byte == UInt8(ascii: "u"), bytes.distance(from: index, to: bytes.endIndex) >= 5,
          bytes[index..<bytes.index(index, offsetBy: 5)].elementsEqual(nul)
        {
          found.append(offset - 1)
        }
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      }
      index = bytes.index(after: index)
      offset += 1
    }
    guard !found.isEmpty else { return nil }
    let all = Array(bytes)
    var result = ByteBuffer()
    result.reserveCapacity(all.count - 6 * found.count)
    var from = 0
    for start in found {
      result.writeBytes(all[from..<start])
      from = start + 6
    }
    result.writeBytes(all[from...])
    return result
  }
}
