#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// The coin bar at the top of an activity: `CoinProgress.slots` slots filled to `coins % 10`, and a chest for
/// every full ten. When a coin is earned it flies from the activity into its slot (0.8 s) and the slot fills
/// as it lands; under Reduce Motion the slot simply fills.
public struct CoinProgressBar: View {
  let coins: Int
  let flight: CoinFlight?

  /// One slot's side.
  static let slotSide: CGFloat = 40
  /// Gap between slots.
  static let slotSpacing: CGFloat = 8
  /// How long a coin flies.
  static let flightSeconds = KidsChoreography.coinFlight.steps[0].duration
  /// Where the flying coin starts, below the bar (roughly the middle of the activity).
  static let flightStartDrop: CGFloat = 320
  /// Chests drawn before the rest are counted with a number.
  static let maxChestsDrawn = 3

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  /// The coin in the air, if one is.
  @State private var landing: CoinFlight?
  /// 0 at the start of the flight, 1 in the slot.
  @State private var flightProgress: CGFloat = 0

  /// The bar for `coins`; a new `flight` sends a coin into it.
  public init(coins: Int, flight: CoinFlight? = nil) {
    self.coins = coins
    self.flight = flight
  }

  public var body: some View {
    // While a coin flies, the bar still shows the coins before it: its slot fills as it lands.
    let shownCoins = landing.map { max(0, $0.balance - 1) } ?? coins
    let progress = CoinProgress(coins: shownCoins)
    HStack(spacing: 16) {
      HStack(spacing: Self.slotSpacing) {
        ForEach(0..<CoinProgress.slots, id: \.self) { index in
          slot(filled: index < progress.filledSlots)
        }
      }
      .padding(10)
      .background(KidsPalette.cream.opacity(0.9), in: .capsule)
      .overlay { Capsule().strokeBorder(KidsPalette.woodMid, lineWidth: 3) }
      .overlay(alignment: .leading) {
        if let landing {
          flyingCoin(for: landing)
        }
      }
      chests(progress.chests)
    }
    .accessibilityElement(children: .ignore)
    .accessibilityLabel(ScreenText.coinCount.text(LineValues(x: coins)))
    .onChange(of: flight) { _, newFlight in
      guard let newFlight else { return }
      fly(newFlight)
    }
  }

  private func slot(filled: Bool) -> some View {
    ZStack {
      Circle()
        .strokeBorder(KidsPalette.woodLight, style: StrokeStyle(lineWidth: 3, dash: [5, 4]))
      if filled {
        CoinView(size: Self.slotSide)
      }
    }
    .frame(width: Self.slotSide, height: Self.slotSide)
  }

  @ViewBuilder
  private func chests(_ count: Int) -> some View {
    if count > 0 {
      HStack(spacing: 4) {
        ForEach(0..<min(count, Self.maxChestsDrawn), id: \.self) { _ in
          ChestView(isOpen: true, size: 52)
        }
        if count > Self.maxChestsDrawn {
          Text(verbatim: "×\(count)")
            .font(KidsFont.number(size: 28))
            .foregroundStyle(KidsPalette.woodDark)
        }
      }
    }
  }

  /// The coin between the activity and its slot: it starts below the middle of the bar, big, and shrinks
  /// into the slot.
  private func flyingCoin(for flight: CoinFlight) -> some View {
    let slotIndex = CGFloat((max(1, flight.balance) - 1) % CoinProgress.slots)
    // Relative to the leading edge of the slot row (inside its 10 pt padding).
    let targetX = 10 + slotIndex * (Self.slotSide + Self.slotSpacing)
    let barWidth = 20 + CGFloat(CoinProgress.slots) * Self.slotSide + CGFloat(CoinProgress.slots - 1) * Self.slotSpacing
    let startX = barWidth / 2 - Self.slotSide / 2
    let x = startX + (targetX - startX) * flightProgress
    let y = Self.flightStartDrop * (1 - flightProgress)
    return CoinView(size: Self.slotSide)
      .scaleEffect(1.8 - 0.8 * flightProgress)
      .offset(x: x, y: y)
      .allowsHitTesting(false)
  }

  private func fly(_ flight: CoinFlight) {
    guard !reduceMotion else {
      landing = nil
      return
    }
    landing = flight
    flightProgress = 0
    withAnimation(.easeInOut(duration: Self.flightSeconds)) {
      flightProgress = 1
    } completion: {
      // A newer coin may have taken off meanwhile; only the one that landed clears the flight.
      if landing == flight { landing = nil }
    }
  }
}

#Preview("Coin bar") {
  VStack(spacing: 40) {
    CoinProgressBar(coins: 3)
    CoinProgressBar(coins: 17)
    CoinProgressBar(coins: 45)
  }
  .padding()
  .background(KidsPalette.sky)
}
#endif
