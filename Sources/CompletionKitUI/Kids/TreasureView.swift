#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import SwiftUI

/// The treasure screen: "[X] Münzen", the chest (open when the server says `chestOpen`), and the two video
/// buttons in the look the server gives each (`treasure.fiveMinutes`, `treasure.twelveMinutes`): "locked"
/// (grey at 60 % with chains), "disabled" (grey), "active" (gold glow) and "activeWithBonus" (with the
/// "BONUS!" / "+2 MIN" badge). Their prices are the catalog's tiers. "Zurück" goes home.
///
/// Only a usable button ("active", "activeWithBonus") sends `redeem`, as on the web page; a grey one is
/// announced as unavailable and does nothing.
public struct TreasureView: View {
  let model: WaldabenteuerModel

  /// The tiers the API names, in the order they are offered.
  static let tiers = ["fiveMinutes", "twelveMinutes"]

  /// The treasure screen for `model`.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The coins, the chest and the two video buttons.
  public var body: some View {
    let treasure = model.view?.treasure
    let coins = treasure?.coins ?? model.activePlayer?.coins ?? 0
    ZStack {
      ForestBackground()
      VStack(spacing: 0) {
        HStack(alignment: .top) {
          BackButton(model: model)
          Spacer()
          SoundButton(model: model)
        }
        HStack(alignment: .bottom, spacing: 16) {
          BennieColumn(model: model)
          VStack(spacing: 20) {
            Spacer(minLength: 0)
            HStack(spacing: 20) {
              CoinView(size: 64)
              Text(model.text("coinCount", "\(coins)"))
                .font(KidsFont.bigNumber)
                .foregroundStyle(KidsPalette.woodDark)
            }
            .padding(.horizontal, 32)
            .padding(.vertical, 8)
            .background(KidsPalette.cream.opacity(0.9), in: .capsule)
            .accessibilityElement(children: .combine)
            ChestView(isOpen: treasure?.chestOpen ?? false, size: 150)
            HStack(spacing: 56) {
              ForEach(Self.tiers, id: \.self) { tier in
                TreasureTierButton(
                  title: model.text(tier == "fiveMinutes" ? "fiveMinutesButton" : "twelveMinutesButton"),
                  cost: price(of: tier),
                  state: state(of: tier),
                  badge: (model.text("bonusBadge"), model.text("bonusMinutesBadge"))
                ) {
                  model.redeem(tier)
                }
                .disabled(!TreasureTierButton.isUsable(state(of: tier)))
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

extension TreasureView {
  /// The server's state of a tier's button ("locked" before the treasure view arrives).
  func state(of tier: String) -> String {
    let treasure = model.view?.treasure
    return (tier == "fiveMinutes" ? treasure?.fiveMinutes : treasure?.twelveMinutes) ?? "locked"
  }

  /// "[X] Münzen" with the tier's price from the catalog (empty before the catalog arrives).
  func price(of tier: String) -> String {
    guard let cost = model.catalog?.tiers[tier]?["cost"] else { return "" }
    return model.text("coinCount", "\(cost)")
  }
}

/// One video button ("5 Min" for 10 Münzen, "10+2 Min" for 20 Münzen) in the look its state asks for.
struct TreasureTierButton: View {
  let title: String
  /// "[X] Münzen", filled in with the tier's price.
  let cost: String
  /// "locked", "disabled", "active" or "activeWithBonus", as the server says.
  let state: String
  /// The bonus badge's two lines.
  let badge: (title: String, minutes: String)
  let action: @MainActor () -> Void

  static let size = CGSize(width: 300, height: 170)

  private var isActive: Bool { Self.isUsable(state) }

  /// Whether a button in the server's `state` can be used.
  static func isUsable(_ state: String) -> Bool { state == "active" || state == "activeWithBonus" }

  var body: some View {
    Button(action: action) {
      VStack(spacing: 6) {
        Image(systemName: "play.rectangle.fill")
          .font(.system(size: 44, weight: .semibold))
          .accessibilityHidden(true)
        Text(title)
          .font(KidsFont.button)
        Text(cost)
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
        if state == "locked" { ChainsOverlay() }
      }
      .overlay(alignment: .topTrailing) {
        if state == "activeWithBonus" { bonusBadge }
      }
      // The gold glow of an affordable button.
      .shadow(color: KidsPalette.coinGold.opacity(isActive ? 0.9 : 0), radius: isActive ? 20 : 0)
      .opacity(state == "locked" ? 0.6 : 1)
    }
    .buttonStyle(.kidsPress)
    .accessibilityElement(children: .combine)
  }

  private var bonusBadge: some View {
    VStack(spacing: 0) {
      Text(badge.title)
        .font(KidsFont.label.weight(.bold))
      Text(badge.minutes)
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
#endif
