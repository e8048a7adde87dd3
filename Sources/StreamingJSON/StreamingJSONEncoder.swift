import Foundation

/// Encodes `Encodable` values as JSON by writing bytes while `encode(to:)` runs, without building a tree.
///
/// Foundation's `JSONEncoder` first builds a tree of boxed values and then serializes it; for a
/// cryptogram board of ~80 cells that took about 270 µs per response, more than everything else a guess
/// does on the server. This encoder writes each value where it belongs as it arrives, which is what
/// synthesized `Codable` conformances allow: they encode each member completely before the next.
///
/// The output matches Vapor's default JSON encoder for the values the API sends: keys in the order they are
/// encoded, `nil` members left out (as `encodeIfPresent` does), dates as ISO 8601 strings, `Data` as
/// Base64, URLs as strings, and non-finite numbers refused. An `encode(to:)` that writes into a container
/// after starting the next member of its parent is refused with an `EncodingError` instead of producing
/// broken JSON.
public struct StreamingJSONEncoder: Sendable {
  /// How dates are written.
  public enum DateEncoding: Sendable {
    /// ISO 8601 strings to the second, as Vapor's encoder writes them (the API's dates).
    case iso8601
    /// Seconds since 2001-01-01 as a number, as Foundation's `JSONEncoder` writes them by default, so that
    /// its default `JSONDecoder` reads them back exactly (stored state).
    case secondsSinceReferenceDate
  }

  /// How this encoder writes dates.
  public let dates: DateEncoding

  /// An encoder writing dates as `dates` says.
  public init(dates: DateEncoding = .iso8601) {
    self.dates = dates
  }

  /// The JSON bytes of `value`.
  public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
    let sink = JSONSink(dates: dates)
    try sink.writeValue(value, parent: nil, key: nil)
    return sink.bytes
  }
}

/// The growing output and the one encoder that may currently write into it.
final class JSONSink {
  // Only the encoder writing now touches it (one thread, strictly nested calls), so the runtime's
  // exclusivity check on every append is pure cost here.
  @exclusivity(unchecked) var bytes: [UInt8] = []
  let dates: StreamingJSONEncoder.DateEncoding

  init(dates: StreamingJSONEncoder.DateEncoding) {
    self.dates = dates
    bytes.reserveCapacity(4096)
  }

  @inline(__always) func append(_ byte: UInt8) { bytes.append(byte) }

