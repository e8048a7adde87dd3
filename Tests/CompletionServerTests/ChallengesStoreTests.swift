import Challenges
import CompletionCore
import Fluent
import Foundation
import PropertyBased
import Testing
import Vapor

@testable import CompletionServer

/// One suite of Challenges store rules, run on the in-memory store and on the SQL store (SQLite here,
/// PostgreSQL in CI): participations saved by compare-and-set, kept counts that always equal a recount,
/// fan-out and merge-on-read feeds that show what the visibility rule allows, threads, reports, photos.
@Suite("Challenges stores", .serialized)
struct ChallengesStoreTests {
  typealias MakePerson = @Sendable (String) async throws -> Person

  static let day = CalendarDay("2026-11-23")!
  static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
  static let daily = ChallengeCatalogue.builtIn.challenges(on: day).first { $0.type == .daily }!

  static func makePost(_ author: Person, at: Int64, kind: Post.Kind = .challengeCompleted, photo: UUID? = nil, recipient: UUID? = nil) -> Post {
    Post(
      id: UUID(), author: author, kind: kind, at: at, title: "Post \(at)", subtitle: "100 points earned", photo: photo, story: nil,
      challenge: kind == .challengeCompleted ? Post.ChallengeInfo(id: daily.id, title: daily.title, type: "daily") : nil,
      points: kind == .challengeCompleted ? 100 : nil, completionKey: kind == .challengeCompleted ? "key-\(UUID().uuidString)" : nil,
      recipient: recipient)
  }

  /// Runs a participation command the way the server does: load → rules → compare-and-set save, again on a lost race.
  static func run(_ command: Participation.Command, _ user: UUID, on store: some ChallengesStore) async throws -> [Participation.Effect] {
    for _ in 0..<10 {
      let loaded = try await store.participation(of: user, in: daily.id)
      var participation = loaded
      let effects = try Participation.handle(command, &participation, in: daily, today: day)
      guard let changed = participation, changed != loaded else { return effects }
      if try await store.save(changed, of: user, replacing: loaded, at: t0) { return effects }
    }
    Issue.record("the save never landed")
    return []
  }

  // MARK: The shared rules

  static func participations(_ store: some ChallengesStore, _ makePerson: MakePerson) async throws {
    let ada = try await makePerson("ada")
    // setup: nothing stored
    #expect(try await store.participation(of: ada.id, in: daily.id) == nil)
    var joined: Participation?
    _ = try Participation.handle(.join(at: t0), &joined, in: daily, today: day)
    let active = try #require(joined)
    // MUT: compare-and-set against "none stored"
    #expect(try await store.save(active, of: ada.id, replacing: nil, at: t0))
    #expect(try await !store.save(active, of: ada.id, replacing: nil, at: t0))
    #expect(try await store.participation(of: ada.id, in: daily.id) == active)
    // A save against a stale participation writes nothing.
    var completed: Participation? = active
    let post = UUID()
    _ = try Participation.handle(.complete(post: post, at: t0 + 5), &completed, in: daily, today: day)
    var left: Participation? = active
    _ = try Participation.handle(.leave(at: t0 + 1), &left, in: daily, today: day)
    let leaving = try #require(left)
    let completing = try #require(completed)
    #expect(try await store.save(leaving, of: ada.id, replacing: active, at: t0))
    #expect(try await !store.save(completing, of: ada.id, replacing: active, at: t0))
    #expect(try await store.participation(of: ada.id, in: daily.id)?.status == .left)
    // Reads: by ids, recent (not left), and by the completion's post.
    #expect(try await store.participations(of: ada.id, in: [daily.id, "weekly.2026-11-23.nothing"]).keys.sorted() == [daily.id])
    #expect(try await store.recentParticipations(of: ada.id, limit: 10).isEmpty)
    #expect(try await run(.complete(post: post, at: t0 + 9), ada.id, on: store) == [.completed(points: 100, streakDay: day, post: post)])
    #expect(try await store.recentParticipations(of: ada.id, limit: 10).map(\.status) == [.completed])
    let found = try #require(try await store.participation(ofPost: post))
    #expect(found.user == ada.id && found.participation.status == .completed && found.participation.completedAt == t0 + 9)
    #expect(try await store.participation(ofPost: UUID()) == nil)
  }

