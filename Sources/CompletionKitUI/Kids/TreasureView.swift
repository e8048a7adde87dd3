#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// The treasure screen: "[X] Münzen", the chest (open from 10 coins), and the two YouTube buttons styled by
/// `TreasureButtons`: locked (grey at 60 % with chains), disabled (grey), active (gold glow) and active with
/// the "BONUS!" / "+2 MIN" badge. "Zurück" goes home.
///
/// Every button sends `redeem` to the machine, the grey ones too: offline, the machine answers with Bennie's
/// "Wir brauchen Internet." rather than the child tapping a button that does nothing.
public struct TreasureView: View {
  let model: KidsGameModel

  /// The treasure screen for `model`.
  public init(model: KidsGameModel) {
    self.model = model
  }

  public var body: some View {
    let coins = model.coins
    let buttons = TreasureButtons(coins: coins, online: model.canWatchVideos)
    ZStack {
      ForestBackground()
      VStack(spacing: 0) {
        HStack(alignment: .top) {
          BackButton(model: model)
          Spacer()
          SoundButton(model: model)
        }
        HStack(alignment: .bottom, spacing: 16) {
          BennieColumn(line: model.bubbleLine)
          VStack(spacing: 20) {
            Spacer(minLength: 0)
            HStack(spacing: 20) {
              CoinView(size: 64)
              Text(ScreenText.coinCount.text(LineValues(x: coins)))
                .font(KidsFont.bigNumber)
                .foregroundStyle(KidsPalette.woodDark)
            }
            .padding(.horizontal, 32)
            .padding(.vertical, 8)
            .background(KidsPalette.cream.opacity(0.9), in: .capsule)
            .accessibilityElement(children: .combine)
            ChestPile(display: ChestDisplay(coins: coins), size: 150)
            HStack(spacing: 56) {
              ForEach(VideoTier.allCases, id: \.self) { tier in
                TreasureTierButton(tier: tier, state: buttons.state(of: tier)) {
                  model.redeem(tier)
                }
              }
            }
            Spacer(minLength: 0)
          }
          .frame(maxWidth: .infinity)
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }
}

/// One YouTube button ("5 Min" for 10 Münzen, "10+2 Min" for 20 Münzen) in the look its state asks for.
struct TreasureTierButton: View {
  let tier: VideoTier
  let state: TreasureButtonState
  let action: () -> Void

  static let size = CGSize(width: 300, height: 170)

  private var isActive: Bool { state == .active || state == .activeWithBonus }

  var body: some View {
    Button(action: action) {
      VStack(spacing: 6) {
        Image(systemName: "play.rectangle.fill")
          .font(.system(size: 44, weight: .semibold))
          .accessibilityHidden(true)
        Text(title)
          .font(KidsFont.button)
        Text(ScreenText.coinCount.text(LineValues(x: tier.cost)))
          .font(KidsFont.label)
      }
      .foregroundStyle(isActive ? KidsPalette.woodDark : KidsPalette.ink.opacity(0.7))
      .frame(width: Self.size.width, height: Self.size.height)
      .background(
        isActive ? KidsPalette.coinGold : KidsPalette.pathStone,
        in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
      )
      .overlay {
        RoundedRectangle(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
          .strokeBorder(isActive ? KidsPalette.woodMid : KidsPalette.chain.opacity(0.5), lineWidth: 4)
      }
      .overlay {
        if state == .locked { ChainsOverlay() }
      }
      .overlay(alignment: .topTrailing) {
        if state == .activeWithBonus { bonusBadge }
      }
      // The gold glow of an affordable button.
      .shadow(color: KidsPalette.coinGold.opacity(isActive ? 0.9 : 0), radius: isActive ? 20 : 0)
      .opacity(state == .locked ? 0.6 : 1)
    }
    .buttonStyle(.kidsPress)
    .accessibilityElement(children: .combine)
  }

  private var title: String {
    switch tier {
    case .fiveMinutes: ScreenText.fiveMinutesButton.text()
    case .twelveMinutes: ScreenText.twelveMinutesButton.text()
    }
  }

  private var bonusBadge: some View {
    VStack(spacing: 0) {
      Text(ScreenText.bonusBadge.text())
        .font(KidsFont.label.weight(.bold))
      Text(ScreenText.bonusMinutesBadge.text())
        .font(KidsFont.label)
    }
    .foregroundStyle(KidsPalette.woodDark)
    .padding(.horizontal, 12)
    .padding(.vertical, 6)
    .background(KidsPalette.success, in: .capsule)
    .overlay { Capsule().strokeBorder(KidsPalette.woodDark.opacity(0.4), lineWidth: 2) }
    .rotationEffect(.degrees(8))
    .offset(x: 18, y: -18)
  }
}

#Preview("Treasure, 23 coins") {
  TreasureView(model: .previewHome(coins: 23, then: [.tapChest]))
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
