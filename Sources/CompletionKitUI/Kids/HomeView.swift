#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import SwiftUI

/// The home screen "Waldabenteuer": the four wooden signs the server lists (locked ones at 60 % with chains
/// and a padlock), the treasure chest as the server names it (`activePlayer.chest`), Bennie with his
/// bubble, and the sound and settings buttons.
///
/// Every tap goes to the server, locked signs and the closed chest included: it answers those with Bennie's
/// gentle lines ("Das ist noch gesperrt.", "Noch 3 Münzen!") instead of the view hiding them.
public struct HomeView: View {
  let model: WaldabenteuerModel

  /// The home screen for `model`.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The signs, the chest, Bennie and the top bar over the forest.
  public var body: some View {
    let player = model.activePlayer
    let coins = player?.coins ?? 0
    ZStack {
      ForestBackground()
      VStack(spacing: 0) {
        // Top bar: sound (left), title, settings (right, the way into the parent gate).
        HStack(alignment: .top) {
          SoundButton(model: model)
          Spacer()
          Text(model.text("homeTitle"))
            .font(KidsFont.title)
            .foregroundStyle(KidsPalette.woodDark)
            .padding(.horizontal, 40)
            .padding(.vertical, 14)
            .background { WoodSurface() }
            .accessibilityAddTraits(.isHeader)
          Spacer()
          WoodenIconButton(systemImage: "gearshape.fill", label: model.text("parentArea")) {
            model.tapSettings()
          }
        }
        Spacer(minLength: 24)
        HStack(spacing: 28) {
          ForEach(model.view?.signs ?? [], id: \.activity) { sign in
            ActivitySign(sign: sign) {
              model.tapActivity(sign.activity)
            }
          }
        }
        Spacer(minLength: 24)
        HStack(alignment: .bottom) {
          BennieWithBubble(model: model, height: 210)
          Spacer()
          Button {
            model.tapChest()
          } label: {
            VStack(spacing: 8) {
              ChestPile(state: player?.chest ?? "closed", size: 150)
              HStack(spacing: 8) {
                CoinView(size: 28)
                Text(model.text("coinCount", "\(coins)"))
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
  let sign: KidsSignView
  let action: @MainActor () -> Void

  static let size = CGSize(width: 230, height: 170)

  var body: some View {
    Button(action: action) {
      VStack(spacing: 0) {
        ZStack {
          WoodSurface()
          VStack(spacing: 10) {
            Image(systemName: Self.symbol(for: sign.activity))
              .font(.system(size: 48, weight: .semibold))
              .accessibilityHidden(true)
            Text(sign.title)
              .font(KidsFont.button)
              .multilineTextAlignment(.center)
              .lineLimit(2)
              .minimumScaleFactor(0.7)
          }
          .foregroundStyle(KidsPalette.woodDark)
          .padding(16)
          if !sign.unlocked {
            ChainsOverlay()
          }
        }
        .frame(width: Self.size.width, height: Self.size.height)
        // The post.
        Rectangle()
          .fill(KidsPalette.woodDark)
          .frame(width: 22, height: 70)
      }
      .opacity(sign.unlocked ? 1 : 0.6)
    }
    .buttonStyle(.kidsPress)
    .accessibilityElement(children: .combine)
    .accessibilityLabel(sign.unlocked ? sign.title : "\(sign.title) (gesperrt)")
  }

  /// The sign's picture for the server's activity name (a sign the app does not know yet gets a leaf).
  static func symbol(for activity: String) -> String {
    switch activity {
    case "raetsel": "puzzlepiece.fill"
    case "zahlen": "number"
    case "zeichnen": "paintbrush.pointed.fill"
    case "logik": "circle.grid.cross.fill"
    default: "leaf.fill"
    }
  }
}
#endif
