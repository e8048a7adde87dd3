import Challenges
import CompletionCore
import Fluent
import Foundation
import Imaging
import Vapor

/// Demo data for Challenges: people who follow each other, and two weeks of completions through the real
/// completion path (so their feeds, points and streaks are what the app itself would make), each with its
/// own drawn photo and story, and congratulations and comments from the people who follow them.
enum ChallengesDemo {
  static let password = "demo-password"
  /// People who get completions (everyone else only follows).
  static let posters = 40
  /// How far back the completions reach, today included.
  static let days = 14

  /// The first people's names (the rest are "Demo Cook N"): a feed of people, not of numbers.
  static let names = [
    "Ada Park", "Bruno Costa", "Chidi Okafor", "Dana Levi", "Emil Berg", "Farah Haddad", "Gus Moreno", "Hana Sato",
    "Ines Duarte", "Jonas Weber", "Kofi Mensah", "Lena Novak", "Mateo Ruiz", "Nora Lind", "Omar Aziz", "Priya Nair",
  ]

  /// Each poster's habit: a run of dailies ending today (even posters) or yesterday (odd ones), so the
  /// streak is alive, of this length; before it one missed day, then dailies on some earlier days.
  static func runLength(of poster: Int) -> Int { [13, 7, 5, 3, 2, 1, 0][poster % 7] }

  /// Days back (0 = today) on which `poster` completes a daily, oldest first.
  static func dailyOffsets(of poster: Int) -> [Int] {
    let end = poster % 2
    let length = runLength(of: poster)
    guard length > 0 else { return [] }
    let run = Array(end..<(end + length))
    let before = end + length + 1
    let earlier = before < days ? (before..<days).filter { SeededRandom.fnv1a("demo \(poster) \($0)") % 3 != 0 } : []
    return (run + earlier).sorted(by: >)
  }

