import Foundation

/// The quotes the game draws from: the library shipped with the package, plus any a person imports.
public struct QuoteLibrary: Sendable {
  public let quotes: [Quote]
  private let byID: [String: Quote]

  public init(_ quotes: [Quote]) {
    self.quotes = quotes
    var byID: [String: Quote] = [:]
    for quote in quotes where byID[quote.id] == nil { byID[quote.id] = quote }
    self.byID = byID
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
