import Foundation

/// What a completion says when it is shared (the seed's `shareChallenge`): a headline in the sharer's voice,
/// the story, and hashtags made from the challenge. Composed once here; every client renders it as it is.
public struct ShareText: Hashable, Sendable {
  /// "🎉 I just completed the Perfect Pancakes challenge on CompletionKit!", or, for someone else's post,
  /// "🎉 Ada completed the Perfect Pancakes challenge on CompletionKit!".
  public let headline: String
  /// The member's story, as they wrote it.
  public let story: String?
  /// "#PerfectPancakesChallenge", "#CookingChallenge", "#DailyChallenge", "#CompletionKit".
  public let hashtags: [String]

  /// The product's name as it appears in the headline and its hashtag.
  public static let productName = "CompletionKit"
  /// The category every challenge of the catalogue belongs to (the seed's "#CookingChallenge").
  public static let categoryHashtag = "#CookingChallenge"

  /// The caption to copy or hand to a share sheet: headline, story and hashtags, a blank line apart.
  public var caption: String {
    [headline, story, hashtags.isEmpty ? nil : hashtags.joined(separator: " ")].compactMap { $0 }.joined(separator: "\n\n")
  }

  /// The share text of a completion of `challenge`, as `sharer` shares it: in the first person when the
  /// sharer is its author, naming the author otherwise.
  public init(challenge: Post.ChallengeInfo, story: String?, authorName: String, sharedByAuthor: Bool) {
    let who = sharedByAuthor ? "I just" : authorName
    headline = "🎉 \(who) completed the \(challenge.title) challenge on \(Self.productName)!"
    self.story = story.flatMap { $0.isEmpty ? nil : $0 }
    var tags: [String] = []
    let candidates = [
      Self.hashtag(challenge.title, suffix: "Challenge"), Self.categoryHashtag, Self.hashtag(challenge.type, suffix: "Challenge"),
      "#\(Self.productName)",
    ]
    for case let tag? in candidates where !tags.contains(tag) { tags.append(tag) }
    hashtags = tags
  }

  /// The share text of a post as `viewer` would share it; nil for a post that is not a completion.
  public init?(post: Post, viewer: UUID?) {
    guard let challenge = post.challenge, post.kind == .challengeCompleted else { return nil }
    self.init(challenge: challenge, story: post.story, authorName: post.author.displayName, sharedByAuthor: viewer == post.author.id)
  }

  /// A hashtag from free text: its words' letters and digits, each word capitalised ("One-Pan Dinner" →
  /// "#OnePanDinnerChallenge"), with `suffix` unless the words already end in it; nil when no letter is left.
  static func hashtag(_ text: String, suffix: String) -> String? {
    let words = text.split { !($0.isLetter || $0.isNumber) }.map { word in
      word.prefix(1).uppercased() + word.dropFirst()
    }
    let body = words.joined()
    guard body.contains(where: \.isLetter) else { return nil }
    return "#" + (body.lowercased().hasSuffix(suffix.lowercased()) ? body : body + suffix)
  }
}
