#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// The loading screen: "Lade Spielewelt…" over a calm progress bar that fills in 50 ms steps, Bennie beside
/// it. The machine decides when it is done (full after 5 s, player selection 2 s later); this view only
/// shows `progress`.
public struct LoadingView: View {
  /// The bar's value, 0…100 (from the machine's `loadingProgress` effect).
  let progress: Int
  /// Bennie's bubble.
  let line: SpokenLine?

  /// Width of the bar.
  static let barWidth: CGFloat = 560

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// The screen at `progress` percent.
  public init(progress: Int, line: SpokenLine? = nil) {
    self.progress = progress
    self.line = line
  }

  public var body: some View {
    let fraction = CGFloat(min(100, max(0, progress))) / 100
    ZStack {
      ForestBackground()
      VStack(spacing: 36) {
        Spacer()
        Text(ScreenText.homeTitle.text())
          .font(KidsFont.title)
          .foregroundStyle(KidsPalette.woodDark)
          .padding(.horizontal, 40)
          .padding(.vertical, 16)
          .background { WoodSurface() }
        VStack(spacing: 16) {
          Text(ScreenText.loading.text())
            .font(KidsFont.button)
            .foregroundStyle(KidsPalette.ink)
          Capsule()
            .fill(KidsPalette.cream)
            .overlay(alignment: .leading) {
              Capsule()
                .fill(KidsPalette.coinGold)
                .frame(width: Self.barWidth * fraction)
                // One step lasts 50 ms: animating each step that long makes the fill glide, not jump.
                .animation(
                  KidsMotion.curve(.linear, duration: 1 / LoadingScreen.stepsPerSecond, reduceMotion: reduceMotion),
                  value: progress)
            }
            .overlay {
              Capsule().strokeBorder(KidsPalette.woodDark, lineWidth: 4)
            }
            .frame(width: Self.barWidth, height: 40)
            .clipShape(.capsule)
        }
        .accessibilityElement(children: .ignore)
        .accessibilityLabel(ScreenText.loading.text())
        .accessibilityValue(Text(Double(fraction), format: .percent.precision(.fractionLength(0))))
        Spacer()
        HStack {
          BennieWithBubble(line: line, height: 200)
          Spacer()
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }
}

#Preview("Loading") {
  LoadingView(progress: 45)
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
