import CompletionCore
import Foundation

/// How a finished project runs through the completion pipeline: recorded once per project (completing it
/// again after reopening a task pays nothing more), a few points, and a short celebration — the ring
/// fills, a check appears, then the project's name.
public enum ProjectCompletion {
  /// The domain name in completions, ledger keys and opt-outs.
  public static let domain = "projects"
  /// Points for finishing a project (the shared "points" currency of every system).
  public static let pointsPerProject = 10
  public static let currency = "points"

  /// The celebration: step ids "ring", "check" and "name".
  public static let choreography = Choreography(
    name: "projectComplete",
    steps: [
      .init(id: "ring", delay: 0, duration: ProgressAnimator.defaultDuration, curve: .easeOut, from: Appearance(opacity: 0.6, scale: 0.9)),
      .init(id: "check", delay: 0.3, curve: .spring(Spring(response: 0.4, dampingFraction: 0.6)), from: Appearance(opacity: 0, scale: 0.5)),
      .init(id: "name", delay: 0.5, duration: 0.35, curve: .easeOut, from: Appearance(opacity: 0, offsetY: 8)),
    ])

  /// How long the celebration stays before it dismisses itself, after its last step.
  public static let holdSeconds = 1.6

  /// The policies the recorder applies.
  public static let rules = CompletionRules(
    reward: .fixed(pointsPerProject, currency: currency, reason: "Finished a project"),
    streak: nil,
    celebration: CelebrationPolicy(kind: domain, milestones: .always, choreography: choreography, coalescingWindow: 0))

  /// The completion of project `projectID` by `account`: one per project, whatever happens to it later.
  public static func completion(projectID: String, account: String, at date: Date, timeZone: String) -> Completion {
    Completion(
      domain: domain, subject: projectID, account: account, kind: "project", completedAt: date, timeZone: timeZone,
      scheduledDay: nil)
  }
}
