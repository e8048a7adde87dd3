#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import CompletionCore
import SwiftUI

/// The cryptogram's playing screen: counters, the clock, hint and pause, the enciphered quote wrapped by
/// word, a letter keyboard, the failed and paused panels, and the completion screen of seed 000 over it.
///
/// Everything it shows is the server's board as `model.game` holds it; every key and button is a call on the
/// model, which sends it to the server. The wiggle and the celebration play on the model's clock
/// (`wiggleOffset(of:)`, `celebrationAppearance(of:)`); this view only asks for frames while they move.
public struct CryptogramPuzzleView: View {
  private let model: CryptogramModel

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  @FocusState private var isBoardFocused: Bool

  private static let keyboardRows: [[Character]] = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"].map { Array($0) }

  /// A screen playing `model`'s puzzle.
  public init(model: CryptogramModel) {
    self.model = model
  }

  /// The puzzle, with the completion screen over it once solved.
  public var body: some View {
    ZStack {
      if let game = model.game {
        playingScreen(game)
          // Under the completion screen the board takes no taps and is not read out.
          .allowsHitTesting(!model.isSolved)
          .accessibilityHidden(model.isSolved)

        if model.isSolved {
          PuzzleCompletionView(model: model)
            .transition(.identity)
        }
      } else if let problem = model.problem {
        problemPanel(problem)
      } else {
        ProgressView()
      }
    }
  }

  // MARK: - Playing