  static func fill(app: Application, users: Int, follows: Int) async throws -> String {
    let store = SQLChallengesStore(app.db)
    // Run twice, it would make everything twice: the demo people exist already, so it stops here.
    if try await store.hasDemoPeople() {
      throw LauncherError("This database has demo people already (demo1 exists). Use a fresh data folder or database.")
    }
    let hash = try await app.password.async.hash(password)
    let now = app.services.clock.now()
    let ids = (0..<users).map { _ in UUID() }
    let people = ids.enumerated().map { index, id in
      Person(id: id, username: "demo\(index + 1)", displayName: index < names.count ? names[index] : "Demo Cook \(index + 1)")
    }

    // People, in bulk: the store's ordinary writes go one row at a time, too slow for thousands.
    try await store.insertPeople(people.map { ($0.id, $0.displayName, $0.username ?? "") }, passwordHash: hash, at: now)

    // Follows: person i follows the next `follows` people round the circle, so everyone has as many
    // followers as they follow. Kept counts are written once at the end.
    let at = Micros.of(now.addingTimeInterval(-Double(days + 1) * 86_400))
    let perTransaction = 100  // people whose follows share one commit
    var written = 0
    for first in stride(from: 0, to: users, by: perTransaction) {
      let people = first..<min(first + perTransaction, users)
      let pairs = people.flatMap { index in (0..<follows).map { step in (follower: ids[index], followee: ids[(index + step + 1) % users]) } }
      try await app.db.transaction { try await SQLChallengesStore($0).insertFollows(pairs, at: at) }
      written += pairs.count
    }
    try await store.setFollowCounts(ids, followers: follows, following: follows)

    // Two weeks of completions, oldest day first (so every streak is counted in order), through the real path.
    let zone = TimeZone.gmt
    let today = CalendarDay(now, in: zone)
    let catalogue = try await store.catalogue()
    let posting = min(posters, users)
    var plans: [Int: [(challenge: Challenge, poster: Int)]] = [:]
    for poster in 0..<posting {
      for offset in dailyOffsets(of: poster) {
        let dailies = catalogue.challenges(on: today.adding(days: -offset)).filter { $0.type == .daily }
        if !dailies.isEmpty { plans[offset, default: []].append((dailies[poster % dailies.count], poster)) }
      }
      // Some also finish a weekly, a monthly or a special on one of their days.
      let offset = (poster * 5) % days
      let bigger = catalogue.challenges(on: today.adding(days: -offset)).filter { $0.type != .daily }
      if poster % 3 == 0, !bigger.isEmpty { plans[offset, default: []].append((bigger[poster % bigger.count], poster)) }
    }
    var completed = 0
    var comments = 0
    var congrats = 0
    for offset in stride(from: days - 1, through: 0, by: -1) {
      let day = today.adding(days: -offset)
      let start = day.start(in: zone)
      // Today's completions happened before now; earlier days' between 7:00 and 22:00.
      let end = offset == 0 ? now : start.addingTimeInterval(22 * 3600)
      let first = offset == 0 ? start.addingTimeInterval(min(7 * 3600, now.timeIntervalSince(start) / 2)) : start.addingTimeInterval(7 * 3600)
      let planned = plans[offset] ?? []
      for (number, plan) in planned.enumerated() {
        let (challenge, poster) = plan
        let moment = first.addingTimeInterval(end.timeIntervalSince(first) * Double(number + 1) / Double(planned.count + 1))
        let variant = poster * 31 + offset
        let photoID = UUID()
        let jpeg = Data(JPEGEncoder.encode(demoPicture(type: challenge.type, variant: variant), quality: 80))
        try await store.add(
          StoredPhoto(id: photoID, owner: ids[poster], full: jpeg, thumbnail: jpeg, width: 640, height: 480, createdAt: moment))
        let story = stories(for: challenge)[variant % stories(for: challenge).count]
        let view = try await app.services.runner.write(on: app.db) { db in
          try await ChallengesController.record(
            challenge, userID: ids[poster], photoID: photoID, story: story, publicLink: variant % 3 == 0, preference: .full, today: day,
            zone: zone, at: moment, fanOutLimit: app.serverOptions.fanOutLimit, services: app.services, on: db
          ).0
        }
        guard let view, view.isFirst, let post = UUID(uuidString: view.activity.id) else { continue }
        completed += 1
        // The people who follow the poster (person j follows j+1 … j+follows) react within the next hours.
        let fans = (0..<follows).map { (poster - $0 - 1 + users * follows) % users }.filter { $0 != poster }
        let reacting = fans.prefix(1 + variant % 3)
        var reactions = 0
        for (order, fan) in reacting.enumerated() {
          let when = moment.addingTimeInterval(Double(600 + 1500 * order + (variant * 97) % 900))
          guard when < now else { continue }
          _ = try await store.setCongrats(true, of: post, by: ids[fan], at: Micros.of(when))
          congrats += 1
          if (variant + order) % 2 == 0 {
            let words = commentLines[(variant + order * 7) % commentLines.count]
            try await store.add(
              PostComment(id: UUID(), post: post, author: people[fan], body: words, at: Micros.of(when.addingTimeInterval(45))))
            comments += 1
          }
          reactions += 1
        }
        // The poster thanks the first commenter now and then.
        if reactions > 0, variant % 4 == 0, moment.addingTimeInterval(4 * 3600) < now {
          try await store.add(
            PostComment(
              id: UUID(), post: post, author: people[poster], body: thanks[variant % thanks.count],
              at: Micros.of(moment.addingTimeInterval(4 * 3600))))
          comments += 1
        }
      }
    }
    return
      "Made \(users) people (demo1…demo\(users), password “\(password)”), \(written) follows, \(completed) completions over \(days) days, "
      + "\(congrats) congratulations and \(comments) comments."
  }

