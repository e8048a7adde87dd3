#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import SwiftUI

/// The loading screen: "Lade Spielewelt…" over a calm progress bar, Bennie beside it. The model reports how
/// long the screen has shown (`loadingTick`) and the server answers with the bar's value (`loadingProgress`)
/// and, when it is done, the next screen; this view only draws the last value it was given.
public struct LoadingView: View {
  let model: WaldabenteuerModel

  /// Width of the bar.
  static let barWidth: CGFloat = 560

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// The loading screen of `model`.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The title, the bar at the server's last value, and Bennie.
  public var body: some View {
    // The bar's value, 0…100, from the server's last `loadingProgress` (an answer without one keeps it).
    let progress = model.loadingProgress
    let fraction = CGFloat(min(100, max(0, progress))) / 100
    // Each value holds until the next tick's answer: gliding over one tick makes the fill move, not jump.
    let glide = model.catalog?.timing.loadingTickSeconds ?? 0
    ZStack {
      ForestBackground()
      VStack(spacing: 36) {
        Spacer()
        Text(model.text("homeTitle"))
          .font(KidsFont.title)
          .foregroundStyle(KidsPalette.woodDark)
          .padding(.horizontal, 40)
          .padding(.vertical, 16)
          .background { WoodSurface() }
        HStack(spacing: 24) {
          LemmingView(size: 70)
          LemmingView(size: 70)
            .scaleEffect(x: -1, y: 1)
        }
        VStack(spacing: 16) {
          Text(model.text("loading"))
            .font(KidsFont.button)
            .foregroundStyle(KidsPalette.ink)
          Capsule()
            .fill(KidsPalette.cream)
            .overlay(alignment: .leading) {
              Capsule()
                .fill(KidsPalette.coinGold)
                .frame(width: Self.barWidth * fraction)
                .animation(KidsMotion.curve(.linear, duration: glide, reduceMotion: reduceMotion || glide <= 0), value: progress)
            }
            .overlay {
              Capsule().strokeBorder(KidsPalette.woodDark, lineWidth: 4)
            }
            .frame(width: Self.barWidth, height: 40)
            .clipShape(.capsule)
        }
        .accessibilityElement(children: .ignore)
        .accessibilityLabel(model.text("loading"))
        .accessibilityValue(Text(Double(fraction), format: .percent.precision(.fractionLength(0))))
        Spacer()
        HStack {
          BennieWithBubble(model: model, height: 200)
          Spacer()
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }
}
#endif
