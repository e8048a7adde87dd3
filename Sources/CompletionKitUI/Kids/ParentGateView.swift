#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// "Elternbereich": the math question in front of the parent area ("A + B = ?", both between 5 and 15), a
/// number pad for up to two digits, "Abbrechen" and "Bestätigen". A wrong answer shows "Versuch es nochmal"
/// for two seconds and clears the input; after three the question changes (all decided by the machine).
public struct ParentGateView: View {
  let model: KidsGameModel

  /// Side of a number-pad key.
  static let keySide: CGFloat = 96

  /// The gate for `model`.
  public init(model: KidsGameModel) {
    self.model = model
  }

  public var body: some View {
    let gate = model.machine.navigation.gate
    let input = gate?.input ?? ""
    ZStack {
      KidsPalette.cream
        .ignoresSafeArea()
      HStack(spacing: 72) {
        VStack(alignment: .leading, spacing: 24) {
          Text(ScreenText.parentArea.text())
            .font(KidsFont.title)
            .accessibilityAddTraits(.isHeader)
          Text(ScreenText.gatePrompt.text())
            .font(KidsFont.body)
          Text(gate?.question.text ?? "")
            .font(KidsFont.number)
            .monospacedDigit()
          inputField(input)
          Text(model.gateMessage ?? " ")
            .font(KidsFont.body)
            .foregroundStyle(KidsPalette.parentDanger)
            .opacity(model.gateMessage == nil ? 0 : 1)
            .accessibilityHidden(model.gateMessage == nil)
          HStack(spacing: 20) {
            Button {
              model.send(.back)
            } label: {
              Text(ScreenText.gateCancel.text())
                .font(KidsFont.button)
                .foregroundStyle(KidsPalette.woodDark)
                .padding(.horizontal, 28)
                .frame(minHeight: KidsMetrics.minTouch)
                .background(KidsPalette.pathStone.opacity(0.5), in: .capsule)
            }
            .buttonStyle(.kidsPress)
            Button {
              model.send(.gateConfirm)
            } label: {
              Text(ScreenText.gateConfirm.text())
                .font(KidsFont.button)
                .foregroundStyle(KidsPalette.cream)
                .padding(.horizontal, 28)
                .frame(minHeight: KidsMetrics.minTouch)
                .background(KidsPalette.woodland, in: .capsule)
            }
            .buttonStyle(.kidsPress)
            .disabled(input.isEmpty)
            .opacity(input.isEmpty ? 0.6 : 1)
          }
        }
        .foregroundStyle(KidsPalette.ink)
        numberPad(isFull: input.count >= ParentGate.maxDigits)
      }
      .padding(KidsMetrics.screenPadding)
    }
  }

  /// One box per digit the gate takes.
  private func inputField(_ input: String) -> some View {
    let digits = Array(input)
    return HStack(spacing: 12) {
      ForEach(0..<ParentGate.maxDigits, id: \.self) { index in
        Text(index < digits.count ? String(digits[index]) : " ")
          .font(KidsFont.number)
          .frame(width: 84, height: 96)
          .background(KidsPalette.lightRays.opacity(0.6), in: .rect(cornerRadius: 16, style: .continuous))
          .overlay {
            RoundedRectangle(cornerRadius: 16, style: .continuous)
              .strokeBorder(KidsPalette.woodMid, lineWidth: 3)
          }
      }
    }
    .accessibilityElement(children: .ignore)
    .accessibilityValue(input)
  }

  /// 1–9, erase, 0.
  private func numberPad(isFull: Bool) -> some View {
    Grid(horizontalSpacing: 16, verticalSpacing: 16) {
      ForEach([[1, 2, 3], [4, 5, 6], [7, 8, 9]], id: \.self) { row in
        GridRow {
          ForEach(row, id: \.self) { digit in
            digitKey(digit, isFull: isFull)
          }
        }
      }
      GridRow {
        Button {
          model.send(.gateErase)
        } label: {
          Image(systemName: "delete.backward.fill")
            .font(.system(size: 34, weight: .semibold))
            .frame(width: Self.keySide, height: Self.keySide)
            .background(KidsPalette.pathStone.opacity(0.5), in: .rect(cornerRadius: 20, style: .continuous))
        }
        .buttonStyle(.kidsPress)
        digitKey(0, isFull: isFull)
        Color.clear
          .frame(width: Self.keySide, height: Self.keySide)
      }
    }
    .foregroundStyle(KidsPalette.woodDark)
  }

  private func digitKey(_ digit: Int, isFull: Bool) -> some View {
    Button {
      model.send(.gateDigit(digit))
    } label: {
      Text(verbatim: "\(digit)")
        .font(KidsFont.number(size: 40))
        .frame(width: Self.keySide, height: Self.keySide)
        .background(KidsPalette.woodLight.opacity(0.6), in: .rect(cornerRadius: 20, style: .continuous))
    }
    .buttonStyle(.kidsPress)
    .disabled(isFull)
  }
}

#Preview("Parent gate") {
  ParentGateView(model: .previewHome(then: [.tapSettings]))
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
