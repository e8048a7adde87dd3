import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Challenges

/// A post's rules on the value: who may see it, the public link, reports and reviews, fan-out.
@Suite("Post")
struct PostTests {
  static let ada = Person(id: UUID(), username: "ada", displayName: "Ada")
  static let bo = UUID()

  static func completion(recipient: UUID? = nil, status: ModerationState.Status = .visible, publicLink: Bool = true) -> Post {
    Post(
      id: UUID(), author: ada, kind: recipient == nil ? .challengeCompleted : .follow, at: 1, title: "Completed Pancakes! 🎉",
      subtitle: "100 points earned", points: 100, recipient: recipient, moderation: ModerationState(status: status), publicLink: publicLink)
  }

  @Test("Who may see a post: its author always; others while it is visible and they follow (or it is addressed to them); nobody signed out")
  func visibility() {
    let post = Self.completion()
    #expect(post.access(for: Self.ada.id) == .allowed)
    #expect(post.access(for: nil) == .denied)
    #expect(post.access(for: Self.bo) == .ifFollowing)
    #expect(post.isVisible(to: Self.bo, followsAuthor: true) && !post.isVisible(to: Self.bo, followsAuthor: false))
    let notice = Self.completion(recipient: Self.bo)
    #expect(notice.access(for: Self.bo) == .allowed)
    for status in [ModerationState.Status.pendingReview, .revoked] {
      let hidden = Self.completion(status: status)
      #expect(hidden.access(for: Self.bo) == .denied)
      #expect(hidden.access(for: Self.ada.id) == .allowed)
      #expect(!hidden.isPublic && !hidden.offersShareLink)
    }
    #expect(Self.completion(status: .revoked).shownPoints == nil && !Self.completion(status: .revoked).hasCard)
    #expect(Self.completion(status: .pendingReview).hasCard && Self.completion().shownPoints == 100)
    #expect(Self.completion().isPublic && !Self.completion(publicLink: false).isPublic && !notice.isPublic)
  }

  @Test("The public link: its author only, and never turned on for a post out of feeds")
  func publicLink() throws {
    var post = Self.completion()
    #expect(throws: ChallengeRefusal.notYours) { try post.handle(.setPublicLink(false, by: Self.bo)) }
    #expect(try post.handle(.setPublicLink(false, by: Self.ada.id)) == [.publicLinkChanged])
    #expect(try post.handle(.setPublicLink(false, by: Self.ada.id)) == [])
    var hidden = Self.completion(status: .pendingReview, publicLink: false)
    #expect(throws: ChallengeRefusal.postNotPublic) { try hidden.handle(.setPublicLink(true, by: Self.ada.id)) }
    #expect(try hidden.handle(.setPublicLink(false, by: Self.ada.id)) == [])
  }

  @Test("Reports hide at the threshold; its author cannot report it; keep shows it again; revoke claws back and ends it")
  func reportsAndReviews() throws {
    var post = Self.completion()
    #expect(throws: ChallengeRefusal.cannotReportOwn) { try post.handle(.report(by: Self.ada.id, threshold: 2)) }
    #expect(try post.handle(.report(by: UUID(), threshold: 2)) == [])
    #expect(try post.handle(.report(by: UUID(), threshold: 2)) == [.hide])
    #expect(post.moderation.status == .pendingReview)
    #expect(try post.handle(.review(.keep, threshold: 2)) == [.show])
    #expect(try post.handle(.report(by: UUID(), threshold: 2)) == [])
    #expect(try post.handle(.review(.revoke, threshold: 2)) == [.hide, .clawBack])
    #expect(throws: ChallengeRefusal.alreadyRevoked) { try post.handle(.review(.keep, threshold: 2)) }
    var notice = Self.completion(recipient: Self.bo)
    #expect(throws: ChallengeRefusal.postNotFound) { try notice.handle(.review(.revoke, threshold: 2)) }
  }

