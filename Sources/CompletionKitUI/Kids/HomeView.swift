#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// The home screen "Waldabenteuer": four wooden signs (locked ones at 60 % with chains and a padlock), the
/// treasure chest as `ChestDisplay` shows it, Bennie with his bubble, and the sound and settings buttons.
///
/// Every tap goes to the machine, locked signs and the closed chest included: the machine answers those with
/// Bennie's gentle lines ("Das ist noch gesperrt.", "Noch 3 Münzen!") instead of the view hiding them.
public struct HomeView: View {
  let model: KidsGameModel

  /// The home screen for `model`.
  public init(model: KidsGameModel) {
    self.model = model
  }

  public var body: some View {
    let coins = model.coins
    ZStack {
      ForestBackground()
      VStack(spacing: 0) {
        // Top bar: sound (left), title, settings (right, the way into the parent gate).
        HStack(alignment: .top) {
          SoundButton(model: model)
          Spacer()
          Text(ScreenText.homeTitle.text())
            .font(KidsFont.title)
            .foregroundStyle(KidsPalette.woodDark)
            .padding(.horizontal, 40)
            .padding(.vertical, 14)
            .background { WoodSurface() }
            .accessibilityAddTraits(.isHeader)
          Spacer()
          WoodenIconButton(systemImage: "gearshape.fill", label: ScreenText.parentArea.text()) {
            model.send(.tapSettings)
          }
        }
        Spacer(minLength: 24)
        HStack(spacing: 28) {
          ForEach(ActivityType.allCases, id: \.self) { activity in
            ActivitySign(activity: activity, isLocked: !model.machine.isUnlocked(activity)) {
              model.send(.tapActivity(activity))
            }
          }
        }
        Spacer(minLength: 24)
        HStack(alignment: .bottom) {
          BennieWithBubble(line: model.bubbleLine, height: 210)
          Spacer()
          Button {
            model.send(.tapChest)
          } label: {
            VStack(spacing: 8) {
              ChestPile(display: ChestDisplay(coins: coins), size: 150)
              HStack(spacing: 8) {
                CoinView(size: 28)
                Text(ScreenText.coinCount.text(LineValues(x: coins)))
                  .font(KidsFont.button)
                  .foregroundStyle(KidsPalette.woodDark)
              }
              .padding(.horizontal, 16)
              .padding(.vertical, 6)
              .background(KidsPalette.cream.opacity(0.9), in: .capsule)
            }
          }
          .buttonStyle(.kidsPress)
          .accessibilityElement(children: .combine)
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }
}

/// A wooden sign on a post. Locked: 60 % opacity, crossed chains and a padlock (still tappable, so Bennie can
/// say that it is locked).
struct ActivitySign: View {
  let activity: ActivityType
  let isLocked: Bool
  let action: () -> Void

  static let size = CGSize(width: 230, height: 170)

  var body: some View {
    Button(action: action) {
      VStack(spacing: 0) {
        ZStack {
          WoodSurface()
          VStack(spacing: 10) {
            Image(systemName: Self.symbol(for: activity))
              .font(.system(size: 48, weight: .semibold))
              .accessibilityHidden(true)
            Text(activity.title)
              .font(KidsFont.button)
              .multilineTextAlignment(.center)
              .lineLimit(2)
              .minimumScaleFactor(0.7)
          }
          .foregroundStyle(KidsPalette.woodDark)
          .padding(16)
          if isLocked {
            ChainsOverlay()
          }
        }
        .frame(width: Self.size.width, height: Self.size.height)
        // The post.
        Rectangle()
          .fill(KidsPalette.woodDark)
          .frame(width: 22, height: 70)
      }
      .opacity(isLocked ? 0.6 : 1)
    }
    .buttonStyle(.kidsPress)
    .accessibilityElement(children: .combine)
  }

  static func symbol(for activity: ActivityType) -> String {
    switch activity {
    case .raetsel: "puzzlepiece.fill"
    case .zahlen: "number"
    case .zeichnen: "paintbrush.pointed.fill"
    case .logik: "circle.grid.cross.fill"
    }
  }
}

#Preview("Home, 12 coins") {
  HomeView(model: .previewHome(coins: 12))
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}

#Preview("Home, 3 coins") {
  HomeView(model: .previewHome(coins: 3))
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
