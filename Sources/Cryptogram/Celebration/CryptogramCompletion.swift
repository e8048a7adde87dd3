import CompletionCore
import Foundation

/// How a solved cryptogram runs through the completion pipeline: 10 points a solve, a daily streak of
/// dailies solved on their own date, and the seed's celebration after every solve.
public enum CryptogramCompletion {
  /// The domain name in completions, ledger keys and opt-outs.
  public static let domain = "cryptogram"
  /// Points paid for a solved puzzle.
  public static let pointsPerSolve = 10
  /// The currency points are paid in (shared with Challenges).
  public static let currency = "points"

  /// The policies the recorder applies.
  public static let rules = CompletionRules(
    reward: .fixed(pointsPerSolve, currency: currency, reason: "Solved a cryptogram"),
    streak: StreakRule(name: "cryptogram-daily", requiresScheduledDay: true),
    // Every solve celebrates; a second solve never lands inside the first one's sequence in practice.
    celebration: CelebrationPolicy(kind: domain, milestones: .always, choreography: CompletionCelebration.choreography, coalescingWindow: 0))

  /// The completion of game `gameID` by `account`.
  public static func completion(
    gameID: String, account: String, mode: String, dailyDate: CalendarDay?, timeZone: String, at date: Date, stats: Completion.Stats
  ) -> Completion {
    Completion(
      domain: domain, subject: gameID, account: account, kind: mode, completedAt: date, timeZone: timeZone,
      scheduledDay: mode == "daily" ? dailyDate : nil, stats: stats)
  }
}
