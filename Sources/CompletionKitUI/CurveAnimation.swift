#if canImport(SwiftUI)
import CompletionAPI
import CompletionCore
import SwiftUI

// `CompletionCore.Spring` is spelled out in full throughout: SwiftUI has its own `Spring` type and an
// unqualified name would be ambiguous.

extension CompletionCore.Curve {
  /// The SwiftUI animation that plays this curve; `duration` applies to timing curves, a spring settles on its own.
  public func animation(duration: Double) -> Animation {
    switch self {
    case .linear: .linear(duration: duration)
    // SwiftUI's named timing curves use the same Bézier control points as `CubicBezier`, so the core's
    // sampled values and what SwiftUI renders agree.
    case .easeIn: .easeIn(duration: duration)
    case .easeOut: .easeOut(duration: duration)
    case .easeInOut: .easeInOut(duration: duration)
    case .spring(let spring): spring.animation
    }
  }
}

extension CompletionCore.Spring {
  /// The SwiftUI spring with this response and damping fraction (the core models SwiftUI's parameters).
  public var animation: Animation {
    .spring(response: response, dampingFraction: dampingFraction)
  }
}

extension StepPayload {
  /// SwiftUI's animation for this step of one of the server's choreographies (`model.motion(name, step:)`):
  /// its curve over its duration, its delay not included (the caller starts it when the step starts).
  public var animation: Animation { curve.curve.animation(duration: duration) }
}

extension Animation {
  /// The core's standard spring, for buttons and toggles.
  public static var ckStandard: Animation { CompletionCore.Spring.standard.animation }
  /// The core's gentle spring, for reveals.
  public static var ckGentle: Animation { CompletionCore.Spring.gentle.animation }
  /// The core's page spring, for sheets and pages.
  public static var ckPage: Animation { CompletionCore.Spring.page.animation }
  /// The core's bouncy spring, for success moments.
  public static var ckBounce: Animation { CompletionCore.Spring.bounce.animation }
}
#endif
