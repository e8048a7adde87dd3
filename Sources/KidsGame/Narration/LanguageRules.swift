import Foundation

/// The style guide's rules for every German line: short sentences, no words of blame, no English.
public enum LanguageRules {
  /// At most this many words per sentence.
  public static let maxWordsPerSentence = 7
  /// Words never said to the child, in any form ("Falsch", "Fehler", "Fehlerchen").
  public static let forbiddenStems = ["falsch", "fehler"]
  /// English words that must not slip in (a small list: brand names like YouTube and iPad are fine).
  public static let englishWords: Set<String> = [
    "the", "and", "you", "wrong", "error", "try", "again", "good", "great", "please", "yes", "is", "are", "time",
  ]

  /// One broken rule.
  public enum Violation: Hashable, Sendable {
    case tooManyWords(sentence: String, count: Int)
    case forbiddenWord(String)
    case englishWord(String)
  }

  /// The sentences of `text`, split after `.`, `!`, `?`, `:` and `…`.
  public static func sentences(in text: String) -> [String] {
    text.split(whereSeparator: { ".!?:…".contains($0) })
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  /// The words of a sentence: runs between spaces that hold a letter or digit ("+" and "/" are not words).
  public static func words(in sentence: String) -> [String] {
    sentence.split(separator: " ")
      .map { $0.trimmingCharacters(in: .punctuationCharacters.union(.symbols)) }
      .filter { $0.contains(where: { $0.isLetter || $0.isNumber }) }
  }

  /// Every rule `text` breaks (empty when it is fine).
  public static func violations(in text: String) -> [Violation] {
    var found: [Violation] = []
    for sentence in sentences(in: text) {
      let words = words(in: sentence)
      if words.count > maxWordsPerSentence { found.append(.tooManyWords(sentence: sentence, count: words.count)) }
      for word in words {
        let lower = word.lowercased()
        if forbiddenStems.contains(where: lower.contains) { found.append(.forbiddenWord(word)) }
        if englishWords.contains(lower) { found.append(.englishWord(word)) }
      }
    }
    return found
  }
}
