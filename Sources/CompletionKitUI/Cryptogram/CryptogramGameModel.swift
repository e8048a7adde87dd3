#if canImport(SwiftUI)
import Observation
import SwiftUI
import CompletionCore
import Cryptogram

/// The state behind one cryptogram screen: the puzzle, the player's board, and what the celebration shows.
///
/// Every move goes through `Board.handle(_:in:)`, the pure rules; this class keeps the result and only the
/// presentation state that follows from it (selection, the mistake flash, the wiggle, the completion overlay).
@Observable
@MainActor
public final class CryptogramGameModel {
  /// A wrong guess shown in its cell until ``mistakeDisplaySeconds`` have passed.
  public struct MistakeMark: Hashable, Sendable {
    /// The cell the wrong letter was typed into.
    public let cell: Int
    /// The wrong letter, as a capital.
    public let letter: Character
  }

  /// Seconds a wrong letter stays in its cell. The rules only say "briefly"; this matches the web client's flash.
  public static let mistakeDisplaySeconds = 0.5

  /// The puzzle being played.
  public private(set) var puzzle: Puzzle
  /// The player's progress on ``puzzle``.
  public private(set) var board: Board
  /// What the rules returned for the last move, in order (refusals included).
  public private(set) var lastEffects: [Board.Effect] = []
  /// The cell the keyboard types into, or nil.
  public private(set) var selectedCell: Int? = nil
  /// The wrong guess being shown, or nil.
  public private(set) var mistake: MistakeMark? = nil
  /// Whether the solved puzzle's cells wiggle; true for `CompletionCelebration.wiggle.resetAfter` seconds.
  public private(set) var isWiggling = false
  /// Each cell's offset and delay in the completion wiggle, indexed like `puzzle.cells`.
  public private(set) var wiggleCells: [Wiggle.Cell]
  /// Whether the completion overlay should show. Set at the moment of solving; the view fades the overlay in
  /// on the choreography's "overlay" step.
  public private(set) var showCompletion = false
  /// The solved puzzle's numbers, or nil until it is solved.
  public private(set) var completionStats: CompletionStats? = nil
  /// Plays `CompletionCelebration.choreography`. Started at the moment of solving because every delay in
  /// that choreography is measured from the solve.
  public let celebration: ChoreographyPlayer
  // Ignored by observation: it is not display state, so replacing it must not redraw anything.
  /// Loads the next puzzle. Set by the host, which should capture the model weakly and end with ``load(_:)``.
  @ObservationIgnored public var next: @MainActor () -> Void = {}

  // Pending timers. Bookkeeping only, so they must not invalidate views.
  @ObservationIgnored private var wiggleTask: Task<Void, Never>?
  @ObservationIgnored private var mistakeTask: Task<Void, Never>?

  /// A model playing `puzzle` from the start, with the first empty cell selected.
  public init(puzzle: Puzzle) {
    self.puzzle = puzzle
    self.board = Board(puzzle: puzzle)
    self.wiggleCells = Self.makeWiggleCells(for: puzzle)
    self.celebration = ChoreographyPlayer(CompletionCelebration.choreography)
    self.selectedCell = nextEmptyCell(after: nil)
  }

  /// Whether moves are accepted now: the puzzle is being played and is not paused.
  public var acceptsInput: Bool {
    board.status == .playing && !board.session.isPaused
  }

  /// Whether the board is paused while playing (failing also pauses the clock, but is shown differently).
  public var isPaused: Bool {
    board.status == .playing && board.session.isPaused
  }

  /// The letter shown in `cell`: its plain letter once revealed (found, hinted or prefilled), else nil.
  public func foundLetter(at cell: Int) -> Character? {
    guard board.revealed.contains(cell), puzzle.cells.indices.contains(cell) else { return nil }
    return puzzle.cells[cell].plain.map(Letters.letter)
  }

  /// Makes `cell` the one the keyboard types into; non-letters and cells already shown are ignored.
  public func select(_ cell: Int) {
    guard acceptsInput, puzzle.cells.indices.contains(cell), puzzle.cells[cell].isLetter,
      !board.revealed.contains(cell)
    else { return }
    selectedCell = cell
  }

  /// Puts `letter` in `cell`; a right letter fills every cell with the same cipher letter.
  public func guess(cell: Int, letter: Character) {
    apply(.guess(cell: cell, letter: letter, at: Date()))
  }

  /// Reveals `cell` (or the first empty cell when nil) and counts a hint.
  public func hint(cell: Int?) {
    apply(.hint(cell: cell, at: Date()))
  }