  /// Adds `count` new people (guests, without sign-in) who all follow `username`: a very big account.
  static func addFollowers(app: Application, of username: String, count: Int) async throws {
    let store = SQLChallengesStore(app.db)
    guard let star = try await store.person(username: username) else { throw LauncherError("No one is called \(username).") }
    let now = app.services.clock.now()
    let at = Micros.of(now)
    for start in stride(from: 0, to: count, by: SQLChallengesStore.bulkBatch) {
      let ids = (start..<min(start + SQLChallengesStore.bulkBatch, count)).map { _ in UUID() }
      try await app.db.transaction { transaction in
        let store = SQLChallengesStore(transaction)
        try await store.insertGuests(ids, displayName: "Fan", at: now)
        try await store.insertFollows(ids.map { (follower: $0, followee: star.id) }, at: at)
      }
    }
    try await store.bumpCounts(star.id, followers: count, following: 0)
  }

  // MARK: Words

  /// Stories in the voice of the type's prompts, with the challenge's name where it fits.
  static func stories(for challenge: Challenge) -> [String] {
    let name = challenge.title.lowercased()
    switch challenge.type {
    case .daily:
      return [
        "Made the \(name) before work. Ten minutes, no regrets.", "First try at \(name): a little uneven, very tasty.",
        "The kids ate every bite of the \(name). Making it again on Sunday.", "Swapped butter for olive oil and it still worked!",
        "Took longer than the recipe said, but the kitchen smelled amazing.", "Rainy evening, warm plate. Exactly what I needed.",
        "Added a pinch of chili. Would recommend.", "Cooked with my neighbour — she brought the herbs from her balcony.",
      ]
    case .weekly:
      return [
        "Seven days of \(name) done. Favourite was Wednesday's.", "This week taught me to prep on Sunday. Game changer.",
        "Tip: double the batch and freeze half.", "Did it with my flatmates, one dinner each night.",
      ]
    case .monthly:
      return [
        "A whole month of \(name)! I cook faster and waste less now.", "Hardest part was the second week; loved it by the end.",
        "My advice: keep a list of what worked.",
      ]
    case .special:
      return [
        "Made it for the holiday table and everyone asked for the recipe.", "Special day, special plate. So proud of this one.",
        "Not perfect, but full of love.",
      ]
    }
  }

  static let commentLines = [
    "That looks delicious!", "Recipe please 🙏", "Wow, the colours!", "Okay, I'm making this tomorrow.", "So neat. How long did it take?",
    "Looks better than the restaurant's.", "Proud of you for keeping the streak!", "Saving this for the weekend.",
    "Did you use fresh herbs?", "Yum. Just yum.",
  ]

  static let thanks = ["Thank you! 😊", "Thanks! It was easier than it looks.", "Haha thanks — try it, you'll love it."]

  // MARK: Pictures

