#if canImport(SwiftUI)
import CompletionCore
import SwiftUI

// Choreographies are timed by whoever owns the clock: a client model (`celebrationAppearance(of:)`, which
// runs the server's steps on the model's injected clock) or a SwiftUI animation started by a view. This file
// only draws an `Appearance` and keeps frames coming while a moment moves; it keeps no time of its own, so a
// view never reads the date or sleeps.

/// Draws content at an `Appearance`: opacity, offset and scale, as the core interpolates them.
struct AppearanceModifier: ViewModifier {
  let appearance: Appearance

  func body(content: Content) -> some View {
    content
      .opacity(appearance.opacity)
      .offset(x: CGFloat(appearance.offsetX), y: CGFloat(appearance.offsetY))
      .scaleEffect(CGFloat(appearance.scale))
  }
}

extension View {
  /// Draws this view as `appearance` says: one element of a choreography at one moment.
  public func choreographed(_ appearance: Appearance) -> some View {
    modifier(AppearanceModifier(appearance: appearance))
  }
}

extension AnyTransition {
  /// Enters from `from` and leaves towards `to`, at rest in between: a step's ends as a transition.
  public static func appearance(from: Appearance = .identity, to: Appearance = .identity) -> AnyTransition {
    .asymmetric(
      insertion: .modifier(active: AppearanceModifier(appearance: from), identity: AppearanceModifier(appearance: .identity)),
      removal: .modifier(active: AppearanceModifier(appearance: to), identity: AppearanceModifier(appearance: .identity)))
  }
}

/// Redraws its content on every display frame while a moment plays (a celebration whose steps a model
/// computes from its own clock), and stops once `isOver` says the moment is at rest, so a finished
/// celebration does not keep the display busy. A new `moment` (its start, say) starts the frames again.
///
/// Build the moving parts inside `content` itself (not in a child view whose inputs never change): SwiftUI
/// only re-evaluates what the frame's closure builds.
public struct MomentTimeline<Moment: Equatable, Content: View>: View {
  let moment: Moment?
  let isOver: (Date) -> Bool
  let content: () -> Content

  /// Whether the last frame found the moment over; reset when a new moment begins.
  @State private var hasSettled = false

  /// Frames for `moment` (none while it is nil) until `isOver(frameDate)` is true; `content` draws each one.
  public init(moment: Moment?, isOver: @escaping (Date) -> Bool, @ViewBuilder content: @escaping () -> Content) {
    self.moment = moment
    self.isOver = isOver
    self.content = content
  }

  /// The content, redrawn every frame until the moment is over.
  public var body: some View {
    TimelineView(.animation(paused: moment == nil || hasSettled)) { context in
      content()
        // The frame's own date, never the system's: it only decides when to stop asking for frames.
        .onChange(of: context.date) { _, date in
          if isOver(date) { hasSettled = true }
        }
    }
    .onChange(of: moment) {
      hasSettled = false
    }
  }
}
#endif
