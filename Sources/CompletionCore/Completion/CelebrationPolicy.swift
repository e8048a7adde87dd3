import Foundation

/// Whether and how a completion is celebrated.
///
/// *Whether*: at a milestone only (every 5th coin) or every time; not when the person turned this kind of
/// celebration off; not twice at once (a second completion while the first celebration still plays joins
/// it instead of starting another). *How*: a ``Choreography``, adapted to the person's motion preference.
public struct CelebrationPolicy: Hashable, Sendable {
  /// Which counts are worth a celebration.
  public enum Milestones: Hashable, Sendable {
    /// Every completion.
    case always
    /// Every `n`th: `count > 0 && count % n == 0`.
    case every(Int)
    /// Exactly these counts.
    case at(Set<Int>)

    /// Whether reaching `count` is a milestone.
    public func contains(_ count: Int) -> Bool {
      switch self {
      case .always: true
      case .every(let step): step > 0 && count > 0 && count % step == 0
      case .at(let counts): counts.contains(count)
      }
    }
  }

  /// What milestones count.
  public enum Counting: Hashable, Sendable {
    /// The person's completions in this domain (the 10th solve).
    case completions
    /// The balance the completion's first payment reached (the 5th coin).
    case rewardBalance
  }

  /// The opt-out name of this celebration ("cryptogram", "challenges"…).
  public let kind: String
  public let milestones: Milestones
  public let counting: Counting
  /// The full-motion sequence.
  public let choreography: Choreography
  /// Celebrations closer together than this join into one (seconds); defaults to the choreography's length.
  public let coalescingWindow: Double

  public init(
    kind: String, milestones: Milestones = .always, counting: Counting = .completions, choreography: Choreography,
    coalescingWindow: Double? = nil
  ) {
    self.kind = kind
    self.milestones = milestones
    self.counting = counting
    self.choreography = choreography
    self.coalescingWindow = max(0, coalescingWindow ?? choreography.totalDuration)
  }

  /// What the person's settings and recent history say about celebrating now.
  public struct Context: Hashable, Sendable {
    /// The count the completion reached (coins, solves); milestones are judged on it.
    public var count: Int
    /// The kinds this person turned off.
    public var optedOut: Set<String>
    public var preference: MotionPreference
    /// When this person's last celebration started, if any.
    public var lastCelebratedAt: Date?
    public var now: Date

    public init(count: Int, optedOut: Set<String> = [], preference: MotionPreference = .full, lastCelebratedAt: Date? = nil, now: Date) {
      self.count = count
      self.optedOut = optedOut
      self.preference = preference
      self.lastCelebratedAt = lastCelebratedAt
      self.now = now
    }
  }

  /// The verdict.
  public enum Decision: Hashable, Sendable {
    /// Play this (already adapted to the motion preference).
    case celebrate(Choreography)
    /// Another celebration is still playing: this completion joins it (the client adds to what shows).
    case coalesced
    /// Not a milestone: no celebration.
    case notAMilestone
    /// The person turned this kind off.
    case optedOut

    /// Whether this decision plays a celebration.
    public var isCelebration: Bool {
      if case .celebrate = self { return true }
      return false
    }
  }

  /// Decides for one completion.
  public func decide(_ context: Context) -> Decision {
    guard milestones.contains(context.count) else { return .notAMilestone }
    guard !context.optedOut.contains(kind) else { return .optedOut }
    if let last = context.lastCelebratedAt {
      let since = context.now.timeIntervalSince(last)
      if since >= 0, since < coalescingWindow { return .coalesced }
    }
    return .celebrate(choreography.adapted(to: context.preference))
  }
}