  private func playingScreen(_ game: CryptogramGameView) -> some View {
    VStack(spacing: 16) {
      header(game)

      if let problem = model.problem {
        Text(problem)
          .font(.footnote)
          .foregroundStyle(.secondary)
          .padding(.horizontal)
          .transition(.opacity)
      }

      ZStack {
        ScrollView {
          wigglingGrid(game)
            .padding()
        }
        // Hidden while paused so a pause cannot be used to study the puzzle off the clock.
        .opacity(isPausedWhilePlaying(game) ? 0 : 1)

        switch game.status {
        case "failed":
          failedPanel
        case "abandoned":
          abandonedPanel
        default:
          if isPausedWhilePlaying(game) { pausedPanel }
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
    .onKeyPress(.leftArrow) {
      model.moveSelection(forward: false)
      return .handled
    }
    .onKeyPress(.rightArrow) {
      model.moveSelection(forward: true)
      return .handled
    }
    .onAppear {
      isBoardFocused = true
    }
  }

  private func isPausedWhilePlaying(_ game: CryptogramGameView) -> Bool {
    game.isPaused && game.status == "playing"
  }

  private func header(_ game: CryptogramGameView) -> some View {
    HStack(spacing: 16) {
      Label {
        Text(verbatim: mistakesText(game))
      } icon: {
        Image(systemName: "exclamationmark.triangle")
      }
      .foregroundStyle(game.mistakes > 0 ? Color.red : Color.secondary)
      .accessibilityLabel(Text("Mistakes: \(mistakesText(game))"))

      Label {
        Text(verbatim: String(game.hints))
      } icon: {
        Image(systemName: "lightbulb.fill")
      }
      .foregroundStyle(.secondary)
      .accessibilityLabel(Text("Hints used: \(game.hints)"))

      playClock(game)

      Spacer()

      Button {
        model.hint()
      } label: {
        Label("Hint", systemImage: "lightbulb")
      }
      .disabled(!model.acceptsInput)

      Button {
        if game.isPaused {
          model.resume()
        } else {
          model.pause()
        }
      } label: {
        Image(systemName: game.isPaused ? "play.fill" : "pause.fill")
      }
      // Before the first move the clock has not started, so there is nothing to pause.
      .disabled(game.status != "playing" || !game.hasStarted)
      .accessibilityLabel(game.isPaused ? Text("Resume") : Text("Pause"))
    }
    .font(.subheadline.monospacedDigit())
    .padding(.horizontal)
  }

  /// The play time: the server's seconds, run on by the model's clock between answers. It is redrawn about
  /// once a second while the puzzle's clock runs, and stands still otherwise.
  private func playClock(_ game: CryptogramGameView) -> some View {
    let running = game.status == "playing" && game.hasStarted && !game.isPaused
    return TimelineView(.animation(minimumInterval: 0.5, paused: !running)) { _ in
      Label {
        Text(verbatim: model.formattedTime)
      } icon: {
        Image(systemName: "clock")
      }
      .foregroundStyle(.secondary)
      .accessibilityLabel(Text("Time: \(model.formattedTime)"))
    }
  }

  /// "x / 3" while the limit applies; after "continue" mistakes no longer fail the puzzle, so only the count.
  private func mistakesText(_ game: CryptogramGameView) -> String {
    game.mistakeLimit.map { "\(game.mistakes) / \($0)" } ?? "\(game.mistakes)"
  }

  /// The grid, redrawn every frame while the solving wiggle plays (each cell's offset comes from the model).
  private func wigglingGrid(_ game: CryptogramGameView) -> some View {
    TimelineView(.animation(paused: !model.isWiggling || reduceMotion)) { _ in
      grid(game)
    }
  }

  private func grid(_ game: CryptogramGameView) -> some View {
    let selectedCipher = model.selectedCell.flatMap { game.cells.indices.contains($0) ? game.cells[$0].cipher : nil }
    return WordWrapLayout(wordSpacing: 12, lineSpacing: 16) {
      // Each word is one subview of the layout, so a line only ever breaks between words.
      ForEach(game.words, id: \.self) { word in
        HStack(spacing: 2) {
          ForEach(word.filter { game.cells.indices.contains($0) }, id: \.self) { index in
            cellView(game.cells[index], selectedCipher: selectedCipher)
          }
        }
      }
    }
    .frame(maxWidth: .infinity)
  }

  @ViewBuilder
  private func cellView(_ cell: CryptogramCellView, selectedCipher: String?) -> some View {
    let isSelected = model.selectedCell == cell.index
    let letterCell = LetterCellView(
      cell: cell,
      wrongLetter: model.mistake?.cell == cell.index ? model.mistake?.letter : nil,
      isSelected: isSelected,
      isRelated: !isSelected && cell.cipher != nil && cell.cipher == selectedCipher,
      // Only letters wiggle, as on the web client; the wiggle is decorative, so Reduce Motion keeps it still.
      wiggleOffset: cell.isLetter && !reduceMotion ? model.wiggleOffset(of: cell.index) : 0
    )
    if cell.isLetter, cell.shown == nil {
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

  private var keyboard: some View {
    let isEnabled = model.acceptsInput && !model.emptyCells.isEmpty
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

  /// Types `letter` (as a capital: the keyboard's letters are capitals) into the selected cell.
  private func enter(_ letter: Character) {
    guard let capital = letter.uppercased().first else { return }
    model.type(capital)
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
    .disabled(model.isSending)
    .padding(24)
    .background(.regularMaterial, in: .rect(cornerRadius: 16))
    .padding()
  }

  /// A failed puzzle that was left: only a new one can follow.
  private var abandonedPanel: some View {
    VStack(spacing: 16) {
      Text("This puzzle is over")
        .font(.title2.bold())
      Button("New Puzzle") {
        model.next()
      }
      .buttonStyle(.borderedProminent)
    }
    .disabled(model.isSending)
    .padding(24)
    .background(.regularMaterial, in: .rect(cornerRadius: 16))
    .padding()
  }

  /// Nothing loaded, and the server said why (or could not be reached): the reason and a way to try again.
  private func problemPanel(_ problem: String) -> some View {
    VStack(spacing: 16) {
      Text(problem)
        .multilineTextAlignment(.center)
      Button("Try Again") {
        model.open()
      }
      .buttonStyle(.borderedProminent)
      .disabled(model.isSending)
    }
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

#endif
