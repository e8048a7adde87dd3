#if canImport(SwiftUI)
import SwiftUI
import CompletionCore
import Cryptogram

/// The cryptogram's playing screen: counters and pause, the enciphered quote wrapped by word, a letter
/// keyboard, the failed panel, and the completion overlay of seed 000.
public struct CryptogramPuzzleView: View {
  private let model: CryptogramGameModel

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  @Environment(\.scenePhase) private var scenePhase
  // The overlay as shown, apart from `model.showCompletion` as in the seed: the model says "solved" at once,
  // and this follows it on the choreography's "overlay" step (after the wiggle, with a fade).
  @State private var isCompletionPresented: Bool
  @FocusState private var isBoardFocused: Bool

  private static let keyboardRows: [[Character]] = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"].map { Array($0) }

  /// A screen playing `model`'s puzzle.
  public init(model: CryptogramGameModel) {
    self.model = model
    // A screen opened on an already solved puzzle shows the overlay at once instead of replaying the fade.
    _isCompletionPresented = State(initialValue: model.showCompletion)
  }

  /// The puzzle, fading out under the completion overlay once solved.
  public var body: some View {
    ZStack {
      playingScreen
        .opacity(isCompletionPresented ? 0 : 1)
        // Invisible is not enough: the faded board must not take taps or VoiceOver focus.
        .allowsHitTesting(!isCompletionPresented)
        .accessibilityHidden(isCompletionPresented)

      if isCompletionPresented, let stats = model.completionStats {
        PuzzleCompletionView(
          quote: model.puzzle.quote,
          stats: stats,
          player: model.celebration,
          // Read when tapped, so a host that replaces `next` later is still honoured.
          onNext: { model.next() }
        )
        .transition(.opacity)
      }
    }
    .onChange(of: model.showCompletion) { _, shown in
      // The overlay's animation is read from the player, so the player must know about Reduce Motion now,
      // before any choreographed element has appeared to tell it. Its steps look themselves up when they
      // fire (0.7 s on), so they pick the setting up too.
      model.celebration.setReduceMotion(reduceMotion)
      // Appearing waits for the wiggle and fades on the overlay step; leaving (a new puzzle loaded) is
      // immediate so the new board is never seen under a fading overlay.
      withAnimation(shown ? overlayAnimation : nil) {
        isCompletionPresented = shown
      }
    }
    .onChange(of: scenePhase) { _, phase in
      // Time away from the app is not playing time.
      if phase != .active, model.acceptsInput {
        model.pause()
      }
    }
    .sensoryFeedback(.success, trigger: model.showCompletion) { _, shown in
      shown
    }
  }

  /// The overlay's entrance: the choreography's "overlay" step as the player plays it (a short cross-fade
  /// under Reduce Motion), delayed by the step's delay as in the seed's `withAnimation(….delay(0.7))`.
  private var overlayAnimation: Animation? {
    guard let step = model.celebration.choreography.step("overlay") else { return nil }
    return step.curve.animation(duration: step.duration).delay(step.delay)
  }

  // MARK: - Playing

  private var playingScreen: some View {
    VStack(spacing: 16) {
      header

      ZStack {
        ScrollView {
          grid
            .padding()
        }
        // Hidden while paused so a pause cannot be used to study the puzzle off the clock.
        .opacity(model.isPaused ? 0 : 1)

        if model.board.status == .failed {
          failedPanel
        } else if model.isPaused {
          pausedPanel
        }
      }
      .frame(maxHeight: .infinity)

      keyboard
    }
    .padding(.vertical)
    // A hardware keyboard types too (iPad, Mac); the board takes focus so key presses reach it.
    .focusable()
    .focused($isBoardFocused)
    .focusEffectDisabled()
    .onKeyPress(characters: .letters) { press in
      guard let letter = press.characters.first else { return .ignored }
      enter(letter)
      return .handled
    }
    .onAppear {
      isBoardFocused = true
    }
  }

