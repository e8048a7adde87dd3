#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI

/// Würfel: tap the die, it tumbles for the catalog's `kidsDieTumble` step, then tap the number it shows. The
/// number buttons wait for the roll and the tumble (`model.isDieTumbling`); after a wrong tap the right one
/// glows (`model.highlightedNumber`). The face is the server's (`level.askedNumber` once `level.rolled`).
struct WuerfelView: View {
  let model: WaldabenteuerModel
  let level: KidsLevelView
  let acceptsInput: Bool

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  var body: some View {
    let canAnswer = acceptsInput && level.rolled && !model.isDieTumbling
    let tumble = model.motion("kidsDieTumble", step: "die")
    HStack(spacing: 72) {
      Button {
        model.rollDie()
      } label: {
        DieFace(value: level.rolled && !model.isDieTumbling ? level.askedNumber : nil, side: 220)
          .modifier(DieTumble(step: tumble, rolls: reduceMotion ? 0 : model.dieRolls))
      }
      .buttonStyle(.kidsPress)
      .disabled(level.rolled || !acceptsInput)
      .accessibilityLabel(dieLabel)

      NumberPad(
        rows: level.numberRows, side: 120, isGlowing: { model.highlightedNumber == $0 }, isEnabled: canAnswer
      ) { number in
        model.tapNumber(number)
      }
    }
  }
}

extension WuerfelView {
  /// What VoiceOver says about the die, as the web page words it.
  var dieLabel: String {
    level.rolled ? "Der Würfel zeigt \(level.askedNumber ?? 0)" : "Würfel werfen"
  }
}

/// The die's calm tumble: one full turn, swelling to the step's scale on the way, in the step's curve and
/// time, each time `rolls` goes up.
struct DieTumble: ViewModifier {
  let step: StepPayload?
  let rolls: Int

  func body(content: Content) -> some View {
    // Plain values for the keyframes and the frame closure.
    let swell = step?.from.scale ?? 1
    let duration = step?.duration ?? 0
    content
      .keyframeAnimator(initialValue: 1.0, trigger: step == nil ? 0 : rolls) { view, progress in
        view
          .rotationEffect(.degrees(progress * 360))
          .scaleEffect(CGFloat(1 + (swell - 1) * sin(progress * .pi)))
      } keyframes: { _ in
        KeyframeTrack {
          MoveKeyframe(0.0)
          CubicKeyframe(1.0, duration: duration)
        }
      }
  }
}

/// A die showing `value` as pips, or a calm "?" before the roll (and while it tumbles).
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
          Text(verbatim: "?")
            .font(KidsFont.number(size: side * 0.4))
            .foregroundStyle(KidsPalette.woodMid.opacity(0.6))
        }
      }
      .frame(width: side, height: side)
      .shadow(color: KidsPalette.woodDark.opacity(0.3), radius: 8, y: 5)
  }

  /// Pip positions on a 3×3 grid (column, row; 0…2): how a die face looks.
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

#Preview("Die faces") {
  HStack(spacing: 24) {
    DieFace(value: nil, side: 120)
    DieFace(value: 3, side: 120)
    DieFace(value: 6, side: 120)
  }
  .padding(40)
  .background(KidsPalette.sky)
}
#endif