  @Test("Fan-out: a notice goes to its addressee; a post is copied to followers up to the limit, merged on read beyond it")
  func fanOut() {
    #expect(FanOut.decide(recipient: Self.bo, followers: 10_000, limit: 5) == .addressee(Self.bo))
    #expect(FanOut.decide(recipient: nil, followers: 5, limit: 5) == .copyToFollowers)
    #expect(FanOut.decide(recipient: nil, followers: 6, limit: 5) == .mergeOnRead)
    #expect(FanOut.addressee(Self.bo).isCopied && FanOut.copyToFollowers.isCopied && !FanOut.mergeOnRead.isCopied)
  }

  @Test("Follows: not a guest, not oneself; comments: one's own, or any on one's own post; text is cleaned and bounded")
  func socialRules() throws {
    #expect(throws: ChallengeRefusal.guestCannotFollow) { try FollowRules.check(follower: Self.bo, isGuest: true, followee: Self.ada.id) }
    #expect(throws: ChallengeRefusal.cannotFollowSelf) { try FollowRules.check(follower: Self.bo, isGuest: false, followee: Self.bo) }
    try FollowRules.check(follower: Self.bo, isGuest: false, followee: Self.ada.id)
    #expect(FollowRules.noticeTitle(follower: "Bo") == "Bo started following you")
    let cy = UUID()
    #expect(Post.mayDeleteComment(by: cy, commenter: cy, postAuthor: Self.ada.id))
    #expect(Post.mayDeleteComment(by: Self.ada.id, commenter: cy, postAuthor: Self.ada.id))
    #expect(!Post.mayDeleteComment(by: Self.bo, commenter: cy, postAuthor: Self.ada.id))
    #expect(try ChallengeText.clean("  a\u{7}b\nc  ", field: "story", limit: 10) == "a b\nc")
    #expect(try ChallengeText.clean(" \n ", field: "story", limit: 10) == nil)
    // Direction overrides and isolates are invisible and reorder what is shown: they go ("gnp.exe" stays as typed).
    #expect(try ChallengeText.clean("photo\u{202E}gnp.exe\u{2066}x\u{2069}", field: "story", limit: 40) == "photognp.exex")
    #expect(try ChallengeText.clean("שלום \u{200F}world", field: "story", limit: 40) == "שלום \u{200F}world", "a direction mark stays")
    #expect(throws: ChallengeRefusal.tooLong(field: "story", limit: 3)) { try ChallengeText.clean("abcd", field: "story", limit: 3) }
    #expect(throws: ChallengeRefusal.emptyComment) { try ChallengeText.comment("   ") }
    #expect(try PostFilter(parsing: "social").kinds == [.follow])
    #expect(throws: ChallengeRefusal.invalidFilter("nope")) { try PostFilter(parsing: "nope") }
  }

  @Test("Property: moderation only moves forward — revoked is final, a hidden post shows again only when kept, reports count since the last review")
  func moderationMovesForward() async {
    let step = PropertyBased.zip(Gen.int(in: 0...5), Gen.int(in: 1...4))
    await propertyCheck(count: 300, input: step.array(of: 1...40)) { steps in
      var post = Self.completion()
      var clawedBack = 0
      var reportsSinceReview = 0
      for (command, threshold) in steps {
        let before = post.moderation
        let commands: [Post.Command] = [
          .report(by: UUID(), threshold: threshold), .report(by: UUID(), threshold: threshold), .report(by: UUID(), threshold: threshold),
          .review(.keep, threshold: threshold), .review(.revoke, threshold: threshold), .setPublicLink(true, by: Self.ada.id),
        ]
        do {
          let effects = try post.handle(commands[command])
          clawedBack += effects.filter { $0 == .clawBack }.count
          if command < 3 { reportsSinceReview += 1 }
          if command == 3 { reportsSinceReview = 0 }
          if effects.contains(.show) { #expect(before.status == .pendingReview && command == 3) }
          if effects.contains(.hide) { #expect(before.status == .visible && post.moderation.status != .visible) }
        } catch {
          #expect(post.moderation == before)
          #expect(before.status == .revoked || command == 5)
        }
        switch before.status {
        case .revoked: #expect(post.moderation.status == .revoked)
        case .pendingReview: #expect(post.moderation.status != .visible || command == 3)
        case .visible: break
        }
        if post.moderation.status != .revoked { #expect(post.moderation.reports == reportsSinceReview) }
      }
      #expect(clawedBack == (post.moderation.status == .revoked ? 1 : 0))
    }
  }
}
