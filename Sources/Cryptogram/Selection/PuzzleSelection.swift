import CompletionCore

/// Which quote to play: the daily puzzle (the same for everyone on a date) or a random one.
public enum PuzzleSelection {
  /// The daily quote and cipher seed for `day`: a fixed shuffle of the library walked one step a day, so
  /// no quote repeats until the whole library has been used.
  public static func daily(for day: CalendarDay, in library: QuoteLibrary) -> (quote: Quote, seed: UInt64)? {
    let order = library.dailyOrder
    guard !order.isEmpty else { return nil }
    let position = ((day.dayNumber % order.count) + order.count) % order.count
    var seeder = SeededRandom(seed: "cryptogram-daily-\(day)")
    return (library.quotes[order[position]], seeder.next())
  }

  /// The same for a plain list of quotes.
  public static func daily(for day: CalendarDay, from quotes: [Quote]) -> (quote: Quote, seed: UInt64)? {
    daily(for: day, in: QuoteLibrary(quotes))
  }

  /// A random quote of `length` (any length when nil) that is not in `excluded` (solved quotes, today's
  /// daily, the current one). When every candidate is excluded, solved quotes come back before nothing.
  public static func random<G: RandomNumberGenerator>(
    in library: QuoteLibrary, length: QuoteLength?, excluding excluded: Set<String>, alwaysExcluding: Set<String> = [],
    using generator: inout G
  ) -> Quote? {
    let inBand = library.quotes.indices.filter {
      (length == nil || library.lengths[$0] == length) && !alwaysExcluding.contains(library.ids[$0])
    }
    let fresh = inBand.filter { !excluded.contains(library.ids[$0]) }
    return (fresh.isEmpty ? inBand : fresh).randomElement(using: &generator).map { library.quotes[$0] }
  }

  /// The same for a plain list of quotes.
  public static func random<G: RandomNumberGenerator>(
    from quotes: [Quote], length: QuoteLength?, excluding excluded: Set<String>, alwaysExcluding: Set<String> = [],
    using generator: inout G
  ) -> Quote? {
    random(in: QuoteLibrary(quotes), length: length, excluding: excluded, alwaysExcluding: alwaysExcluding, using: &generator)
  }
}
