import Synchronization

/// A thread-safe dictionary of at most `capacity` entries: when full, an arbitrary entry makes room for a
/// new key. For caches of things that can always be made or read again.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private let entries = Mutex<[Key: Value]>([:])
  private let capacity: Int

  /// A cache of at most `capacity` entries.
  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// The value kept for `key`, or nil; setting stores it (evicting another when full), nil removes it.
  subscript(key: Key) -> Value? {
    get { entries.withLock { $0[key] } }
    set {
      entries.withLock { entries in
        if let newValue {
          if entries[key] == nil, entries.count >= capacity, let any = entries.indices.first { entries.remove(at: any) }
          entries[key] = newValue
        } else {
          entries.removeValue(forKey: key)
        }
      }
    }
  }

  /// How many entries are kept now.
  var count: Int { entries.withLock { $0.count } }
}
