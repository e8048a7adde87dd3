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
