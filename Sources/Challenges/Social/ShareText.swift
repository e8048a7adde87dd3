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
    // Every feed page makes one for each completion on it, and titles are nearly always ASCII: bytes then,
    // without the Unicode word and case machinery (the same answer; other text takes the general way below).
    if text.utf8.allSatisfy({ $0 < 0x80 }), suffix.utf8.allSatisfy({ $0 < 0x80 }) { return asciiHashtag(text, suffix: suffix) }
    let words = text.split { !($0.isLetter || $0.isNumber) }.map { word in
      word.prefix(1).uppercased() + word.dropFirst()
    }
    let body = words.joined()
    guard body.contains(where: \.isLetter) else { return nil }
    return "#" + (body.lowercased().hasSuffix(suffix.lowercased()) ? body : body + suffix)
  }

  /// ``hashtag(_:suffix:)`` for ASCII `text` and `suffix`.
  static func asciiHashtag(_ text: String, suffix: String) -> String? {
    func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    var body: [UInt8] = [0x23]  // "#"
    body.reserveCapacity(text.utf8.count + suffix.utf8.count + 1)
    var startsWord = true
    var hasLetter = false
    for byte in text.utf8 {
      guard isLetter(byte) || isDigit(byte) else {
        startsWord = true
        continue
      }
      hasLetter = hasLetter || isLetter(byte)
      body.append(startsWord && isLetter(byte) ? byte & ~0x20 : byte)
      startsWord = false
    }
    guard hasLetter else { return nil }
    let ending = Array(suffix.utf8)
    let endsInSuffix = body.count - 1 >= ending.count && zip(body.suffix(ending.count), ending).allSatisfy { ($0 | 0x20) == ($1 | 0x20) }
    if !endsInSuffix { body.append(contentsOf: ending) }
    return String(decoding: body, as: UTF8.self)
  }
}