  private var header: some View {
    HStack(spacing: 16) {
      Label {
        Text(verbatim: mistakesText)
      } icon: {
        Image(systemName: "exclamationmark.triangle")
      }
      .foregroundStyle(model.board.mistakes > 0 ? Color.red : Color.secondary)
      .accessibilityLabel(Text("Mistakes: \(mistakesText)"))

      Label {
        Text(verbatim: String(model.board.hints))
      } icon: {
        Image(systemName: "lightbulb.fill")
      }
      .foregroundStyle(.secondary)
      .accessibilityLabel(Text("Hints used: \(model.board.hints)"))

      Spacer()

      Button {
        model.hint(cell: model.selectedCell)
      } label: {
        Label("Hint", systemImage: "lightbulb")
      }
      .disabled(!model.acceptsInput)

      Button {
        if model.isPaused {
          model.resume()
        } else {
          model.pause()
        }
      } label: {
        Image(systemName: model.isPaused ? "play.fill" : "pause.fill")
      }
      // Before the first move the clock has not started, so there is nothing to pause.
      .disabled(model.board.status != .playing || !model.board.session.hasStarted)
      .accessibilityLabel(model.isPaused ? Text("Resume") : Text("Pause"))
    }
    .font(.subheadline.monospacedDigit())
    .padding(.horizontal)
  }

  /// "x/3" while the limit applies; after "continue" mistakes no longer fail the puzzle, so only the count.
  private var mistakesText: String {
    let board = model.board
    return board.limitsMistakes ? "\(board.mistakes)/\(Board.mistakeLimit)" : "\(board.mistakes)"
  }

  private var grid: some View {
    let puzzle = model.puzzle
    return WordWrapLayout(wordSpacing: 12, lineSpacing: 16) {
      // Each word is one subview of the layout, so a line only ever breaks between words.
      ForEach(puzzle.words, id: \.self) { word in
        HStack(spacing: 2) {
          ForEach(word, id: \.self) { index in
            cellView(puzzle.cells[index])
          }
        }
      }
    }
    .frame(maxWidth: .infinity)
  }

  @ViewBuilder
  private func cellView(_ cell: Puzzle.Cell) -> some View {
    let letterCell = LetterCellView(
      cell: cell,
      foundLetter: model.foundLetter(at: cell.index),
      wrongLetter: model.mistake?.cell == cell.index ? model.mistake?.letter : nil,
      isSelected: model.selectedCell == cell.index,
      isRelated: cell.cipher != nil && cell.cipher == selectedCipher,
      isHinted: model.board.hinted.contains(cell.index),
      // Only letters wiggle, as on the web client; punctuation stays put between them.
      wiggleCell: cell.isLetter && model.wiggleCells.indices.contains(cell.index) ? model.wiggleCells[cell.index] : nil,
      isWiggling: model.isWiggling
    )
    if cell.isLetter {
      Button {
        model.select(cell.index)
      } label: {
        letterCell
      }
      .buttonStyle(.plain)
    } else {
      letterCell
    }
  }

  /// The selected cell's cipher letter, so the other cells that a right guess would fill can be marked.
  private var selectedCipher: Int? {
    guard let selected = model.selectedCell, model.puzzle.cells.indices.contains(selected) else { return nil }
    return model.puzzle.cells[selected].cipher
  }

  private var keyboard: some View {
    let isEnabled = model.acceptsInput && model.selectedCell != nil
    return VStack(spacing: 8) {
      ForEach(Self.keyboardRows, id: \.self) { row in
        HStack(spacing: 4) {
          ForEach(row, id: \.self) { letter in
            Button {
              enter(letter)
            } label: {
              Text(String(letter))
                .font(.system(.title3, design: .rounded).weight(.semibold))
                // Capped so the shorter rows keep key-sized keys (centred) instead of stretching.
                .frame(minWidth: 0, maxWidth: 40, minHeight: 44)
                .background(Color.secondary.opacity(0.15), in: .rect(cornerRadius: 6))
            }
            .buttonStyle(.plain)
          }
        }
      }
    }
    .padding(.horizontal, 4)
    .disabled(!isEnabled)
    // The plain button style does not dim disabled keys by itself.
    .opacity(isEnabled ? 1 : 0.5)
  }

  private func enter(_ letter: Character) {
    guard let cell = model.selectedCell else { return }
    model.guess(cell: cell, letter: letter)
  }

