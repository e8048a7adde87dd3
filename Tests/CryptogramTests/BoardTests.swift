import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Cryptogram

@Suite("Board rules")
struct BoardTests {
  let quote = Quote(text: "The only thing we have to fear is fear itself.", author: "Franklin D. Roosevelt", year: 1933)
  let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  func firstHidden(_ board: Board, _ puzzle: Puzzle) -> Int {
    puzzle.letterCells.first { !board.revealed.contains($0) }!
  }

  func wrongLetter(for cell: Int, _ puzzle: Puzzle) -> Character {
    Letters.letter((puzzle.cells[cell].plain! + 1) % 26)
  }

  @Test("Property: entering the key always solves, with no mistakes and every cell shown")
  func keySolves() async {
    await propertyCheck(count: 200, input: Gen.uint64()) { seed in
      let puzzle = Puzzle(quote: quote, seed: seed)
      var board = Board(puzzle: puzzle)
      var solved: CompletionStats?
      for cell in puzzle.letterCells where !board.revealed.contains(cell) {
        let effects = board.handle(.guess(cell: cell, letter: Letters.letter(puzzle.cells[cell].plain!), at: t0.addingTimeInterval(5)), in: puzzle)
        for case .solved(let stats) in effects { solved = stats }
      }
      #expect(board.status == .solved)
      #expect(solved?.mistakes == 0)
      #expect(board.progress(in: puzzle).isComplete)
    }
  }

  @Test("A correct letter fills every cell with the same cipher letter and is kept")
  func correctFillsAll() {
    let puzzle = Puzzle(quote: quote, seed: 3)
    var board = Board(puzzle: puzzle)
    let cell = firstHidden(board, puzzle)
    let effects = board.handle(.guess(cell: cell, letter: Character(Letters.letter(puzzle.cells[cell].plain!).lowercased()), at: t0), in: puzzle)
    guard case .revealed(let cells, _) = effects.first else { Issue.record("expected a reveal"); return }
    let same = puzzle.cells.filter { $0.cipher == puzzle.cells[cell].cipher }.map(\.index)
    #expect(Set(cells).union(puzzle.prefilled.intersection(same)) == Set(same))
    #expect(board.handle(.guess(cell: cell, letter: "Q", at: t0), in: puzzle) == [.refused(.alreadyRevealed)])
    #expect(board.mistakes == 0)
  }

  @Test("Three mistakes fail the puzzle; continue lifts the limit; try again starts over")
  func mistakesAndFailure() {
    let puzzle = Puzzle(quote: quote, seed: 4)
    var board = Board(puzzle: puzzle)
    let cell = firstHidden(board, puzzle)
    let wrong = wrongLetter(for: cell, puzzle)
    #expect(board.handle(.guess(cell: cell, letter: wrong, at: t0), in: puzzle) == [.mistake(cell: cell, letter: wrong, mistakes: 1)])
    _ = board.handle(.guess(cell: cell, letter: wrong, at: t0), in: puzzle)
    let third = board.handle(.guess(cell: cell, letter: wrong, at: t0.addingTimeInterval(9)), in: puzzle)
    #expect(third.last == .failed(mistakes: 3))
    #expect(board.status == .failed)
    #expect(board.handle(.guess(cell: cell, letter: wrong, at: t0), in: puzzle) == [.refused(.notPlaying)])
    #expect(board.handle(.continuePlaying(at: t0.addingTimeInterval(20)), in: puzzle) == [.continued])
    _ = board.handle(.guess(cell: cell, letter: wrong, at: t0.addingTimeInterval(21)), in: puzzle)
    #expect(board.status == .playing && board.mistakes == 4)
    // Time spent on the failure screen is not counted.
    #expect(board.session.elapsed(at: t0.addingTimeInterval(21)) == 10)
    #expect(board.handle(.restart, in: puzzle) == [.restarted])
    #expect(board.mistakes == 0 && board.revealed == puzzle.prefilled && board.restarts == 1 && board.limitsMistakes)
  }

  @Test("A lost puzzle can be let go (abandoned); nothing else can; a letter or a hint makes an attempt played")
  func abandonAndPlayed() {
    let puzzle = Puzzle(quote: quote, seed: 3)
    var board = Board(puzzle: puzzle)
    #expect(!board.isPlayed)
    #expect(board.handle(.abandon, in: puzzle) == [.refused(.notFailed)])
    let cell = firstHidden(board, puzzle)
    let wrong = Letters.letter((puzzle.cells[cell].plain! + 1) % 26)
    _ = board.handle(.guess(cell: cell, letter: wrong, at: t0), in: puzzle)
    #expect(board.isPlayed)
    for second in 1...2 { _ = board.handle(.guess(cell: cell, letter: wrong, at: t0.addingTimeInterval(Double(second))), in: puzzle) }
    #expect(board.status == .failed)
    #expect(board.handle(.abandon, in: puzzle) == [.abandoned])
    #expect(board.status == .abandoned)
    #expect(board.handle(.continuePlaying(at: t0), in: puzzle) == [.refused(.notFailed)])
    #expect(board.handle(.guess(cell: cell, letter: wrong, at: t0), in: puzzle) == [.refused(.notPlaying)])
    var hinted = Board(puzzle: puzzle)
    _ = hinted.handle(.hint(cell: nil, at: t0), in: puzzle)
    #expect(hinted.isPlayed)
  }

