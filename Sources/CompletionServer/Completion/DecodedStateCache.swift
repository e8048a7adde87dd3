import Synchronization

/// The decoded form of a stored state (a cryptogram board, a family's game), kept beside the exact text it
/// was decoded from or encoded to.
///
/// Every move loads a game, decodes its stored JSON, changes it and encodes it again; the next move of the
/// same game reads back exactly the text the last one wrote. A hit needs the stored text to be equal to
/// the remembered text, byte for byte, so it can never hand out a state that is not the stored one —
/// whichever process or path wrote the row. Bounded: when full, an arbitrary entry makes room.
final class DecodedStateCache<Key: Hashable & Sendable, Value: Equatable & Sendable>: Sendable {
  private struct Entry {
    let text: String
    let value: Value
  }

  private let entries = Mutex<[Key: Entry]>([:])
  private let capacity: Int

  /// A cache of at most `capacity` states.
  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The state stored as `text` for `key`: remembered, or decoded (and then remembered).
  func value(for key: Key, text: String, decode: (String) throws -> Value) rethrows -> Value {
    if let entry = entries.withLock({ $0[key] }), entry.text == text { return entry.value }
    let value = try decode(text)
    remember(value, text: text, for: key)
    return value
  }

  /// Remembers that `text` is the encoding of `value` (call it with what a save writes; nothing is
  /// assumed to have been stored: a later load still compares the text it reads). Debug builds check
  /// that `decode` gives `value` back from `text`, so every test that saves proves the round trip.
  func remember(_ value: Value, text: String, for key: Key, decodedBy decode: (String) throws -> Value) {
    assert((try? decode(text)) == value, "\(Value.self) does not read back as it was written")
    remember(value, text: text, for: key)
  }

  private func remember(_ value: Value, text: String, for key: Key) {
    entries.withLock { entries in
      if entries[key] == nil, entries.count >= capacity, let any = entries.indices.first { entries.remove(at: any) }
      entries[key] = Entry(text: text, value: value)
    }
  }

  /// How many states are kept now.
  var count: Int { entries.withLock { $0.count } }
}
