import CompletionCore
import Foundation

/// The quotes the game draws from: the library shipped with the package, plus any a person imports.
public struct QuoteLibrary: Sendable {
  public let quotes: [Quote]
  /// Each quote's ``Quote/id``, in the order of ``quotes``: computed once (it is a hash over the letters).
  public let ids: [String]
  /// Each quote's length band, in the order of ``quotes``.
  public let lengths: [QuoteLength]
  private let byID: [String: Quote]
  /// The daily puzzles' order, as indices into ``quotes`` (see ``PuzzleSelection/daily(for:in:)``).
  let dailyOrder: [Int]

  public init(_ quotes: [Quote]) {
    self.quotes = quotes
    let ids = quotes.map(\.id)
    self.ids = ids
    lengths = quotes.map(\.length)
    var byID: [String: Quote] = [:]
    for (id, quote) in zip(ids, quotes) where byID[id] == nil { byID[id] = quote }
    self.byID = byID
    // Sorted by id first so the order does not depend on how the library was loaded, then a fixed shuffle.
    var order = quotes.indices.sorted { ids[$0] < ids[$1] }
    var shuffler = SeededRandom(seed: "cryptogram-daily-order")
    order.shuffle(using: &shuffler)
    dailyOrder = order
  }

  /// The quote with `id`.
  public func quote(id: String) -> Quote? { byID[id] }

  /// The library shipped with CompletionKit (Resources/quotes.json).
  public static let bundled: QuoteLibrary = {
    guard let url = Bundle.module.url(forResource: "quotes", withExtension: "json"),
      let data = try? Data(contentsOf: url),
      let quotes = try? JSONDecoder().decode([Quote].self, from: data)
    else {
      preconditionFailure("The bundled quote library is missing or unreadable: the package is damaged.")
    }
    return QuoteLibrary(quotes)
  }()
}

/// What is wrong with a quote someone wants to add.
public enum QuoteProblem: Hashable, Sendable, CustomStringConvertible {
  case emptyText
  case emptyAuthor
  case untrimmed(field: String)
  case tooFewLetters
  case tooLong(characters: Int)
  case implausibleYear(Int)
  case duplicate(of: String)

  public var description: String {
    switch self {
    case .emptyText: "the text is empty"
    case .emptyAuthor: "the author is empty"
    case .untrimmed(let field): "the \(field) has spaces at its start or end"
    case .tooFewLetters: "the text needs at least \(QuoteRules.minimumLetters) letters and \(QuoteRules.minimumDistinctLetters) different ones to make a puzzle"
    case .tooLong(let characters): "the text has \(characters) characters; the most is \(QuoteRules.maximumCharacters)"
    case .implausibleYear(let year): "the year \(year) is not between -3000 and 2100"
    case .duplicate(let existing): "it is the same quote as \(existing)"
    }
  }
}

/// The rules every quote in the library meets.
public enum QuoteRules {
  public static let minimumLetters = 8
  public static let minimumDistinctLetters = 4
  public static let maximumCharacters = 400

  /// The problems with `quote` (empty when it can be played).
  public static func problems(with quote: Quote) -> [QuoteProblem] {
    var problems: [QuoteProblem] = []
    if quote.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append(.emptyText) }
    if quote.author.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append(.emptyAuthor) }
    for (name, value) in [("text", quote.text), ("author", quote.author), ("source", quote.source ?? "")]
    where value != value.trimmingCharacters(in: .whitespacesAndNewlines) {
      problems.append(.untrimmed(field: name))
    }
    let letters = Quote.letterKey(quote.text)
    if letters.count < minimumLetters || Set(letters).count < minimumDistinctLetters { problems.append(.tooFewLetters) }
    if quote.text.count > maximumCharacters { problems.append(.tooLong(characters: quote.text.count)) }
    if let year = quote.year, !(-3000...2100).contains(year) { problems.append(.implausibleYear(year)) }
    return problems
  }
}