  static func socialGraph(_ store: some ChallengesStore, _ makePerson: MakePerson) async throws {
    let ada = try await makePerson("ada")
    let bo = try await makePerson("bo")
    let cy = try await makePerson("cy")
    #expect(try await store.person(ada.id) == ada)
    let adaName = try #require(ada.username)
    #expect(try await store.person(username: adaName.uppercased()) == ada)
    #expect(try await store.person(UUID()) == nil)
    // Follow once; counts kept on both sides.
    #expect(try await store.follow(bo.id, ada.id, at: 10))
    #expect(try await !store.follow(bo.id, ada.id, at: 11))
    #expect(try await store.follow(cy.id, ada.id, at: 12))
    #expect(try await store.follow(bo.id, cy.id, at: 13))
    #expect(try await store.followCounts(of: ada.id) == FollowCounts(followers: 2, following: 0))
    #expect(try await store.followCounts(of: bo.id) == FollowCounts(followers: 0, following: 2))
    #expect(try await store.follows(bo.id, ada.id))
    #expect(try await !store.follows(ada.id, bo.id))
    #expect(Set(try await store.followers(of: ada.id)) == [bo.id, cy.id])
    // Lists page newest first.
    let first = try await store.people(of: ada.id, .followers, after: nil, limit: 1)
    #expect(first.map(\.person) == [cy, bo])  // one page plus one, to tell that more follow
    #expect(try await store.people(of: ada.id, .followers, after: first[0].position, limit: 1).map(\.person) == [bo])
    #expect(try await store.people(of: bo.id, .following, after: nil, limit: 5).map(\.person) == [cy, ada])
    // Unfollow: counts back, and the followee's posts (not their notices) leave the follower's feed.
    let completion = makePost(ada, at: 100)
    let notice = makePost(ada, at: 101, kind: .follow, recipient: bo.id)
    try await store.add(completion, delivery: .copyToFollowers)
    try await store.add(notice, delivery: .addressee(bo.id))
    #expect(try await store.feedPage(of: bo.id, kinds: Post.Kind.allCases, after: nil, limit: 10).posts.map(\.id) == [notice.id, completion.id])
    #expect(try await store.unfollow(bo.id, ada.id))
    #expect(try await !store.unfollow(bo.id, ada.id))
    #expect(try await store.followCounts(of: ada.id) == FollowCounts(followers: 1, following: 0))
    #expect(try await store.followCounts(of: bo.id) == FollowCounts(followers: 0, following: 1))
    #expect(try await store.feedPage(of: bo.id, kinds: Post.Kind.allCases, after: nil, limit: 10).posts.map(\.id) == [notice.id])
  }

