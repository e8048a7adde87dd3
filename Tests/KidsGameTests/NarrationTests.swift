import CompletionCore
import Foundation
import Testing

@testable import KidsGame

@Suite("Narration and the language rules")
struct NarrationTests {
  /// Sample values for every gap.
  static let sample = LineValues(name: "Alexander", n: 5, x: 3, y: 7)

  /// Every German text of the game, gaps filled.
  static var everyText: [String] {
    Narration.allTemplates.map { Narration.fill($0.line.template, with: sample) }
      + Narration.variants
      + ScreenText.allCases.map { $0.text(sample) }
      + ActivityType.allCases.map(\.title)
      + SubActivity.allCases.map(\.title)
      + [YouTubeLinkError.invalid.message]
  }

  @Test("Every sentence has at most 7 words, never \"Falsch\" or \"Fehler\", and no English")
  func languageRules() {
    for text in Self.everyText {
      #expect(LanguageRules.violations(in: text).isEmpty, "\(text): \(LanguageRules.violations(in: text))")
    }
    #expect(Self.everyText.count > 90)
  }

  @Test("The rules catch what they should")
  func rulesCatch() {
    #expect(LanguageRules.violations(in: "Das ist falsch.") == [.forbiddenWord("falsch")])
    #expect(LanguageRules.violations(in: "Kein Fehlerchen!") == [.forbiddenWord("Fehlerchen")])
    #expect(LanguageRules.violations(in: "Try again!") == [.englishWord("Try"), .englishWord("again")])
    #expect(
      LanguageRules.violations(in: "Noch eine Aktivität, dann laden wir die Batterie.") == [
        .tooManyWords(sentence: "Noch eine Aktivität, dann laden wir die Batterie", count: 8)
      ])
    #expect(LanguageRules.words(in: "Heute gespielt: 5 min / 60 min").count == 6)
    #expect(LanguageRules.sentences(in: "Hallo Oliver! Los geht's!") == ["Hallo Oliver", "Los geht's"])
  }

  @Test("Every trigger has its lines, every gap can be filled")
  func table() {
    for trigger in NarrationTrigger.allCases {
      let templates = Narration.templates(for: trigger)
      #expect(!templates.isEmpty, "\(trigger)")
      for line in Narration.lines(for: trigger, Self.sample) {
        #expect(!line.text.contains("["), "\(trigger): \(line.text)")
      }
    }
    #expect(Narration.fill("Zeig mir die [N]!", with: LineValues()) == "Zeig mir die [N]!")
  }

  @Test("Filling a line replaces every gap once, keeps other brackets, and never fills inside a value")
  func filling() {
    let values = LineValues(name: "Mia [N]", n: 3, x: 12, y: 7)
    #expect(Narration.fill("[X] [X] und [Y]", with: values) == "12 12 und 7")
    #expect(Narration.fill("Hallo [Name]!", with: values) == "Hallo Mia [N]!")
    #expect(Narration.fill("[a] [N] [", with: values) == "[a] 3 [")
    #expect(Narration.fill("Grüße, [Name]: Zeig mir die [N]! 🌳", with: LineValues(name: "Lea", n: 5)) == "Grüße, Lea: Zeig mir die 5! 🌳")
    #expect(Narration.fill("", with: values) == "")
    #expect(Narration.fill("[N] [X] [Y]", with: LineValues(n: 0, x: -7, y: Int.min)) == "0 -7 \(Int.min)")
    #expect(Narration.fill("Noch [X] Münzen!", with: LineValues(x: Int.max)) == "Noch \(Int.max) Münzen!")
  }

  @Test("One and many, from one rule: every count from 0 to 30 in the lines and on screen")
  func singularAndPlural() {
    for count in 0...30 {
      let screen = ScreenText.coinCount.text(LineValues(x: count))
      #expect(screen == (count == 1 ? "1 Münze" : "\(count) Münzen"))
      #expect(ScreenText.videoTimeAvailable.text(LineValues(x: count)) == (count == 1 ? "Du hast 1 Minute Zeit!" : "Du hast \(count) Minuten Zeit!"))
      #expect(Narration.counted(count, " Münzen", spoken: false) == screen)
      let missing = Narration.lines(for: .chestClosed, LineValues(x: count)).map(\.text)
      let spoken = count == 0 ? "keine Münzen" : count == 1 ? "eine Münze" : "\(count) Münzen"
      #expect(missing == ["Noch \(spoken)!"])
      let treasure = Narration.lines(for: .treasureBelowTen, LineValues(x: count, y: 10 - count)).map(\.text)
      #expect(treasure.first?.hasPrefix("Wir haben \(spoken).") == true, "\(treasure)")
      let many = Narration.lines(for: .coinsMore, LineValues(x: count)).map(\.text)
      #expect(many.first?.hasPrefix("Wir haben \(count == 0 ? "keine" : count == 1 ? "eine" : String(count)) Goldmünze\(count == 1 ? "" : "n")!") == true)
      for line in missing + treasure + many {
        #expect(LanguageRules.violations(in: line).isEmpty, "\(line)")
      }
    }
    #expect(Narration.lines(for: .chestClosed, LineValues(x: 1)).map(\.text) == ["Noch eine Münze!"])
    // Only a counted noun agrees: other numbers stay digits.
    #expect(Narration.fill("Zeig mir die [N]!", with: LineValues(n: 1)) == "Zeig mir die 1!")
  }

  @Test("Speakers and order follow the script")
  func speakers() {
    let home = Narration.templates(for: .homeFirstVisit)
    #expect(home.map(\.speaker) == [.narrator, .bennie, .bennie])
    #expect(home.map(\.delay) == [0, 0, 2])
    #expect(Narration.templates(for: .puzzleStart).map(\.speaker) == [.narrator, .bennie])
    #expect(Narration.templates(for: .labyrinthStart).map(\.speaker) == [.narrator, .bennie])
    for trigger: NarrationTrigger in [
      .loadingComplete, .playerScreen, .playerTapped, .wuerfelStart, .wuerfelRolled, .waehleStart, .waehleTraceStart,
      .youtubeTapped,
    ] {
      #expect(Narration.templates(for: trigger).allSatisfy { $0.speaker == .narrator }, "\(trigger)")
    }
    for trigger: NarrationTrigger in [
      .lockedSign, .chestClosed, .wrongNumber, .traceRetry, .coins5, .coins10, .coins15, .coins20, .coinsMore, .treasureBelowTen,
      .treasureFiveMinutes, .treasureTwelveMinutes, .videoOneMinute, .videoTimeUp, .noInternet,
    ] {
      #expect(Narration.templates(for: trigger).allSatisfy { $0.speaker == .bennie }, "\(trigger)")
    }
    #expect(Narration.templates(for: .success).allSatisfy { $0.speaker == .both })
  }

  @Test("Lines with their numbers")
  func filledLines() {
    #expect(Narration.lines(for: .playerTapped, LineValues(name: "Oliver")).map(\.text) == ["Hallo Oliver! Los geht's!"])
    #expect(Narration.lines(for: .wrongNumber, LineValues(x: 4)).map(\.text) == ["Das ist die 4. Probier es nochmal!"])
    #expect(Narration.treasure(coins: 6).map(\.text) == ["Wir haben 6 Münzen. Noch 4 bis YouTube!"])
    #expect(Narration.treasure(coins: 12).map(\.text) == ["Wir können fünf Minuten schauen!"])
    #expect(Narration.treasure(coins: 20).map(\.text) == ["Wir können zwölf Minuten schauen!"])
    #expect(ScreenText.playedToday.text(LineValues(x: 35, y: 60)) == "Heute gespielt: 35 min / 60 min")
  }

  @Test("Milestones: 5, 10, 15, 20; from 25 the count itself; nothing off the milestones")
  func milestones() {
    #expect(Narration.milestone(coins: 5) == .coins5)
    #expect(Narration.milestone(coins: 10) == .coins10)
    #expect(Narration.milestone(coins: 15) == .coins15)
    #expect(Narration.milestone(coins: 20) == .coins20)
    for coins in [25, 30, 35, 100] { #expect(Narration.milestone(coins: coins) == .coinsMore) }
    #expect(Narration.lines(for: .coinsMore, LineValues(x: 25)).map(\.text) == ["Wir haben 25 Goldmünzen! Weiter so!"])
    for coins in [0, 1, 4, 6, 9, 11, 19, 21, -5] { #expect(Narration.milestone(coins: coins) == nil) }
  }

  @Test("The success pool: seven phrases, picked by the seeded generator")
  func successPool() {
    #expect(Narration.successPhrases.count == 7)
    var generator = SeededRandom(seed: 8)
    var picked = Set<String>()
    for _ in 0..<200 { picked.insert(Narration.success(using: &generator).text) }
    #expect(picked == Set(Narration.successPhrases))
  }
}
