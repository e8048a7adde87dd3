/// A small, fast, seedable generator (SplitMix64) so puzzles, shuffles and wiggles replay exactly.
///
/// Same seed, same sequence, on every platform — which the system generator cannot promise.
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable, Codable {
  private var state: UInt64

  /// Creates a generator whose whole sequence is determined by `seed`.
  public init(seed: UInt64) {
    self.state = seed
  }

  /// Creates a generator from text (a date, a session id), hashing it with FNV-1a so the result is stable.
  public init(seed text: String) {
    self.init(seed: Self.fnv1a(text))
  }

  /// FNV-1a of `text`'s UTF-8: a stable hash (Swift's own `Hasher` differs from run to run).
  public static func fnv1a(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