  static func feeds(_ store: some ChallengesStore, _ makePerson: MakePerson) async throws {
    let ada = try await makePerson("ada")
    let star = try await makePerson("star")
    let bo = try await makePerson("bo")
    _ = try await store.follow(bo.id, ada.id, at: 1)
    _ = try await store.follow(bo.id, star.id, at: 1)
    // Copied into followers' feeds, or merged on read; interleaved by time, paged without repeats.
    let a1 = makePost(ada, at: 1_000)
    let s1 = makePost(star, at: 2_000)
    let a2 = makePost(ada, at: 3_000)
    let s2 = makePost(star, at: 4_000)
    try await store.add(a1, delivery: .copyToFollowers)
    try await store.add(s1, delivery: .mergeOnRead)
    try await store.add(a2, delivery: .copyToFollowers)
    try await store.add(s2, delivery: .mergeOnRead)
    #expect(try await store.post(s1.id)?.fannedOut == false)
    #expect(try await store.post(a1.id)?.fannedOut == true)
    let page1 = try await store.feedPage(of: bo.id, kinds: [.challengeCompleted], after: nil, limit: 3)
    #expect(page1.posts.map(\.id) == [s2.id, a2.id, s1.id])
    let page2 = try await store.feedPage(of: bo.id, kinds: [.challengeCompleted], after: page1.next, limit: 3)
    #expect(page2.posts.map(\.id) == [a1.id] && page2.next == nil)
    // The page says which of its posts the viewer congratulated, from both lists, and only those on the page.
    #expect(page1.congratulated.isEmpty)
    for post in [s1, a1, a2] { _ = try await store.setCongrats(true, of: post.id, by: bo.id, at: 5_000) }
    _ = try await store.setCongrats(true, of: s2.id, by: star.id, at: 5_000)
    #expect(try await store.feedPage(of: bo.id, kinds: [.challengeCompleted], after: nil, limit: 3).congratulated == [a2.id, s1.id])
    #expect(try await store.feedPage(of: bo.id, kinds: [.challengeCompleted], after: page1.next, limit: 3).congratulated == [a1.id])
    #expect(try await store.feedPage(of: bo.id, kinds: [.follow], after: nil, limit: 3).posts.isEmpty)
    // The author's own feed holds their posts, merged on read or not.
    #expect(try await store.feedPage(of: star.id, kinds: [.challengeCompleted], after: nil, limit: 5).posts.map(\.id) == [s2.id, s1.id])
    // A post out of feeds leaves followers' pages (both lists) but stays in its author's, with its state.
    let hidden = ModerationState(status: .pendingReview, reports: 2)
    try await store.saveModeration(hidden, of: a2.id)
    try await store.saveModeration(hidden, of: s2.id)
    #expect(try await store.feedPage(of: bo.id, kinds: [.challengeCompleted], after: nil, limit: 5).posts.map(\.id) == [s1.id, a1.id])
    #expect(try await store.feedPage(of: ada.id, kinds: [.challengeCompleted], after: nil, limit: 5).posts.map { $0.moderation.status } == [.pendingReview, .visible])
    // The store's filter agrees with the post's own rule.
    for post in [a1, a2, s1, s2] {
      let stored = try #require(try await store.post(post.id))
      #expect(try await store.isVisible(stored, to: bo.id) == (stored.isVisible))
      #expect(try await store.isVisible(stored, to: stored.author.id))
      #expect(try await !store.isVisible(stored, to: nil))
    }
    // A new follower gets the recent visible, copied completions of the followee.
    let cy = try await makePerson("cy")
    _ = try await store.follow(cy.id, ada.id, at: 2)
    try await store.backfill(cy.id, from: ada.id, limit: 20)
    try await store.backfill(cy.id, from: ada.id, limit: 20)  // twice: nothing more
    #expect(try await store.feedPage(of: cy.id, kinds: Post.Kind.allCases, after: nil, limit: 5).posts.map(\.id) == [a1.id])
    // Public link, and the posts showing a photo.
    #expect(try await store.post(a1.id)?.publicLink == false)  // off until its author turns it on
    try await store.setPublicLink(true, of: a1.id)
    #expect(try await store.post(a1.id)?.publicLink == true)
    try await store.setPublicLink(false, of: a1.id)
    #expect(try await store.post(a1.id)?.publicLink == false)
    #expect(try await store.post(UUID()) == nil)
  }

  static func trimming(_ store: some ChallengesStore, _ makePerson: MakePerson) async throws {
    let ada = try await makePerson("ada")
    let bo = try await makePerson("bo")
    for index in 0..<30 { try await store.add(makePost(ada, at: Int64(index), kind: .follow, recipient: bo.id), delivery: .addressee(bo.id)) }
    #expect(try await store.overfullFeeds(over: 25, limit: 10_000).contains(bo.id))
    #expect(try await !store.overfullFeeds(over: 30, limit: 10_000).contains(bo.id))
    try await store.trimFeed(of: bo.id, to: 10)
    try await store.trimFeed(of: bo.id, to: 10)
    let left = try await store.feedPage(of: bo.id, kinds: [.follow], after: nil, limit: 50).posts.map(\.at)
    #expect(left == Array((20..<30).reversed()).map(Int64.init))
  }

