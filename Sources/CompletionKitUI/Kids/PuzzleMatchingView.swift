#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import SwiftUI

/// Puzzle Matching: copy the ZIEL grid into the DU grid with the leaves the server offers (`level.puzzle`).
/// The leaf (or the eraser) in the child's hand is this screen's own state; every cell tap is sent
/// (`paintCell` with the colour, `eraseCell`), and the server answers with the grid, the live matches
/// (`puzzle.matches`, a soft glow) and, when asked for, a hint (`model.hintedCell` glows gold). "Neu anfangen"
/// asks first, then sends `resetPuzzle`.
///
/// The screen also tells the server how large a grid it holds with child-sized cells (`screenFits`), so
/// later levels stay within it.
struct PuzzleMatchingView: View {
  let model: WaldabenteuerModel
  let level: KidsLevelView
  let acceptsInput: Bool

  /// A leaf colour's id, or ``eraser``; nil means the level's first colour.
  @State private var tool: String?
  @State private var isConfirmingReset = false
  /// The grid size last reported, so a resize that changes nothing sends nothing.
  @State private var reportedFit: Int?

  /// The eraser's tool id (never a leaf's: the server's leaf ids are colour names).
  static let eraser = "eraser"

  var body: some View {
    if let puzzle = level.puzzle {
      let chosen = chosenTool(in: puzzle)
      VStack(spacing: 20) {
        GeometryReader { proxy in
          // Two square grids side by side, the room between them kept for the gap.
          let side = max(0, min((proxy.size.width - 40) / 2, proxy.size.height - 56))
          HStack(alignment: .top, spacing: 40) {
            board(title: model.text("puzzleTarget"), cells: puzzle.target, puzzle: puzzle, side: side, isYours: false)
            board(title: model.text("puzzleYours"), cells: puzzle.cells, puzzle: puzzle, side: side, isYours: true, tool: chosen)
          }
          .frame(width: proxy.size.width, height: proxy.size.height)
          .onChange(of: Int(side / KidsMetrics.minTouch), initial: true) { _, fits in
            report(fits: max(1, fits))
          }
        }
        picker(puzzle, chosen: chosen)
      }
      .confirmationDialog("Neu anfangen?", isPresented: $isConfirmingReset, titleVisibility: .visible) {
        Button("Neu anfangen", role: .destructive) {
          model.send("resetPuzzle")
        }
        Button(model.text("gateCancel"), role: .cancel) {}
      } message: {
        Text("Alle Blätter kommen weg.")
      }
      .onChange(of: level.level) {
        // Each level starts with the first colour in hand.
        tool = nil
      }
    }
  }

  /// The tool in hand: the chosen one while the level offers it, else the first leaf.
  private func chosenTool(in puzzle: KidsPuzzleView) -> String? {
    if let tool, tool == Self.eraser || puzzle.leaves.contains(where: { $0.id == tool }) { return tool }
    return puzzle.leaves.first?.id
  }

  private func board(
    title: String, cells: [String?], puzzle: KidsPuzzleView, side: CGFloat, isYours: Bool, tool: String? = nil
  ) -> some View {
    let size = max(1, puzzle.size)
    let cellSide = side / CGFloat(size)
    return VStack(spacing: 12) {
      Text(title)
        .font(KidsFont.button)
        .foregroundStyle(KidsPalette.woodDark)
        .padding(.horizontal, 24)
        .padding(.vertical, 6)
        .background { WoodSurface() }
        .accessibilityAddTraits(.isHeader)
      Grid(horizontalSpacing: 0, verticalSpacing: 0) {
        ForEach(0..<size, id: \.self) { row in
          GridRow {
            ForEach(0..<size, id: \.self) { column in
              let index = row * size + column
              cell(index, leaf: cells.indices.contains(index) ? cells[index] : nil, puzzle: puzzle, side: cellSide, isYours: isYours, tool: tool)
            }
          }
        }
      }
      .frame(width: side, height: side)
      .background(KidsPalette.cream.opacity(0.9), in: .rect(cornerRadius: 16, style: .continuous))
      .overlay {
        RoundedRectangle(cornerRadius: 16, style: .continuous)
          .strokeBorder(KidsPalette.woodMid, lineWidth: 3)
      }
      .accessibilityElement(children: .contain)
      .accessibilityLabel(title)
    }
  }

