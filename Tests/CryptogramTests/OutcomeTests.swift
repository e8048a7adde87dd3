import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Cryptogram

@Suite("Puzzle outcome: a solve after Continue is finished, not won")
struct OutcomeTests {
  let quote = Quote(text: "The only thing we have to fear is fear itself.", author: "Franklin D. Roosevelt", year: 1933)
  let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  /// Solves `board` by typing the key into every hidden cell.
  func solve(_ board: inout Board, _ puzzle: Puzzle) {
    for cell in puzzle.letterCells where !board.revealed.contains(cell) {
      _ = board.handle(.guess(cell: cell, letter: Letters.letter(puzzle.cells[cell].plain!), at: t0.addingTimeInterval(30)), in: puzzle)
    }
  }

  @Test("A solve within the limit is solved; after Continue it is finished; before the end there is no outcome")
  func outcomes() {
    let puzzle = Puzzle(quote: quote, seed: 7)
    var clean = Board(puzzle: puzzle)
    #expect(clean.outcome == nil)
    solve(&clean, puzzle)
    #expect(clean.status == .solved && clean.outcome == .solved && clean.outcome?.isWin == true)

    var continued = Board(puzzle: puzzle)
    let cell = puzzle.letterCells.first { !continued.revealed.contains($0) }!
    let wrong = Letters.letter((puzzle.cells[cell].plain! + 1) % 26)
    for second in 0..<3 { _ = continued.handle(.guess(cell: cell, letter: wrong, at: t0.addingTimeInterval(Double(second))), in: puzzle) }
    #expect(continued.status == .failed && continued.outcome == nil)
    #expect(continued.handle(.continuePlaying(at: t0.addingTimeInterval(10)), in: puzzle) == [.continued])
    solve(&continued, puzzle)
    #expect(continued.status == .solved && continued.outcome == .finished && continued.outcome?.isWin == false)
    #expect(PuzzleOutcome.finished.word == "Finished" && PuzzleOutcome.solved.word == "Solved")
  }

  @Test("Property: the outcome read from the mistakes agrees with the board's (only a continued board is solved with the limit's mistakes)")
  func outcomeFromMistakesAgrees() async {
    await propertyCheck(count: 200, input: Gen.uint64(), Gen.int(in: 0...6)) { seed, wrongs in
      let puzzle = Puzzle(quote: quote, seed: seed)
      var board = Board(puzzle: puzzle)
      let cell = puzzle.letterCells.first { !board.revealed.contains($0) }!
      let wrong = Letters.letter((puzzle.cells[cell].plain! + 1) % 26)
      for index in 0..<wrongs {
        if board.status == .failed { _ = board.handle(.continuePlaying(at: t0.addingTimeInterval(Double(index))), in: puzzle) }
        _ = board.handle(.guess(cell: cell, letter: wrong, at: t0.addingTimeInterval(Double(index))), in: puzzle)
      }
      if board.status == .failed { _ = board.handle(.continuePlaying(at: t0.addingTimeInterval(20)), in: puzzle) }
      solve(&board, puzzle)
      #expect(board.status == .solved)
      #expect(board.outcome == PuzzleOutcome.ofSolve(mistakes: board.mistakes))
      #expect(board.outcome == (wrongs >= Board.mistakeLimit ? .finished : .solved))
    }
  }
}