  @Test("Hints reveal the chosen cell or the first empty one — and every cell of the same cipher letter — and are counted")
  func hints() {
    let puzzle = Puzzle(quote: quote, seed: 5)
    var board = Board(puzzle: puzzle)
    let first = firstHidden(board, puzzle)
    let sameAsFirst = puzzle.cells.filter { $0.cipher == puzzle.cells[first].cipher && $0.index != first }.map(\.index)
    #expect(board.handle(.hint(cell: nil, at: t0), in: puzzle) == [.hintUsed(cells: [first] + sameAsFirst, hints: 1)])
    let chosen = puzzle.letterCells.last { !board.revealed.contains($0) }!
    let sameAsChosen = puzzle.cells.filter { $0.cipher == puzzle.cells[chosen].cipher && $0.index != chosen }.map(\.index)
    #expect(board.handle(.hint(cell: chosen, at: t0), in: puzzle) == [.hintUsed(cells: [chosen] + sameAsChosen, hints: 2)])
    #expect(board.hinted == Set([first, chosen] + sameAsFirst + sameAsChosen))
    #expect(sameAsFirst.count + sameAsChosen.count > 0, "the quote repeats a letter, so the rule is exercised")
    #expect(board.handle(.hint(cell: chosen, at: t0), in: puzzle) == [.refused(.alreadyRevealed)])
    #expect(board.handle(.hint(cell: 4_000, at: t0), in: puzzle) == [.refused(.noSuchCell)])
    #expect(board.hints == 2)
  }

  @Test("The timer starts at the first input or hint and excludes paused time")
  func timer() {
    let puzzle = Puzzle(quote: quote, seed: 6)
    var board = Board(puzzle: puzzle)
    #expect(!board.session.hasStarted)
    _ = board.handle(.hint(cell: nil, at: t0), in: puzzle)
    #expect(board.handle(.pause(at: t0.addingTimeInterval(30)), in: puzzle) == [.paused])
    let cell = firstHidden(board, puzzle)
    #expect(board.handle(.guess(cell: cell, letter: "A", at: t0.addingTimeInterval(40)), in: puzzle) == [.refused(.paused)])
    _ = board.handle(.resume(at: t0.addingTimeInterval(100)), in: puzzle)
    var stats: CompletionStats?
    for cell in puzzle.letterCells where !board.revealed.contains(cell) {
      for case .solved(let s) in board.handle(.guess(cell: cell, letter: Letters.letter(puzzle.cells[cell].plain!), at: t0.addingTimeInterval(130)), in: puzzle) {
        stats = s
      }
    }
    #expect(stats == CompletionStats(seconds: 60, mistakes: 0, hints: 1))
    #expect(stats?.formattedTime == "1:00")
  }

  @Test("Bad input is refused without changing the board")
  func refusals() {
    let puzzle = Puzzle(quote: quote, seed: 8)
    var board = Board(puzzle: puzzle)
    let before = board
    let space = puzzle.cells.first { !$0.isLetter }!.index
    #expect(board.handle(.guess(cell: space, letter: "A", at: t0), in: puzzle) == [.refused(.notALetter)])
    #expect(board.handle(.guess(cell: -1, letter: "A", at: t0), in: puzzle) == [.refused(.noSuchCell)])
    #expect(board.handle(.guess(cell: firstHidden(board, puzzle), letter: "7", at: t0), in: puzzle) == [.refused(.invalidLetter)])
    #expect(board.handle(.resume(at: t0), in: puzzle) == [.refused(.notPaused)])
    #expect(board.handle(.continuePlaying(at: t0), in: puzzle) == [.refused(.notFailed)])
    #expect(board == before)
  }

  @Test("Property: mistakes count every wrong letter on an empty cell, and only those")
  func mistakeCounting() async {
    await propertyCheck(count: 150, input: Gen.uint64(), Gen.int(in: 0...25).array(of: 1...40)) { seed, letters in
      let puzzle = Puzzle(quote: quote, seed: seed)
      var board = Board(puzzle: puzzle)
      var expected = 0
      for letter in letters where board.status == .playing {
        guard let cell = puzzle.letterCells.first(where: { !board.revealed.contains($0) }) else { break }
        if letter != puzzle.cells[cell].plain { expected += 1 }
        _ = board.handle(.guess(cell: cell, letter: Letters.letter(letter), at: t0), in: puzzle)
        #expect(board.mistakes == expected)
        #expect(board.status != .failed || board.mistakes == Board.mistakeLimit)
      }
    }
  }
}