  func append(_ ascii: StaticString) {
    ascii.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  func writeString(_ string: String) {
    append(UInt8(ascii: "\""))
    var string = string
    string.withUTF8 { utf8 in
      var start = 0
      for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        switch byte {
        case UInt8(ascii: "\""): append("\\\"")
        case UInt8(ascii: "\\"): append("\\\\")
        case 0x0A: append("\\n")
        case 0x0D: append("\\r")
        case 0x09: append("\\t")
        case 0x08: append("\\b")
        case 0x0C: append("\\f")
        default:
          let hex = Array("0123456789abcdef".utf8)
          append("\\u00")
          bytes.append(hex[Int(byte >> 4)])
          bytes.append(hex[Int(byte & 0x0F)])
        }
        start = index + 1
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    append(UInt8(ascii: "\""))
  }

  func writeInteger<T: BinaryInteger>(_ value: T) {
    append(contentsOf: value.description)
  }

  /// An `Int`'s digits written straight into the output (`description` would make a string per number).
  func writeInteger(_ value: Int) {
    if value >= 0, value < 10 {
      bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
      return
    }
    if value < 0 { append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = digits.count
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  func writeDouble(_ value: Double, codingPath: () -> [any CodingKey]) throws {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: codingPath(), debugDescription: "\(value) is not a valid JSON number."))
    }
    // Whole numbers as integers, like Foundation ("3" rather than "3.0").
    if value.rounded() == value, abs(value) < 1e15 {
      append(contentsOf: Int64(value).description)
    } else {
      append(contentsOf: value.description)
    }
  }

  /// A `Float` in its own shortest form (through `Double` it would gain digits: 0.1 → 0.10000000149011612).
  func writeFloat(_ value: Float, codingPath: () -> [any CodingKey]) throws {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: codingPath(), debugDescription: "\(value) is not a valid JSON number."))
    }
    if value.rounded() == value, abs(value) < 1e7 {
      append(contentsOf: Int64(value).description)
    } else {
      append(contentsOf: value.description)
    }
  }

  private func append(contentsOf text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Writes any value: the types JSON knows directly, the ones Foundation's encoder treats specially,
  /// or whatever the value's own `encode(to:)` writes. `parent` and `key` say where it sits, for error
  /// messages; the coding path is only put together when something needs it.
  func writeValue<T: Encodable>(_ value: T, parent: StreamingEncoder?, key: (any CodingKey)?) throws {
    // Metatype comparisons, not `as?` casts: a cast per value cost more than writing the value.
    if T.self == String.self {
      writeString(unsafeBitCast(value, to: String.self))
    } else if T.self == Int.self {
      writeInteger(unsafeBitCast(value, to: Int.self))
    } else if T.self == Bool.self {
      append(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
    } else if T.self == Double.self {
      try writeDouble(unsafeBitCast(value, to: Double.self), codingPath: { StreamingEncoder.path(parent, key) })
    } else if T.self == [Int].self {
      // Index lists (a board's words) are common enough to skip the container per number.
      append(UInt8(ascii: "["))
      for (position, number) in unsafeBitCast(value, to: [Int].self).enumerated() {
        if position > 0 { append(UInt8(ascii: ",")) }
        writeInteger(number)
      }
      append(UInt8(ascii: "]"))
    } else if T.self == Date.self {
      let date = unsafeBitCast(value, to: Date.self)
      switch dates {
      case .iso8601: writeString(date.formatted(.iso8601))
      case .secondsSinceReferenceDate:
        try writeDouble(date.timeIntervalSinceReferenceDate, codingPath: { StreamingEncoder.path(parent, key) })
      }
    } else if T.self == UUID.self {
      writeString(unsafeBitCast(value, to: UUID.self).uuidText)
    } else if T.self == URL.self {
      writeString((value as! URL).absoluteString)
    } else if T.self == Data.self {
      writeString((value as! Data).base64EncodedString())
    } else if T.self == Decimal.self {
      append(contentsOf: (value as! Decimal).description)
    } else if let direct = value as? any DirectJSONEncodable {
      var object = JSONObjectWriter(sink: self)
      direct.writeJSON(to: &object)
      object.close()
    } else {
      let encoder = StreamingEncoder(sink: self, parent: parent, key: key)
      try value.encode(to: encoder)
      if parent == nil, encoder.container == .none {
        // Foundation refuses a top-level value that wrote nothing (there is no JSON text for it).
        throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
      }
      try encoder.finish()
    }
  }
}

/// The `Encoder` a value's `encode(to:)` sees. It owns at most one container, opened on first request.
final class StreamingEncoder: Encoder {
  enum Container {
    case none, keyed, unkeyed, single
  }

  let sink: JSONSink
  /// The encoder of the enclosing value and this value's key in it (nil at the top).
  private let parent: StreamingEncoder?
  private let key: (any CodingKey)?
  var codingPath: [any CodingKey] { Self.path(parent, key) }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  // Touched only by the one value being encoded, in strictly nested calls: no exclusivity checks needed.
  @exclusivity(unchecked) private(set) var container = Container.none
  /// Members written so far (for commas), and whether the single value was written.
  @exclusivity(unchecked) private var count = 0
  /// A nested container or super-encoder handed out and not yet closed.
  @exclusivity(unchecked) private var openChild: StreamingEncoder?
  @exclusivity(unchecked) private(set) var isFinished = false

  init(sink: JSONSink, parent: StreamingEncoder?, key: (any CodingKey)?) {
    self.sink = sink
    self.parent = parent
    self.key = key
  }

  /// The coding path of a value at `key` under `parent`.
  static func path(_ parent: StreamingEncoder?, _ key: (any CodingKey)?) -> [any CodingKey] {
    var path = parent?.codingPath ?? []
    if let key { path.append(key) }
    return path
  }

  /// Closes this encoder's container (an encoder that wrote nothing becomes `{}`, as in Foundation).
  func finish() throws {
    guard !isFinished else { return }
    try closeChild()
    switch container {
    case .none: sink.append("{}")
    case .keyed: sink.append(UInt8(ascii: "}"))
    case .unkeyed: sink.append(UInt8(ascii: "]"))
    case .single:
      if count == 0 { sink.append("null") }
    }
    isFinished = true
  }

  private func closeChild() throws {
    if let child = openChild {
      openChild = nil
      try child.finish()
    }
  }

  private func open(_ kind: Container) {
    guard container == .none else {
      precondition(container == kind, "An encoder can hold one kind of container (asked for \(kind) after \(container)).")
      return
    }
    container = kind
    switch kind {
    case .keyed: sink.append(UInt8(ascii: "{"))
    case .unkeyed: sink.append(UInt8(ascii: "["))
    case .single, .none: break
    }
  }

  /// Gets ready to write the next member: refuses writes into a closed container, closes any open child,
  /// and writes the separating comma.
  func beginMember<Key: CodingKey>(_ key: Key) throws {
    try beginElement()
    sink.writeString(key.stringValue)
    sink.append(UInt8(ascii: ":"))
  }

  /// Gets ready to write the next array element (or, through ``beginMember(_:)``, object member).
  func beginElement() throws {
    guard !isFinished else {
      throw EncodingError.invalidValue(
        "", .init(codingPath: codingPath, debugDescription: "Written after its container was closed (out of order)."))
    }
    if openChild != nil { try closeChild() }
    if count > 0 { sink.append(UInt8(ascii: ",")) }
    count += 1
  }

  func beginSingle() throws {
    guard !isFinished, count == 0 else {
      throw EncodingError.invalidValue(
        "", .init(codingPath: codingPath, debugDescription: "A single value container was written twice or after it was closed."))
    }
    count = 1
  }

  /// Where a single value written through this encoder sits (the encoder's own place).
  var parentForSingleValue: StreamingEncoder? { parent }
  var keyForSingleValue: (any CodingKey)? { key }

  /// A child encoder for a nested container or super-encoder in the member slot just begun.
  func makeChild(at key: any CodingKey) -> StreamingEncoder {
    let child = StreamingEncoder(sink: sink, parent: self, key: key)
    openChild = child
    return child
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    open(.keyed)
    return KeyedEncodingContainer(StreamingKeyedContainer<Key>(encoder: self))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    open(.unkeyed)
    return StreamingUnkeyedContainer(encoder: self)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    open(.single)
    return StreamingSingleValueContainer(encoder: self)
  }
}

/// An index used as a coding-path key inside arrays.
struct StreamingIndexKey: CodingKey {
  let intValue: Int?
  var stringValue: String { "Index \(intValue ?? 0)" }
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

struct StreamingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let encoder: StreamingEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil(forKey key: Key) throws {
    try encoder.beginMember(key)
    encoder.sink.append("null")
  }

  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try encoder.beginMember(key)
    encoder.sink.append(value ? "true" : "false")
  }

  mutating func encode(_ value: String, forKey key: Key) throws {
    try encoder.beginMember(key)
    encoder.sink.writeString(value)
  }

  mutating func encode(_ value: Int, forKey key: Key) throws {
    try encoder.beginMember(key)
    encoder.sink.writeInteger(value)
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    try encoder.beginMember(key)
    try encoder.sink.writeDouble(value, codingPath: { [encoder] in StreamingEncoder.path(encoder, key) })
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encoder.beginMember(key)
    try encoder.sink.writeValue(value, parent: encoder, key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
    try? encoder.beginMember(key)
    return encoder.makeChild(at: key).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    try? encoder.beginMember(key)
    return encoder.makeChild(at: key).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let key = StreamingSuperKey()
    try? encoder.beginMember(key)
    return encoder.makeChild(at: key)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    try? encoder.beginMember(key)
    return encoder.makeChild(at: key)
  }
}

/// The key Foundation uses for `superEncoder()`.
struct StreamingSuperKey: CodingKey {
  var stringValue: String { "super" }
  var intValue: Int? { nil }
  init() {}
  init?(stringValue: String) { nil }
  init?(intValue: Int) { nil }
}

struct StreamingUnkeyedContainer: UnkeyedEncodingContainer {
  let encoder: StreamingEncoder
  private(set) var count = 0
  var codingPath: [any CodingKey] { encoder.codingPath }

  init(encoder: StreamingEncoder) {
    self.encoder = encoder
  }

  fileprivate mutating func next() throws -> StreamingIndexKey {
    try encoder.beginElement()
    defer { count += 1 }
    return StreamingIndexKey(count)
  }

  mutating func encodeNil() throws {
    _ = try next()
    encoder.sink.append("null")
  }

  mutating func encode(_ value: Bool) throws {
    _ = try next()
    encoder.sink.append(value ? "true" : "false")
  }

  mutating func encode(_ value: String) throws {
    _ = try next()
    encoder.sink.writeString(value)
  }

  mutating func encode(_ value: Int) throws {
    _ = try next()
    encoder.sink.writeInteger(value)
  }

  mutating func encode(_ value: Double) throws {
    let key = try next()
    try encoder.sink.writeDouble(value, codingPath: { [encoder] in StreamingEncoder.path(encoder, key) })
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let key = try next()
    try encoder.sink.writeValue(value, parent: encoder, key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let key = (try? next()) ?? StreamingIndexKey(count)
    return encoder.makeChild(at: key).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let key = (try? next()) ?? StreamingIndexKey(count)
    return encoder.makeChild(at: key).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let key = (try? next()) ?? StreamingIndexKey(count)
    return encoder.makeChild(at: key)
  }
}

struct StreamingSingleValueContainer: SingleValueEncodingContainer {
  let encoder: StreamingEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  mutating func encodeNil() throws {
    try encoder.beginSingle()
    encoder.sink.append("null")
  }

  mutating func encode(_ value: Bool) throws {
    try encoder.beginSingle()
    encoder.sink.append(value ? "true" : "false")
  }

  mutating func encode(_ value: String) throws {
    try encoder.beginSingle()
    encoder.sink.writeString(value)
  }

  mutating func encode(_ value: Int) throws {
    try encoder.beginSingle()
    encoder.sink.writeInteger(value)
  }

  mutating func encode(_ value: Double) throws {
    try encoder.beginSingle()
    try encoder.sink.writeDouble(value, codingPath: { [encoder] in encoder.codingPath })
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try encoder.beginSingle()
    // The single value stands in for this encoder's own value: same place, same path.
    try encoder.sink.writeValue(value, parent: encoder.parentForSingleValue, key: encoder.keyForSingleValue)
  }
}

// The primitive widths Codable asks every container to support; JSON writes them all as numbers.
extension StreamingKeyedContainer {
  mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, forKey: key) }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    try encoder.beginMember(key)
    try encoder.sink.writeFloat(value, codingPath: { [encoder] in StreamingEncoder.path(encoder, key) })
  }

  private mutating func encodeInteger<T: BinaryInteger>(_ value: T, forKey key: Key) throws {
    try encoder.beginMember(key)
    encoder.sink.writeInteger(value)
  }
}

