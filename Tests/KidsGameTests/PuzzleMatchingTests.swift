import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import KidsGame

@Suite("Puzzle Matching")
struct PuzzleMatchingTests {
  @Test("The original's table: 3×3 with 2 colours up to 6×6 with 4, moved one band by the difficulty")
  func layouts() {
    let first = PuzzleMatchingRound.layout(level: 1)
    #expect(first.size == 3 && first.colours == [.green, .yellow] && first.filled == 2...4)
    #expect(PuzzleMatchingRound.layout(level: 8).colours.count == 3)
    #expect(PuzzleMatchingRound.layout(level: 15).size == 4)
    #expect(PuzzleMatchingRound.layout(level: 25).size == 5)
    #expect(PuzzleMatchingRound.layout(level: 40).size == 6 && PuzzleMatchingRound.layout(level: 40).colours.count == 4)
    // A struggling child gets the band below, a confident one the band above; the first levels never grow.
    #expect(PuzzleMatchingRound.layout(level: 15, difficulty: 0.15).size == 3)
    #expect(PuzzleMatchingRound.layout(level: 15, difficulty: 0.8).size == 5)
    #expect(PuzzleMatchingRound.layout(level: 3, difficulty: 0.9).size == 3)
    #expect(PuzzleMatchingRound.layout(level: 40, difficulty: 0.9).size == 6)
  }

