/// A coding key for any field name: lets a request type see every field a JSON object names.
struct AnyFieldKey: CodingKey {
  let stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

extension Decoder {
  /// Refuses a JSON object that names a field `Key` does not list. Used where a misspelt field would silently
  /// change what a request does (an undo without its `step` takes back the last change, not the named one).
  func refuseUnknownFields<Key: CodingKey & CaseIterable>(besides _: Key.Type) throws {
    let known = Set(Key.allCases.map(\.stringValue))
    let container = try container(keyedBy: AnyFieldKey.self)
    if let unknown = container.allKeys.first(where: { !known.contains($0.stringValue) }) {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath + [unknown], debugDescription: StrictFields.unknownField))
    }
  }
}

/// The wording a refused unknown field carries, so the server can name it as such.
public enum StrictFields {
  /// The `debugDescription` of the `DecodingError` an unknown field raises.
  public static let unknownField = "unknown field"
}
