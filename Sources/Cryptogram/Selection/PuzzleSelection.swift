import CompletionCore

/// Which quote to play: the daily puzzle (the same for everyone on a date) or a random one.
public enum PuzzleSelection {
  /// The daily quote and cipher seed for `day`: a fixed shuffle of the library walked one step a day, so
  /// no quote repeats until the whole library has been used.
  public static func daily(for day: CalendarDay, from quotes: [Quote]) -> (quote: Quote, seed: UInt64)? {
    guard !quotes.isEmpty else { return nil }
    // Sort by id first so the order does not depend on how the library was loaded.
    var order = quotes.sorted { $0.id < $1.id }
    var shuffler = SeededRandom(seed: "cryptogram-daily-order")
    order.shuffle(using: &shuffler)
    let position = ((day.dayNumber % order.count) + order.count) % order.count
    var seeder = SeededRandom(seed: "cryptogram-daily-\(day)")
    return (order[position], seeder.next())
  }

  /// A random quote of `length` (any length when nil) that is not in `excluded` (solved quotes, today's
  /// daily, the current one). When every candidate is excluded, solved quotes come back before nothing.
  public static func random<G: RandomNumberGenerator>(
    from quotes: [Quote], length: QuoteLength?, excluding excluded: Set<String>, alwaysExcluding: Set<String> = [],
    using generator: inout G
  ) -> Quote? {
    let inBand = quotes.filter { length == nil || $0.length == length }.filter { !alwaysExcluding.contains($0.id) }
    let fresh = inBand.filter { !excluded.contains($0.id) }
    return (fresh.isEmpty ? inBand : fresh).randomElement(using: &generator)
  }
}

/// Daily streaks: consecutive days whose daily puzzle was solved on its own date.
public struct DailyStreak: Hashable, Sendable, Codable {
  public private(set) var current = 0
  public private(set) var best = 0
  /// The last day that extended the streak.
  public private(set) var lastDay: CalendarDay?

  public init() {}

  /// A streak restored from storage.
  public init(current: Int, best: Int, lastDay: CalendarDay?) {
    self.current = max(current, 0)
    self.best = max(best, current, 0)
    self.lastDay = lastDay
  }

  /// Records that the daily puzzle of `day` was solved on `day` (in the person's time zone).
  /// Solving the same day twice changes nothing.
  public mutating func recordSolve(on day: CalendarDay) {
    if let lastDay, day <= lastDay { return }
    if let lastDay, day.dayNumber == lastDay.dayNumber + 1 {
      current += 1
    } else {
      current = 1
    }
    lastDay = day
    best = max(best, current)
  }

  /// The streak as it stands on `today`: it survives until the end of the day after the last solve
  /// (today not solved yet still counts yesterday's run).
  public func current(on today: CalendarDay) -> Int {
    guard let lastDay else { return 0 }
    return today.dayNumber - lastDay.dayNumber <= 1 ? current : 0
  }
}