  static func congratsAndComments(_ store: some ChallengesStore, _ makePerson: MakePerson) async throws {
    let ada = try await makePerson("ada")
    let bo = try await makePerson("bo")
    let cy = try await makePerson("cy")
    let post = makePost(ada, at: 5)
    try await store.add(post, delivery: .copyToFollowers)
    // Congrats: once per person, the count kept.
    #expect(try await store.setCongrats(true, of: post.id, by: bo.id, at: 6) == CongratsChange(changed: true, count: 1))
    #expect(try await store.setCongrats(true, of: post.id, by: bo.id, at: 7) == CongratsChange(changed: false, count: 1))
    #expect(try await store.setCongrats(true, of: post.id, by: cy.id, at: 8) == CongratsChange(changed: true, count: 2))
    #expect(try await store.setCongrats(false, of: post.id, by: cy.id, at: 9) == CongratsChange(changed: true, count: 1))
    #expect(try await store.setCongrats(false, of: post.id, by: cy.id, at: 9) == CongratsChange(changed: false, count: 1))
    #expect(try await store.congratulated(by: bo.id, among: [post.id, UUID()]) == [post.id])
    #expect(try await store.congratulators(of: post.id, among: [ada.id, bo.id, cy.id]) == [bo.id])
    // Comments: oldest first, paged; the count kept; deleted once.
    let comments = (0..<3).map { PostComment(id: UUID(), post: post.id, author: $0 == 1 ? cy : bo, body: "Nice \($0)", at: Int64(10 + $0)) }
    for comment in comments { try await store.add(comment) }
    #expect(try await store.post(post.id)?.comments == 3)
    let first = try await store.comments(on: post.id, after: nil, limit: 2)
    #expect(first.map(\.id) == comments.map(\.id))  // a page of 2, plus one to tell that more follow
    #expect(try await store.comments(on: post.id, after: first[1].position, limit: 2).map(\.id) == [comments[2].id])
    #expect(try await store.comment(comments[1].id) == comments[1])
    #expect(try await store.deleteComment(comments[1].id))
    #expect(try await !store.deleteComment(comments[1].id))
    #expect(try await store.post(post.id)?.comments == 2)
    #expect(try await store.comment(comments[1].id) == nil)
  }

  static func moderation(_ store: some ChallengesStore, _ makePerson: MakePerson) async throws {
    let ada = try await makePerson("ada")
    let bo = try await makePerson("bo")
    let cy = try await makePerson("cy")
    let post = makePost(ada, at: 50)
    try await store.add(post, delivery: .copyToFollowers)
    #expect(try await store.addReport(on: post.id, by: bo.id, reason: "stock photo", at: 51))
    #expect(try await !store.addReport(on: post.id, by: bo.id, reason: "again", at: 52))
    #expect(try await store.addReport(on: post.id, by: cy.id, reason: "", at: 53))
    var stored = try #require(try await store.post(post.id))
    _ = try stored.handle(.report(by: bo.id, threshold: 1))
    try await store.saveModeration(stored.moderation, of: post.id)
    #expect(try await store.post(post.id)?.moderation == stored.moderation)
    let reported = try #require(try await store.reportedPosts(all: true).first { $0.id == post.id })
    #expect(reported.reasons == ["stock photo"] && reported.status == .pendingReview && reported.authorName == ada.displayName)
    #expect(try await store.reportedPosts(all: false).contains { $0.id == post.id })
    try await store.log(ModerationEvent(post: post.id, action: .hidden, actor: "system", note: "1 reports", at: 52))
    try await store.log(ModerationEvent(post: post.id, action: .reported, actor: bo.id.uuidString, note: "stock photo", at: 51))
    #expect(try await store.trail(of: post.id).map(\.action) == [.reported, .hidden])
  }

