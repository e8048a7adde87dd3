import CompletionAPI
import CompletionCore
import Cryptogram
import Foundation
import Observation

/// The state behind one cryptogram screen, on any platform: the board the server computed, the cell the
/// keyboard types into, and the moments that follow a move (the mistake flash, the wiggle, the celebration).
///
/// It holds no rule: a guess, a hint, a pause are sent to the server, which runs them through the rules and
/// answers with the board, the effects and — on the solving move — the celebration's choreography and
/// wiggle. Time comes from the injected ``ModelClock``; haptics and animation from ``HapticsPlaying`` and
/// ``StateAnimating``. Moves are sent one after another in the order they were made.
@Observable
@MainActor
public final class CryptogramModel {
  /// A wrong guess shown in its cell for a moment.
  public struct MistakeMark: Hashable, Sendable {
    /// The cell the wrong letter was typed into.
    public let cell: Int
    /// The wrong letter.
    public let letter: Character
  }

  /// Which puzzle to start.
  public enum Mode: Hashable, Sendable {
    /// Today's daily (in the model's time zone), resumed if already begun.
    case daily
    /// A random quote, optionally of one length.
    case random(QuoteLength?)
  }

  /// A choice that lets something go, waiting for the person's yes (the web page asks the same).
  public enum Confirmation: Hashable, Sendable {
    /// Leave the puzzle being played for a new random one.
    case newPuzzle
    /// After a loss: play on without a mistake limit.
    case continueAfterLoss

    /// The question, in words for the person.
    public var question: String {
      switch self {
      case .newPuzzle: "Leave this puzzle for a new one? It stays unfinished."
      case .continueAfterLoss:
        "Keep going without a mistake limit? Mistakes still count, and a solve then counts as finished, not a win."
      }
    }
  }

  /// Seconds a wrong letter stays drawn in its cell: the core's timing, which every mistake the server sends
  /// carries (the web page's CSS animation plays over the same value).
  public static let mistakeFlashSeconds = CryptogramTiming.mistakeFlashSeconds

  // MARK: What views read

  /// The puzzle as the server last described it, or nil before one is loaded.
  public private(set) var game: CryptogramGameView?
  /// What the last move did, as the server listed it.
  public private(set) var lastEffects: [CryptogramEffectView] = []
  /// The cell the keyboard types into, or nil.
  public private(set) var selectedCell: Int?
  /// The wrong guess being shown, or nil.
  public private(set) var mistake: MistakeMark?
  /// The solving move's wiggle (each cell's offset and delay, the shared shape) while it plays, else nil.
  public private(set) var wiggle: WigglePayload?
  /// The solving move's celebration, from the server: its steps' delays and curves are the core's.
  public private(set) var celebration: ChoreographyPayload?
  /// When the celebration started (the solving answer's arrival); every step's delay counts from here.
  public private(set) var celebrationStart: Date?
  /// What went wrong last, in words for the person (a refused move, a lost connection); nil when all is well.
  public private(set) var problem: String?
  /// Whether a move is on its way to the server.
  public private(set) var isSending = false
  /// The question waiting for a yes or no, or nil.
  public private(set) var confirmation: Confirmation?

  // MARK: Services

  @ObservationIgnored public let client: CompletionClient
  @ObservationIgnored private let clock: any ModelClock
  @ObservationIgnored private let haptics: any HapticsPlaying
  @ObservationIgnored private let animator: any StateAnimating
  @ObservationIgnored private let timeZone: TimeZone
  /// The person's motion setting, sent with every move (a view updates it when Reduce Motion changes).
  @ObservationIgnored public var preference: MotionPreference
  /// When ``game`` arrived, so the running clock can be drawn between answers.
  @ObservationIgnored private var receivedAt: Date
  @ObservationIgnored private let serial = SerialWork()
  @ObservationIgnored private var mistakeTimer: ScheduledAction?
  @ObservationIgnored private var wiggleTimer: ScheduledAction?

  /// A model playing through `client`. `timeZone` decides which day's daily is today; `preference` is the
  /// person's motion setting, sent with every move so the server adapts the celebration.
  public init(
    client: CompletionClient, clock: any ModelClock, timeZone: TimeZone = .current, preference: MotionPreference = .full,
    haptics: (any HapticsPlaying)? = nil, animator: (any StateAnimating)? = nil
  ) {
    let plain = PlainPlatform()
    self.client = client
    self.clock = clock
    self.timeZone = timeZone
    self.preference = preference
    self.haptics = haptics ?? plain
    self.animator = animator ?? plain
    self.receivedAt = clock.now
  }

