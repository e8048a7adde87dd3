import Foundation

/// A quote to encipher: the words, who said them, and where known when and where.
public struct Quote: Hashable, Sendable, Codable, Identifiable {
  public let text: String
  public let author: String
  public let year: Int?
  public let source: String?

  public init(text: String, author: String, year: Int? = nil, source: String? = nil) {
    self.text = text
    self.author = author
    self.year = year
    self.source = source
  }

  /// A stable id from the letters of the text and the author, so the same quote imported twice is one quote.
  public var id: String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    let key = Self.letterKey(text) + "|" + Self.letterKey(author)
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "q" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// Only the letters, capitalised and without accents: two texts that differ only in punctuation match.
  public static func letterKey(_ text: String) -> String {
    String(text.compactMap { Letters.index(of: $0).map(Letters.letter) })
  }

  /// Which length band the quote belongs to.
  public var length: QuoteLength { QuoteLength(characterCount: text.count) }

  /// "— Author, 1859" (the year only when known).
  public var attribution: String {
    "— " + author + (year.map { ", \($0)" } ?? "")
  }
}

/// The length choice on the home screen: short (up to 49 characters), medium (50–99), long (100+).
public enum QuoteLength: String, CaseIterable, Hashable, Sendable, Codable {
  case short, medium, long

  public init(characterCount: Int) {
    switch characterCount {
    case ..<50: self = .short
    case 50..<100: self = .medium
    default: self = .long
    }
  }
}