/// Unkeyed and single-value containers write the other integer widths and `Float` the same way.
protocol StreamingNumberWriting {
  mutating func encodeInteger<T: BinaryInteger>(_ value: T) throws
  mutating func encode(_ value: Float) throws
}

extension StreamingNumberWriting {
  mutating func encode(_ value: Int8) throws { try encodeInteger(value) }
  mutating func encode(_ value: Int16) throws { try encodeInteger(value) }
  mutating func encode(_ value: Int32) throws { try encodeInteger(value) }
  mutating func encode(_ value: Int64) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt8) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt16) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt32) throws { try encodeInteger(value) }
  mutating func encode(_ value: UInt64) throws { try encodeInteger(value) }
}

extension StreamingUnkeyedContainer: StreamingNumberWriting {
  mutating func encodeInteger<T: BinaryInteger>(_ value: T) throws {
    _ = try next()
    encoder.sink.writeInteger(value)
  }

  mutating func encode(_ value: Float) throws {
    let key = try next()
    try encoder.sink.writeFloat(value, codingPath: { [encoder] in StreamingEncoder.path(encoder, key) })
  }
}

extension StreamingSingleValueContainer: StreamingNumberWriting {
  mutating func encodeInteger<T: BinaryInteger>(_ value: T) throws {
    try encoder.beginSingle()
    encoder.sink.writeInteger(value)
  }

