import CompletionCore
import Foundation

/// The text people write: stories, comments and report reasons.
public enum ChallengeText {
  /// Optional text, trimmed, control characters (but line breaks) turned into spaces and direction overrides
  /// taken out (`Unicode.Scalar.isBidiFormatting`), at most `limit`
  /// characters as a person counts them (the page's counter counts the same way); nil when nothing is left.
  public static func clean(_ raw: String?, field: String, limit: Int) throws(ChallengeRefusal) -> String? {
    guard let raw else { return nil }
    let cleaned = String(
      String.UnicodeScalarView(
        raw.unicodeScalars.lazy.filter { !$0.isBidiFormatting }.map { $0.properties.generalCategory == .control && $0 != "\n" ? " " : $0 })
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    guard cleaned.count <= limit else { throw .tooLong(field: field, limit: limit) }
    return cleaned.isEmpty ? nil : cleaned
  }

  /// A comment's body: required.
  public static func comment(_ raw: String?) throws(ChallengeRefusal) -> String {
    guard let text = try clean(raw, field: "comment", limit: ChallengeRules.commentLimit) else { throw .emptyComment }
    return text
  }
}
