#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import CompletionCore
import SwiftUI

/// The coin bar at the top of an activity: one slot per coin of a chest (the catalog's `coinsPerChest`),
/// filled to the server's `filledSlots`, and a chest for each of its `chests`. When a coin is earned
/// (`model.coinFlight`) it flies from the activity into its slot on the catalog's `kidsCoinFlight` "coin"
/// step, and the slot gives the "slot" step's small bounce as it lands; under Reduce Motion the slot simply
/// fills. Every number is the server's: the bar counts nothing itself.
public struct CoinProgressBar: View {
  let model: WaldabenteuerModel

  /// One slot's side.
  static let slotSide: CGFloat = 40
  /// Gap between slots.
  static let slotSpacing: CGFloat = 8
  /// Where the flying coin starts, below the bar (roughly the middle of the activity).
  static let flightStartDrop: CGFloat = 320
  /// Chests drawn before the rest are counted with a number.
  static let maxChestsDrawn = 3

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  /// The coin in the air, if one is.
  @State private var flying: WaldabenteuerModel.CoinFlight?
  /// Landings per slot (a chest lands on slot -1): a slot bounces when its count goes up.
  @State private var landings: [Int: Int] = [:]

  /// The bar of `model`'s active child.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The slots, the chests and the coin in flight.
  public var body: some View {
    let player = model.activePlayer
    let slots = model.catalog?.coinsPerChest ?? 0
    let filled = player?.filledSlots ?? 0
    let chests = player?.chests ?? 0
    // While a coin flies, its place waits empty: the last filled slot, or the newest chest when the coin
    // completed one (the server's `filledSlots` is then 0 again).
    let target: Int? = flying == nil ? nil : (filled > 0 ? filled - 1 : -1)
    HStack(spacing: 16) {
      HStack(spacing: Self.slotSpacing) {
        ForEach(0..<slots, id: \.self) { index in
          slot(filled: index < filled && target != index)
            .modifier(LandingBounce(step: model.motion("kidsCoinFlight", step: "slot"), count: landings[index, default: 0]))
        }
      }
      .padding(10)
      .background(KidsPalette.cream.opacity(0.9), in: .capsule)
      .overlay { Capsule().strokeBorder(KidsPalette.woodMid, lineWidth: 3) }
      .overlay(alignment: .leading) {
        if let flying, let target {
          FlyingCoin(
            step: model.motion("kidsCoinFlight", step: "coin"),
            start: CGPoint(x: barWidth(slots) / 2 - Self.slotSide / 2, y: Self.flightStartDrop),
            end: CGPoint(x: landingX(target: target, slots: slots, chests: chests), y: 0)
          ) {
            land(flying, on: target)
          }
          .id(flying.id)
        }
      }
      chestRow(target == -1 ? max(0, chests - 1) : chests)
        .modifier(LandingBounce(step: model.motion("kidsCoinFlight", step: "slot"), count: landings[-1, default: 0]))
    }
    .accessibilityElement(children: .ignore)
    .accessibilityLabel(model.text("coinCount", "\(player?.coins ?? 0)"))
    .onChange(of: model.coinFlight) { _, flight in
      guard let flight else { return }
      // Under Reduce Motion (or before the catalog's movement arrived) the slot simply fills.
      guard !reduceMotion, model.motion("kidsCoinFlight", step: "coin") != nil else { return }
      flying = flight
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
  private func chestRow(_ count: Int) -> some View {
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

  /// The slot row's width, padding included.
  private func barWidth(_ slots: Int) -> CGFloat {
    20 + CGFloat(slots) * Self.slotSide + CGFloat(max(0, slots - 1)) * Self.slotSpacing
  }

  /// Where the coin lands, from the slot row's leading edge: its slot, or (a full chest) the chest row.
  private func landingX(target: Int, slots: Int, chests: Int) -> CGFloat {
    if target >= 0 { return 10 + CGFloat(target) * (Self.slotSide + Self.slotSpacing) }
    return barWidth(slots) + 16 + CGFloat(min(max(chests, 1), Self.maxChestsDrawn) - 1) * 56
  }

  private func land(_ flight: WaldabenteuerModel.CoinFlight, on target: Int) {
    // A newer coin may have taken off meanwhile; only the one that landed clears the flight.
    guard flying == flight else { return }
    flying = nil
    landings[target, default: 0] += 1
  }
}

/// The coin between the activity and its slot: it appears, grows and shrinks along the step's appearances
/// while it travels, in the step's curve and time. Each flight is a new view (`.id`), so it always starts
/// from the beginning.
struct FlyingCoin: View {
  let step: StepPayload?
  let start: CGPoint
  let end: CGPoint
  let landed: () -> Void

  @State private var arrived = false

  var body: some View {
    let from = step?.from ?? .identity
    let to = step?.to ?? .identity
    let point = arrived ? end : start
    CoinView(size: CoinProgressBar.slotSide)
      .opacity(arrived ? to.opacity : from.opacity)
      .scaleEffect(CGFloat(arrived ? to.scale : from.scale))
      .offset(x: point.x, y: point.y)
      .allowsHitTesting(false)
      .accessibilityHidden(true)
      .onAppear {
        withAnimation(step?.animation) {
          arrived = true
        } completion: {
          landed()
        }
      }
  }
}

/// The slot's small bounce when a coin lands in it (the catalog's `kidsCoinFlight` "slot" step): from the
/// step's scale back to rest, each time `count` goes up. Nothing under Reduce Motion.
struct LandingBounce: ViewModifier {
  let step: StepPayload?
  let count: Int

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  func body(content: Content) -> some View {
    // Plain values for the keyframes: the step's scales and time.
    let fromScale = step?.from.scale ?? 1
    let toScale = step?.to.scale ?? 1
    let duration = step?.duration ?? 0
    content
      .keyframeAnimator(initialValue: toScale, trigger: reduceMotion || step == nil ? 0 : count) { view, scale in
        view.scaleEffect(CGFloat(scale))
      } keyframes: { _ in
        KeyframeTrack {
          MoveKeyframe(fromScale)
          CubicKeyframe(toScale, duration: duration)
        }
      }
  }
}
#endif
