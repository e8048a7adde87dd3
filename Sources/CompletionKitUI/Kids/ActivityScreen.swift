#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// An activity: the top bar (home, coin bar, sound), the game, and Bennie with his bubble. The same screen
/// stays up through the level-complete moment and under the celebration overlay, which is drawn over the
/// activity dimmed to 40 % with a 10 pt blur, so the child keeps seeing what they just did.
public struct ActivityScreen: View {
  let model: KidsGameModel
  let game: SubActivity

  /// Brightness left to the activity under the celebration (40 %).
  static let dimmedBrightness = 0.4
  /// Blur under the celebration.
  static let celebrationBlur: CGFloat = 10

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// The screen of `game`.
  public init(model: KidsGameModel, game: SubActivity) {
    self.model = model
    self.game = game
  }

  public var body: some View {
    let state = model.machine.state
    let isCelebrating = state == .celebrationOverlay
    ZStack {
      activity(acceptsInput: state == .playing(game.activity, game))
        .blur(radius: isCelebrating ? Self.celebrationBlur : 0)
        .overlay {
          if isCelebrating {
            KidsPalette.dim
              .opacity(1 - Self.dimmedBrightness)
              .ignoresSafeArea()
          }
        }
        // Under the overlay nothing of the activity reacts, nor is it read out.
        .allowsHitTesting(!isCelebrating)
        .accessibilityHidden(isCelebrating)
      if isCelebrating {
        CelebrationOverlay(coins: model.celebrationCoins ?? model.coins) {
          model.send(.tapWeiter)
        }
        // Enters with its own spring (inside the overlay); leaves shrinking to 0.9 as it fades.
        .transition(
          reduceMotion
            ? AnyTransition.identity
            : AnyTransition.asymmetric(insertion: .identity, removal: .scale(scale: 0.9).combined(with: .opacity))
        )
      }
    }
    .animation(KidsMotion.crossFade(reduceMotion: reduceMotion), value: isCelebrating)
  }

  private func activity(acceptsInput: Bool) -> some View {
    ZStack {
      ForestBackground()
      VStack(spacing: 16) {
        HStack(alignment: .top) {
          HomeButton(model: model)
          Spacer()
          CoinProgressBar(coins: model.coins, flight: model.coinFlight)
          Spacer()
          SoundButton(model: model)
        }
        HStack(alignment: .bottom, spacing: 16) {
          BennieColumn(line: model.bubbleLine)
          gameContent
            .frame(maxWidth: .infinity, maxHeight: .infinity)
            // During the two seconds after a solved level the game rests; the top bar still works.
            .allowsHitTesting(acceptsInput)
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }

  @ViewBuilder
  private var gameContent: some View {
    switch model.machine.activity?.round {
    case .dice(let dice)?:
      WuerfelView(model: model, dice: dice)
    case .numberChoice(let round)?:
      WaehleDieZahlView(model: model, round: round)
    case .puzzle?, .labyrinth?:
      // Rätsel's games are played on the web page so far; the Apple views come with the client models.
      Color.clear
    case nil:
      Color.clear
    }
  }
}

/// Bennie standing at the left of an activity with his bubble above him.
struct BennieColumn: View {
  let line: SpokenLine?

  var body: some View {
    VStack(alignment: .leading, spacing: 8) {
      Spacer(minLength: 0)
      SpeechBubble(line: line, maxWidth: 260)
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
  }
}

#Preview("Würfel") {
  ActivityScreen(model: .previewHome(coins: 4, then: [.tapActivity(.zahlen), .tapSubActivity(.wuerfel)]), game: .wuerfel)
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
