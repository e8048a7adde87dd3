#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import SwiftUI

/// "Wer spielt heute?": one 200×180 card per child (`view.players`) with avatar, name and coins. A tap
/// chooses the child; the server greets them and goes home.
public struct PlayerSelectionView: View {
  let model: WaldabenteuerModel

  /// The screen for `model`'s children.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The title, a card per child, and Bennie.
  public var body: some View {
    let players = model.view?.players ?? []
    ZStack {
      ForestBackground()
      VStack(spacing: 40) {
        Text(model.text("playerSelectionTitle"))
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
          ForEach(players, id: \.id) { player in
            PlayerCard(player: player, coinsText: model.text("coinCount", "\(player.coins)")) {
              model.selectPlayer(player.id)
            }
          }
        }
        Spacer(minLength: 0)
        HStack {
          BennieWithBubble(model: model, height: 180)
          Spacer()
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }
}

/// A child's card: avatar, name and coins.
struct PlayerCard: View {
  let player: KidsPlayerView
  /// "[X] Münzen", filled in.
  let coinsText: String
  let action: @MainActor () -> Void

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
          Text(coinsText)
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
#endif
