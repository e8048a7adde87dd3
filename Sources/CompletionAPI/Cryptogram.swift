import CompletionCore
import Cryptogram

/// `POST /api/cryptogram/games`: start (or, for today's daily, resume) a puzzle.
public struct NewCryptogramGameRequest: Codable, Hashable, Sendable {
  /// "daily" or "random".
  public let mode: String
  /// For random puzzles: "short", "medium" or "long"; nil for any length.
  public let length: QuoteLength?
  /// An older spelling of the `Time-Zone` header (which wins when both come), still read for older clients:
  /// the person's IANA time zone ("Europe/Berlin"); decides which date is "today". Defaults to UTC.
  public let timeZone: String?
  /// For daily puzzles: which day's ("2026-11-23", from a shared link); today when nil. A day after today is refused.
  public let date: String?

  public init(mode: String, length: QuoteLength? = nil, timeZone: String? = nil, date: String? = nil) {
    self.mode = mode
    self.length = length
    self.timeZone = timeZone
    self.date = date
  }
}

/// `POST /api/cryptogram/games/{id}/guesses`: put `letter` in `cell`.
public struct CryptogramGuessRequest: Codable, Hashable, Sendable {
  public let cell: Int
  public let letter: String

  public init(cell: Int, letter: String) {
    self.cell = cell
    self.letter = letter
  }
}

/// `POST /api/cryptogram/games/{id}/hints`: reveal `cell`, or the first empty cell when nil.
public struct CryptogramHintRequest: Codable, Hashable, Sendable {
  public let cell: Int?

  public init(cell: Int? = nil) {
    self.cell = cell
  }
}

/// One character of the puzzle as the player may see it: never the answer of a hidden cell.
public struct CryptogramCellView: Codable, Hashable, Sendable {
  public let index: Int
  /// True for cells the player has to find.
  public let isLetter: Bool
  /// The enciphered letter shown under a letter cell.
  public let cipher: String?
  /// The plain letter, only once it is shown (prefilled, found or hinted); for other characters, the character.
  public let shown: String?
  public let prefilled: Bool
  public let hinted: Bool
}

/// The quote, revealed once the puzzle is solved.
public struct CryptogramSolutionView: Codable, Hashable, Sendable {
  public let text: String
  public let author: String
  public let year: Int?
  public let source: String?
  /// "— Author, Year".
  public let attribution: String
}

/// A game as the client sees it.
public struct CryptogramGameView: Codable, Hashable, Sendable {
  public let id: String
  /// "daily" or "random".
  public let mode: String
  /// The daily puzzle's date ("2026-11-21").
  public let date: String?
  /// "playing", "failed", "solved" or "abandoned" (failed, then left for a new puzzle).
  public let status: String
  public let length: QuoteLength
  public let cells: [CryptogramCellView]
  /// Cell indices grouped by word, for wrapping.
  public let words: [[Int]]
  public let mistakes: Int
  /// Mistakes allowed, or nil after "continue".
  public let mistakeLimit: Int?
  public let hints: Int
  /// Paused by the player (a failed game is not paused: it has its own status and choices).
  public let isPaused: Bool
  public let hasStarted: Bool
  /// Playing time so far, excluding pauses.
  public let elapsedSeconds: Double
  public let progress: CompletionRatio
  /// The progress as a whole percent, rounded for display by the core (`CompletionRatio.displayPercent`).
  public let progressPercent: Int
  /// Only when solved.
  public let solution: CryptogramSolutionView?
  public let stats: CompletionStats?
  /// Only when solved: "solved" (a win) or "finished" (solved after continuing past the mistake limit).
  public let outcome: PuzzleOutcome?

  public init(id: String, mode: String, date: String?, puzzle: Puzzle, board: Board, elapsedSeconds: Double) {
    self.id = id
    self.mode = mode
    self.date = date
    status = board.status.rawValue
    length = puzzle.quote.length
    cells = puzzle.cells.map { cell in
      let visible = !cell.isLetter || board.revealed.contains(cell.index)
      return CryptogramCellView(
        index: cell.index, isLetter: cell.isLetter, cipher: cell.cipher.map { String(Letters.letter($0)) },
        shown: visible ? (cell.plain.map { String(Letters.letter($0)) } ?? String(cell.character)) : nil,
        prefilled: puzzle.prefilled.contains(cell.index), hinted: board.hinted.contains(cell.index))
    }
    words = puzzle.words
    mistakes = board.mistakes
    mistakeLimit = board.limitsMistakes ? Board.mistakeLimit : nil
    hints = board.hints
    isPaused = board.session.isPaused && board.status == .playing
    hasStarted = board.session.hasStarted
    self.elapsedSeconds = elapsedSeconds
    progress = board.progress(in: puzzle)
    progressPercent = progress.displayPercent
    let solved = board.status == .solved
    let quote = puzzle.quote
    solution =
      solved
      ? CryptogramSolutionView(text: quote.text, author: quote.author, year: quote.year, source: quote.source, attribution: quote.attribution)
      : nil
    stats = solved ? CompletionStats(seconds: elapsedSeconds, mistakes: board.mistakes, hints: board.hints) : nil
    outcome = board.outcome
  }
}