  static func photosAndCards(_ store: some ChallengesStore, _ makePerson: MakePerson) async throws {
    let ada = try await makePerson("ada")
    let photo = StoredPhoto(id: UUID(), owner: ada.id, full: Data([1, 2, 3]), thumbnail: Data([4]), width: 3, height: 1, createdAt: t0)
    try await store.add(photo)
    #expect(try await store.photoOwner(photo.id) == ada.id)
    #expect(try await store.photoOwner(UUID()) == nil)
    #expect(try await store.photoJPEG(photo.id, thumbnail: false) == Data([1, 2, 3]))
    #expect(try await store.photoJPEG(photo.id, thumbnail: true) == Data([4]))
    let shown = makePost(ada, at: 70, photo: photo.id)
    let hidden = makePost(ada, at: 71, photo: photo.id)
    try await store.add(shown, delivery: .copyToFollowers)
    try await store.add(hidden, delivery: .copyToFollowers)
    try await store.saveModeration(ModerationState(status: .revoked, reports: 3), of: hidden.id)
    #expect(try await store.visiblePosts(showing: photo.id).map(\.id) == [shown.id])
    #expect(try await store.shareCard(of: shown.id) == nil)
    try await store.saveShareCard(Data([9]), of: shown.id)
    try await store.saveShareCard(Data([8]), of: shown.id)
    #expect(try await store.shareCard(of: shown.id) == Data([9]))
  }

  static func templates(_ store: some ChallengesStore) async throws {
    let template = ChallengeTemplate(
      slug: "store-test-\(UUID().uuidString.prefix(8).lowercased())", type: .special, title: "Store Test Feast",
      description: "A special made by the store tests, twenty characters at least.", requirements: ["Cook something", "Share it"],
      date: MonthDay(month: 2, day: 29), days: 1)
    try await store.addTemplates([template], at: t0)
    #expect(try await store.importedTemplates().contains(template))
  }

  /// A post copied later: in the author's feed at once, merged into followers' reads until the outbox copies it
  /// a batch at a time, then copied into each follower's feed exactly once, whoever followed or left meanwhile.
  static func outbox(_ store: some ChallengesStore, _ makePerson: MakePerson) async throws {
    let star = try await makePerson("star")
    var fans: [Person] = []
    for index in 0..<7 {
      let fan = try await makePerson("fan\(index)")
      _ = try await store.follow(fan.id, star.id, at: Int64(10 + index))
      fans.append(fan)
    }
    let older = makePost(star, at: 5_000)
    try await store.add(older, delivery: .copyToFollowers)
    let post = makePost(star, at: 6_000)
    try await store.add(post, delivery: .copyLater)
    #expect(try await store.post(post.id)?.fannedOut == false)
    #expect(try await store.waitingFanOuts(limit: 10).contains(post.id))
    // Before any copying, every follower's feed shows it, newest first, once.
    for fan in fans {
      #expect(try await store.feedPage(of: fan.id, kinds: [.challengeCompleted], after: nil, limit: 10).posts.map(\.id) == [post.id, older.id])
    }
    #expect(try await store.feedPage(of: star.id, kinds: [.challengeCompleted], after: nil, limit: 10).posts.map(\.id) == [post.id, older.id])
    // First batch: three followers (the oldest follows).
    #expect(try await store.copyFanOutBatch(of: post.id, size: 3) == .more(copied: 3))
    // Meanwhile one of the not-yet-copied leaves, and a newcomer follows (and is backfilled with the waiting post).
    #expect(try await store.unfollow(fans[5].id, star.id))
    let newcomer = try await makePerson("newcomer")
    _ = try await store.follow(newcomer.id, star.id, at: 100)
    try await store.backfill(newcomer.id, from: star.id, limit: 10)
    // Mid-copy, pages still hold the post once.
    for fan in fans where fan != fans[5] {
      #expect(try await store.feedPage(of: fan.id, kinds: [.challengeCompleted], after: nil, limit: 10).posts.map(\.id) == [post.id, older.id])
    }
    #expect(try await store.copyFanOutBatch(of: post.id, size: 3) == .more(copied: 3))  // fans 3, 4, 6
    #expect(try await store.copyFanOutBatch(of: post.id, size: 3) == .finished(copied: 1))  // the newcomer
    #expect(try await store.copyFanOutBatch(of: post.id, size: 3) == .nothingWaiting)
    #expect(try await !store.waitingFanOuts(limit: 10).contains(post.id))
    #expect(try await store.post(post.id)?.fannedOut == true)
    // Copied now (no longer merged on read): each follower's feed holds it exactly once; the leaver's does not.
    for fan in fans + [newcomer] where fan != fans[5] {
      let lists = try await store.feedLists(of: fan.id, kinds: [.challengeCompleted], after: nil, limit: 10)
      #expect(lists.copied.filter { $0.id == post.id }.count == 1, "\(fan.displayName)")
      #expect(lists.merged.isEmpty)
    }
    #expect(try await store.feedPage(of: fans[5].id, kinds: [.challengeCompleted], after: nil, limit: 10).posts.isEmpty)
  }