  @Test("A smaller screen: the grid stays within what fits, keeps the band's colours, and fills at most two thirds")
  func screenFit() async {
    let phone = PuzzleMatchingRound.layout(level: 40, largestSize: 3)
    #expect(phone.size == 3 && phone.colours.count == 4 && phone.filled == 6...6)
    #expect(PuzzleMatchingRound.layout(level: 25, largestSize: 4) == .init(size: 4, colours: [.green, .yellow, .grey, .brown], filled: 5...10))
    #expect(PuzzleMatchingRound.layout(level: 1, largestSize: 1).size == 3)  // never below the table's smallest grid
    #expect(PuzzleMatchingRound.layout(level: 40, largestSize: 6) == PuzzleMatchingRound.layout(level: 40))
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 1...60), Gen.int(in: 3...6)) { seed, level, largest in
      var random = SeededRandom(seed: seed)
      let layout = PuzzleMatchingRound.layout(level: level, largestSize: largest)
      #expect(layout.size <= largest && layout.filled.upperBound <= layout.size * layout.size * 2 / 3 + 1)
      let round = PuzzleMatchingRound(layout: layout, using: &random)
      #expect(layout.filled.contains(round.target.compactMap { $0 }.count))
    }
  }

  @Test("The third wrong leaf in a level brings the hint: the cell to fix glows, Bennie points; only once")
  func hint() throws {
    var game = Game.atRaetsel(.puzzleMatching)
    let puzzle = try #require(game.puzzle)
    let empty = puzzle.target.indices.filter { puzzle.target[$0] == nil }
    let wrong = puzzle.colours[0]
    #expect(game.send(.paintCell(empty[0], wrong, at: game.later())).spoken.isEmpty)
    #expect(game.send(.paintCell(empty[1], wrong, at: game.later())).spoken.isEmpty)
    let third = game.send(.paintCell(empty[2], wrong, at: game.later()))
    #expect(third.spoken == ["Schau mal, hier!"])
    // The first cell still without its leaf.
    let missing = puzzle.target.indices.first { puzzle.target[$0] != nil }
    #expect(third.contains(.hintCell(missing ?? -1, seconds: LevelTiming.hintSeconds)))
    #expect(game.send(.paintCell(empty[3], wrong, at: game.later())).spoken.isEmpty)
  }

  @Test("In the machine: the screen's report bounds the next levels' grids, not the level under way")
  func screenInTheMachine() throws {
    var game = Game()
    game.toHome()
    #expect(game.send(.screenFits(puzzleGrid: 0)).refusals == [.numberOutOfRange])
    #expect(game.send(.screenFits(puzzleGrid: 3)) == [.save])
    #expect(game.send(.screenFits(puzzleGrid: 2)).isEmpty)  // the same after rounding up to 3×3
    #expect(game.machine.navigation.largestPuzzleGrid == 3)
    game.machine.data.players[0].activityProgress[SubActivity.puzzleMatching.rawValue] = 39
    game.send(.tapActivity(.raetsel))
    game.send(.tapSubActivity(.puzzleMatching))
    let small = try #require(game.puzzle)
    #expect(small.size == 3 && small.colours.count == 4)
    // A bigger screen: the level under way keeps its grid, the next one grows.
    game.send(.screenFits(puzzleGrid: 9))
    let same = try #require(game.puzzle)
    #expect(same.size == 3)
    game.solveLevel()
    game.send(.levelCompleteFinished)
    let big = try #require(game.puzzle)
    #expect(big.size == 6)
  }

  @Test("Any seed and level: the target has as many leaves as the table says, in offered colours, each used when enough")
  func generated() async {
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 1...60)) { seed, level in
      var random = SeededRandom(seed: seed)
      let layout = PuzzleMatchingRound.layout(level: level)
      let round = PuzzleMatchingRound(layout: layout, using: &random)
      let leaves = round.target.compactMap { $0 }
      #expect(round.target.count == layout.size * layout.size)
      #expect(layout.filled.contains(leaves.count))
      #expect(leaves.allSatisfy(layout.colours.contains))
      if leaves.count >= layout.colours.count { #expect(Set(leaves) == Set(layout.colours)) }
      #expect(round.cells.allSatisfy { $0 == nil } && !round.isSolved)
    }
  }

  @Test("Copying the target solves it; a wrong leaf does not match and counts as a mistake; the eraser and reset empty cells")
  func playing() {
    var round = PuzzleMatchingRound(size: 3, colours: [.green, .yellow], target: [.green, nil, nil, nil, .yellow, nil, nil, nil, nil])
    #expect(round.paint(1, .yellow, at: at(0)) == .changed(cell: 1, matches: false))
    #expect(round.mistakes == 1)
    #expect(round.erase(1, at: at(1)) == .changed(cell: 1, matches: true))
    #expect(round.paint(0, .green, at: at(2)) == .changed(cell: 0, matches: true))
    // A double tap on the same cell counts once; another cell at once is fine.
    #expect(round.paint(0, .yellow, at: at(2.1)) == .refused(.debounced))
    #expect(round.paint(3, .grey, at: at(3)) == .refused(.colourNotOffered))
    #expect(round.paint(9, .green, at: at(3)) == .refused(.numberOutOfRange))
    round.reset()
    #expect(round.cells.allSatisfy { $0 == nil })
    #expect(round.paint(0, .green, at: at(4)) == .changed(cell: 0, matches: true))
    #expect(round.paint(4, .yellow, at: at(4.05)) == .solved)
    #expect(round.matches.allSatisfy { $0 })
  }

  @Test("In the machine: a solved puzzle pays a coin like any level; reset and paints never pay twice")
  func inTheMachine() throws {
    var game = Game.atRaetsel(.puzzleMatching)
    let puzzle = try #require(game.puzzle)
    #expect(puzzle.size == 3)
    #expect(game.send(.resetPuzzle).refusals.isEmpty)
    let effects = game.solveLevel()
    #expect(effects.coinChanges.map(\.amount) == [1])
    #expect(game.state == .levelComplete)
    #expect(game.send(.paintCell(0, .green, at: game.later())).refusals == [.notAllowedHere])
    game.send(.levelCompleteFinished)
    #expect(game.state == .playing(.raetsel, .puzzleMatching))
    #expect(game.machine.activity?.level == 2)
    // Every third level Bennie suggests the other Rätsel game.
    game.solveLevel()
    game.send(.levelCompleteFinished)
    game.solveLevel()
    #expect(game.send(.levelCompleteFinished).spoken == ["Wollen wir mal das Labyrinth spielen?"])
    #expect(game.machine.activity?.level == 4)
    // The puzzle's idle prompts need no number.
    #expect(game.send(.idle(seconds: 10)).spoken == ["Wir schaffen das! YouTube kommt bald."])
  }
}
