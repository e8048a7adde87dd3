import CompletionCore
import Foundation

/// A point in the labyrinth's own space (``Labyrinth/width`` × ``Labyrinth/height`` points, y down); the
/// page scales the drawing to fit and maps the finger back, so the rules never depend on a screen size.
public struct MazePoint: Hashable, Sendable, Codable {
  public var x: Double
  public var y: Double

  /// A point in maze space.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  func distance(to other: MazePoint) -> Double { ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot() }
}

/// One level of the labyrinth: a stone path network made from a seed (a perfect maze on a small grid, so
/// there is exactly one way from START to ZIEL and a few dead ends), and the tolerance a finger may stray
/// from a path's middle. The corridors are as wide as the tolerance needs: the grid's cells are never
/// narrower than three tolerances.
public struct Labyrinth: Hashable, Sendable, Codable {
  /// The maze space's size in points.
  public static let width = 800.0
  public static let height = 560.0

  /// Cells across and down.
  public let columns: Int
  public let rows: Int
  /// How far (points) a finger may be from a path's middle, and from START and ZIEL.
  public let tolerance: Double
  /// The passages: pairs of neighbouring cells (row-major indices), a tree over all cells.
  public let passages: [[Int]]
  /// The START and ZIEL cells.
  public let start: Int
  public let goal: Int

  /// The grid for a tolerance (60, 44 or 36 points): wider corridors mean fewer cells.
  public static func grid(for tolerance: Double) -> (columns: Int, rows: Int) {
    switch tolerance {
    case 50...: (4, 3)
    case 40..<50: (5, 3)
    default: (5, 4)
    }
  }

  /// A new labyrinth with `tolerance`, drawn with `generator`: a random depth-first maze, START in the left
  /// column and ZIEL in the right one, as far apart along the path as the maze allows.
  public init(tolerance: Double, using generator: inout some RandomNumberGenerator) {
    let (columns, rows) = Self.grid(for: tolerance)
    self.columns = columns
    self.rows = rows
    self.tolerance = tolerance
    var visited = [Bool](repeating: false, count: columns * rows)
    var passages: [[Int]] = []
    var stack = [Int.random(in: 0..<(columns * rows), using: &generator)]
    visited[stack[0]] = true
    while let cell = stack.last {
      let open = Self.neighbours(of: cell, columns: columns, rows: rows).filter { !visited[$0] }
      guard let next = open.randomElement(using: &generator) else {
        stack.removeLast()
        continue
      }
      visited[next] = true
      passages.append([cell, next])
      stack.append(next)
    }
    self.passages = passages
    // START: a random cell of the left column; ZIEL: the right-column cell farthest from it along the path.
    let start = Int.random(in: 0..<rows, using: &generator) * columns
    let distances = Self.pathDistances(from: start, passages: passages, cells: columns * rows)
    let rightColumn = (0..<rows).map { $0 * columns + columns - 1 }
    self.start = start
    goal = rightColumn.max { distances[$0] < distances[$1] } ?? columns - 1
  }

  /// The middle of `cell` in maze space.
  public func centre(of cell: Int) -> MazePoint {
    let cellWidth = Self.width / Double(columns)
    let cellHeight = Self.height / Double(rows)
    return MazePoint(x: (Double(cell % columns) + 0.5) * cellWidth, y: (Double(cell / columns) + 0.5) * cellHeight)
  }

  /// How far from START's middle a finger may begin (and wander while there): the START stone is a little
  /// wider than its cell, so it stays a child-sized target even on a phone, where the maze is drawn at under
  /// 0.6 of its size. It never reaches within a tolerance of a neighbouring cell's paths (those are at least a
  /// cell away), so a finger on START cannot slip through a wall; never less than the tolerance.
  public var startRadius: Double {
    let cell = min(Self.width / Double(columns), Self.height / Double(rows))
    return max(tolerance, min(cell * 0.6, cell - tolerance - 16))
  }

  /// The passages as segments between cell middles (what the page draws as stones).
  public var segments: [(MazePoint, MazePoint)] { passages.map { (centre(of: $0[0]), centre(of: $0[1])) } }

