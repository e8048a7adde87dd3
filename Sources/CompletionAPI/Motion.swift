import CompletionCore

/// A curve as clients need it: what it is, how long it runs, and a CSS easing that reproduces it.
public struct CurvePayload: Codable, Hashable, Sendable {
  public let kind: String
  public let response: Double?
  public let dampingFraction: Double?
  /// Seconds the curve runs (a spring's settling time).
  public let duration: Double
  public let css: String

  public init(_ curve: Curve, nominalDuration: Double) {
    kind = curve.kind
    if case .spring(let spring) = curve {
      response = spring.response
      dampingFraction = spring.dampingFraction
    } else {
      response = nil
      dampingFraction = nil
    }
    duration = curve.activeDuration(nominal: nominalDuration)
    css = curve.cssEasing()
  }
}

/// One step of a choreography, ready to play.
public struct StepPayload: Codable, Hashable, Sendable {
  public let id: String
  public let delay: Double
  /// Seconds the step animates (its curve's active duration).
  public let duration: Double
  public let curve: CurvePayload
  public let from: Appearance
  public let to: Appearance

  public init(_ step: Choreography.Step) {
    id = step.id
    delay = step.delay
    duration = step.activeDuration
    curve = CurvePayload(step.curve, nominalDuration: step.duration)
    from = step.from
    to = step.to
  }
}

/// `GET /api/motion/choreographies/{name}`: a whole sequence for one motion preference.
public struct ChoreographyPayload: Codable, Hashable, Sendable {
  public let name: String
  public let preference: MotionPreference
  public let totalDuration: Double
  public let steps: [StepPayload]

  public init(_ choreography: Choreography, preference: MotionPreference) {
    let adapted = choreography.adapted(to: preference)
    name = adapted.name
    self.preference = preference
    totalDuration = adapted.totalDuration
    steps = adapted.steps.map(StepPayload.init)
  }
}

/// `GET /api/motion/stagger`: when each item of a list starts and how it moves.
public struct StaggerPayload: Codable, Hashable, Sendable {
  /// One list item: `delay` is nil when the item was already shown and does not animate.
  public struct Item: Codable, Hashable, Sendable {
    public let index: Int
    public let delay: Double?
  }

  public let config: String
  public let preference: MotionPreference
  public let origin: StaggerOrigin
  public let direction: StaggerDirection
  public let count: Int
  public let previouslyRevealed: Int
  public let duration: Double
  public let totalDuration: Double
  public let curve: CurvePayload
  public let from: Appearance
  public let to: Appearance
  public let items: [Item]

  public init(configName: String, timeline: StaggerTimeline) {
    config = configName
    preference = timeline.preference
    origin = timeline.origin
    direction = timeline.direction
    count = timeline.count
    previouslyRevealed = timeline.previouslyRevealed
    duration = timeline.duration
    totalDuration = timeline.totalDuration
    let curve: Curve =
      switch timeline.preference {
      case .full: timeline.config.curve
      case .reduced: .easeInOut
      case .off: .linear
      }
    self.curve = CurvePayload(curve, nominalDuration: timeline.duration)
    from = timeline.from
    to = timeline.to
    items = (0..<timeline.count).map { Item(index: $0, delay: timeline.delay(ofItem: $0)) }
  }
}

/// `GET /api/motion/wave`: one loop of each item's vertical offsets.
public struct WavePayload: Codable, Hashable, Sendable {
  public struct Item: Codable, Hashable, Sendable {
    public let index: Int
    public let keyframes: [Double]
  }

  public let amplitude: Double
  public let period: Double
  public let frequency: Double
  /// False when the motion preference forbids decorative motion: clients keep items still.
  public let active: Bool
  public let items: [Item]

  public init(_ wave: Wave, count: Int, preference: MotionPreference, samples: Int = 24) {
    amplitude = wave.amplitude
    period = wave.period
    frequency = wave.frequency
    active = preference.allowsDecorativeMotion
    items = (0..<max(count, 0)).map {
      Item(index: $0, keyframes: preference.allowsDecorativeMotion ? wave.keyframes(index: $0, count: count, samples: samples) : [0, 0])
    }
  }
}

