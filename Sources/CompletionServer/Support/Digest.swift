import Vapor
import Foundation

/// Lower-case hex SHA-256, the one digest the server stores (session tokens, idempotency fingerprints).
enum Digest {
  /// Hex SHA-256 of `data`; hexed by table, not through `String(format:)` once per byte (it runs on every
  /// signed-in request).
  static func sha256Hex(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex = [UInt8]()
    hex.reserveCapacity(64)
    for byte in SHA256.hash(data: data) {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: hex, as: UTF8.self)
  }
}