  /// Stops the clock (only once the first move has started it).
  public func pause() {
    apply(.pause(at: Date()))
  }

  /// Starts the clock again after a pause.
  public func resume() {
    apply(.resume(at: Date()))
  }

  /// After failing: keeps playing with no mistake limit.
  public func continuePlaying() {
    apply(.continuePlaying(at: Date()))
  }

  /// Starts this puzzle again from the beginning, as a new attempt (the rules refuse it once solved).
  public func restart() {
    apply(.restart)
  }

  /// Replaces the puzzle with `puzzle` on a fresh board (what a host's ``next`` usually ends with).
  public func load(_ puzzle: Puzzle) {
    resetPresentation()
    self.puzzle = puzzle
    board = Board(puzzle: puzzle)
    lastEffects = []
    wiggleCells = Self.makeWiggleCells(for: puzzle)
    selectedCell = nextEmptyCell(after: nil)
  }

  private func apply(_ event: Board.Event) {
    let effects = board.handle(event, in: puzzle)
    lastEffects = effects
    for effect in effects {
      react(to: effect)
    }
  }

  private func react(to effect: Board.Effect) {
    switch effect {
    case .revealed(let cells, _):
      clearMistake(ifIn: cells)
      // Typing a right letter moves on to the next blank, as a keyboard cursor would.
      if let selectedCell, cells.contains(selectedCell) {
        self.selectedCell = nextEmptyCell(after: selectedCell)
      }
    case .hintUsed(let cells, _):
      clearMistake(ifIn: cells)
      if let selectedCell, cells.contains(selectedCell) {
        self.selectedCell = nextEmptyCell(after: selectedCell)
      }
    case .mistake(let cell, let letter, _):
      showMistake(cell: cell, letter: letter)
    case .solved(let stats):
      celebrate(stats)
    case .restarted:
      resetPresentation()
      selectedCell = nextEmptyCell(after: nil)
    case .failed, .paused, .resumed, .continued, .abandoned, .refused:
      // The board already holds everything the view shows for these.
      break
    }
  }

  private func showMistake(cell: Int, letter: Character) {
    mistakeTask?.cancel()
    mistake = MistakeMark(cell: cell, letter: letter)
    let seconds = Self.mistakeDisplaySeconds
    // The task inherits the main actor from this method; `weak` lets a discarded model go at once.
    mistakeTask = Task { [weak self] in
      do {
        try await Task.sleep(for: .seconds(seconds))
      } catch {
        return
      }
      self?.mistake = nil
    }
  }

  /// Drops the wrong letter early when its cell has just been filled, so it never covers the right one.
  private func clearMistake(ifIn cells: [Int]) {
    guard let mistake, cells.contains(mistake.cell) else { return }
    mistakeTask?.cancel()
    self.mistake = nil
  }

  private func celebrate(_ stats: CompletionStats) {
    completionStats = stats
    selectedCell = nil
    mistakeTask?.cancel()
    mistake = nil
    startWiggle()
    // Every delay in `CompletionCelebration.choreography` is measured from the solve, so its clock starts
    // here, not when the completion view appears.
    celebration.restart()
    showCompletion = true
  }

  private func startWiggle() {
    wiggleTask?.cancel()
    isWiggling = true
    let resetAfter = CompletionCelebration.wiggle.resetAfter
    wiggleTask = Task { [weak self] in
      do {
        try await Task.sleep(for: .seconds(resetAfter))
      } catch {
        return
      }
      // Cells snap home when this turns false, as in the seed.
      self?.isWiggling = false
    }
  }

  /// Clears everything the celebration and the mistake flash put on screen.
  private func resetPresentation() {
    wiggleTask?.cancel()
    mistakeTask?.cancel()
    isWiggling = false
    mistake = nil
    showCompletion = false
    completionStats = nil
    celebration.reset()
  }

  /// The first blank letter cell after `index` (from the start when nil), wrapping round; nil when none is left.
  private func nextEmptyCell(after index: Int?) -> Int? {
    let empty = puzzle.letterCells.filter { !board.revealed.contains($0) }
    guard let index else { return empty.first }
    return empty.first { $0 > index } ?? empty.first
  }

  /// Offsets and delays for every cell, seeded by the puzzle so the same puzzle always wiggles the same way.
  private static func makeWiggleCells(for puzzle: Puzzle) -> [Wiggle.Cell] {
    // A stream of its own, so the wiggle does not replay the draws that built the cipher.
    var random = SeededRandom(seed: "cryptogram-wiggle-\(puzzle.seed)")
    return CompletionCelebration.wiggle.cells(count: puzzle.cells.count, using: &random)
  }
}
#endif