/// The answer to every move: the game after it, what happened, and — when solved — the celebration.
public struct CryptogramMoveResponse: Codable, Hashable, Sendable {
  public let game: CryptogramGameView
  public let effects: [CryptogramEffectView]
  /// The completion sequence for the person's motion preference (only when this move solved the puzzle).
  public let celebration: ChoreographyPayload?
  /// The letter-cell wiggle, one entry per cell (only when this move solved the puzzle).
  public let wiggle: WigglePayload?

  public init(game: CryptogramGameView, effects: [CryptogramEffectView], celebration: ChoreographyPayload?, wiggle: WigglePayload?) {
    self.game = game
    self.effects = effects
    self.celebration = celebration
    self.wiggle = wiggle
  }
}

/// `GET /api/cryptogram/stats`.
public struct CryptogramStatsView: Codable, Hashable, Sendable {
  /// One solved puzzle in the history chart.
  public struct Solve: Codable, Hashable, Sendable {
    public let gameID: String
    public let solvedAt: Double
    public let seconds: Double
    public let mode: String
    public let mistakes: Int
    public let hints: Int
    /// Solved, or finished after continuing past the mistake limit.
    public let outcome: PuzzleOutcome

    public init(gameID: String, solvedAt: Double, seconds: Double, mode: String, mistakes: Int, hints: Int, outcome: PuzzleOutcome = .solved) {
      self.gameID = gameID
      self.solvedAt = solvedAt
      self.seconds = seconds
      self.mode = mode
      self.mistakes = mistakes
      self.hints = hints
      self.outcome = outcome
    }
  }

  /// One day of the streak calendar.
  public struct Day: Codable, Hashable, Sendable {
    public let date: String
    /// The daily puzzle of this date was solved on this date.
    public let solved: Bool

    public init(date: String, solved: Bool) {
      self.date = date
      self.solved = solved
    }
  }

  /// Puzzles started (each "try again" is a new attempt).
  public let played: Int
  /// Wins: solved within the mistake limit.
  public let solved: Int
  /// Losses: out of mistakes and not finished afterwards.
  public let failed: Int
  /// Solved after continuing past the mistake limit: neither a win nor a loss.
  public let finished: Int
  /// solved ÷ played, 0…1.
  public let winRate: Double
  public let averageSeconds: Double?
  public let bestSeconds: Double?
  public let currentStreak: Int
  public let bestStreak: Int
  /// The most recent solves, oldest first (at most 50).
  public let history: [Solve]
  /// The last 35 days, oldest first, in the person's time zone.
  public let calendar: [Day]
  public let points: Int

  public init(
    played: Int, solved: Int, failed: Int, finished: Int = 0, averageSeconds: Double?, bestSeconds: Double?, currentStreak: Int, bestStreak: Int,
    history: [Solve], calendar: [Day], points: Int
  ) {
    self.played = played
    self.solved = solved
    self.failed = failed
    self.finished = finished
    winRate = played == 0 ? 0 : Double(solved) / Double(played)
    self.averageSeconds = averageSeconds
    self.bestSeconds = bestSeconds
    self.currentStreak = currentStreak
    self.bestStreak = bestStreak
    self.history = history
    self.calendar = calendar
    self.points = points
  }
}

/// `GET /api/cryptogram/current`: the person's unfinished puzzle, if any.
public struct CurrentCryptogramResponse: Codable, Hashable, Sendable {
  public let game: CryptogramGameView?

  public init(game: CryptogramGameView?) {
    self.game = game
  }
}

/// `GET /api/cryptogram/games/{id}/share`: what sharing a solved puzzle sends, spoiler-free.
public struct CryptogramShareView: Codable, Hashable, Sendable {
  /// One line naming the puzzle.
  public let title: String
  /// The message: the puzzle, the result, the streak and an invitation, one per line.
  public let text: String
  /// The link, relative to the site: a daily's own link (`/cryptogram?daily=2026-11-24`) or `/cryptogram`.
  public let path: String
  /// The card image (PNG, 1080×1080), relative to the site.
  public let cardPath: String

  public init(title: String, text: String, path: String, cardPath: String) {
    self.title = title
    self.text = text
    self.path = path
    self.cardPath = cardPath
  }
}
