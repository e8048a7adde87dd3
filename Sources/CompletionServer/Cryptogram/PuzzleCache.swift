import Cryptogram
import Foundation

/// Puzzles by quote and seed. A puzzle never changes for a game (its quote and seed are fixed), yet every
/// move would otherwise ask the quote store's actor for the quote and build the cipher, the cells and the
/// prefill again. Bounded: when full, an arbitrary entry makes room.
final class PuzzleCache: Sendable {
  private struct Key: Hashable {
    let quoteID: String
    let seed: Int64
  }

  private let entries: BoundedCache<Key, Puzzle>

  /// A cache of at most `capacity` puzzles.
  init(capacity: Int) {
    entries = BoundedCache(capacity: capacity)
  }

  /// The puzzle of `quoteID` and `seed`: remembered, or made by `make` (and then remembered).
  func puzzle(quoteID: String, seed: Int64, make: () async throws -> Puzzle) async rethrows -> Puzzle {
    let key = Key(quoteID: quoteID, seed: seed)
    if let puzzle = entries[key] { return puzzle }
    let puzzle = try await make()
    entries[key] = puzzle
    return puzzle
  }
}
