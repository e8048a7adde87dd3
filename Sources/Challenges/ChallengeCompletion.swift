import CompletionCore
import Foundation

/// How a completed challenge runs through the completion pipeline: the type's points, the daily streak,
/// and the seed's celebration overlay.
public enum ChallengeCompletion {
  /// The domain name in completions, ledger keys and opt-outs.
  public static let domain = "challenges"
  /// The shared points currency of every system.
  public static let currency = "points"
  /// Completed dailies make a streak; weeklies, monthlies and specials do not. At most two freezes are held
  /// (Duolingo's limit): enough for a weekend away, too few to keep a streak without doing the challenges.
  public static let streak = StreakRule(
    name: "challenges-daily", maxFreezes: 2, requiresScheduledDay: true, kinds: [ChallengeType.daily.rawValue])

  /// What a streak freeze costs, in points. Two dailies' worth (a daily pays 100): a freeze is earned by
  /// doing more than it saves, so missed days can never be bought with the points of the days they replace,
  /// yet a week of dailies pays for both freezes one may hold. (The seed's shop priced its freeze
  /// extension at 150 coins and its shield at 250; 200 sits between them.)
  public static let freezePrice = 2 * ChallengeType.daily.points

  /// The overlay (seed 004's `CelebrationView`): the backdrop fades in, the party popper arrives with a
  /// spring and bounces to 1.2 and back three times (spring 0.5 s, damping 0.5, `repeatCount(3)`), then the
  /// title, the message and the points. The three bounces are three nested elements ("bounce1" scales to
  /// 1.2, "bounce2" back by 1/1.2, "bounce3" to 1.2 again), so a client that plays one animation per
  /// element plays them as the seed's autoreversing repeat.
  public static let choreography: Choreography = {
    let spring = Curve.spring(Spring(response: 0.5, dampingFraction: 0.5))
    let bounce = 0.5
    return Choreography(
      name: "challengeComplete",
      steps: [
        .init(id: "backdrop", delay: 0, duration: 0.25, curve: .easeOut, from: Appearance(opacity: 0)),
        .init(id: "popper", delay: 0.05, curve: spring, from: Appearance(opacity: 0, scale: 0.4)),
        .init(id: "bounce1", delay: 0.35, curve: spring, from: .identity, to: Appearance(scale: 1.2)),
        .init(id: "bounce2", delay: 0.35 + bounce, curve: spring, from: .identity, to: Appearance(scale: 1 / 1.2)),
        .init(id: "bounce3", delay: 0.35 + 2 * bounce, curve: spring, from: .identity, to: Appearance(scale: 1.2)),
        .init(id: "title", delay: 0.2, duration: 0.3, curve: .easeOut, from: Appearance(opacity: 0, offsetY: 12)),
        .init(id: "message", delay: 0.3, duration: 0.3, curve: .easeOut, from: Appearance(opacity: 0, offsetY: 12)),
        .init(id: "points", delay: 0.45, curve: .spring(.bounce), from: Appearance(opacity: 0, scale: 0.6)),
      ])
  }()

  /// The overlay dismisses itself this long after it appears (the seed's `asyncAfter(deadline: .now() + 3)`).
  public static let dismissAfterSeconds = 3.0

  /// The overlay's words.
  public static let headline = "Challenge Complete! 🎉"
  public static let sharedMessage = "Your achievement has been shared with your followers!"
  /// The message for a guest, whom nobody can follow yet.
  public static let guestMessage = "Save your account on the home page so friends can follow you and see it."

  /// The policies the recorder applies: points by type, the daily streak, a celebration every time.
  public static let rules = CompletionRules(
    reward: .byKind(
      Dictionary(uniqueKeysWithValues: ChallengeType.allCases.map { ($0.rawValue, $0.points) }), currency: currency,
      reason: "Completed a challenge"),
    streak: streak,
    celebration: CelebrationPolicy(kind: domain, milestones: .always, choreography: choreography, coalescingWindow: 0))

  /// The completion of `challenge` by `account` at `date`: one per person and challenge, however often sent.
  public static func completion(of challenge: Challenge, account: String, at date: Date, timeZone: String) -> Completion {
    Completion(
      domain: domain, subject: challenge.id, account: account, kind: challenge.type.rawValue, completedAt: date, timeZone: timeZone,
      scheduledDay: challenge.type == .daily ? challenge.start : nil)
  }

  /// The feed activity's title: "Completed Perfect Pancakes! 🎉".
  public static func activityTitle(_ challengeTitle: String) -> String { "Completed \(challengeTitle)! 🎉" }
  /// The feed activity's subtitle: "100 points earned".
  public static func activitySubtitle(points: Int) -> String { "\(points) points earned" }
}
