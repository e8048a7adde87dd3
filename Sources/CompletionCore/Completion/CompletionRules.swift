/// What a domain's completions earn, how they count towards a streak, and how they are celebrated:
/// the three policies the recorder applies to every completion of that domain.
public struct CompletionRules: Sendable {
  public let reward: RewardPolicy
  /// Nil when the domain keeps no streak.
  public let streak: StreakRule?
  public let celebration: CelebrationPolicy

  public init(reward: RewardPolicy, streak: StreakRule?, celebration: CelebrationPolicy) {
    self.reward = reward
    self.streak = streak
    self.celebration = celebration
  }
}
