import Synchronization
import Testing

@testable import CompletionServer

@Suite("Decoded state cache")
struct DecodedStateCacheTests {
  /// Counts decodes; the "decoding" is parsing an integer.
  final class Decoder: Sendable {
    let calls = Mutex(0)
    func decode(_ text: String) throws -> Int {
      calls.withLock { $0 += 1 }
      guard let value = Int(text) else { throw Unreadable() }
      return value
    }
    var count: Int { calls.withLock { $0 } }
  }

  struct Unreadable: Error {}

  @Test("a state is decoded again whenever the stored text differs from the remembered text")
  func hitsOnlyOnEqualText() throws {
    let cache = DecodedStateCache<String, Int>(capacity: 8)
    let decoder = Decoder()
    #expect(try cache.value(for: "a", text: "1", decode: decoder.decode) == 1)
    #expect(try cache.value(for: "a", text: "1", decode: decoder.decode) == 1)
    #expect(decoder.count == 1)
    // Another writer stored something else under the same key.
    #expect(try cache.value(for: "a", text: "2", decode: decoder.decode) == 2)
    #expect(decoder.count == 2)
    // A save remembers what it wrote; reading exactly that back decodes nothing.
    cache.remember(3, text: "3", for: "a", decodedBy: decoder.decode)
    let before = decoder.count
    #expect(try cache.value(for: "a", text: "3", decode: decoder.decode) == 3)
    #expect(decoder.count == before)
    // Unreadable text is an error, and nothing is remembered for it.
    #expect(throws: Unreadable.self) { try cache.value(for: "b", text: "x", decode: decoder.decode) }
    #expect(cache.count == 1)
  }

  @Test("the cache never holds more than its capacity")
  func bounded() throws {
    let cache = DecodedStateCache<Int, Int>(capacity: 3)
    let decoder = Decoder()
    for key in 0..<10 { _ = try cache.value(for: key, text: String(key), decode: decoder.decode) }
    #expect(cache.count == 3)
    // The newest is among those kept.
    let before = decoder.count
    #expect(try cache.value(for: 9, text: "9", decode: decoder.decode) == 9)
    #expect(decoder.count == before)
  }
}