/// `GET /api/motion/wiggle`: the wiggle for keyframe clients, as one shared shape and each cell's offset and delay.
/// Cell `i` sits `cells[i].offset × shape[k]` points sideways `cells[i].delay + k × sampleInterval` seconds after
/// the trigger, and at rest before and after. (One shape instead of a sampled track per cell: a long quote's
/// tracks made its solving answer 70 KB, which the browser took 25 ms to read just as the finish should start.)
public struct WigglePayload: Codable, Hashable, Sendable {
  public struct Cell: Codable, Hashable, Sendable {
    public let index: Int
    /// Points sideways at the shape's full swing (−3…3).
    public let offset: Double
    /// Seconds after the trigger when this cell starts.
    public let delay: Double
  }

  public let seed: UInt64
  public let active: Bool
  /// Seconds the whole wiggle lasts (after this every cell is back at rest).
  public let duration: Double
  public let sampleInterval: Double
  /// The motion every cell follows from its own start, as a fraction of its offset: 0 first and last (at rest).
  /// A single 0 when the preference keeps things still.
  public let shape: [Double]
  public let cells: [Cell]

  public init(_ wiggle: Wiggle, count: Int, seed: UInt64, preference: MotionPreference, framesPerSecond: Double = 60) {
    self.seed = seed
    active = preference.allowsDecorativeMotion
    duration = active ? wiggle.resetAfter : 0
    sampleInterval = 1 / framesPerSecond
    var generator = SeededRandom(seed: seed)
    let cells = wiggle.cells(count: count, using: &generator)
    // Sampled to the last leg's end (the first sample after it is 0: home), rounded to what a screen can show.
    let span = Double(wiggle.legCount) * wiggle.legDuration
    let sampleCount = Int((span * framesPerSecond).rounded(.up))
    let unit = Wiggle.Cell(index: 0, offset: 1, delay: 0)
    shape = active ? (0...sampleCount).map { (wiggle.offset(of: unit, at: Double($0) / framesPerSecond) * 10_000).rounded() / 10_000 } : [0]
    self.cells = cells.map { Cell(index: $0.index, offset: ($0.offset * 1000).rounded() / 1000, delay: $0.delay) }
  }
}

/// `GET /api/motion`: everything the Motion system offers, by name.
public struct MotionCatalog: Codable, Hashable, Sendable {
  public struct SpringEntry: Codable, Hashable, Sendable {
    public let name: String
    public let response: Double
    public let dampingFraction: Double
    public let settlingTime: Double
  }

  public struct StaggerEntry: Codable, Hashable, Sendable {
    public let name: String
    public let baseDelay: Double
    public let delayIncrement: Double
    public let curve: CurvePayload
  }

  public let springs: [SpringEntry]
  public let staggers: [StaggerEntry]
  public let choreographies: [String]
  public let preferences: [MotionPreference]

  public init(choreographies: [Choreography]) {
    springs = Spring.named.map {
      SpringEntry(
        name: $0.name, response: $0.spring.response, dampingFraction: $0.spring.dampingFraction,
        settlingTime: $0.spring.settlingTime)
    }
    staggers = StaggerConfig.named.map {
      StaggerEntry(
        name: $0.name, baseDelay: $0.config.baseDelay, delayIncrement: $0.config.delayIncrement,
        curve: CurvePayload($0.config.curve, nominalDuration: $0.config.duration))
    }
    self.choreographies = choreographies.map(\.name)
    preferences = MotionPreference.allCases
  }
}

extension CurvePayload {
  /// The curve this payload describes (a spring from its response and damping; an unknown kind plays linear).
  public var curve: Curve {
    switch kind {
    case "spring": .spring(Spring(response: response ?? 0.5, dampingFraction: dampingFraction ?? 1))
    case "easeIn": .easeIn
    case "easeOut": .easeOut
    case "easeInOut": .easeInOut
    default: .linear
    }
  }
}

extension ChoreographyPayload {
  /// The sequence as the core plays it, so a Swift client runs the server's choreography through the same
  /// `ChoreographyState` instead of timings of its own. Already adapted to the payload's motion preference.
  public var choreography: Choreography {
    Choreography(
      name: name,
      steps: steps.map { Choreography.Step(id: $0.id, delay: $0.delay, duration: $0.duration, curve: $0.curve.curve, from: $0.from, to: $0.to) })
  }
}
