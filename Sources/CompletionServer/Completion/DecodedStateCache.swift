/// The last stored row of a game (a cryptogram board, a family's game) that this process knows of, with its
/// state decoded, so that a move neither reads the row again nor decodes its JSON.
///
/// An entry is only ever a row that was in the database: one just loaded, or one whose save has
/// committed. That makes it safe to act on without reading: every save is made on the version it was read
/// at, so when anyone (another process, another path) saved since, the save matches nothing and the
/// runner loads the row afresh. What a save cannot check — a refusal, or an answer that saves nothing —
/// is decided again on a fresh load (``GameRunner/Step/recheck``). A load still reuses the decoded state
/// when the stored text is, byte for byte, the remembered text. Bounded: when full, an arbitrary entry
/// makes room.
final class DecodedStateCache<Key: Hashable & Sendable, Record: Sendable, Value: Equatable & Sendable>: Sendable {
  private struct Entry: Sendable {
    let record: Record
    let text: String
    let value: Value
  }

  private let entries: BoundedCache<Key, Entry>

  /// A cache of at most `capacity` rows.
  init(capacity: Int) {
    entries = BoundedCache(capacity: capacity)
  }

  /// The row last loaded or committed for `key`, and its state.
  func remembered(_ key: Key) -> (record: Record, value: Value)? {
    entries[key].map { ($0.record, $0.value) }
  }

  /// The state of `record`, just loaded, whose stored form is `text`: reused when the remembered text is
  /// the same, else decoded. The row is remembered either way.
  func loaded(_ record: Record, text: String, for key: Key, decode: (String) throws -> Value) rethrows -> Value {
    if let entry = entries[key], entry.text == text {
      entries[key] = Entry(record: record, text: text, value: entry.value)
      return entry.value
    }
    let value = try decode(text)
    entries[key] = Entry(record: record, text: text, value: value)
    return value
  }

  /// Remembers `record`, whose save has committed, with `value` stored as `text`. Debug builds check that
  /// `decode` gives `value` back from `text`, so every test that saves proves the round trip.
  func committed(_ record: Record, text: String, value: Value, for key: Key, decodedBy decode: (String) throws -> Value) {
    assert((try? decode(text)) == value, "\(Value.self) does not read back as it was written")
    entries[key] = Entry(record: record, text: text, value: value)
  }

  /// How many rows are remembered now.
  var count: Int { entries.count }
}
