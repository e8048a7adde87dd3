import CompletionCore
import Foundation

/// The player's progress on one puzzle, as a value. `handle(_:in:)` applies an event and returns what the
/// caller must do; refusals are returned as values and change nothing.
public struct Board: Hashable, Sendable, Codable {
  public enum Status: String, Hashable, Sendable, Codable {
    /// `abandoned`: failed, and the player chose a new puzzle instead (the game is no longer theirs to resume).
    case playing, failed, solved, abandoned
  }

  /// Something the player did.
  public enum Event: Hashable, Sendable {
    /// Puts `letter` in `cell`.
    case guess(cell: Int, letter: Character, at: Date)
    /// Reveals `cell`, or when nil the first empty cell.
    case hint(cell: Int?, at: Date)
    case pause(at: Date)
    case resume(at: Date)
    /// After failing: keep playing with no mistake limit.
    case continuePlaying(at: Date)
    /// After failing (or any time): the same puzzle from the start, as a new attempt.
    case restart
    /// After failing: let the puzzle go (the player chose a new one).
    case abandon
  }

  /// What the caller must do or show.
  public enum Effect: Hashable, Sendable {
    /// These cells are now shown (a correct letter fills every cell with the same cipher letter).
    case revealed(cells: [Int], letter: Character)
    /// A wrong letter: show it as an error briefly, then clear it.
    case mistake(cell: Int, letter: Character, mistakes: Int)
    /// A hint showed a letter: the chosen cell first, then every other cell with the same cipher letter.
    case hintUsed(cells: [Int], hints: Int)
    /// The mistake limit was reached: offer continue, try again or a new puzzle.
    case failed(mistakes: Int)
    /// Every letter is found.
    case solved(CompletionStats)
    case paused
    case resumed
    case continued
    case restarted
    case abandoned
    /// Nothing happened, and why.
    case refused(Refusal)
  }

  /// Why an event changed nothing.
  public enum Refusal: String, Hashable, Sendable, Codable {
    case notPlaying = "not_playing"
    case paused
    case noSuchCell = "no_such_cell"
    case notALetter = "not_a_letter"
    case alreadyRevealed = "already_revealed"
    case invalidLetter = "invalid_letter"
    case notPaused = "not_paused"
    case notFailed = "not_failed"
    case nothingToReveal = "nothing_to_reveal"
  }

  /// Mistakes allowed before the puzzle fails.
  public static let mistakeLimit = 3

  public private(set) var status: Status = .playing
  /// Cells the player can see (prefilled, found or hinted).
  public private(set) var revealed: Set<Int>
  /// Cells revealed by hints.
  public private(set) var hinted: Set<Int> = []
  public private(set) var session = PlaySession()
  /// False after "continue": mistakes are still counted but no longer fail the puzzle.
  public private(set) var limitsMistakes = true
  /// Times this puzzle was started over.
  public private(set) var restarts = 0
  /// Whether a letter went in during this attempt (typed, right or wrong, or shown by a hint): from then on the
  /// puzzle counts as played. Nil in saves from before it was kept (and in a fresh attempt).
  public private(set) var enteredLetter: Bool?

  /// Whether this attempt counts as played (a letter went in).
  public var isPlayed: Bool { enteredLetter == true }

  /// How the solved board counts (nil until it is solved): finished rather than solved after "Continue".
  public var outcome: PuzzleOutcome? {
    guard status == .solved else { return nil }
    return limitsMistakes ? .solved : .finished
  }

  /// A fresh board with the puzzle's prefilled cells shown.
  public init(puzzle: Puzzle) {
    revealed = puzzle.prefilled
  }

  public var mistakes: Int { session.mistakes }
  public var hints: Int { session.hints }

  /// Letter cells found so far out of all letter cells.
  public func progress(in puzzle: Puzzle) -> CompletionRatio {
    let letters = puzzle.letterCells
    return CompletionRatio(completed: letters.filter(revealed.contains).count, total: letters.count)
  }