  @ViewBuilder
  private func cell(_ index: Int, leaf id: String?, puzzle: KidsPuzzleView, side: CGFloat, isYours: Bool, tool: String?) -> some View {
    let leaf = puzzle.leaves.first { $0.id == id }
    let isMatch = isYours && leaf != nil && puzzle.matches.indices.contains(index) && puzzle.matches[index]
    let isHint = model.hintedCell == index
    let label = "Reihe \(index / max(1, puzzle.size) + 1), Feld \(index % max(1, puzzle.size) + 1): \(leaf?.label ?? "leer")"
    let face = LeafCell(leaf: leaf, isMatch: isMatch, isHint: isHint)
      .frame(width: side, height: side)
    if isYours {
      Button {
        guard let tool else { return }
        if tool == Self.eraser {
          model.send("eraseCell") { $0.cell = index }
        } else {
          model.send("paintCell") {
            $0.cell = index
            $0.colour = tool
          }
        }
      } label: {
        face
      }
      .buttonStyle(.plain)
      .disabled(!acceptsInput)
      .accessibilityLabel(label)
    } else {
      face
        .accessibilityElement()
        .accessibilityLabel(label)
    }
  }

  private func picker(_ puzzle: KidsPuzzleView, chosen: String?) -> some View {
    HStack(spacing: 20) {
      ForEach(puzzle.leaves, id: \.id) { leaf in
        toolButton(id: leaf.id, label: "Blatt \(leaf.label)", chosen: chosen) {
          LeafShape()
            .fill(Color(kidsHexString: leaf.hex) ?? KidsPalette.woodland)
            .padding(14)
        }
      }
      Spacer().frame(width: 24)
      toolButton(id: Self.eraser, label: "Radiergummi", chosen: chosen) {
        Image(systemName: "eraser.fill")
          .font(.system(size: 40, weight: .semibold))
          .foregroundStyle(KidsPalette.woodDark)
      }
      WoodenIconButton(systemImage: "arrow.counterclockwise", label: "Neu anfangen") {
        isConfirmingReset = true
      }
      .disabled(!acceptsInput)
    }
    .disabled(!acceptsInput)
  }

  private func toolButton<Face: View>(id: String, label: String, chosen: String?, @ViewBuilder face: () -> Face) -> some View {
    let isChosen = chosen == id
    let drawn = face()
    return Button {
      tool = id
    } label: {
      drawn
        .frame(width: KidsMetrics.minTouch, height: KidsMetrics.minTouch)
        .background(KidsPalette.cream, in: .circle)
        .overlay {
          Circle().strokeBorder(isChosen ? KidsPalette.coinGold : KidsPalette.woodLight, lineWidth: isChosen ? 6 : 3)
        }
    }
    .buttonStyle(.kidsPress)
    .accessibilityLabel(label)
    .accessibilityAddTraits(isChosen ? .isSelected : [])
  }

  /// Tells the server the largest grid this screen holds with child-sized cells, once per change.
  private func report(fits: Int) {
    guard fits != reportedFit else { return }
    reportedFit = fits
    model.send("screenFits") { $0.number = fits }
  }
}

/// One cell: a leaf in its colour (or empty), softly glowing when it matches ZIEL, gold while hinted.
struct LeafCell: View {
  let leaf: KidsPuzzleView.Leaf?
  let isMatch: Bool
  let isHint: Bool

  var body: some View {
    ZStack {
      Rectangle()
        .strokeBorder(KidsPalette.woodLight.opacity(0.6), lineWidth: 1)
      if let leaf {
        LeafShape()
          .fill(Color(kidsHexString: leaf.hex) ?? KidsPalette.woodland)
          .padding(8)
          .transition(.opacity)
      }
    }
    .background(isMatch ? KidsPalette.success.opacity(0.35) : Color.clear)
    .overlay {
      if isHint {
        Rectangle().strokeBorder(KidsPalette.coinGold, lineWidth: 6)
      }
    }
    .contentShape(.rect)
  }
}

/// A leaf: pointed at the top, round at the bottom (the web page's leaf, drawn in a unit box).
struct LeafShape: Shape {
  nonisolated func path(in rect: CGRect) -> Path {
    let w = rect.width
    let h = rect.height
    let x = rect.minX
    let y = rect.minY
    var path = Path()
    path.move(to: CGPoint(x: x + 0.5 * w, y: y + 0.08 * h))
    path.addCurve(
      to: CGPoint(x: x + 0.5 * w, y: y + 0.92 * h), control1: CGPoint(x: x + 0.95 * w, y: y + 0.3 * h),
      control2: CGPoint(x: x + 0.85 * w, y: y + 0.85 * h))
    path.addCurve(
      to: CGPoint(x: x + 0.5 * w, y: y + 0.08 * h), control1: CGPoint(x: x + 0.15 * w, y: y + 0.85 * h),
      control2: CGPoint(x: x + 0.05 * w, y: y + 0.3 * h))
    path.closeSubpath()
    return path
  }
}
#endif
