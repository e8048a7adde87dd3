#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// Würfel: tap the die, it tumbles for half a second, then tap the number it shows. The number buttons wait
/// for the roll; after a wrong tap the right one keeps glowing (the machine's `highlightNumber`).
struct WuerfelView: View {
  let model: KidsGameModel
  let dice: DiceRound

  /// Number buttons per row.
  static let buttonsPerRow = 3

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  @State private var tumbleTurns = 0.0

  var body: some View {
    let canAnswer = dice.rolled != nil && !model.isDieTumbling
    HStack(spacing: 72) {
      Button {
        model.rollDie()
      } label: {
        DieFace(value: model.isDieTumbling ? nil : dice.rolled, side: 220)
          .rotationEffect(.degrees(tumbleTurns * 360))
      }
      .buttonStyle(.kidsPress)
      .disabled(dice.rolled != nil)
      .accessibilityLabel(SubActivity.wuerfel.title)
      .accessibilityValue(dice.rolled.map { String($0) } ?? "")

      Grid(horizontalSpacing: 20, verticalSpacing: 20) {
        ForEach(Self.rows, id: \.self) { row in
          GridRow {
            ForEach(row, id: \.self) { number in
              Button {
                model.tapNumber(number)
              } label: {
                NumberTile(number: number, isGlowing: model.highlightedNumber == number, side: 120)
              }
              .buttonStyle(.kidsPress)
              .disabled(!canAnswer)
              .opacity(canAnswer ? 1 : 0.6)
            }
          }
        }
      }
    }
    .onChange(of: model.dieRolls) {
      // One full turn over the tumble; under Reduce Motion the face just appears when it is over.
      withAnimation(KidsMotion.curve(.easeOut, duration: DiceRound.tumbleSeconds, reduceMotion: reduceMotion)) {
        tumbleTurns += 1
      }
    }
  }

  /// The faces 1…6 in rows of three.
  static var rows: [[Int]] {
    let faces = Array(DiceRound.faces)
    return stride(from: 0, to: faces.count, by: buttonsPerRow).map {
      Array(faces[$0..<min($0 + buttonsPerRow, faces.count)])
    }
  }
}

/// A die showing `value` as pips, or an inviting tap symbol before the roll (and while it tumbles).
struct DieFace: View {
  let value: Int?
  var side: CGFloat = 220

  var body: some View {
    RoundedRectangle(cornerRadius: side * 0.18, style: .continuous)
      .fill(KidsPalette.cream)
      .overlay {
        RoundedRectangle(cornerRadius: side * 0.18, style: .continuous)
          .strokeBorder(KidsPalette.woodDark, lineWidth: side * 0.03)
      }
      .overlay {
        if let value {
          ZStack {
            ForEach(Array(Self.pips(for: value).enumerated()), id: \.offset) { _, pip in
              Circle()
                .fill(KidsPalette.bennieNose)
                .frame(width: side * 0.17, height: side * 0.17)
                .offset(x: CGFloat(pip.column - 1) * side * 0.28, y: CGFloat(pip.row - 1) * side * 0.28)
            }
          }
        } else {
          Image(systemName: "hand.tap.fill")
            .font(.system(size: side * 0.3))
            .foregroundStyle(KidsPalette.woodMid.opacity(0.6))
        }
      }
      .frame(width: side, height: side)
      .shadow(color: KidsPalette.woodDark.opacity(0.3), radius: 8, y: 5)
  }

  /// Pip positions on a 3×3 grid (column, row; 0…2).
  static func pips(for value: Int) -> [(column: Int, row: Int)] {
    switch value {
    case 1: [(1, 1)]
    case 2: [(0, 0), (2, 2)]
    case 3: [(0, 0), (1, 1), (2, 2)]
    case 4: [(0, 0), (2, 0), (0, 2), (2, 2)]
    case 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)]
    case 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]
    default: []
    }
  }
}
#endif
