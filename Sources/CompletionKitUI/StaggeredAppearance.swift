#if canImport(SwiftUI)
import SwiftUI
import CompletionCore

/// Moves one list item from the core's hidden appearance to identity, delayed by its place in the list.
struct StaggeredAppearanceModifier: ViewModifier {
  let index: Int
  let isVisible: Bool
  let config: StaggerConfig

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  // Kept apart from `isVisible` so an item that appears while the list is already visible still
  // animates in (`onAppear`) instead of popping in fully shown.
  @State private var hasAppeared = false

  func body(content: Content) -> some View {
    let appearance = hasAppeared ? Appearance.identity : hidden
    content
      .opacity(appearance.opacity)
      .offset(x: CGFloat(appearance.offsetX), y: CGFloat(appearance.offsetY))
      .scaleEffect(CGFloat(appearance.scale))
      .onChange(of: isVisible) { _, visible in
        if visible {
          reveal()
        } else {
          // Hiding is immediate, as in the seed: the next reveal starts again from the hidden state.
          hasAppeared = false
        }
      }
      .onAppear {
        if isVisible { reveal() }
      }
  }

  /// Where the item starts: Reduce Motion keeps only the fade (the core's reduced policy).
  private var hidden: Appearance {
    reduceMotion ? Appearance.staggerHidden.withoutMovement : Appearance.staggerHidden
  }

  /// The item's entrance: the config's curve after its delay, or a short undelayed cross-fade.
  private var entrance: Animation {
    if reduceMotion {
      // Matches `StaggerTimeline` with `.reduced`: every item fades at once, without a cascade.
      return CompletionCore.Curve.easeInOut.animation(duration: MotionPreference.crossFadeDuration)
    }
    return config.curve.animation(duration: config.duration).delay(config.delay(for: index))
  }

  private func reveal() {
    withAnimation(entrance) {
      hasAppeared = true
    }
  }
}

extension View {
  /// Fades, lifts and grows this item into place after `config.delay(for: index)` once `isVisible` is true.
  public func staggeredAppearance(
    index: Int,
    isVisible: Bool,
    config: StaggerConfig = .standard
  ) -> some View {
    modifier(StaggeredAppearanceModifier(index: index, isVisible: isVisible, config: config))
  }
}
#endif
