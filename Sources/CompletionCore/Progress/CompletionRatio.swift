/// How much of something is done: `completed` of `total`.
public struct CompletionRatio: Hashable, Sendable, Codable {
  public let completed: Int
  public let total: Int

  /// Clamps to 0 ≤ completed ≤ total.
  public init(completed: Int, total: Int) {
    self.total = max(total, 0)
    self.completed = min(max(completed, 0), self.total)
  }

  /// 0…1; 0 when there is nothing to do.
  public var fraction: Double {
    total == 0 ? 0 : Double(completed) / Double(total)
  }

  /// Whether everything is done (an empty list is not "complete": there was nothing to finish).
  public var isComplete: Bool { total > 0 && completed == total }

  /// Whole percent for display, rounded to the nearest (8 of 12 shows 67 %, not 66), except that 100 % appears
  /// only when truly complete (199 of 200 shows 99 %) and started work never shows 0 % (1 of 1,000 shows 1 %).
  public var displayPercent: Int {
    if isComplete { return 100 }
    if completed == 0 { return 0 }
    // Half up, in integers: (100 · completed + total / 2) / total.
    return min(max((completed * 200 + total) / (2 * total), 1), 99)
  }
}
