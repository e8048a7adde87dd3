#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import SwiftUI

/// "Elternbereich": the math question the server sets in front of the parent area (`view.gate.question`,
/// "7 + 12 = ?"), the digits typed so far (`view.gate.input`), a number pad, "Abbrechen" and "Bestätigen".
/// Every key is sent; the server keeps the input, checks the answer, and on a wrong one the model shows
/// "Versuch es nochmal" for the server's seconds (`model.gateMessage`) while the server clears the input and,
/// after three, changes the question.
public struct ParentGateView: View {
  let model: WaldabenteuerModel

  /// Side of a number-pad key.
  static let keySide: CGFloat = 96

  /// The gate for `model`.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The question, the input, the message, the buttons and the keypad.
  public var body: some View {
    let gate = model.view?.gate
    let input = gate?.input ?? ""
    ZStack {
      KidsPalette.cream
        .ignoresSafeArea()
      HStack(spacing: 72) {
        VStack(alignment: .leading, spacing: 24) {
          Text(model.text("parentArea"))
            .font(KidsFont.title)
            .accessibilityAddTraits(.isHeader)
          Text(model.text("gatePrompt"))
            .font(KidsFont.body)
          Text(gate?.question ?? "")
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
              model.back()
            } label: {
              Text(model.text("gateCancel"))
                .font(KidsFont.button)
                .foregroundStyle(KidsPalette.woodDark)
                .padding(.horizontal, 28)
                .frame(minHeight: KidsMetrics.minTouch)
                .background(KidsPalette.pathStone.opacity(0.5), in: .capsule)
            }
            .buttonStyle(.kidsPress)
            Button {
              model.gateConfirm()
            } label: {
              Text(model.text("gateConfirm"))
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
        numberPad
      }
      .padding(KidsMetrics.screenPadding)
    }
  }

  /// The digits typed so far, in one box (how many the gate takes is the server's to refuse beyond).
  private func inputField(_ input: String) -> some View {
    Text(input.isEmpty ? " " : input)
      .font(KidsFont.number)
      .monospacedDigit()
      .frame(minWidth: 180, minHeight: 96)
      .padding(.horizontal, 16)
      .background(KidsPalette.lightRays.opacity(0.6), in: .rect(cornerRadius: 16, style: .continuous))
      .overlay {
        RoundedRectangle(cornerRadius: 16, style: .continuous)
          .strokeBorder(KidsPalette.woodMid, lineWidth: 3)
      }
      .accessibilityElement(children: .ignore)
      .accessibilityLabel("Eingabe")
      .accessibilityValue(input)
  }

  /// 1–9, erase, 0.
  private var numberPad: some View {
    Grid(horizontalSpacing: 16, verticalSpacing: 16) {
      ForEach([[1, 2, 3], [4, 5, 6], [7, 8, 9]], id: \.self) { row in
        GridRow {
          ForEach(row, id: \.self) { digit in
            digitKey(digit)
          }
        }
      }
      GridRow {
        Button {
          model.gateErase()
        } label: {
          Image(systemName: "delete.backward.fill")
            .font(.system(size: 34, weight: .semibold))
            .frame(width: Self.keySide, height: Self.keySide)
            .background(KidsPalette.pathStone.opacity(0.5), in: .rect(cornerRadius: 20, style: .continuous))
        }
        .buttonStyle(.kidsPress)
        .accessibilityLabel("Löschen")
        digitKey(0)
        Color.clear
          .frame(width: Self.keySide, height: Self.keySide)
      }
    }
    .foregroundStyle(KidsPalette.woodDark)
  }

  private func digitKey(_ digit: Int) -> some View {
    Button {
      model.gateDigit(digit)
    } label: {
      Text(verbatim: "\(digit)")
        .font(KidsFont.number(size: 40))
        .frame(width: Self.keySide, height: Self.keySide)
        .background(KidsPalette.woodLight.opacity(0.6), in: .rect(cornerRadius: 20, style: .continuous))
    }
    .buttonStyle(.kidsPress)
  }
}
#endif