  static func all(_ store: some ChallengesStore, _ makePerson: @escaping MakePerson, templates: Bool) async throws {
    try await participations(store, makePerson)
    try await socialGraph(store, makePerson)
    try await feeds(store, makePerson)
    try await outbox(store, makePerson)
    try await trimming(store, makePerson)
    try await congratsAndComments(store, makePerson)
    try await moderation(store, makePerson)
    try await photosAndCards(store, makePerson)
    if templates { try await Self.templates(store) }
  }

  /// Random follows, unfollows, congrats and comments in any order: every kept count equals a recount.
  static func countsProperty(_ makeStore: @escaping @Sendable () async throws -> (any ChallengesStore, [Person]), count: Int) async {
    let operation = PropertyBased.zip(Gen.int(in: 0...5), Gen.int(in: 0...3), Gen.int(in: 0...3))
    await propertyCheck(count: count, input: operation.array(of: 1...30)) { operations in
      do {
        let (store, people) = try await makeStore()
        let posts = people.map { Self.makePost($0, at: 1) }
        for post in posts { try await store.add(post, delivery: .copyToFollowers) }
        var comments: [UUID] = []
        for (index, (kind, a, b)) in operations.enumerated() {
          let (one, other) = (people[a], people[b])
          switch kind {
          case 0: _ = try await store.follow(one.id, other.id, at: Int64(index))
          case 1: _ = try await store.unfollow(one.id, other.id)
          case 2: _ = try await store.setCongrats(true, of: posts[a].id, by: other.id, at: Int64(index))
          case 3: _ = try await store.setCongrats(false, of: posts[a].id, by: other.id, at: Int64(index))
          case 4:
            let comment = PostComment(id: UUID(), post: posts[a].id, author: other, body: "Yum", at: Int64(index))
            try await store.add(comment)
            comments.append(comment.id)
          default:
            if !comments.isEmpty { _ = try await store.deleteComment(comments.remove(at: b % comments.count)) }
          }
        }
        for (person, post) in zip(people, posts) {
          let counts = try await store.followCounts(of: person.id)
          let followers = try await store.followers(of: person.id)
          let following = try await store.people(of: person.id, .following, after: nil, limit: 100)
          #expect(counts.followers == followers.count && counts.following == following.count)
          let stored = try #require(try await store.post(post.id))
          let congratulators = try await store.congratulators(of: post.id, among: people.map(\.id))
          let thread = try await store.comments(on: post.id, after: nil, limit: 100)
          #expect(stored.congrats == congratulators.count && stored.comments == thread.count)
        }
      } catch {
        Issue.record(error)
      }
    }
  }

