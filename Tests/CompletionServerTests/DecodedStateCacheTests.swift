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

  @Test("a loaded row is remembered with its state; a load decodes again only when the stored text differs")
  func loadsAndRemembers() throws {
    let cache = DecodedStateCache<String, Int, Int>(capacity: 8)
    let decoder = Decoder()
    #expect(cache.remembered("a") == nil)
    #expect(try cache.loaded(10, text: "1", for: "a", decode: decoder.decode) == 1)
    #expect(cache.remembered("a")?.record == 10 && cache.remembered("a")?.value == 1)
    // The same text read again (at another version, say) decodes nothing and remembers the newer row.
    #expect(try cache.loaded(11, text: "1", for: "a", decode: decoder.decode) == 1)
    #expect(decoder.count == 1 && cache.remembered("a")?.record == 11)
    // Another writer stored something else under the same key.
    #expect(try cache.loaded(12, text: "2", for: "a", decode: decoder.decode) == 2)
    #expect(decoder.count == 2)
    // A committed save is remembered; loading exactly that back decodes nothing.
    cache.committed(13, text: "3", value: 3, for: "a", decodedBy: decoder.decode)
    let before = decoder.count
    #expect(cache.remembered("a")?.record == 13 && cache.remembered("a")?.value == 3)
    #expect(try cache.loaded(13, text: "3", for: "a", decode: decoder.decode) == 3)
    #expect(decoder.count == before)
    // Unreadable text is an error, and nothing is remembered for it.
    #expect(throws: Unreadable.self) { try cache.loaded(1, text: "x", for: "b", decode: decoder.decode) }
    #expect(cache.count == 1)
  }

  @Test("the cache never holds more than its capacity")
  func bounded() throws {
    let cache = DecodedStateCache<Int, Int, Int>(capacity: 3)
    let decoder = Decoder()
    for key in 0..<10 { _ = try cache.loaded(key, text: String(key), for: key, decode: decoder.decode) }
    #expect(cache.count == 3)
    // The newest is among those kept.
    #expect(cache.remembered(9)?.value == 9)
  }
}
