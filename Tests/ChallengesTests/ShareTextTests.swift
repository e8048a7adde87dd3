import Foundation
import Testing

@testable import Challenges

/// The seed's share text, composed once in the core.
@Suite("Share text")
struct ShareTextTests {
  static let pancakes = Post.ChallengeInfo(id: "pancakes", title: "Perfect Pancakes", type: "daily")

  @Test("The author shares in the first person: the seed's headline, the story, and hashtags from the challenge")
  func author() {
    let text = ShareText(challenge: Self.pancakes, story: "Fluffy at last.", authorName: "Ada", sharedByAuthor: true)
    #expect(text.headline == "🎉 I just completed the Perfect Pancakes challenge on CompletionKit!")
    #expect(text.hashtags == ["#PerfectPancakesChallenge", "#CookingChallenge", "#DailyChallenge", "#CompletionKit"])
    #expect(
      text.caption
        == "🎉 I just completed the Perfect Pancakes challenge on CompletionKit!\n\nFluffy at last.\n\n"
        + "#PerfectPancakesChallenge #CookingChallenge #DailyChallenge #CompletionKit")
  }

  @Test("Someone else's post names its author, and a post without a story has no empty paragraph")
  func someoneElses() {
    let text = ShareText(challenge: Self.pancakes, story: nil, authorName: "Ada", sharedByAuthor: false)
    #expect(text.headline == "🎉 Ada completed the Perfect Pancakes challenge on CompletionKit!")
    #expect(!text.caption.contains("\n\n\n") && text.caption.hasSuffix("#CompletionKit"))
    #expect(!text.caption.contains("I just"))
  }

  @Test("Hashtags keep letters and digits of every word, capitalised, and never say Challenge twice")
  func hashtags() {
    #expect(ShareText.hashtag("One-Pan Dinner", suffix: "Challenge") == "#OnePanDinnerChallenge")
    #expect(ShareText.hashtag("Knife Skills: The Dice", suffix: "Challenge") == "#KnifeSkillsTheDiceChallenge")
    #expect(ShareText.hashtag("Toast, Elevated", suffix: "Challenge") == "#ToastElevatedChallenge")
    #expect(ShareText.hashtag("Crème brûlée", suffix: "Challenge") == "#CrèmeBrûléeChallenge")
    #expect(ShareText.hashtag("The 5k Challenge", suffix: "Challenge") == "#The5kChallenge")
    #expect(ShareText.hashtag("🎉 !!", suffix: "Challenge") == nil)
    #expect(ShareText.hashtag("2024", suffix: "Challenge") == nil)
    // A challenge of the "cooking" type would repeat the category: it is listed once.
    let cooking = ShareText(
      challenge: .init(id: "x", title: "Cooking", type: "cooking"), story: nil, authorName: "Ada", sharedByAuthor: true)
    #expect(cooking.hashtags == ["#CookingChallenge", "#CompletionKit"])
  }

  @Test("ASCII titles take a byte-wise way to their hashtag that answers exactly as the general one")
  func asciiHashtagsMatchTheGeneralRule() {
    let samples = [
      "One-Pan Dinner", "Knife Skills: The Dice", "Toast, Elevated", "The 5k Challenge", "2024", "!!", "", "  a  ", "x",
      "already a challenge", "CHALLENGE", "Daily", "daily-challenge", "5 a Day", "Pasta al Dente", "A1 b2 C3", "[brackets] & {braces}",
      "tab\tand\nnewline", "mixed_Under_score", "Zz", "@@z", "challenge", "Challenges",
    ]
    for text in samples {
      for suffix in ["Challenge", "challenge", "X", ""] {
        let words = text.split { !($0.isLetter || $0.isNumber) }.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        let general = words.contains(where: \.isLetter)
          ? "#" + (words.lowercased().hasSuffix(suffix.lowercased()) ? words : words + suffix) : nil
        #expect(ShareText.asciiHashtag(text, suffix: suffix) == general, "\(text) + \(suffix)")
      }
    }
  }

  @Test("A post's share text is in the viewer's voice, and a notice has none")
  func forPost() throws {
    let ada = Person(id: UUID(), username: "ada", displayName: "Ada")
    let post = Post(
      id: UUID(), author: ada, kind: .challengeCompleted, at: 1, title: "Completed Perfect Pancakes! 🎉", subtitle: "100 points earned",
      story: "Golden.", challenge: Self.pancakes, points: 100, moderation: ModerationState(status: .visible), publicLink: false)
    #expect(try #require(ShareText(post: post, viewer: ada.id)).headline.contains("I just completed"))
    #expect(try #require(ShareText(post: post, viewer: UUID())).headline.hasPrefix("🎉 Ada completed"))
    #expect(try #require(ShareText(post: post, viewer: nil)).caption.contains("Golden."))
    let notice = Post(
      id: UUID(), author: ada, kind: .follow, at: 1, title: "Ada started following you", subtitle: "", recipient: UUID(),
      moderation: ModerationState(status: .visible), publicLink: false)
    #expect(ShareText(post: notice, viewer: ada.id) == nil)
  }
}
