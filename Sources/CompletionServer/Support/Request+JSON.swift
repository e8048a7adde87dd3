import NIOCore
import Vapor

extension Request {
  /// Decodes a JSON body, refusing other content types with 415 and bad JSON with 400 `invalid_json`.
  func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
    guard let contentType = headers.contentType, contentType.type == "application", contentType.subType == "json" else {
      throw AppError.unsupportedMediaType
    }
    guard let body = body.data else { throw AppError.invalidJSON("the body is empty.") }
    // A NUL character would cut stored text short (SQLite) or be refused by the database (PostgreSQL).
    if Self.hasEscapedNUL(body.readableBytesView) { throw AppError.invalidJSON("text may not contain the NUL character (\\u0000).") }
    return try JSONDecoder().decode(T.self, from: body)
  }

  /// Whether JSON text holds `\u0000` (an escaped backslash followed by "u0000" does not count).
  static func hasEscapedNUL(_ bytes: ByteBufferView) -> Bool {
    var escaped = false
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if escaped {
        escaped = false
        if byte == UInt8(ascii: "u"), bytes.distance(from: index, to: bytes.endIndex) >= 5,
          bytes[bytes.index(index, offsetBy: 1)..<bytes.index(index, offsetBy: 5)].allSatisfy({ $0 == UInt8(ascii: "0") })
        {
          return true
        }
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      }
      index = bytes.index(after: index)
    }
    return false
  }
}
