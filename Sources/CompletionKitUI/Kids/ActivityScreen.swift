#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import CompletionCore
import SwiftUI

/// An activity: the top bar (home, coin bar, sound), the game the server's level names, and Bennie with his
/// bubble. The same screen stays up through the level-complete moment and under the celebration overlay,
/// which is drawn over the activity dimmed to 40 % with a 10 pt blur, so the child keeps seeing what they
/// just did. Only while the server says "playing" does the game take taps.
public struct ActivityScreen: View {
  let model: WaldabenteuerModel

  /// Brightness left to the activity under the celebration (40 %).
  static let dimmedBrightness = 0.4
  /// Blur under the celebration.
  static let celebrationBlur: CGFloat = 10

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// The activity `model` is playing.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The activity, with the celebration over it while the server shows one.
  public var body: some View {
    let isCelebrating = model.isCelebrating
    let exit = model.motion("kidsCelebrationExit", step: "card")
    ZStack {
      activity(acceptsInput: model.view?.screen == "playing")
        .blur(radius: isCelebrating ? Self.celebrationBlur : 0)
        .overlay {
          if isCelebrating {
            KidsPalette.dim
              .opacity(1 - Self.dimmedBrightness)
              .ignoresSafeArea()
              // The dim fades in on the catalog's "dim" step.
              .transition(.appearance(from: model.motion("kidsCelebration", step: "dim")?.from ?? .identity))
          }
        }
        // Under the overlay nothing of the activity reacts, nor is it read out.
        .allowsHitTesting(!isCelebrating)
        .accessibilityHidden(isCelebrating)
      if isCelebrating {
        CelebrationOverlay(model: model)
          // Enters with its own step (inside the overlay); leaves on the catalog's exit step.
          .transition(reduceMotion ? .identity : .appearance(to: exit?.to ?? .identity))
      }
    }
    .animation(KidsMotion.animation(isCelebrating ? model.motion("kidsCelebration", step: "dim") : exit, reduceMotion: reduceMotion), value: isCelebrating)
  }

  private func activity(acceptsInput: Bool) -> some View {
    ZStack {
      ForestBackground()
      VStack(spacing: 16) {
        HStack(alignment: .top) {
          HomeButton(model: model)
          BackButton(model: model)
          Spacer()
          CoinProgressBar(model: model)
          Spacer()
          SoundButton(model: model)
        }
        HStack(alignment: .bottom, spacing: 16) {
          BennieColumn(model: model)
          gameContent(acceptsInput: acceptsInput)
            .frame(maxWidth: .infinity, maxHeight: .infinity)
            // During the moment after a solved level the game rests; the top bar still works.
            .allowsHitTesting(acceptsInput)
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }

  @ViewBuilder
  private func gameContent(acceptsInput: Bool) -> some View {
    if let level = model.view?.level {
      switch level.game {
      case "wuerfel":
        WuerfelView(model: model, level: level, acceptsInput: acceptsInput)
      case "waehleDieZahl":
        WaehleDieZahlView(model: model, level: level, acceptsInput: acceptsInput)
      case "puzzleMatching":
        PuzzleMatchingView(model: model, level: level, acceptsInput: acceptsInput)
      case "labyrinth":
        LabyrinthView(model: model, level: level, acceptsInput: acceptsInput)
      default:
        // A game this app does not draw yet: Bennie and the top bar stay, the child can go back.
        Color.clear
      }
    } else {
      Color.clear
    }
  }
}

/// Bennie standing at the left of an activity with his bubble above him.
struct BennieColumn: View {
  let model: WaldabenteuerModel

  var body: some View {
    VStack(alignment: .leading, spacing: 8) {
      Spacer(minLength: 0)
      SpeechBubble(
        line: model.bubbleLine, pop: model.motion("kidsSpeechBubble", step: "bubble"),
        secondsPerCharacter: model.catalog?.timing.typewriterSecondsPerCharacter, maxWidth: 260)
      BennieView(height: 170)
    }
    .frame(width: 270, alignment: .leading)
  }
}

/// A number on a wooden tile: a die button, or a number on the tablet. Glowing gold marks the answer.
struct NumberTile: View {
  let number: Int
  var isGlowing = false
  var side: CGFloat = 120

  var body: some View {
    Text(verbatim: "\(number)")
      .font(KidsFont.number(size: side * 0.5))
      .foregroundStyle(KidsPalette.woodDark)
      .frame(width: side, height: side)
      .background { WoodSurface(cornerRadius: side * 0.2) }
      .overlay {
        RoundedRectangle(cornerRadius: side * 0.2, style: .continuous)
          .strokeBorder(KidsPalette.coinGold, lineWidth: isGlowing ? 6 : 0)
      }
      .shadow(color: KidsPalette.coinGold.opacity(isGlowing ? 0.9 : 0), radius: isGlowing ? 18 : 0)
      .accessibilityLabel(Text(verbatim: "Zahl \(number)"))
  }
}

/// A pad of number buttons in the rows the server sends (`level.numberRows`); without `tap`, the numbers
/// are only shown (Wähle die Zahl's tablet in trace mode).
struct NumberPad: View {
  let rows: [[Int]]
  let side: CGFloat
  let isGlowing: (Int) -> Bool
  var isEnabled = true
  var tap: ((Int) -> Void)?

  var body: some View {
    VStack(spacing: 16) {
      ForEach(Array(rows.enumerated()), id: \.offset) { _, row in
        HStack(spacing: 16) {
          ForEach(row, id: \.self) { number in
            if let tap {
              Button {
                tap(number)
              } label: {
                NumberTile(number: number, isGlowing: isGlowing(number), side: side)
              }
              .buttonStyle(.kidsPress)
              .disabled(!isEnabled)
              .opacity(isEnabled ? 1 : 0.6)
            } else {
              NumberTile(number: number, isGlowing: isGlowing(number), side: side)
                .accessibilityAddTraits(isGlowing(number) ? .isSelected : [])
            }
          }
        }
      }
    }
  }
}
#endif