  /// Random joins, leaves and completions by racing writers: one completion paid at most, and the stored
  /// participation is the one the rules made.
  static func completionProperty(_ makeStore: @escaping @Sendable () async throws -> (any ChallengesStore, UUID), count: Int) async {
    await propertyCheck(count: count, input: Gen.int(in: 0...2).array(of: 1...12)) { commands in
      do {
        let (store, user) = try await makeStore()
        let paid = try await withThrowingTaskGroup(of: Int.self) { group in
          for (index, command) in commands.enumerated() {
            group.addTask {
              let now = Self.t0 + Double(index)
              let effects: [Participation.Effect]
              do {
                effects = try await Self.run([.join(at: now), .leave(at: now), .complete(post: UUID(), at: now)][command], user, on: store)
              } catch ChallengeRefusal.alreadyCompleted {
                // Leaving a completed challenge is refused, and changes nothing.
                effects = []
              }
              return effects.filter { if case .completed = $0 { true } else { false } }.count
            }
          }
          return try await group.reduce(0, +)
        }
        let stored = try await store.participation(of: user, in: daily.id)
        #expect(paid == (commands.contains(2) ? 1 : 0))
        #expect((stored?.status == .completed) == commands.contains(2))
      } catch {
        Issue.record(error)
      }
    }
  }

  // MARK: The two stores

  static func memoryPerson(_ store: InMemoryChallengesStore) -> MakePerson {
    { name in
      let person = Person(id: UUID(), username: "\(name)-\(UUID().uuidString.prefix(8).lowercased())", displayName: name.capitalized)
      await store.addPerson(person)
      return person
    }
  }

  static func sqlPerson(_ db: any Database) -> MakePerson {
    { name in
      let user = User(displayName: name.capitalized, username: "\(name)-\(UUID().uuidString.prefix(8).lowercased())", isGuest: false)
      try await user.create(on: db)
      return Person(id: try user.requireID(), username: user.username, displayName: user.displayName)
    }
  }

  @Test("In-memory store: the shared rules")
  func memoryRules() async throws {
    let store = InMemoryChallengesStore()
    try await Self.all(store, Self.memoryPerson(store), templates: true)
  }

  @Test("SQL store: the shared rules")
  func sqlRules() async throws {
    try await withTestApp { _, app in
      // Imported templates would join every later test's catalogue on a shared PostgreSQL database.
      let ownDatabase = if case .sqliteMemory = TestDatabase.options.database { true } else { false }
      try await Self.all(SQLChallengesStore(app.db), Self.sqlPerson(app.db), templates: ownDatabase)
    }
  }

  @Test("Property: kept counts equal a recount, in-memory store")
  func memoryCounts() async {
    await Self.countsProperty({
      let store = InMemoryChallengesStore()
      var people: [Person] = []
      for name in ["ada", "bo", "cy", "di"] { people.append(try await Self.memoryPerson(store)(name)) }
      return (store, people)
    }, count: 150)
  }

  @Test("Property: kept counts equal a recount, SQL store")
  func sqlCounts() async throws {
    try await withTestApp { _, app in
      let db = app.db
      await Self.countsProperty({
        var people: [Person] = []
        for name in ["ada", "bo", "cy", "di"] { people.append(try await Self.sqlPerson(db)(name)) }
        return (SQLChallengesStore(db), people)
      }, count: 20)
    }
  }

  @Test("Property: racing joins, leaves and completions pay one completion at most, in-memory store")
  func memoryCompletion() async {
    await Self.completionProperty({
      let store = InMemoryChallengesStore()
      return (store, try await Self.memoryPerson(store)("ada").id)
    }, count: 150)
  }

  @Test("Property: racing joins, leaves and completions pay one completion at most, SQL store")
  func sqlCompletion() async throws {
    try await withTestApp { _, app in
      let db = app.db
      await Self.completionProperty({ (SQLChallengesStore(db), try await Self.sqlPerson(db)("ada").id) }, count: 20)
    }
  }
}