  // MARK: - Panels

  private var pausedPanel: some View {
    VStack(spacing: 16) {
      Image(systemName: "pause.circle.fill")
        .font(.system(size: 40))
        .foregroundStyle(.tint)
        .accessibilityHidden(true)
      Text("Paused")
        .font(.title2.bold())
      Button("Resume") {
        model.resume()
      }
      .buttonStyle(.borderedProminent)
    }
    .padding(24)
    .background(.regularMaterial, in: .rect(cornerRadius: 16))
    .padding()
  }

  private var failedPanel: some View {
    VStack(spacing: 16) {
      Image(systemName: "xmark.octagon.fill")
        .font(.system(size: 40))
        .foregroundStyle(.red)
        .accessibilityHidden(true)
      Text("Out of mistakes")
        .font(.title2.bold())
      Text("Keep going without a limit, start this quote again, or try another.")
        .font(.subheadline)
        .foregroundStyle(.secondary)
        .multilineTextAlignment(.center)
      Button("Continue") {
        model.continuePlaying()
      }
      .buttonStyle(.borderedProminent)
      Button("Try Again") {
        model.restart()
      }
      .buttonStyle(.bordered)
      Button("New Puzzle") {
        model.next()
      }
      .buttonStyle(.bordered)
    }
    .padding(24)
    .background(.regularMaterial, in: .rect(cornerRadius: 16))
    .padding()
  }
}

/// Lays words out left to right and starts a new centred line when the next word does not fit, so a word
/// is never split across lines (a word wider than the whole line gets a line of its own).
struct WordWrapLayout: Layout {
  var wordSpacing: CGFloat
  var lineSpacing: CGFloat

  private struct Item {
    let index: Int
    let size: CGSize
  }

  private struct Line {
    var items: [Item] = []
    var width: CGFloat = 0
    var height: CGFloat = 0
  }

  func sizeThatFits(proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) -> CGSize {
    let lines = breakLines(subviews, maxWidth: proposal.width ?? .infinity)
    let widest = lines.map(\.width).max() ?? 0
    let height = lines.map(\.height).reduce(0, +) + lineSpacing * CGFloat(max(lines.count - 1, 0))
    // Taking the whole proposed width lets `placeSubviews` break lines exactly where this measured them
    // and centre each line in it; an unbounded proposal (a size probe) gets the content's own width.
    let width = proposal.width.flatMap { $0.isFinite ? max($0, widest) : nil } ?? widest
    return CGSize(width: width, height: height)
  }

  func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Subviews, cache: inout ()) {
    var y = bounds.minY
    for line in breakLines(subviews, maxWidth: bounds.width) {
      var x = bounds.minX + max(0, (bounds.width - line.width) / 2)
      for item in line.items {
        subviews[item.index].place(at: CGPoint(x: x, y: y), anchor: .topLeading, proposal: ProposedViewSize(item.size))
        x += item.size.width + wordSpacing
      }
      y += line.height + lineSpacing
    }
  }

  /// Greedy line breaking: each word goes on the current line if it fits, else it starts the next one.
  private func breakLines(_ subviews: Subviews, maxWidth: CGFloat) -> [Line] {
    var lines: [Line] = []
    var current = Line()
    for index in subviews.indices {
      let size = subviews[index].sizeThatFits(.unspecified)
      if !current.items.isEmpty, current.width + wordSpacing + size.width > maxWidth {
        lines.append(current)
        current = Line()
      }
      current.width += (current.items.isEmpty ? 0 : wordSpacing) + size.width
      current.height = max(current.height, size.height)
      current.items.append(Item(index: index, size: size))
    }
    if !current.items.isEmpty {
      lines.append(current)
    }
    return lines
  }
}

#Preview("Playing") {
  CryptogramPuzzleView(
    model: CryptogramGameModel(
      puzzle: Puzzle(
        quote: Quote(
          text: "The only thing we have to fear is fear itself.",
          author: "Franklin D. Roosevelt",
          year: 1933,
          source: "First Inaugural Address"
        ),
        seed: 7
      )
    )
  )
}
#endif
