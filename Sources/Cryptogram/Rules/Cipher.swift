import CompletionCore

/// A substitution cipher on A–Z: a bijection where no letter maps to itself (a derangement).
public struct Cipher: Hashable, Sendable {
  /// `encoding[plain] == cipher` (letter indices 0…25).
  public let encoding: [Int]
  /// `decoding[cipher] == plain`.
  public let decoding: [Int]

  /// Draws a uniformly random derangement from `generator` (shuffle, and draw again while any letter is fixed;
  /// about 2.7 draws on average).
  public init<G: RandomNumberGenerator>(using generator: inout G) {
    var permutation = Array(0..<26)
    repeat {
      permutation.shuffle(using: &generator)
    } while permutation.enumerated().contains { $0.offset == $0.element }
    self.init(unchecked: permutation)
  }

  /// A cipher from an explicit mapping; nil unless it is a derangement of 0…25.
  public init?(encoding: [Int]) {
    guard encoding.count == 26, Set(encoding) == Set(0..<26), !encoding.enumerated().contains(where: { $0.offset == $0.element })
    else { return nil }
    self.init(unchecked: encoding)
  }

  private init(unchecked encoding: [Int]) {
    self.encoding = encoding
    var decoding = [Int](repeating: 0, count: 26)
    for (plain, cipher) in encoding.enumerated() { decoding[cipher] = plain }
    self.decoding = decoding
  }

  /// The cipher letter for a plain letter index.
  public func encipher(_ plain: Int) -> Int { encoding[plain] }
  /// The plain letter index for a cipher letter index.
  public func decipher(_ cipher: Int) -> Int { decoding[cipher] }

  /// Enciphers text: letters are substituted (as capitals); everything else passes through.
  public func encipher(_ text: String) -> String {
    String(text.map { character in Letters.index(of: character).map { Letters.letter(encipher($0)) } ?? character })
  }
}
