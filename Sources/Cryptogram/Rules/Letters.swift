import Foundation

/// Letters as the puzzle compares them: A–Z, without case or accents ("é" is "E").
public enum Letters {
  /// The 26 letters, A…Z.
  public static let alphabet: [Character] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { Character(UnicodeScalar($0)) }

  /// 0…25 for a letter (any case, accents removed), or nil for anything else (spaces, digits, punctuation, ß).
  public static func index(of character: Character) -> Int? {
    if let ascii = character.asciiValue {
      switch ascii {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): return Int(ascii - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(ascii - UInt8(ascii: "a"))
      default: return nil
      }
    }
    let folded = String(character).folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
    guard folded.count == 1, let first = folded.first, first.isASCII else { return nil }
    return index(of: first)
  }

  /// The capital letter for an index 0…25.
  public static func letter(_ index: Int) -> Character { alphabet[index] }
}
