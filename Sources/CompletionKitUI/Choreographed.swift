#if canImport(SwiftUI)
import Observation
import SwiftUI
import CompletionCore

/// Plays a core `Choreography` in SwiftUI: activates each step after its delay, animated along its curve.
@Observable
@MainActor
public final class ChoreographyPlayer {
  /// The core's clock-driven state: the choreography as requested and when it started.
  public private(set) var state: ChoreographyState
  /// What actually plays: `state.choreography`, adapted to `.reduced` while Reduce Motion is on.
  public private(set) var choreography: Choreography
  /// Whether Reduce Motion is currently applied (kept in sync by `choreographed(_:player:)`).
  public private(set) var isReducingMotion = false

  // The view reads this set rather than `state.isActive(_:)`: the core answers from its clock, which
  // SwiftUI cannot observe, whereas inserting here inside `withAnimation` is what starts the animation.
  private var activeStepIDs: Set<String> = []
  // Bookkeeping only: nothing on screen depends on it, so it must not invalidate views.
  @ObservationIgnored private var pendingSteps: [Task<Void, Never>] = []

  /// Creates an idle player for `choreography`, seen with `preference`, timed by `clock`.
  public init(
    _ choreography: Choreography,
    preference: MotionPreference = .full,
    clock: any MotionClock = SystemMotionClock()
  ) {
    let state = ChoreographyState(choreography, preference: preference, clock: clock)
    self.state = state
    self.choreography = state.choreography
  }

  /// Whether the step has started (its element shows its `to` appearance).
  public func isActive(_ stepID: String) -> Bool {
    activeStepIDs.contains(stepID)
  }

  /// How the step's element should look now; unknown steps stay fully shown so a typo never hides content.
  public func appearance(of stepID: String) -> Appearance {
    guard let step = choreography.step(stepID) else { return .identity }
    return isActive(stepID) ? step.to : step.from
  }

  /// Starts the sequence; starting a running sequence changes nothing (use `restart()`), as in the core.
  public func start() {
    guard state.startedAt == nil else { return }
    state.start()
    for step in choreography.steps {
      let id = step.id
      let delay = step.delay
      // The task inherits the main actor from this method, so it can touch the player directly;
      // `weak` lets a discarded player go without waiting for its pending steps.
      let task = Task { [weak self] in
        if delay > 0 {
          do {
            try await Task.sleep(for: .seconds(delay))
          } catch {
            return
          }
        }
        // `reset()` may land after the sleep finished but before this resumed; sleep would not throw then.
        guard !Task.isCancelled else { return }
        self?.activate(id)
      }
      pendingSteps.append(task)
    }
  }

  /// Hides every step again and cancels the steps still waiting for their delay.
  public func reset() {
    for task in pendingSteps { task.cancel() }
    pendingSteps.removeAll()
    state.reset()
    activeStepIDs.removeAll()
  }

  /// Resets and plays the sequence again from the beginning.
  public func restart() {
    reset()
    start()
  }

  /// Applies or lifts Reduce Motion: steps keep their order and delays but become short cross-fades.
  public func setReduceMotion(_ enabled: Bool) {
    // Every choreographed element reports the setting; only a real change may invalidate views.
    guard enabled != isReducingMotion else { return }
    isReducingMotion = enabled
    // `adapted(to: .reduced)` keeps a choreography already reduced or switched off as it is, so the
    // preference given at init can only be lowered here, never raised.
    choreography = enabled ? state.choreography.adapted(to: .reduced) : state.choreography
  }

  private func activate(_ stepID: String) {
    // Looked up when the step fires, not when it was scheduled, so a Reduce Motion change in between
    // still takes effect.
    guard let step = choreography.step(stepID) else { return }
    // A zero-length step (motion off) is shown at once rather than as a zero-duration animation.
    let animation = step.activeDuration > 0 ? step.curve.animation(duration: step.duration) : nil
    withAnimation(animation) {
      _ = activeStepIDs.insert(stepID)
    }
  }
}

/// Shows one element of a choreography at its step's `from` or `to` appearance.
struct ChoreographedModifier: ViewModifier {
  let stepID: String
  let player: ChoreographyPlayer

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  func body(content: Content) -> some View {
    let appearance = player.appearance(of: stepID)
    content
      .opacity(appearance.opacity)
      .offset(x: CGFloat(appearance.offsetX), y: CGFloat(appearance.offsetY))
      .scaleEffect(CGFloat(appearance.scale))
      // The player is created before any environment exists, so the setting is handed to it from here.
      .onChange(of: reduceMotion, initial: true) { _, reduce in
        player.setReduceMotion(reduce)
      }
  }
}

extension View {
  /// Animates this view as the step `stepID` of the choreography that `player` plays.
  public func choreographed(_ stepID: String, player: ChoreographyPlayer) -> some View {
    modifier(ChoreographedModifier(stepID: stepID, player: player))
  }
}
#endif
