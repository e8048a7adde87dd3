#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import SwiftUI

/// The games behind a sign ("Würfel" and "Wähle die Zahl" behind "Zahlen 1,2,3"), as the server lists them
/// (`view.games`). Games that are not there yet show locked and still answer with Bennie's line; "Zurück"
/// goes home.
public struct ActivitySelectionView: View {
  let model: WaldabenteuerModel

  /// The selection screen of the sign `model` has open.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The sign's games on their boards, with the top bar and Bennie.
  public var body: some View {
    let view = model.view
    let title = view?.signs.first { $0.activity == view?.activity }?.title ?? ""
    ZStack {
      ForestBackground()
      VStack(spacing: 0) {
        HStack(alignment: .top) {
          BackButton(model: model)
          Spacer()
          Text(title)
            .font(KidsFont.title)
            .foregroundStyle(KidsPalette.woodDark)
            .padding(.horizontal, 40)
            .padding(.vertical, 14)
            .background { WoodSurface() }
            .accessibilityAddTraits(.isHeader)
          Spacer()
          SoundButton(model: model)
        }
        CoinProgressBar(model: model)
          .padding(.top, 12)
        Spacer(minLength: 24)
        HStack(spacing: 60) {
          ForEach(view?.games ?? [], id: \.game) { game in
            GameBoard(game: game) {
              model.tapGame(game.game)
            }
          }
        }
        Spacer(minLength: 24)
        HStack {
          BennieWithBubble(model: model, height: 200)
          Spacer()
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }
}

/// A big wooden board for one game.
struct GameBoard: View {
  let game: KidsGameView
  let action: @MainActor () -> Void

  var body: some View {
    Button(action: action) {
      ZStack {
        WoodSurface()
        VStack(spacing: 16) {
          Image(systemName: Self.symbol(for: game.game))
            .font(.system(size: 72, weight: .semibold))
            .accessibilityHidden(true)
          Text(game.title)
            .font(KidsFont.button)
            .multilineTextAlignment(.center)
        }
        .foregroundStyle(KidsPalette.woodDark)
        .padding(20)
        if !game.available {
          ChainsOverlay()
        }
      }
      .frame(width: 320, height: 240)
      .opacity(game.available ? 1 : 0.6)
    }
    .buttonStyle(.kidsPress)
    .accessibilityElement(children: .combine)
    .accessibilityLabel(game.available ? game.title : "\(game.title) (gesperrt)")
  }

  /// The board's picture for the server's game name.
  static func symbol(for game: String) -> String {
    switch game {
    case "puzzleMatching": "square.grid.3x3.fill"
    case "labyrinth": "point.topleft.down.curvedto.point.bottomright.up"
    case "wuerfel": "die.face.5.fill"
    case "waehleDieZahl": "hand.draw.fill"
    default: "star.fill"
    }
  }
}
#endif