  /// Waits until every event sent so far, and every event those answers sent in turn, has been answered.
  public func settled() async {
    await serial.settled()
  }

  // MARK: Reading the board

  /// Whether moves are accepted now: a puzzle is being played and is not paused.
  public var acceptsInput: Bool {
    guard let game else { return false }
    return game.status == "playing" && !game.isPaused
  }

  /// Whether the puzzle is solved.
  public var isSolved: Bool { game?.status == "solved" }

  /// Whether the mistakes ran out (Continue, Try again or New puzzle).
  public var hasFailed: Bool { game?.status == "failed" }

  /// The play time to show now: the server's seconds, run on by the clock while the puzzle's clock runs.
  public var elapsedSeconds: Double {
    guard let game else { return 0 }
    let running = game.status == "playing" && game.hasStarted && !game.isPaused
    return game.elapsedSeconds + (running ? max(0, clock.now.timeIntervalSince(receivedAt)) : 0)
  }

  /// The time as `m:ss` (or `h:mm:ss`), as the core formats it.
  public var formattedTime: String { PlaySession.formatted(seconds: elapsedSeconds) }

  /// Whether the wiggle is playing.
  public var isWiggling: Bool { wiggle != nil }

  /// Seconds since the celebration started, or nil when none is playing.
  public var celebrationElapsed: Double? {
    celebrationStart.map { max(0, clock.now.timeIntervalSince($0)) }
  }

  /// How the celebration's element `stepID` ("overlay", "title", "stats", "next", …) looks now: hidden before
  /// its delay, moving along its curve, then at rest — the core's `Choreography` over the server's steps.
  public func celebrationAppearance(of stepID: String) -> Appearance {
    guard let celebration, let step = celebration.choreography.step(stepID) else { return .identity }
    guard let elapsed = celebrationElapsed else { return step.from }
    return step.appearance(at: elapsed)
  }

  /// Whether the celebration's step has begun (its delay has passed since the solve).
  public func celebrationHasReached(_ stepID: String) -> Bool {
    guard let elapsed = celebrationElapsed, let step = celebration?.steps.first(where: { $0.id == stepID }) else { return false }
    // Dates carry about a tenth of a microsecond of rounding: a step reached on its exact time counts.
    return elapsed + 1e-6 >= step.delay
  }

  /// Where cell `index` sits sideways in the wiggle now (points), 0 at rest.
  public func wiggleOffset(of index: Int) -> Double {
    guard let wiggle, let start = celebrationStart, wiggle.cells.indices.contains(index), wiggle.sampleInterval > 0 else { return 0 }
    let cell = wiggle.cells[index]
    let local = clock.now.timeIntervalSince(start) - cell.delay
    guard local >= 0 else { return 0 }
    let sample = Int(local / wiggle.sampleInterval)
    guard wiggle.shape.indices.contains(sample) else { return 0 }
    return cell.offset * wiggle.shape[sample]
  }

  /// The letter cells still empty, in reading order.
  public var emptyCells: [Int] {
    game?.cells.filter { $0.isLetter && $0.shown == nil }.map(\.index) ?? []
  }

  // MARK: Loading

  /// Opens the person's unfinished puzzle (what a reload does), or today's daily when there is none.
  @discardableResult
  public func open() -> Task<Void, Never> {
    enqueue { model in
      let current = try await model.client.currentCryptogram()
      if let game = current.game {
        model.show(game)
      } else {
        model.show(try await model.client.newCryptogram(NewCryptogramGameRequest(mode: "daily"), timeZone: model.timeZone.identifier))
      }
    }
  }

  /// Starts a puzzle (today's daily is resumed if already begun).
  @discardableResult
  public func start(_ mode: Mode) -> Task<Void, Never> {
    enqueue { model in
      let request: NewCryptogramGameRequest =
        switch mode {
        case .daily: NewCryptogramGameRequest(mode: "daily")
        case .random(let length): NewCryptogramGameRequest(mode: "random", length: length)
        }
      model.show(try await model.client.newCryptogram(request, timeZone: model.timeZone.identifier))
    }
  }

