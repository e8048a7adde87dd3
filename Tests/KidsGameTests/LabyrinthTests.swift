import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import KidsGame

@Suite("Labyrinth")
struct LabyrinthTests {
  static let tolerances = [60.0, 44, 36]

  @Test("Any seed and tolerance: a maze over every cell, START left, ZIEL right, corridors wide enough not to touch")
  func generated() async {
    await propertyCheck(count: 300, input: Gen.uint64(), Gen.int(in: 0...2)) { seed, which in
      var random = SeededRandom(seed: seed)
      let tolerance = Self.tolerances[which]
      let maze = Labyrinth(tolerance: tolerance, using: &random)
      let cells = maze.columns * maze.rows
      #expect(maze.passages.count == cells - 1)  // a tree: one way between any two cells
      #expect(Set(maze.passages.flatMap { $0 }).count == cells)
      #expect(maze.start % maze.columns == 0 && maze.goal % maze.columns == maze.columns - 1)
      #expect(maze.solution.first == maze.start && maze.solution.last == maze.goal)
      // Neighbouring corridors keep a gap: each cell is more than twice the tolerance across.
      #expect(Labyrinth.width / Double(maze.columns) > 2 * tolerance + 20)
      #expect(Labyrinth.height / Double(maze.rows) > 2 * tolerance + 20)
      // Following the one way through reaches ZIEL; the same trace pulled off sideways by 1.5 corridors leaves it.
      let path = maze.solution.map(maze.centre(of:))
      #expect(maze.judge(path) == .reachedGoal)
      // START is a child's target on a phone (the maze drawn at 0.58 of its size: ≥ 96 px across), and a
      // finger anywhere on it is more than a tolerance from every path of another cell.
      #expect(maze.startRadius * 2 * 0.58 >= 96)
      let cell = min(Labyrinth.width / Double(maze.columns), Labyrinth.height / Double(maze.rows))
      #expect(maze.startRadius + tolerance < cell)
    }
  }

  @Test("Judging: not from START, leaving the path, a swipe across a wall, lifting early")
  func judging() {
    var random = SeededRandom(seed: 7)
    let maze = Labyrinth(tolerance: 44, using: &random)
    let start = maze.centre(of: maze.start)
    let path = maze.solution.map(maze.centre(of:))
    #expect(maze.judge([MazePoint(x: start.x + 100, y: start.y)]) != .reachedGoal)
    #expect(maze.judge([MazePoint(x: start.x + 70, y: start.y + 70)]) == .notAtStart)
    // Straight from START to ZIEL as the crow flies crosses walls (the way through is never a straight line).
    if maze.solution.count > maze.columns { #expect(maze.judge([start, maze.centre(of: maze.goal)]) == .leftPath(at: 1)) }
    #expect(maze.judge(Array(path.prefix(2))) == (path.count > 2 ? .stoppedShort : .reachedGoal))
    // A finger within the tolerance of the middle is still on the path.
    let wobbly = path.enumerated().map { index, point in MazePoint(x: point.x, y: point.y + (index.isMultiple(of: 2) ? 40 : -40)) }
    #expect(maze.judge(wobbly) == .reachedGoal)
  }

  @Test("In the machine: the tolerance follows the child's difficulty; leaving the path says so and costs nothing; ZIEL pays")
  func inTheMachine() {
    var game = Game()
    game.toHome()
    game.send(.tapActivity(.raetsel))
    let start = game.send(.tapSubActivity(.labyrinth))
    #expect(game.state == .playing(.raetsel, .labyrinth))
    #expect(start.spoken.first == "Hilf Bennie, den Weg zu finden!")
    guard case .labyrinth(let round)? = game.machine.activity?.round else {
      Issue.record("no labyrinth")
      return
    }
    #expect(round.maze.tolerance == 60)
    let startPoint = round.maze.centre(of: round.maze.start)
    let off = game.send(.traceLabyrinth([startPoint, MazePoint(x: startPoint.x, y: startPoint.y + 1000)], at: game.later()))
    #expect(off.spoken == ["Da komme ich nicht durch."])
    #expect(off.contains(.clearTrace))
    #expect(game.coins == 0)
    #expect(game.send(.traceLabyrinth([], at: game.later())).refusals == [.emptyTrace])
    // A short stroke lifted on the path: the line goes, and Bennie encourages (never silence, never a miss).
    let short = game.send(.traceLabyrinth([startPoint], at: game.later()))
    #expect(short.contains(.clearTrace))
    #expect(short.spoken == ["Weiter so! Vom Start bis zum Ziel."])
    #expect(short.refusals.isEmpty)
    if case .labyrinth(let after)? = game.machine.activity?.round { #expect(after.misses == 1) }
    let effects = game.solveLevel()
    #expect(effects.coinChanges.map(\.amount) == [1])
    #expect(game.state == .levelComplete)
    #expect(game.send(.idle(seconds: 15)).refusals == [.notAllowedHere])
  }

  @Test("The third miss in a level brings the hint: the way through, START to ZIEL, for a few seconds; only once")
  func hint() throws {
    var game = Game.atRaetsel(.labyrinth)
    let round = try #require(game.labyrinth)
    let startPoint = round.maze.centre(of: round.maze.start)
    let astray = [startPoint, MazePoint(x: startPoint.x, y: startPoint.y + 1000)]
    for _ in 0..<2 { #expect(game.send(.traceLabyrinth(astray, at: game.later())).spoken == ["Da komme ich nicht durch."]) }
    let third = game.send(.traceLabyrinth(astray, at: game.later()))
    #expect(third.spoken == ["Ich zeige dir den Weg."])
    let way = round.maze.solution.map(round.maze.centre(of:))
    #expect(third.contains(.showWay(way, seconds: LevelTiming.hintSeconds)))
    #expect(way.first == startPoint && way.last == round.maze.centre(of: round.maze.goal))
    let fourth = game.send(.traceLabyrinth(astray, at: game.later()))
    #expect(fourth.spoken == ["Da komme ich nicht durch."])
    #expect(!fourth.contains { if case .showWay = $0 { true } else { false } })
  }
}
