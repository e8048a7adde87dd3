import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Challenges

@Suite("Challenges")
struct ChallengesTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin")!

  @Test("Points by type are the seed's: daily 100, weekly 500, monthly 1000, special 750; rewards pay them once per challenge")
  func pointsByType() {
    #expect(ChallengeType.daily.points == 100)
    #expect(ChallengeType.weekly.points == 500)
    #expect(ChallengeType.monthly.points == 1000)
    #expect(ChallengeType.special.points == 750)
    let catalogue = ChallengeCatalogue.builtIn
    for challenge in catalogue.challenges(on: CalendarDay("2026-12-24")!) {
      let completion = ChallengeCompletion.completion(of: challenge, account: UUID().uuidString, at: Date(), timeZone: "Europe/Berlin")
      let entries = ChallengeCompletion.rules.reward.entries(for: completion)
      #expect(entries.map(\.amount) == [challenge.points])
      #expect(entries.map(\.currency) == ["points"])
      // The same completion asks for the same payment: the ledger's key makes a retry a duplicate.
      #expect(ChallengeCompletion.rules.reward.entries(for: completion).map(\.key) == entries.map(\.key))
    }
  }

  @Test("The built-in catalogue: at least 60 challenges, each valid, unique slugs and titles, specials that never overlap")
  func builtInCatalogue() {
    let templates = ChallengeCatalogue.builtIn.templates
    #expect(templates.count >= 60)
    for template in templates { #expect(ChallengeRules.problems(with: template) == [], "\(template.slug)") }
    #expect(Set(templates.map(\.slug)).count == templates.count)
    #expect(Set(templates.map { $0.title.lowercased() }).count == templates.count)
    var daysWithSpecials: [CalendarDay: String] = [:]
    for template in templates where template.type == .special {
      let start = template.date!.inYear(2027)
      for offset in 0..<(template.days ?? 1) {
        let day = start.adding(days: offset)
        #expect(daysWithSpecials[day] == nil, "\(template.slug) overlaps \(daysWithSpecials[day] ?? "")")
        daysWithSpecials[day] = template.slug
      }
    }
  }

  @Test("Rotation: two different dailies a day, a weekly from Monday to Sunday, a monthly, specials on their dates; same day, same challenges")
  func rotation() {
    let catalogue = ChallengeCatalogue.builtIn
    var seenDailies = Set<String>()
    var day = CalendarDay("2026-01-01")!
    for _ in 0..<400 {
      let offered = catalogue.challenges(on: day)
      let dailies = offered.filter { $0.type == .daily }
      #expect(dailies.count == 2 && dailies[0].slug != dailies[1].slug)
      #expect(dailies.allSatisfy { $0.start == day && $0.end == day })
      let weekly = offered.filter { $0.type == .weekly }
      #expect(weekly.count == 1)
      #expect(weekly.first.map { ChallengeCatalogue.monday(of: day) == $0.start && $0.end == $0.start.adding(days: 6) } == true)
      let monthly = offered.filter { $0.type == .monthly }
      #expect(monthly.count == 1 && monthly[0].start.day == 1 && monthly[0].start.month == day.month)
      #expect(offered.allSatisfy { $0.isOpen(on: day) })
      #expect(offered.map(\.id) == catalogue.challenges(on: day).map(\.id))
      seenDailies.formUnion(dailies.map(\.slug))
      day = day.adding(days: 1)
    }
    // Every daily comes round within the year.
    #expect(seenDailies.count == ChallengeCatalogue.builtIn.templates.filter { $0.type == .daily }.count)
    // 2026-11-23 is a Monday.
    #expect(ChallengeCatalogue.monday(of: CalendarDay("2026-11-29")!) == CalendarDay("2026-11-23")!)
    #expect(ChallengeCatalogue.monday(of: CalendarDay("2026-11-23")!) == CalendarDay("2026-11-23")!)
  }

  @Test("A special running across New Year is offered in January; ids parse back; a closed day refuses it")
  func specialsAndIDs() throws {
    let late = ChallengeTemplate(
      slug: "year-end-feast", type: .special, title: "Year End Feast", description: "Cook a feast to see the year out with friends.",
      requirements: ["Cook three dishes", "Share the table"], date: MonthDay("12-30"), days: 4)
    let catalogue = ChallengeCatalogue.builtIn.adding([late])
    let january = try #require(CalendarDay("2027-01-02"))
    let special = try #require(catalogue.challenges(on: january).first { $0.slug == "year-end-feast" })
    #expect(special.start == CalendarDay("2026-12-30") && special.end == CalendarDay("2027-01-02"))
    #expect(!catalogue.challenges(on: january.adding(days: 1)).contains { $0.slug == "year-end-feast" })

    let id = try #require(ChallengeID(special.id))
    #expect(id.type == .special && id.start == special.start && id.slug == "year-end-feast")
    #expect(catalogue.challenge(id, openOn: january)?.id == special.id)
    #expect(catalogue.challenge(id, openOn: january.adding(days: 1)) == nil)
    for bad in ["", "daily", "daily.2026-02-30.x-y", "hourly.2026-11-23.soup", "daily.2026-11-23.Bad_Slug", "daily.2026-11-23"] {
      #expect(ChallengeID(bad) == nil, "\(bad)")
    }
    // The challenge ends at the start of the day after its last, in the person's own zone.
    let ends = special.endsAt(in: Self.berlin)
    #expect(CalendarDay(ends, in: Self.berlin) == CalendarDay("2027-01-03"))
  }

  @Test("The daily streak counts dailies finished on their day only; other types leave it alone")
  func streakRule() throws {
    let catalogue = ChallengeCatalogue.builtIn
    let rule = ChallengeCompletion.streak
    var streak = Streak()
    var day = try #require(CalendarDay("2026-11-20"))
    for _ in 0..<3 {
      for challenge in catalogue.challenges(on: day) {
        let noon = day.start(in: Self.berlin).addingTimeInterval(12 * 3600)
        let completion = ChallengeCompletion.completion(of: challenge, account: "a", at: noon, timeZone: "Europe/Berlin")
        if let counted = rule.day(of: completion) {
          #expect(challenge.type == .daily)
          streak.record(counted, in: Self.berlin, rule: rule)
        } else {
          #expect(challenge.type != .daily)
        }
      }
      day = day.adding(days: 1)
    }
    #expect(streak.current == 3 && streak.longest == 3)
    // A daily finished after its day is paid but does not count for the streak.
    let old = try #require(catalogue.challenges(on: CalendarDay("2026-11-20")!).first { $0.type == .daily })
    let late = ChallengeCompletion.completion(of: old, account: "a", at: day.start(in: Self.berlin).addingTimeInterval(3600), timeZone: "Europe/Berlin")
    #expect(rule.day(of: late) == nil)
  }

  @Test("The celebration is the seed's: a spring popper bouncing three times, the words, and a 3 s dismissal; calm keeps it still")
  func celebration() throws {
    let decision = ChallengeCompletion.rules.celebration.decide(.init(count: 1, now: Date()))
    guard case .celebrate(let full) = decision else { Issue.record("expected a celebration"); return }
    #expect(full.name == "challengeComplete")
    let bounces = full.steps.filter { $0.id.hasPrefix("bounce") }
    #expect(bounces.count == 3)
    for bounce in bounces {
      guard case .spring(let spring) = bounce.curve else { Issue.record("bounce is not a spring"); continue }
      #expect(spring.response == 0.5 && spring.dampingFraction == 0.5)
    }
    // Nested scales multiply: 1.2, then back to 1, then 1.2, as the seed's autoreversing repeatCount(3).
    let scales = bounces.map(\.to.scale)
    #expect(abs(scales[0] - 1.2) < 1e-9 && abs(scales[0] * scales[1] - 1) < 1e-9 && abs(scales[0] * scales[1] * scales[2] - 1.2) < 1e-9)
    #expect(ChallengeCompletion.dismissAfterSeconds == 3)
    #expect(Set(full.steps.map(\.id)).isSuperset(of: ["backdrop", "popper", "title", "message", "points"]))

    let calm = ChallengeCompletion.rules.celebration.decide(.init(count: 1, preference: .reduced, now: Date()))
    guard case .celebrate(let reduced) = calm else { Issue.record("expected a calm celebration"); return }
    #expect(reduced.steps.allSatisfy { $0.from.scale == $0.to.scale || $0.id.hasPrefix("bounce") == false })
    #expect(reduced.steps.filter { $0.id.hasPrefix("bounce") }.allSatisfy { $0.to.scale == 1 || $0.duration == 0 })
    #expect(ChallengeCompletion.rules.celebration.decide(.init(count: 1, optedOut: ["challenges"], now: Date())) == .optedOut)
  }

  @Test("Import: a good file imports; bad rows are each named and the file is refused whole")
  func importFile() throws {
    let good = """
      [{"slug":"midnight-snack","type":"daily","title":"Midnight Snack","description":"Make a small, comforting snack from what is in the cupboard.","requirements":["Use three ingredients at most","Plate it nicely"]},
       {"slug":"pie-day","type":"special","title":"Pie Day","description":"Bake any pie, sweet or savoury, to mark the day.","requirements":["Make the crust yourself","Share a slice"],"date":"03-14","days":1}]
      """
    let templates = try ChallengeImport.parse(Data(good.utf8), existing: .builtIn)
    #expect(templates.map(\.slug) == ["midnight-snack", "pie-day"])
    #expect(templates[1].date == MonthDay("03-14"))

    let existing = ChallengeCatalogue.builtIn.templates[0]
    let bad = """
      [{"slug":"ok-one","type":"daily","title":"Okay One","description":"A perfectly fine challenge description here.","requirements":["First thing","Second thing"]},
       {"slug":"Bad Slug","type":"hourly","title":"X","description":"short","requirements":[]},
       {"slug":"\(existing.slug)","type":"daily","title":"Another Title","description":"A perfectly fine challenge description here.","requirements":["First thing","Second thing"]},
       {"slug":"no-date","type":"special","title":"No Date","description":"A special without its date cannot be placed.","requirements":["First thing","Second thing"]},
       {"slug":"ok-one","type":"daily","title":"Okay Two","description":"A perfectly fine challenge description here.","requirements":["First thing","Second thing"],"date":"02-30"},
       "not an object"]
      """
    do {
      _ = try ChallengeImport.parse(Data(bad.utf8), existing: .builtIn)
      Issue.record("a file with bad rows was accepted")
    } catch {
      guard case .badRows(let rows) = error else { Issue.record("unexpected \(error)"); return }
      #expect(rows.map(\.row) == [2, 3, 4, 5, 6])
      #expect(rows[0].message.contains("type must be"))
      #expect(rows[1].message.contains("already in the catalogue"))
      #expect(rows[2].message.contains("needs a date"))
      #expect(rows[3].message.contains("date must be MM-DD"))
      #expect(error.description.contains("5 rows have problems"))
    }
    #expect(throws: ChallengeImport.FileError.empty) { try ChallengeImport.parse(Data("[]".utf8), existing: .builtIn) }
    #expect(throws: ChallengeImport.FileError.unreadable("it is not valid JSON")) { try ChallengeImport.parse(Data("{".utf8), existing: .builtIn) }
  }

  @Test("Feed merge: fanned-out and merged-at-read items interleave by time, without duplicates, and paging by cursor visits each item once")
  func feedMerge() async {
    // Items as (time, id, in fanned-out list, in pulled list); times collide on purpose.
    let item = PropertyBased.zip(Gen.int(in: 0...40), Gen.int(in: 0...200), Gen.int(in: 0...2))
    await propertyCheck(count: 200, input: PropertyBased.zip(item.array(of: 0...60), Gen.int(in: 1...7))) { raw, limit in
      var byID: [String: (FeedPosition, Int)] = [:]
      for (time, id, source) in raw { byID["a\(id)"] = byID["a\(id)"] ?? (FeedPosition(at: Int64(time), id: "a\(id)"), source) }
      let fanned = byID.values.filter { $0.1 != 1 }.map(\.0)  // source 2: in both lists
      let pulled = byID.values.filter { $0.1 != 0 }.map(\.0)
      let expected = byID.values.map(\.0).sorted()

      var cursor: FeedPosition?
      var visited: [FeedPosition] = []
      var pages = 0
      repeat {
        // Each source answers as the database does: its newest `limit + 1` items after the cursor.
        func source(_ items: [FeedPosition]) -> [FeedPosition] {
          Array(items.sorted().filter { cursor == nil || cursor! < $0 }.prefix(limit + 1))
        }
        let page = FeedMerge.page(fannedOut: source(fanned), pulled: source(pulled), after: cursor, limit: limit)
        #expect(page.items.count <= limit)
        visited += page.items
        cursor = page.next
        pages += 1
      } while cursor != nil && pages < 100
      #expect(visited == expected)
      // A cursor's text reads back as the same position.
      if let first = expected.first { #expect(FeedPosition(cursor: first.description) == first) }
    }
    #expect(FeedPosition(cursor: "nonsense") == nil)
    #expect(FeedPosition(cursor: "12_") == nil)
  }

  @Test("Moderation: reports hide at the threshold, keep shows again and forgives old reports, revoke claws back once")
  func moderation() throws {
    var state = ModerationState()
    #expect(try state.handle(.reported, threshold: 3) == [])
    #expect(try state.handle(.reported, threshold: 3) == [])
    #expect(try state.handle(.reported, threshold: 3) == [.hide])
    #expect(state.status == .pendingReview)
    #expect(try state.handle(.reported, threshold: 3) == [])  // already hidden
    #expect(try state.handle(.kept, threshold: 3) == [.show])
    #expect(state.status == .visible && state.reports == 0 && state.kept)
    #expect(try state.handle(.reported, threshold: 3) == [])
    #expect(try state.handle(.revoked, threshold: 3) == [.hide, .clawBack])
    #expect(throws: ModerationState.Refusal.alreadyRevoked) { try state.handle(.revoked, threshold: 3) }
    #expect(throws: ModerationState.Refusal.alreadyRevoked) { try state.handle(.reported, threshold: 3) }

    var hidden = ModerationState(status: .pendingReview, reports: 3)
    #expect(try hidden.handle(.revoked, threshold: 3) == [.clawBack])
  }

  @Test("Story prompts per type follow the seed; the activity's words")
  func words() {
    #expect(ChallengeType.daily.storyPrompts == ["What did you cook today?", "How did it taste?", "Would you make it again?"])
    #expect(ChallengeType.weekly.storyPrompts.first == "What was your favorite recipe this week?")
    #expect(ChallengeType.special.storyPrompts.last == "Share your experience!")
    #expect(ChallengeType.monthly.storyPrompts.first == "Tell us about your experience!")
    #expect(ChallengeCompletion.activityTitle("Perfect Pancakes") == "Completed Perfect Pancakes! 🎉")
    #expect(ChallengeCompletion.activitySubtitle(points: 500) == "500 points earned")
  }
}