  /// The cells from START to ZIEL (the one way through).
  public var solution: [Int] {
    let previous = Self.breadthFirst(from: start, passages: passages, cells: columns * rows).previous
    var path = [goal]
    while let before = previous[path[0]] { path.insert(before, at: 0) }
    return path
  }

  /// How a traced finger went (``Labyrinth/judge(_:)``).
  public enum Verdict: Hashable, Sendable {
    /// From START to ZIEL without leaving the path.
    case reachedGoal
    /// The finger did not begin on START.
    case notAtStart
    /// The finger left the path at this point of the trace.
    case leftPath(at: Int)
    /// Lifted on the path before ZIEL: nothing lost, go on from START again.
    case stoppedShort
  }

  /// Judges one finger trace (maze-space points, in order). Between two points that lie far apart the line
  /// is checked too, so a fast swipe cannot jump across a wall.
  public func judge(_ points: [MazePoint]) -> Verdict {
    let startPoint = centre(of: start)
    guard let first = points.first, first.distance(to: startPoint) <= startRadius else { return .notAtStart }
    let segments = self.segments
    let goalPoint = centre(of: goal)
    var nearest = 0
    var previous = first
    for (index, point) in points.enumerated() {
      let gap = previous.distance(to: point)
      let steps = max(1, Int((gap / (tolerance / 2)).rounded(.up)))
      for step in 1...steps {
        let t = Double(step) / Double(steps)
        let probe = MazePoint(x: previous.x + (point.x - previous.x) * t, y: previous.y + (point.y - previous.y) * t)
        if probe.distance(to: startPoint) <= startRadius { continue }
        guard let found = Self.onPath(probe, segments: segments, tolerance: tolerance, hint: nearest) else {
          return .leftPath(at: index)
        }
        nearest = found
        if probe.distance(to: goalPoint) <= tolerance { return .reachedGoal }
      }
      previous = point
    }
    return .stoppedShort
  }

  /// The segment within `tolerance` of `point` (trying `hint` first: a finger moves along), or nil.
  private static func onPath(_ point: MazePoint, segments: [(MazePoint, MazePoint)], tolerance: Double, hint: Int) -> Int? {
    if segments.indices.contains(hint), distance(point, segments[hint]) <= tolerance { return hint }
    return segments.indices.first { distance(point, segments[$0]) <= tolerance }
  }

  private static func distance(_ point: MazePoint, _ segment: (MazePoint, MazePoint)) -> Double {
    let (a, b) = segment
    let dx = b.x - a.x
    let dy = b.y - a.y
    let length = dx * dx + dy * dy
    let t = length == 0 ? 0 : max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / length))
    return point.distance(to: MazePoint(x: a.x + t * dx, y: a.y + t * dy))
  }

  private static func neighbours(of cell: Int, columns: Int, rows: Int) -> [Int] {
    let column = cell % columns
    let row = cell / columns
    var result: [Int] = []
    if column > 0 { result.append(cell - 1) }
    if column < columns - 1 { result.append(cell + 1) }
    if row > 0 { result.append(cell - columns) }
    if row < rows - 1 { result.append(cell + columns) }
    return result
  }

  private static func pathDistances(from start: Int, passages: [[Int]], cells: Int) -> [Int] {
    breadthFirst(from: start, passages: passages, cells: cells).distance
  }

  /// Walks the passages outwards from `start`: each cell's distance in steps (-1: unreachable) and the cell
  /// it was reached from (the way back to `start`).
  private static func breadthFirst(from start: Int, passages: [[Int]], cells: Int) -> (distance: [Int], previous: [Int?]) {
    var links = [[Int]](repeating: [], count: cells)
    for pair in passages {
      links[pair[0]].append(pair[1])
      links[pair[1]].append(pair[0])
    }
    var distance = [Int](repeating: -1, count: cells)
    var previous = [Int?](repeating: nil, count: cells)
    distance[start] = 0
    var queue = [start]
    var head = 0
    while head < queue.count {
      let cell = queue[head]
      head += 1
      for next in links[cell] where distance[next] < 0 {
        distance[next] = distance[cell] + 1
        previous[next] = cell
        queue.append(next)
      }
    }
    return (distance, previous)
  }
}
