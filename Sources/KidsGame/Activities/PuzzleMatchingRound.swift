import CompletionCore
import Foundation

/// A leaf colour of Puzzle Matching (SPEC-NOTES §1: green, yellow, grey, and a fourth from level 21).
public enum LeafColour: String, CaseIterable, Hashable, Sendable, Codable {
  case green
  case yellow
  case grey
  case brown

  /// The colour on screen (the original's three, and the palette's bark brown).
  public var hex: String {
    switch self {
    case .green: "#99BF8C"
    case .yellow: "#D9C27A"
    case .grey: "#A8A090"
    case .brown: "#B08860"
    }
  }

  /// Its name for a screen reader.
  public var label: String {
    switch self {
    case .green: "Grün"
    case .yellow: "Gelb"
    case .grey: "Grau"
    case .brown: "Braun"
    }
  }
}

/// One level of Puzzle Matching: copy the ZIEL grid's leaves into the DU grid. The child picks a leaf colour
/// and taps cells; the eraser empties a cell; reset empties the whole grid. The level is solved the moment
/// the DU grid equals the ZIEL grid. Nothing is ever wrong for long: a leaf of another colour is simply a
/// cell that does not match yet (it counts as a mistake for the difficulty rules).
public struct PuzzleMatchingRound: Hashable, Sendable, Codable {
  /// Grid size, colours and filled cells for a level.
  public struct Layout: Hashable, Sendable {
    /// Cells per side.
    public let size: Int
    /// The colours offered (the picker shows these).
    public let colours: [LeafColour]
    /// How many cells of the target have a leaf.
    public let filled: ClosedRange<Int>
  }

  /// What a tap did.
  public enum Outcome: Hashable, Sendable {
    /// The cell changed; `matches` says whether it now equals the target's cell.
    case changed(cell: Int, matches: Bool)
    /// The grid equals the target.
    case solved
    case refused(RefusalReason)
  }

  /// The original's table by level (SPEC-NOTES §1), moved by the child's difficulty: below 0.2 one band
  /// easier, from 0.7 one band harder (never below the first or above the last; the first five levels are
  /// always the first band).
  ///
  /// `largestSize` is the largest grid the screen has room for with child-sized cells: a bigger band keeps
  /// its colours but comes as that grid, with at most two thirds of its cells filled (a phone stays on 3×3
  /// and gets the later levels' colours and leaves instead).
  public static func layout(level: Int, difficulty: Double = AdaptiveDifficulty.start, largestSize: Int = largestSize) -> Layout {
    let bands: [Layout] = [
      Layout(size: 3, colours: [.green, .yellow], filled: 2...4),
      Layout(size: 3, colours: [.green, .yellow, .grey], filled: 3...5),
      Layout(size: 4, colours: [.green, .yellow, .grey], filled: 4...7),
      Layout(size: 5, colours: [.green, .yellow, .grey, .brown], filled: 5...10),
      Layout(size: 6, colours: [.green, .yellow, .grey, .brown], filled: 6...12),
    ]
    let byLevel =
      switch level {
      case ...5: 0
      case 6...10: 1
      case 11...20: 2
      case 21...30: 3
      default: 4
      }
    let shift = bandShift(difficulty: difficulty)
    // The first levels always start at the first band: a new child is never met with a big grid.
    let band = bands[level <= 5 ? 0 : min(bands.count - 1, max(0, byLevel + shift))]
    let size = max(smallestSize, min(band.size, largestSize))
    guard size < band.size else { return band }
    let most = max(1, size * size * 2 / 3)
    return Layout(size: size, colours: band.colours, filled: min(band.filled.lowerBound, most)...min(band.filled.upperBound, most))
  }

  /// The table's smallest and largest grids (cells a side).
  public static let smallestSize = 3
  public static let largestSize = 6

