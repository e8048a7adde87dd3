#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// "Wer spielt heute?": one 200×180 card per child with avatar, name and coins. A tap chooses the child; the
/// machine greets them and goes home.
public struct PlayerSelectionView: View {
  let model: KidsGameModel

  /// The screen for `model`'s children.
  public init(model: KidsGameModel) {
    self.model = model
  }

  public var body: some View {
    let players = model.machine.data.players
    ZStack {
      ForestBackground()
      VStack(spacing: 40) {
        Text(ScreenText.playerSelectionTitle.text())
          .font(KidsFont.title)
          .foregroundStyle(KidsPalette.woodDark)
          .padding(.horizontal, 40)
          .padding(.vertical, 16)
          .background { WoodSurface() }
          .accessibilityAddTraits(.isHeader)
        Spacer(minLength: 0)
        // Two children sit where the design puts them (x 400 and 800 on the 1194 pt screen); up to six
        // wrap into rows of three.
        LazyVGrid(
          columns: Array(
            repeating: GridItem(.fixed(KidsMetrics.playerCard.width), spacing: 200),
            count: max(1, min(players.count, players.count > 2 ? 3 : 2))),
          spacing: 32
        ) {
          ForEach(players) { player in
            PlayerCard(player: player) {
              model.selectPlayer(player.id)
            }
          }
        }
        Spacer(minLength: 0)
        HStack {
          BennieWithBubble(line: model.bubbleLine, height: 180)
          Spacer()
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }
}

/// A child's card: avatar, name and coins.
struct PlayerCard: View {
  let player: PlayerData
  let action: () -> Void

  var body: some View {
    Button(action: action) {
      VStack(spacing: 10) {
        Circle()
          .fill(KidsPalette.sky)
          .overlay {
            Text(player.name.prefix(1))
              .font(KidsFont.number(size: 40))
              .foregroundStyle(KidsPalette.woodDark)
          }
          .overlay { Circle().strokeBorder(KidsPalette.woodDark, lineWidth: 3) }
          .frame(width: 72, height: 72)
          .accessibilityHidden(true)
        Text(player.name)
          .font(KidsFont.button)
          .foregroundStyle(KidsPalette.ink)
          .lineLimit(1)
          .minimumScaleFactor(0.6)
        HStack(spacing: 8) {
          CoinView(size: 24)
          Text(ScreenText.coinCount.text(LineValues(x: player.coins)))
            .font(KidsFont.label)
            .foregroundStyle(KidsPalette.woodDark)
        }
      }
      .padding(12)
      .frame(width: KidsMetrics.playerCard.width, height: KidsMetrics.playerCard.height)
      .background(KidsPalette.cream, in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous))
      .overlay {
        RoundedRectangle(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
          .strokeBorder(KidsPalette.woodMid, lineWidth: 4)
      }
      .shadow(color: KidsPalette.woodDark.opacity(0.25), radius: 6, y: 4)
    }
    .buttonStyle(.kidsPress)
    .accessibilityElement(children: .combine)
  }
}

#Preview("Player selection") {
  PlayerSelectionView(model: .preview(coins: 7, after: [.loadingTick(elapsed: LoadingScreen.handOffAfter)]))
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