  /// Applies `event` to the board for `puzzle`.
  public mutating func handle(_ event: Event, in puzzle: Puzzle) -> [Effect] {
    switch event {
    case .guess(let cell, let letter, let date): return guess(cell: cell, letter: letter, at: date, in: puzzle)
    case .hint(let cell, let date): return hint(cell: cell, at: date, in: puzzle)
    case .pause(let date):
      guard status == .playing else { return [.refused(.notPlaying)] }
      guard !session.isPaused else { return [.refused(.paused)] }
      session.pause(at: date)
      return [.paused]
    case .resume(let date):
      guard session.isPaused else { return [.refused(.notPaused)] }
      session.resume(at: date)
      return [.resumed]
    case .continuePlaying(let date):
      guard status == .failed else { return [.refused(.notFailed)] }
      status = .playing
      limitsMistakes = false
      session.resume(at: date)
      return [.continued]
    case .restart:
      // A solved puzzle is finished: the next step is a new puzzle, not another go at this one.
      guard status != .solved else { return [.refused(.notPlaying)] }
      let restarts = self.restarts + 1
      self = Board(puzzle: puzzle)
      self.restarts = restarts
      return [.restarted]
    case .abandon:
      guard status == .failed else { return [.refused(.notFailed)] }
      status = .abandoned
      return [.abandoned]
    }
  }

  private mutating func guess(cell index: Int, letter: Character, at date: Date, in puzzle: Puzzle) -> [Effect] {
    if let refusal = refusalForInput(on: index, in: puzzle) { return [.refused(refusal)] }
    guard let guessed = Letters.index(of: letter) else { return [.refused(.invalidLetter)] }
    let cell = puzzle.cells[index]
    guard let plain = cell.plain, let cipher = cell.cipher else { return [.refused(.notALetter)] }
    let shown = Letters.letter(guessed)
    enteredLetter = true
    guard guessed == plain else {
      session.recordMistake(at: date)
      var effects: [Effect] = [.mistake(cell: index, letter: shown, mistakes: session.mistakes)]
      if limitsMistakes, session.mistakes >= Self.mistakeLimit {
        status = .failed
        session.pause(at: date)
        effects.append(.failed(mistakes: session.mistakes))
      }
      return effects
    }
    session.begin(at: date)
    // A correct letter is found everywhere it is enciphered the same way.
    let newlyShown = puzzle.cells.filter { $0.cipher == cipher && !revealed.contains($0.index) }.map(\.index)
    revealed.formUnion(newlyShown)
    return [.revealed(cells: newlyShown, letter: shown)] + solvedIfComplete(at: date, in: puzzle)
  }

  private mutating func hint(cell requested: Int?, at date: Date, in puzzle: Puzzle) -> [Effect] {
    let index: Int
    if let requested {
      if let refusal = refusalForInput(on: requested, in: puzzle) { return [.refused(refusal)] }
      index = requested
    } else {
      guard status == .playing else { return [.refused(.notPlaying)] }
      guard !session.isPaused else { return [.refused(.paused)] }
      guard let first = puzzle.letterCells.first(where: { !revealed.contains($0) }) else { return [.refused(.nothingToReveal)] }
      index = first
    }
    session.recordHint(at: date)
    enteredLetter = true
    // Like a right guess, a hint shows its letter everywhere it is enciphered the same way.
    let cipher = puzzle.cells[index].cipher
    let cells = [index] + puzzle.cells.filter { $0.cipher == cipher && $0.index != index && !revealed.contains($0.index) }.map(\.index)
    revealed.formUnion(cells)
    hinted.formUnion(cells)
    return [.hintUsed(cells: cells, hints: session.hints)] + solvedIfComplete(at: date, in: puzzle)
  }

  private func refusalForInput(on index: Int, in puzzle: Puzzle) -> Refusal? {
    guard status == .playing else { return .notPlaying }
    guard !session.isPaused else { return .paused }
    guard puzzle.cells.indices.contains(index) else { return .noSuchCell }
    guard puzzle.cells[index].isLetter else { return .notALetter }
    guard !revealed.contains(index) else { return .alreadyRevealed }
    return nil
  }

  private mutating func solvedIfComplete(at date: Date, in puzzle: Puzzle) -> [Effect] {
    guard puzzle.letterCells.allSatisfy(revealed.contains) else { return [] }
    status = .solved
    session.complete(at: date)
    return [.solved(CompletionStats(seconds: session.elapsed(at: date), mistakes: session.mistakes, hints: session.hints))]
  }
}

/// The numbers shown when a puzzle is solved.
public struct CompletionStats: Hashable, Sendable, Codable {
  public let seconds: Double
  public let mistakes: Int
  public let hints: Int

  public init(seconds: Double, mistakes: Int, hints: Int) {
    self.seconds = seconds
    self.mistakes = mistakes
    self.hints = hints
  }

  /// `m:ss`.
  public var formattedTime: String { PlaySession.formatted(seconds: seconds) }
}