  /// How the difficulty moves the table's band: −1 below 0.2, +1 from 0.7, else 0.
  public static func bandShift(difficulty: Double) -> Int {
    let edges = AdaptiveDifficulty.bandEdges
    return difficulty < edges[0] ? -1 : (difficulty >= edges[2] ? 1 : 0)
  }

  /// Cells per side.
  public let size: Int
  /// The colours offered.
  public let colours: [LeafColour]
  /// The ZIEL grid, row by row (nil: no leaf).
  public let target: [LeafColour?]
  /// The DU grid, row by row.
  public private(set) var cells: [LeafColour?]
  /// Leaves placed that did not match their cell (they cost nothing).
  public private(set) var mistakes = 0
  /// The cell and time of the last counted tap: a double tap on the same cell counts once (taps on
  /// different cells may follow each other as fast as a child likes).
  public private(set) var lastCell: Int?
  public private(set) var lastTapAt: Date?

  /// A level made from `layout` with `generator`: the filled cells at random places, every offered colour
  /// used at least once when there are enough leaves.
  public init(layout: Layout, using generator: inout some RandomNumberGenerator) {
    size = layout.size
    colours = layout.colours
    let count = Int.random(in: layout.filled, using: &generator)
    let places = Array((0..<(layout.size * layout.size)).shuffled(using: &generator).prefix(count))
    var target = [LeafColour?](repeating: nil, count: layout.size * layout.size)
    for (index, place) in places.enumerated() {
      target[place] = index < layout.colours.count ? layout.colours[index] : layout.colours.randomElement(using: &generator)
    }
    self.target = target
    cells = [LeafColour?](repeating: nil, count: layout.size * layout.size)
  }

  /// A level with a given target (tests, restored games).
  public init(size: Int, colours: [LeafColour], target: [LeafColour?]) {
    self.size = size
    self.colours = colours
    self.target = target
    cells = [LeafColour?](repeating: nil, count: target.count)
  }

  /// Whether the DU grid equals the ZIEL grid.
  public var isSolved: Bool { cells == target }

  /// The cell to fix next, as a hint: the first that still lacks its leaf, else the first with a leaf too many.
  public var hintCell: Int? {
    target.indices.first { target[$0] != nil && cells[$0] != target[$0] } ?? target.indices.first { cells[$0] != target[$0] }
  }

  /// Per cell: does it equal the target's cell (what the live check shows).
  public var matches: [Bool] { zip(cells, target).map { $0 == $1 } }

  /// A leaf of `colour` on `cell` at `date`.
  public mutating func paint(_ cell: Int, _ colour: LeafColour, at date: Date) -> Outcome {
    guard cells.indices.contains(cell) else { return .refused(.numberOutOfRange) }
    guard colours.contains(colour) else { return .refused(.colourNotOffered) }
    guard accept(cell, at: date) else { return .refused(.debounced) }
    guard cells[cell] != colour else { return .changed(cell: cell, matches: cells[cell] == target[cell]) }
    cells[cell] = colour
    if target[cell] != colour { mistakes += 1 }
    return isSolved ? .solved : .changed(cell: cell, matches: cells[cell] == target[cell])
  }

  /// The eraser on `cell` at `date`.
  public mutating func erase(_ cell: Int, at date: Date) -> Outcome {
    guard cells.indices.contains(cell) else { return .refused(.numberOutOfRange) }
    guard accept(cell, at: date) else { return .refused(.debounced) }
    cells[cell] = nil
    return isSolved ? .solved : .changed(cell: cell, matches: target[cell] == nil)
  }

  /// Empties the DU grid (the page asks first).
  public mutating func reset() {
    cells = [LeafColour?](repeating: nil, count: target.count)
    lastCell = nil
  }

  private mutating func accept(_ cell: Int, at date: Date) -> Bool {
    if cell == lastCell, let lastTapAt, (date.timeIntervalSince(lastTapAt) * 1000).rounded() < TapDebounce.interval * 1000 {
      return false
    }
    lastCell = cell
    lastTapAt = date
    return true
  }
}
