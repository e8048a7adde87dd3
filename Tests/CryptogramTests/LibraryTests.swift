import Foundation
import Testing

@testable import Cryptogram

@Suite("Bundled quote library")
struct LibraryTests {
  let quotes = QuoteLibrary.bundled.quotes

  @Test("At least 300 quotes, in every length band")
  func size() {
    #expect(quotes.count >= 300)
    for band in QuoteLength.allCases {
      #expect(quotes.filter { $0.length == band }.count >= 50, "\(band)")
    }
  }

  @Test("No duplicates (same letters, ignoring case and punctuation)")
  func duplicates() {
    var seen: [String: Quote] = [:]
    for quote in quotes {
      let key = Quote.letterKey(quote.text)
      #expect(seen[key] == nil, "duplicate: \(quote.text)")
      seen[key] = quote
    }
  }

  @Test("Every quote is trimmed, attributed and encipherable")
  func wellFormed() {
    for quote in quotes {
      #expect(QuoteRules.problems(with: quote).isEmpty, "\(quote.text): \(QuoteRules.problems(with: quote))")
      #expect(!quote.text.contains("  "))
      if let source = quote.source { #expect(!source.isEmpty) }
      let puzzle = Puzzle(quote: quote, seed: 1)
      #expect(!puzzle.letterCells.isEmpty)
      #expect(puzzle.letterCells.allSatisfy { puzzle.cells[$0].cipher != puzzle.cells[$0].plain })
    }
  }
}
