import CompletionCore
import Foundation
import PropertyBased
import Testing

@testable import Challenges

/// The participation's rules, straight on the value: join, leave, complete, revoke.
@Suite("Participation")
struct ParticipationTests {
  static let day = CalendarDay("2026-11-23")!
  static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
  static let daily = ChallengeCatalogue.builtIn.challenges(on: day).first { $0.type == .daily }!
  static let weekly = ChallengeCatalogue.builtIn.challenges(on: day).first { $0.type == .weekly }!

  @Test("Join is opt-in and joining again after leaving is allowed; a second join changes nothing")
  func joinAndRejoin() throws {
    // setup
    var participation: Participation?
    // MUT / validate
    #expect(try Participation.handle(.join(at: Self.t0), &participation, in: Self.daily, today: Self.day) == [.joined])
    #expect(participation?.status == .active && participation?.progress == 0 && participation?.joinedAt == Self.t0)
    #expect(try Participation.handle(.join(at: Self.t0 + 5), &participation, in: Self.daily, today: Self.day) == [])
    #expect(participation?.joinedAt == Self.t0)
    #expect(try Participation.handle(.leave(at: Self.t0 + 10), &participation, in: Self.daily, today: Self.day) == [.left])
    #expect(participation?.status == .left)
    #expect(try Participation.handle(.leave(at: Self.t0 + 11), &participation, in: Self.daily, today: Self.day) == [])
    #expect(try Participation.handle(.join(at: Self.t0 + 20), &participation, in: Self.daily, today: Self.day) == [.joined])
    #expect(participation?.status == .active && participation?.joinedAt == Self.t0 + 20)
  }

  @Test("Leaving a challenge never joined changes nothing; a completed or revoked one cannot be left")
  func leave() throws {
    var none: Participation?
    #expect(try Participation.handle(.leave(at: Self.t0), &none, in: Self.daily, today: Self.day) == [])
    #expect(none == nil)
    var done: Participation?
    _ = try Participation.handle(.complete(post: UUID(), at: Self.t0), &done, in: Self.daily, today: Self.day)
    #expect(throws: ChallengeRefusal.alreadyCompleted) { try Participation.handle(.leave(at: Self.t0), &done, in: Self.daily, today: Self.day) }
    _ = try Participation.handle(.revoke, &done, in: Self.daily, today: Self.day)
    #expect(throws: ChallengeRefusal.alreadyCompleted) { try Participation.handle(.leave(at: Self.t0), &done, in: Self.daily, today: Self.day) }
    // Leaving needs no open challenge: one from last week can be left.
    var old: Participation? = Participation(challengeID: Self.daily.id, status: .active, progress: 0, joinedAt: Self.t0)
    #expect(try Participation.handle(.leave(at: Self.t0), &old, in: Self.daily, today: Self.day.adding(days: 7)) == [.left])
  }

  @Test("Completing pays the type's points and counts the streak day of dailies only; a repeat does nothing")
  func complete() throws {
    let post = UUID()
    var participation: Participation?
    let effects = try Participation.handle(.complete(post: post, at: Self.t0), &participation, in: Self.daily, today: Self.day)
    #expect(effects == [.completed(points: 100, streakDay: Self.day, post: post)])
    #expect(participation?.status == .completed && participation?.progress == 1 && participation?.completedAt == Self.t0)
    #expect(participation?.post == post && participation?.joinedAt == Self.t0)
    #expect(try Participation.handle(.complete(post: UUID(), at: Self.t0 + 1), &participation, in: Self.daily, today: Self.day) == [])
    #expect(participation?.post == post)
    // A joined weekly keeps its join time; it pays 500 and has no streak day.
    var weekly: Participation?
    _ = try Participation.handle(.join(at: Self.t0), &weekly, in: Self.weekly, today: Self.day)
    let weeklyEffects = try Participation.handle(.complete(post: post, at: Self.t0 + 60), &weekly, in: Self.weekly, today: Self.day)
    #expect(weeklyEffects == [.completed(points: 500, streakDay: nil, post: post)])
    #expect(weekly?.joinedAt == Self.t0 && weekly?.completedAt == Self.t0 + 60)
  }

  @Test("Join and complete need the challenge open on the person's day: not started, or closed")
  func openDays() {
    var participation: Participation?
    #expect(throws: ChallengeRefusal.challengeNotStarted) {
      try Participation.handle(.join(at: Self.t0), &participation, in: Self.daily, today: Self.day.adding(days: -1))
    }
    #expect(throws: ChallengeRefusal.challengeClosed) {
      try Participation.handle(.complete(post: UUID(), at: Self.t0), &participation, in: Self.daily, today: Self.day.adding(days: 1))
    }
    #expect(participation == nil)
  }

  @Test("Revoke takes a completion back for good: it cannot be completed again")
  func revoke() throws {
    var participation: Participation?
    #expect(try Participation.handle(.revoke, &participation, in: Self.daily, today: Self.day) == [])
    _ = try Participation.handle(.complete(post: UUID(), at: Self.t0), &participation, in: Self.daily, today: Self.day)
    #expect(try Participation.handle(.revoke, &participation, in: Self.daily, today: Self.day) == [.revoked])
    #expect(participation?.status == .revoked && participation?.progress == 0)
    #expect(try Participation.handle(.complete(post: UUID(), at: Self.t0), &participation, in: Self.daily, today: Self.day) == [])
    #expect(try Participation.handle(.join(at: Self.t0), &participation, in: Self.daily, today: Self.day) == [])
    #expect(participation?.status == .revoked)
  }

  @Test("A challenge id names one the catalogue could have offered, with its dates; anything else is not found")
  func challengeFromID() throws {
    let catalogue = ChallengeCatalogue.builtIn
    #expect(try catalogue.challenge(Self.daily.id) == Self.daily)
    for bad in [nil, "", "daily.2026-11-23.no-such-slug", "weekly.2026-11-23.\(Self.daily.slug)", "daily.2026-11-24.\(Self.daily.slug)x"] {
      #expect(throws: ChallengeRefusal.challengeNotFound) { try catalogue.challenge(bad) }
    }
  }

  @Test("Property: whatever the sequence of commands, a completion pays once, progress is 1 exactly when completed, and a finished one stays finished")
  func paysOnce() async {
    let step = PropertyBased.zip(Gen.int(in: 0...3), Gen.int(in: -1...1))
    await propertyCheck(count: 300, input: step.array(of: 1...40)) { steps in
      var participation: Participation?
      var paid = 0
      var finished = false
      for (index, (command, dayOffset)) in steps.enumerated() {
        let now = Self.t0 + Double(index)
        let commands: [Participation.Command] = [.join(at: now), .leave(at: now), .complete(post: UUID(), at: now), .revoke]
        let before = participation
        do {
          let effects = try Participation.handle(commands[command], &participation, in: Self.daily, today: Self.day.adding(days: dayOffset))
          for effect in effects {
            if case .completed(let points, _, _) = effect {
              paid += 1
              #expect(points == 100)
            }
          }
          #expect(effects.isEmpty == (participation == before))
        } catch {
          // A refusal changes nothing.
          #expect(participation == before)
        }
        if let participation {
          #expect((participation.progress == 1) == (participation.status == .completed))
          if finished { #expect(participation.isFinished) }
          finished = participation.isFinished
        }
      }
      #expect(paid <= 1)
      #expect(paid == (finished ? 1 : 0))
    }
  }
}