  /// Asks before `choice` is carried out: `confirm()` does it, `dismissConfirmation()` lets it go. A new puzzle
  /// needs no question while nothing would be left behind (no letter yet, or solved): it starts at once.
  @discardableResult
  public func ask(_ choice: Confirmation) -> Task<Void, Never> {
    switch choice {
    case .newPuzzle:
      guard let game, game.hasStarted, game.status == "playing" || game.status == "failed" else { return start(.random(nil)) }
    case .continueAfterLoss:
      guard hasFailed else { return Task {} }
    }
    confirmation = choice
    return Task {}
  }

  /// Carries out the question waiting for a yes.
  @discardableResult
  public func confirm() -> Task<Void, Never> {
    guard let choice = confirmation else { return Task {} }
    confirmation = nil
    switch choice {
    case .newPuzzle: return start(.random(nil))
    case .continueAfterLoss: return continuePlaying()
    }
  }

  /// Answers no to the question waiting.
  public func dismissConfirmation() {
    confirmation = nil
  }

  /// After a solve: a new random puzzle of the same length (the completion view's Next).
  @discardableResult
  public func next() -> Task<Void, Never> {
    start(.random(game?.length))
  }

  /// What sharing the solved puzzle sends: a spoiler-free message and a link (nil before it is solved).
  public func share() async -> CryptogramShareView? {
    guard isSolved, let id = game?.id else { return nil }
    do {
      return try await client.shareCryptogram(id)
    } catch {
      problem = error.lineForPeople()
    }
    return nil
  }

  // MARK: Moves

  /// Makes `cell` the one the keyboard types into; non-letters and cells already shown are ignored.
  public func select(_ cell: Int) {
    guard acceptsInput, let game, game.cells.indices.contains(cell), game.cells[cell].isLetter, game.cells[cell].shown == nil else {
      return
    }
    selectedCell = cell
  }

  /// Moves the selection to the next (or previous) empty cell, wrapping round.
  public func moveSelection(forward: Bool = true) {
    let empty = emptyCells
    guard !empty.isEmpty else { return }
    guard let selectedCell else { return self.selectedCell = empty.first }
    if forward {
      self.selectedCell = empty.first { $0 > selectedCell } ?? empty.first
    } else {
      self.selectedCell = empty.last { $0 < selectedCell } ?? empty.last
    }
  }

  /// Types `letter` into the selected cell (a right letter fills every cell with the same cipher letter).
  @discardableResult
  public func type(_ letter: Character) -> Task<Void, Never> {
    guard acceptsInput, let cell = selectedCell ?? emptyCells.first, let id = game?.id else { return Task {} }
    return move { client in try await client.guess(id, cell: cell, letter: letter, preference: self.preference) }
  }

  /// Reveals the selected cell (or the first empty one) and counts a hint.
  @discardableResult
  public func hint() -> Task<Void, Never> {
    guard acceptsInput, let id = game?.id else { return Task {} }
    let cell = selectedCell
    return move { client in try await client.hint(id, cell: cell, preference: self.preference) }
  }

  /// Stops the clock.
  @discardableResult
  public func pause() -> Task<Void, Never> {
    guard let id = game?.id else { return Task {} }
    return move { client in try await client.pauseCryptogram(id) }
  }

  /// Starts the clock again.
  @discardableResult
  public func resume() -> Task<Void, Never> {
    guard let id = game?.id else { return Task {} }
    return move { client in try await client.resumeCryptogram(id) }
  }

  /// After failing: plays on without a mistake limit.
  @discardableResult
  public func continuePlaying() -> Task<Void, Never> {
    guard let id = game?.id else { return Task {} }
    return move { client in try await client.continueCryptogram(id) }
  }

  /// The same puzzle again, as a new attempt.
  @discardableResult
  public func restart() -> Task<Void, Never> {
    guard let id = game?.id else { return Task {} }
    return move { client in try await client.restartCryptogram(id) }
  }

  /// The app left the foreground: the puzzle's clock stops; coming back starts it again.
  @discardableResult
  public func phaseChanged(to phase: AppPhase) -> Task<Void, Never> {
    switch phase {
    case .background where acceptsInput && game?.hasStarted == true: pause()
    case .active where game?.isPaused == true: resume()
    default: Task {}
    }
  }

