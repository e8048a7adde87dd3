import CompletionCore

/// What a shared daily link says before anyone plays it (link-preview tags and picture): which day's puzzle,
/// and an invitation — never a letter of the quote.
public struct DailyPreview: Sendable, Equatable {
  /// "Cryptogram · Daily puzzle, Tuesday 24 November 2026".
  public let title: String
  /// One or two sentences under the title.
  public let description: String
  /// The link, relative to the site.
  public let path: String
  /// The picture's top line, headline, line under it and closing line.
  public let eyebrow: String
  public let heading: String
  public let subheading: String
  public let invitation: String
  /// The picture in words.
  public let imageDescription: String

  /// The preview of `day`'s daily puzzle.
  public init(day: CalendarDay) {
    let date = CryptogramShare.longDate(day)
    title = "Cryptogram · Daily puzzle, \(date)"
    description = "A famous quote with every letter swapped for another. Crack it one letter at a time — can you solve the same one?"
    path = "/cryptogram?daily=\(day)"
    eyebrow = "CRYPTOGRAM · DAILY PUZZLE"
    heading = "Daily puzzle"
    subheading = date
    invitation = "Can you crack it?"
    imageDescription = "Cryptogram daily puzzle card for \(date)"
  }
}
