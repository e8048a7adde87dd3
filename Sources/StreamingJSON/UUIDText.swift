import Foundation

extension UUID {
  /// The same text as `uuidString` (upper-case hex in groups of 8-4-4-4-12), written out directly.
  ///
  /// On Linux `uuidString` formats through `sprintf` and `UUID(uuidString:)` parses through `sscanf`: about
  /// 0.3 and 0.4 µs each, and a task toggle writes and reads some twenty ids (its statements' values, its rows,
  /// its undo step's JSON, its answer). These take a few nanoseconds. Here beside the JSON encoder, which writes
  /// every `UUID` value this way; the server's SQL values and rows use them too.
  public var uuidText: String {
    String(unsafeUninitializedCapacity: 36) { text in
      withUnsafeBytes(of: uuid) { bytes in
        var at = 0
        for (index, byte) in bytes.enumerated() {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            text[at] = UInt8(ascii: "-")
            at += 1
          }
          text[at] = Self.hexDigit(byte >> 4)
          text[at + 1] = Self.hexDigit(byte & 0x0F)
          at += 2
        }
      }
      return 36
    }
  }

  /// The id `text` spells in the form `uuidString` writes (hex digits in either case); nil for any other text,
  /// as `UUID(uuidString:)` answers.
  public init?(uuidText text: String) {
    var text = text
    let parsed: uuid_t? = text.withUTF8 { utf8 in
      guard utf8.count == 36 else { return nil }
      var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      let complete = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
        var at = 0
        for index in 0..<16 {
          if index == 4 || index == 6 || index == 8 || index == 10 {
            guard utf8[at] == UInt8(ascii: "-") else { return false }
            at += 1
          }
          guard let high = Self.hexValue(utf8[at]), let low = Self.hexValue(utf8[at + 1]) else { return false }
          out[index] = high << 4 | low
          at += 2
        }
        return true
      }
      return complete ? bytes : nil
    }
    guard let parsed else { return nil }
    self.init(uuid: parsed)
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
  }

  private static func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
