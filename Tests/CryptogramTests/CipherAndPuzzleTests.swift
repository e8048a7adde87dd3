import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Cryptogram

@Suite("Cipher and puzzle")
struct CipherAndPuzzleTests {
  let quote = Quote(text: "Well done is better than well said.", author: "Benjamin Franklin", year: 1737, source: "Poor Richard's Almanack")

  @Test("Property: every cipher is a bijection on A–Z with no letter mapped to itself")
  func derangement() async {
    await propertyCheck(count: 500, input: Gen.uint64()) { seed in
      var generator = SeededRandom(seed: seed)
      let cipher = Cipher(using: &generator)
      #expect(Set(cipher.encoding) == Set(0..<26))
      #expect((0..<26).allSatisfy { cipher.encipher($0) != $0 })
      #expect((0..<26).allSatisfy { cipher.decipher(cipher.encipher($0)) == $0 })
    }
  }

  @Test("Letters compare without case or accents; other characters pass through")
  func letters() {
    #expect(Letters.index(of: "a") == 0 && Letters.index(of: "Z") == 25)
    #expect(Letters.index(of: "é") == 4 && Letters.index(of: "Ü") == 20)
    #expect(Letters.index(of: "3") == nil && Letters.index(of: " ") == nil && Letters.index(of: ",") == nil)
    let cipher = Cipher(encoding: Array(1..<26) + [0])!
    #expect(cipher.encipher("Ab, 3 z!") == "BC, 3 A!")
    #expect(Cipher(encoding: Array(0..<26)) == nil)
  }

  @Test("The same quote and seed always make the same puzzle")
  func deterministic() {
    #expect(Puzzle(quote: quote, seed: 7) == Puzzle(quote: quote, seed: 7))
    #expect(Puzzle(quote: quote, seed: 7).cipher != Puzzle(quote: quote, seed: 8).cipher)
  }

  @Test("About 20 % of the distinct letters are prefilled (rounded up, at least 1), each in every cell it is in")
  func prefill() async {
    #expect(Puzzle.prefillCount(distinctLetters: 1) == 1)
    #expect(Puzzle.prefillCount(distinctLetters: 5) == 1)
    #expect(Puzzle.prefillCount(distinctLetters: 6) == 2)
    #expect(Puzzle.prefillCount(distinctLetters: 20) == 4)
    await propertyCheck(count: 200, input: Gen.uint64()) { seed in
      let puzzle = Puzzle(quote: quote, seed: seed)
      let distinct = Set(puzzle.cells.compactMap(\.plain))
      let prefilledLetters = Set(puzzle.prefilled.compactMap { puzzle.cells[$0].plain })
      #expect(prefilledLetters.count == Puzzle.prefillCount(distinctLetters: distinct.count))
      // A given letter shows wherever it is enciphered the same way, as a right guess does.
      #expect(puzzle.prefilled == Set(puzzle.cells.filter { $0.plain.map(prefilledLetters.contains) == true }.map(\.index)))
      #expect(puzzle.prefilled.allSatisfy { puzzle.cells[$0].isLetter })
    }
  }

  @Test("Spaces, punctuation and digits pass through; words group cells for wrapping")
  func passThrough() {
    let puzzle = Puzzle(quote: Quote(text: "It's 2 o'clock.", author: "Test"), seed: 1)
    #expect(puzzle.cells.filter { !$0.isLetter }.map(\.character) == ["'", " ", "2", " ", "'", "."])
    #expect(puzzle.words.count == 3)
    #expect(puzzle.words[1] == [5])
  }
}
