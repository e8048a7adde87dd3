import CompletionCore
import Foundation

/// A quote enciphered for play. Everything is derived from the quote and a seed, so the server stores only
/// those two and rebuilds the same puzzle on every request.
public struct Puzzle: Hashable, Sendable {
  /// One character of the quote.
  public struct Cell: Hashable, Sendable {
    /// Position in the quote.
    public let index: Int
    /// The character as written in the quote.
    public let character: Character
    /// Plain letter index 0…25, or nil for spaces, punctuation and digits (which are shown as they are).
    public let plain: Int?
    /// Cipher letter index shown to the player, or nil for pass-through characters.
    public let cipher: Int?

    /// Whether the player has to find this cell.
    public var isLetter: Bool { plain != nil }
  }

  /// Share of the distinct letters revealed at the start (rounded up, at least one).
  public static let prefillShare = 0.2

  public let quote: Quote
  public let seed: UInt64
  public let cipher: Cipher
  public let cells: [Cell]
  /// Cells shown from the start: every cell of about 20 % of the distinct letters (a given letter shows
  /// everywhere it is enciphered the same way, as a right guess does).
  public let prefilled: Set<Int>

  /// Builds the puzzle for `quote` from `seed` (same inputs, same puzzle).
  public init(quote: Quote, seed: UInt64) {
    var generator = SeededRandom(seed: seed)
    let cipher = Cipher(using: &generator)
    let cells = quote.text.enumerated().map { offset, character in
      let plain = Letters.index(of: character)
      return Cell(index: offset, character: character, plain: plain, cipher: plain.map(cipher.encipher))
    }
    // Prefill: pick letters from the sorted distinct set (stable order), then every cell of each.
    let distinct = Array(Set(cells.compactMap(\.plain))).sorted()
    let count = Self.prefillCount(distinctLetters: distinct.count)
    var chosen = distinct
    chosen.shuffle(using: &generator)
    var prefilled = Set<Int>()
    for letter in chosen.prefix(count) {
      prefilled.formUnion(cells.filter { $0.plain == letter }.map(\.index))
    }
    self.quote = quote
    self.seed = seed
    self.cipher = cipher
    self.cells = cells
    self.prefilled = prefilled
    words = Self.words(of: cells)
  }

  /// How many letters are prefilled for a quote with `distinctLetters` letters: 20 % rounded up, at least 1.
  public static func prefillCount(distinctLetters: Int) -> Int {
    guard distinctLetters > 0 else { return 0 }
    return max(1, Int((Double(distinctLetters) * prefillShare).rounded(.up)))
  }

  /// Indices of the cells the player must find.
  public var letterCells: [Int] { cells.filter(\.isLetter).map(\.index) }

  /// Cell indices grouped by word (runs of non-space characters), so clients wrap the grid between words.
  /// Made once with the puzzle: every move's view sends it.
  public let words: [[Int]]

  private static func words(of cells: [Cell]) -> [[Int]] {
    var words: [[Int]] = []
    var current: [Int] = []
    for cell in cells {
      if cell.character.isWhitespace {
        if !current.isEmpty { words.append(current) }
        current = []
      } else {
        current.append(cell.index)
      }
    }
    if !current.isEmpty { words.append(current) }
    return words
  }
}