  mutating func encode(_ value: Float) throws {
    try encoder.beginSingle()
    try encoder.sink.writeFloat(value, codingPath: { [encoder] in encoder.codingPath })
  }
}

/// A value that writes itself as a JSON object directly, without Codable's containers.
///
/// For small values sent by the hundred (a board's cells), the containers' generic and boxed calls cost more
/// than the bytes. The object written must be exactly what the value's `encode(to:)` writes: the same keys
/// in the same order, `nil` members left out.
public protocol DirectJSONEncodable: Encodable {
  /// Writes the members, in the order `encode(to:)` writes them.
  func writeJSON(to object: inout JSONObjectWriter)
}

/// Writes the members of one JSON object (see ``DirectJSONEncodable``).
public struct JSONObjectWriter {
  private let sink: JSONSink
  private var count = 0

  init(sink: JSONSink) {
    self.sink = sink
    sink.append(UInt8(ascii: "{"))
  }

  /// The key, which must need no escaping (plain ASCII letters and digits).
  private mutating func key(_ key: StaticString) {
    if count > 0 { sink.append(UInt8(ascii: ",")) }
    count += 1
    sink.append(UInt8(ascii: "\""))
    sink.append(key)
    sink.append("\":")
  }

  /// An integer member.
  public mutating func write(_ key: StaticString, _ value: Int) {
    self.key(key)
    sink.writeInteger(value)
  }

  /// A Boolean member.
  public mutating func write(_ key: StaticString, _ value: Bool) {
    self.key(key)
    sink.append(value ? "true" : "false")
  }

  /// A string member, left out when nil (as `encodeIfPresent` does).
  public mutating func write(_ key: StaticString, _ value: String?) {
    guard let value else { return }
    self.key(key)
    sink.writeString(value)
  }

  fileprivate func close() {
    sink.append(UInt8(ascii: "}"))
  }
}
