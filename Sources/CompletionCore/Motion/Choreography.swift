/// A named sequence of steps (seed 002's `AnimationSequence`): each step starts after its delay and
/// moves its element from `from` to `to` along its curve. Defined once here, played by every client.
public struct Choreography: Hashable, Sendable {
  /// One element's part in the sequence.
  public struct Step: Hashable, Sendable, Identifiable {
    public let id: String
    /// Seconds after the start of the sequence.
    public let delay: Double
    /// Nominal duration (timing curves use it; a spring runs until it settles, as in SwiftUI).
    public let duration: Double
    public let curve: Curve
    public let from: Appearance
    public let to: Appearance

    public init(
      id: String,
      delay: Double = 0,
      duration: Double = 0.3,
      curve: Curve = .spring(.standard),
      from: Appearance = .choreographedHidden,
      to: Appearance = .identity
    ) {
      self.id = id
      self.delay = max(delay, 0)
      self.duration = max(duration, 0)
      self.curve = curve
      self.from = from
      self.to = to
    }

    /// Seconds the step actually animates for.
    public var activeDuration: Double { curve.activeDuration(nominal: duration) }
    /// When the step has finished, measured from the start of the sequence.
    public var endTime: Double { delay + activeDuration }

    /// Progress 0…1 (a spring may overshoot) at `time` seconds after the sequence started.
    public func progress(at time: Double) -> Double {
      let elapsed = time - delay
      if elapsed < 0 { return 0 }
      return curve.value(elapsed: elapsed, duration: duration)
    }

    /// How the element looks at `time` seconds after the sequence started.
    public func appearance(at time: Double) -> Appearance {
      from.interpolated(to: to, progress: progress(at: time))
    }
  }

  public let name: String
  public let steps: [Step]
  /// A hand-made calm version; when nil, ``adapted(to:)`` derives one.
  public let reducedSteps: [Step]?

  public init(name: String, steps: [Step], reducedSteps: [Step]? = nil) {
    self.name = name
    self.steps = steps
    self.reducedSteps = reducedSteps
  }

  /// A card: background, icon, title, content, then actions.
  public static let cardReveal = Choreography(
    name: "cardReveal",
    steps: [
      Step(id: "background", delay: 0, duration: 0.2),
      Step(id: "icon", delay: 0.1, duration: 0.3),
      Step(id: "title", delay: 0.15, duration: 0.25),
      Step(id: "content", delay: 0.2, duration: 0.3),
      Step(id: "actions", delay: 0.3, duration: 0.25),
    ]
  )

  /// A list: header, then items, then footer.
  public static let listAppear = Choreography(
    name: "listAppear",
    steps: [
      Step(id: "header", delay: 0, duration: 0.2),
      Step(id: "items", delay: 0.1, duration: 0.4),
      Step(id: "footer", delay: 0.3, duration: 0.2),
    ]
  )

  /// The built-in choreographies by name. Domains add their own (a cryptogram's completion, a kids' celebration).
  public static let catalogue: [Choreography] = [.cardReveal, .listAppear]

  /// Looks a step up by id.
  public func step(_ id: String) -> Step? {
    steps.first { $0.id == id }
  }

  /// Seconds until every step has finished.
  public var totalDuration: Double {
    steps.map(\.endTime).max() ?? 0
  }

  /// Step ids in the order they start (ties keep their declared order).
  public var startOrder: [String] {
    steps.enumerated()
      .sorted { ($0.element.delay, $0.offset) < ($1.element.delay, $1.offset) }
      .map(\.element.id)
  }

  /// The ids of steps that have started by `time` (the seed's "active" steps).
  public func activeStepIDs(at time: Double) -> [String] {
    steps.filter { $0.delay <= time }.map(\.id)
  }

  /// This choreography as a person with `preference` should see it.
  ///
  /// Reduced motion keeps the order and delays but drops movement and scale: each step becomes a short
  /// cross-fade. Off shows every step at once, without animation.
  public func adapted(to preference: MotionPreference) -> Choreography {
    switch preference {
    case .full:
      return self
    case .reduced:
      let calm =
        reducedSteps
        ?? steps.map {
          Step(
            id: $0.id, delay: $0.delay, duration: MotionPreference.crossFadeDuration, curve: .easeInOut,
            from: $0.from.withoutMovement, to: $0.to.withoutMovement)
        }
      return Choreography(name: name, steps: calm, reducedSteps: calm)
    case .off:
      let instant = steps.map {
        Step(id: $0.id, delay: 0, duration: 0, curve: .linear, from: $0.to, to: $0.to)
      }
      return Choreography(name: name, steps: instant, reducedSteps: instant)
    }
  }
}