  /// A stand-in photo (no text), drawn by the share card's canvas: a table and a dish, different for each
  /// type (a plate for a daily, a board for a weekly, a bowl for a monthly, a cake for a special) and, by
  /// `variant`, in its colours and garnish.
  static func demoPicture(type: ChallengeType = .daily, variant: Int = 0) -> RGBAImage {
    let width = 640.0
    let height = 480.0
    var canvas = Canvas(width: Int(width), height: Int(height))
    let tables: [(UInt32, UInt32)] = [
      (0x8B5A2B, 0x5E3A1A), (0x5B6770, 0x3A434A), (0xE9E2D0, 0xCFC6AE), (0x2F6F6A, 0x1F4A47), (0xB7472A, 0x7E2E1B), (0x44546A, 0x2B3645),
    ]
    let foods: [UInt32] = [0xF2B134, 0xE4572E, 0x76B041, 0xC0392B, 0xF4D35E, 0x8E5572, 0xD98E04, 0x3E8E41]
    let garnishes: [UInt32] = [0x2E7D32, 0xFFFFFF, 0xB71C1C, 0x6D4C41, 0xFFEB3B]
    let table = tables[variant % tables.count]
    let food = RGBAColor(hex: foods[(variant / 2) % foods.count])
    let garnish = RGBAColor(hex: garnishes[(variant / 3) % garnishes.count])
    canvas.fillVerticalGradient(CanvasRect(x: 0, y: 0, width: width, height: height), top: RGBAColor(hex: table.0), bottom: RGBAColor(hex: table.1))
    // A napkin in a corner that moves with the variant.
    let corner = Double(variant % 4)
    canvas.fillRoundedRect(
      CanvasRect(x: corner < 2 ? -40 : width - 170, y: corner.truncatingRemainder(dividingBy: 2) == 0 ? -30 : height - 150, width: 210, height: 180),
      cornerRadius: 18, color: RGBAColor(hex: 0xF5F1E8, alpha: 230))
    let shadow = RGBAColor(red: 0, green: 0, blue: 0, alpha: 70)
    var random = SeededRandom(seed: UInt64(variant) &* 2_654_435_761 &+ 7)
    func dot(in rect: CanvasRect, radius: ClosedRange<Double>, color: RGBAColor, count: Int) {
      for _ in 0..<count {
        let x = Double.random(in: rect.x...rect.maxX, using: &random)
        let y = Double.random(in: rect.y...rect.maxY, using: &random)
        canvas.fillCircle(centerX: x, centerY: y, radius: Double.random(in: radius, using: &random), color: color)
      }
    }
    switch type {
    case .daily:
      canvas.fillCircle(centerX: 326, centerY: 252, radius: 178, color: shadow)
      canvas.fillCircle(centerX: 320, centerY: 240, radius: 178, color: RGBAColor(hex: 0xFAFAF7))
      canvas.fillCircle(centerX: 320, centerY: 240, radius: 140, color: RGBAColor(hex: 0xEDEBE4))
      canvas.fillEllipse(in: CanvasRect(x: 215, y: 160, width: 210, height: 160), color: food)
      dot(in: CanvasRect(x: 240, y: 180, width: 160, height: 120), radius: 5...12, color: garnish, count: 14)
    case .weekly:
      canvas.fillSoftRoundedRect(CanvasRect(x: 90, y: 95, width: 470, height: 310), cornerRadius: 28, blur: 12, color: shadow)
      canvas.fillRoundedRect(CanvasRect(x: 80, y: 85, width: 470, height: 310), cornerRadius: 28, color: RGBAColor(hex: 0xC89F6B))
      for index in 0..<6 {
        let x = 150 + Double(index % 3) * 165
        let y = 170 + Double(index / 3) * 140
        canvas.fillCircle(centerX: x, centerY: y, radius: 52, color: food)
        dot(in: CanvasRect(x: x - 30, y: y - 30, width: 60, height: 60), radius: 3...7, color: garnish, count: 5)
      }
    case .monthly:
      canvas.fillEllipse(in: CanvasRect(x: 128, y: 118, width: 400, height: 300), color: shadow)
      canvas.fillEllipse(in: CanvasRect(x: 120, y: 100, width: 400, height: 300), color: RGBAColor(hex: 0x2D5D7B))
      canvas.fillEllipse(in: CanvasRect(x: 150, y: 125, width: 340, height: 240), color: food)
      dot(in: CanvasRect(x: 190, y: 160, width: 260, height: 170), radius: 8...18, color: garnish, count: 12)
    case .special:
      canvas.fillCircle(centerX: 326, centerY: 300, radius: 190, color: shadow)
      canvas.fillCircle(centerX: 320, centerY: 290, radius: 190, color: RGBAColor(hex: 0xFAFAF7))
      canvas.fillRoundedRect(CanvasRect(x: 190, y: 230, width: 260, height: 130), cornerRadius: 20, color: food)
      canvas.fillRoundedRect(CanvasRect(x: 230, y: 150, width: 180, height: 100), cornerRadius: 18, color: RGBAColor(hex: 0xFFF3E0))
      for index in 0..<5 {
        let x = 250 + Double(index) * 35
        canvas.fill(CanvasRect(x: x, y: 100, width: 10, height: 55), color: RGBAColor(hex: 0xFFFFFF))
        canvas.fillEllipse(in: CanvasRect(x: x - 3, y: 80, width: 16, height: 24), color: RGBAColor(hex: 0xFFB300))
      }
      dot(in: CanvasRect(x: 200, y: 240, width: 240, height: 110), radius: 4...8, color: garnish, count: 18)
    }
    return canvas.image
  }
}
