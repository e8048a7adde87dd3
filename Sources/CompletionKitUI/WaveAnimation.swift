#if canImport(SwiftUI)
import SwiftUI
import CompletionCore

/// Bobs one item of a list on the core's wave while active.
struct WaveAnimationModifier: ViewModifier {
  let index: Int
  let totalItems: Int
  let isActive: Bool
  let wave: Wave

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  func body(content: Content) -> some View {
    // The wave is decorative: Reduce Motion removes it entirely, as `MotionPreference.reduced` says.
    let isMoving = isActive && !reduceMotion
    // Copied out so the timeline closure captures plain values, not the modifier.
    let wave = wave
    let index = index
    let count = totalItems
    // A paused schedule stops redrawing every frame while the item stands still.
    TimelineView(.animation(paused: !isMoving)) { context in
      // Every item reads the same absolute time, so items created at different moments (a lazy list
      // scrolling) stay in phase and the ripple keeps its shape.
      let time = context.date.timeIntervalSinceReferenceDate
      content
        .offset(y: isMoving ? CGFloat(wave.offset(index: index, count: count, at: time)) : 0)
    }
  }
}

extension View {
  /// Bobs this item, the `index`th of `totalItems`, on `wave` while `isActive` (still under Reduce Motion).
  public func waveAnimation(
    index: Int,
    totalItems: Int,
    isActive: Bool,
    wave: Wave = .standard
  ) -> some View {
    modifier(WaveAnimationModifier(index: index, totalItems: totalItems, isActive: isActive, wave: wave))
  }

  /// The seed's form: a wave with this amplitude and frequency and the core's default period.
  public func waveAnimation(
    index: Int,
    totalItems: Int,
    isActive: Bool,
    amplitude: CGFloat,
    frequency: Double
  ) -> some View {
    waveAnimation(
      index: index,
      totalItems: totalItems,
      isActive: isActive,
      wave: Wave(amplitude: Double(amplitude), frequency: frequency)
    )
  }
}
#endif