  // MARK: Carrying out answers

  private func move(_ send: @escaping @MainActor (CompletionClient) async throws -> CryptogramMoveResponse) -> Task<Void, Never> {
    enqueue { model in
      do {
        model.apply(try await send(model.client))
      } catch let error as APIError {
        // Refused: the puzzle may have changed elsewhere (paused or finished on another device), so show it as
        // the server has it now.
        if let id = model.game?.id, let fresh = try? await model.client.cryptogram(id), fresh != model.game {
          model.show(fresh)
        }
        throw error
      }
    }
  }

  /// Runs `work` after every earlier move, so moves reach the server in the order they were made.
  private func enqueue(_ work: @escaping @MainActor (CryptogramModel) async throws -> Void) -> Task<Void, Never> {
    serial.enqueue { [weak self] in
      guard let self else { return }
      self.isSending = true
      defer { self.isSending = false }
      do {
        try await work(self)
        self.problem = nil
      } catch {
        self.problem = error.lineForPeople(whenUnreachable: "The server could not be reached, so that was not saved. Try again.")
      }
    }
  }

  /// Shows a puzzle as loaded (no moment to play).
  private func show(_ game: CryptogramGameView) {
    animator.animate {
      resetMoments()
      self.game = game
      receivedAt = clock.now
      lastEffects = []
      selectedCell = game.status == "playing" ? emptyCells.first : nil
    }
  }

  private func apply(_ response: CryptogramMoveResponse) {
    animator.animate {
      let previous = game
      game = response.game
      receivedAt = clock.now
      lastEffects = response.effects
      if previous?.id != response.game.id { resetMoments() }
      for effect in response.effects { react(to: effect) }
      if let selectedCell, response.game.cells.indices.contains(selectedCell), response.game.cells[selectedCell].shown != nil {
        moveSelection()
      }
      if response.game.status != "playing" { selectedCell = nil }
      if selectedCell == nil, response.game.status == "playing" { selectedCell = emptyCells.first }
      if let celebration = response.celebration { celebrate(celebration, wiggle: response.wiggle) }
    }
  }

  private func react(to effect: CryptogramEffectView) {
    switch effect {
    case .mistake(let cell, let letter, let flashSeconds):
      guard let letter = letter.first else { return }
      mistakeTimer?.cancel()
      mistake = MistakeMark(cell: cell, letter: letter)
      haptics.play(.warning)
      mistakeTimer = clock.schedule(after: flashSeconds) { [weak self] in self?.mistake = nil }
    case .revealed(let cells, _), .hint(let cells):
      if let mistake, cells.contains(mistake.cell) {
        mistakeTimer?.cancel()
        self.mistake = nil
      }
    case .restarted:
      resetMoments()
    case .refused(let refusal):
      problem = Self.refusalLine(refusal)
    case .failed, .solved, .paused, .resumed, .continued, .abandoned:
      break
    }
  }

  /// The solving move: a buzz, the wiggle for its duration, and the celebration's clock from now.
  private func celebrate(_ celebration: ChoreographyPayload, wiggle: WigglePayload?) {
    mistakeTimer?.cancel()
    mistake = nil
    haptics.play(.success)
    self.celebration = celebration
    celebrationStart = clock.now
    wiggleTimer?.cancel()
    if let wiggle, wiggle.active, wiggle.duration > 0 {
      self.wiggle = wiggle
      wiggleTimer = clock.schedule(after: wiggle.duration) { [weak self] in self?.wiggle = nil }
    }
  }

  private func resetMoments() {
    mistakeTimer?.cancel()
    wiggleTimer?.cancel()
    mistake = nil
    wiggle = nil
    celebration = nil
    celebrationStart = nil
  }

  /// A refused move in words (the server's reason names which).
  static func refusalLine(_ refusal: Board.Refusal) -> String {
    switch refusal {
    case .alreadyRevealed: "That letter is already there."
    case .notALetter, .noSuchCell: "Choose a letter cell."
    case .invalidLetter: "Type a letter from A to Z."
    case .paused: "The puzzle is paused: resume to go on."
    case .notPlaying: "This puzzle is over."
    case .nothingToReveal: "Every letter is already shown."
    case .notPaused, .notFailed: "That move is not possible now."
    }
  }
}
