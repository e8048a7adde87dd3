#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// The games behind a sign ("Würfel" and "Wähle die Zahl" behind "Zahlen 1,2,3"). Games without rules yet
/// show locked; "Zurück" goes home.
public struct ActivitySelectionView: View {
  let model: KidsGameModel
  let activity: ActivityType

  /// The selection screen of `activity`.
  public init(model: KidsGameModel, activity: ActivityType) {
    self.model = model
    self.activity = activity
  }

  public var body: some View {
    ZStack {
      ForestBackground()
      VStack(spacing: 0) {
        HStack(alignment: .top) {
          BackButton(model: model)
          Spacer()
          Text(activity.title)
            .font(KidsFont.title)
            .foregroundStyle(KidsPalette.woodDark)
            .padding(.horizontal, 40)
            .padding(.vertical, 14)
            .background { WoodSurface() }
            .accessibilityAddTraits(.isHeader)
          Spacer()
          SoundButton(model: model)
        }
        Spacer(minLength: 24)
        HStack(spacing: 60) {
          ForEach(activity.subActivities, id: \.self) { game in
            GameBoard(game: game, isLocked: !game.isAvailable || !model.machine.isUnlocked(activity)) {
              model.send(.tapSubActivity(game))
            }
          }
        }
        Spacer(minLength: 24)
        HStack {
          BennieWithBubble(line: model.bubbleLine, height: 200)
          Spacer()
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }
}

/// A big wooden board for one game.
struct GameBoard: View {
  let game: SubActivity
  let isLocked: Bool
  let action: () -> Void

  var body: some View {
    Button(action: action) {
      ZStack {
        WoodSurface()
        VStack(spacing: 16) {
          Image(systemName: Self.symbol(for: game))
            .font(.system(size: 72, weight: .semibold))
            .accessibilityHidden(true)
          Text(game.title)
            .font(KidsFont.button)
            .multilineTextAlignment(.center)
        }
        .foregroundStyle(KidsPalette.woodDark)
        .padding(20)
        if isLocked {
          ChainsOverlay()
        }
      }
      .frame(width: 320, height: 240)
      .opacity(isLocked ? 0.6 : 1)
    }
    .buttonStyle(.kidsPress)
    .accessibilityElement(children: .combine)
  }

  static func symbol(for game: SubActivity) -> String {
    switch game {
    case .puzzleMatching: "square.grid.3x3.fill"
    case .labyrinth: "point.topleft.down.curvedto.point.bottomright.up"
    case .wuerfel: "die.face.5.fill"
    case .waehleDieZahl: "hand.draw.fill"
    }
  }
}

#Preview("Zahlen") {
  ActivitySelectionView(model: .previewHome(then: [.tapActivity(.zahlen)]), activity: .zahlen)
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
