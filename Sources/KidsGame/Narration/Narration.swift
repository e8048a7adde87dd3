import Foundation

/// Who says a line.
public enum Speaker: String, CaseIterable, Hashable, Sendable, Codable {
  /// The narrator's voice (no character on screen speaks).
  case narrator = "N"
  /// Bennie: speaks after the narrator, in his speech bubble.
  case bennie = "B"
  /// Success phrases: the narrator speaks while Bennie shows the same words in his bubble.
  case both = "N+B"
}

/// A gap in a line's text, filled by ``Narration/fill(_:with:)``.
public enum Placeholder: String, CaseIterable, Hashable, Sendable {
  /// The player's name.
  case name = "[Name]"
  /// The number asked for.
  case n = "[N]"
  /// A shown number: the tapped number, coins, minutes.
  case x = "[X]"
  /// A second number: coins still missing.
  case y = "[Y]"
}

/// The numbers and the name a line may need.
public struct LineValues: Hashable, Sendable {
  /// For `[Name]`.
  public var name: String?
  /// For `[N]`.
  public var n: Int?
  /// For `[X]`.
  public var x: Int?
  /// For `[Y]`.
  public var y: Int?

  /// Values for the gaps; leave out what a line does not need.
  public init(name: String? = nil, n: Int? = nil, x: Int? = nil, y: Int? = nil) {
    self.name = name
    self.n = n
    self.x = x
    self.y = y
  }

  /// The text for `placeholder`, or nil when it was not given.
  public func value(for placeholder: Placeholder) -> String? {
    switch placeholder {
    case .name: name
    case .n: n.map(String.init)
    case .x: x.map(String.init)
    case .y: y.map(String.init)
    }
  }
}

/// One line as written in the script, with its gaps.
public struct LineTemplate: Hashable, Sendable {
  /// Who says it.
  public let speaker: Speaker
  /// The words, with gaps like `[N]`.
  public let template: String
  /// Seconds to wait after the previous line of the same trigger has finished.
  public let delay: Double

  /// A line of the script.
  public init(_ speaker: Speaker, _ template: String, delay: Double = 0) {
    self.speaker = speaker
    self.template = template
    self.delay = delay
  }

  /// The gaps this line needs filled.
  public var placeholders: [Placeholder] {
    Placeholder.allCases.filter { template.contains($0.rawValue) }
  }
}

/// A line ready to speak.
public struct SpokenLine: Hashable, Sendable, Codable {
  /// The moment it belongs to.
  public let trigger: NarrationTrigger
  /// Who says it.
  public let speaker: Speaker
  /// The words, gaps filled.
  public let text: String
  /// Seconds to wait after the previous line has finished.
  public let delay: Double

  /// A line ready to speak.
  public init(trigger: NarrationTrigger, speaker: Speaker, text: String, delay: Double = 0) {
    self.trigger = trigger
    self.speaker = speaker
    self.text = text
    self.delay = delay
  }
}

/// The moments that have words (SPEC-NOTES §1, "03/06 Audio, narration").
public enum NarrationTrigger: String, CaseIterable, Hashable, Sendable, Codable {
  case loadingComplete
  case playerScreen
  case playerTapped
  case homeFirstVisit
  case homeReturn
  case lockedSign
  /// A closed chest (under 10 coins) was tapped.
  case chestClosed
  case puzzleStart
  case puzzleIdle10
  case puzzleIdle20
  case labyrinthStart
  case labyrinthOffPath
  /// A labyrinth trace lifted on the path before ZIEL: nothing lost, encouragement to go on from START.
  case labyrinthStoppedShort
  /// The third mistake in a labyrinth level: Bennie shows the way.
  case labyrinthHint
  /// The third mistake in a puzzle level: Bennie points at a cell.
  case puzzleHint
  case labyrinthIdle15
  case wuerfelStart
  case wuerfelRolled
  case wuerfelIdle10
  case wuerfelIdle20
  case wuerfelIdle30
  case waehleStart
  /// Wähle die Zahl in trace mode: the child traces the glowing number instead of tapping it.
  case waehleTraceStart
  case waehleIdle10
  case waehleIdle20
  case wrongNumber
  /// A trace that covered too little of the number.
  case traceRetry
  /// One phrase, picked at random from the pool.
  case success
  case coins5
  case coins10
  case coins15
  case coins20
  /// 25 coins and every fifth after: the count itself, so a literal listener hears the right number.
  case coinsMore
  case treasureBelowTen
  case treasureFiveMinutes
  case treasureTwelveMinutes
  case noInternet
  case youtubeTapped
  case videoOneMinute
  case videoTimeUp
  /// 80 % of the daily play time.
  case playTimeBreakSoon
  /// 95 % of the daily play time.
  case playTimeLastActivity
  /// 100 % of the daily play time.
  case playTimeGoodbye
  /// 100 % of the daily play time reached during a film: the film stops (the goodbye follows).
  case playTimeUpInFilm
  /// A started level left with Zurück or home: encouragement, never blame (Phase 12's quit rule).
  case levelLeft
  /// Rätsel, every third level of the puzzle: the other game is suggested.
  case suggestLabyrinth
  /// Rätsel, every third level of the labyrinth: the other game is suggested.
  case suggestPuzzle

  /// Whether a line of this trigger is heard in full: the gentle-exit lines of the daily limit (80 %, 95 %,
  /// 100 %, and the limit reached during a film) come once a day with the play-time report, often while the
  /// child is tapping, and a tap's own line waits for them instead of cutting them off.
  public var isHeardInFull: Bool {
    switch self {
    case .playTimeBreakSoon, .playTimeLastActivity, .playTimeGoodbye, .playTimeUpInFilm: true
    default: false
    }
  }
}

/// Every spoken line of the game, by trigger, as data.
public enum Narration {
  /// The success pool; one phrase is picked at random after each solved level.
  public static let successPhrases = [
    "Super!", "Toll gemacht!", "Wunderbar!", "Ja, genau!", "Das hast du super gemacht!", "Perfekt!", "Bravo!",
  ]

  /// Lines from the originals that are not spoken, kept so the language rules cover them too: the flow
  /// diagram's loading line, and the style guide's examples for a timeout and a wrong answer.
  public static let variants = [
    "Warte kurz. Wir sind gleich bereit.",
    "Die Uhr ist fertig. Lass uns spielen!",
    "Das ist die 5. Wir suchen die 3!",
  ]

  /// Every trigger's lines, made once: a transition reads them without building the array again.
  private static let table: [NarrationTrigger: [LineTemplate]] = Dictionary(
    uniqueKeysWithValues: NarrationTrigger.allCases.map { ($0, script(for: $0)) })

  /// The lines for `trigger`, in order (for ``NarrationTrigger/success`` the whole pool).
  public static func templates(for trigger: NarrationTrigger) -> [LineTemplate] {
    table[trigger] ?? script(for: trigger)
  }

  /// The script's lines for `trigger`.
  private static func script(for trigger: NarrationTrigger) -> [LineTemplate] {
    switch trigger {
    case .loadingComplete: [.init(.narrator, "Wir sind gleich bereit zum Spielen.")]
    case .playerScreen: [.init(.narrator, "Wie heißt du? [Name]?")]
    case .playerTapped: [.init(.narrator, "Hallo [Name]! Los geht's!")]
    case .homeFirstVisit:
      [
        .init(.narrator, "Was möchtest du spielen?"),
        .init(.bennie, "Hi [Name], ich bin Bennie!"),
        .init(.bennie, "Erst spielen wir, dann schauen wir YouTube.", delay: 2),
      ]
    case .homeReturn:
      [
        .init(.bennie, "Komm, wir spielen noch ein bisschen!"),
        .init(.bennie, "Dann können wir mehr YouTube schauen!", delay: 2),
      ]
    case .lockedSign: [.init(.bennie, "Das ist noch gesperrt.")]
    case .chestClosed: [.init(.bennie, "Noch [X] Münzen!")]
    case .puzzleStart: [.init(.narrator, "Mach das Muster nach!"), .init(.bennie, "Das packen wir!")]
    case .puzzleIdle10: [.init(.bennie, "Wir schaffen das! YouTube kommt bald.")]
    case .puzzleIdle20: [.init(.bennie, "Welche Farbe fehlt noch?")]
    case .labyrinthStart: [.init(.narrator, "Hilf Bennie, den Weg zu finden!"), .init(.bennie, "Wie fange ich die Lemminge?")]
    case .labyrinthOffPath: [.init(.bennie, "Da komme ich nicht durch.")]
    case .labyrinthStoppedShort: [.init(.bennie, "Weiter so! Vom Start bis zum Ziel.")]
    case .labyrinthHint: [.init(.bennie, "Ich zeige dir den Weg.")]
    case .puzzleHint: [.init(.bennie, "Schau mal, hier!")]
    case .labyrinthIdle15: [.init(.bennie, "Wo ist der Anfang?")]
    case .wuerfelStart: [.init(.narrator, "Wirf den Würfel!")]
    case .wuerfelRolled: [.init(.narrator, "Zeig mir die [N]!")]
    case .wuerfelIdle10: [.init(.bennie, "Zähle die Punkte.")]
    case .wuerfelIdle20: [.init(.bennie, "Du hast die [N] gewürfelt.")]
    case .wuerfelIdle30: [.init(.bennie, "Wo ist die [N]?")]
    case .waehleStart: [.init(.narrator, "Zeig mir die [N]!")]
    case .waehleTraceStart: [.init(.narrator, "Mal die [N] nach!")]
    case .waehleIdle10: [.init(.bennie, "Wir suchen die [N].")]
    case .waehleIdle20: [.init(.bennie, "Wo ist die [N]?")]
    case .wrongNumber: [.init(.bennie, "Das ist die [X]. Probier es nochmal!")]
    case .traceRetry: [.init(.bennie, "Fast! Mal die [N] nochmal.")]
    case .success: successPhrases.map { LineTemplate(.both, $0) }
    case .coins5: [.init(.bennie, "Wir haben schon fünf Goldmünzen!")]
    case .coins10: [.init(.bennie, "Zehn Goldmünzen! Du kannst jetzt YouTube schauen.")]
    case .coins15: [.init(.bennie, "Fünfzehn! Weiter so!")]
    case .coins20: [.init(.bennie, "Zwanzig Münzen! Du bekommst Bonuszeit!")]
    case .coinsMore: [.init(.bennie, "Wir haben [X] Goldmünzen! Weiter so!")]
    case .treasureBelowTen: [.init(.bennie, "Wir haben [X] Münzen. Noch [Y] bis YouTube!")]
    case .treasureFiveMinutes: [.init(.bennie, "Wir können fünf Minuten schauen!")]
    case .treasureTwelveMinutes: [.init(.bennie, "Wir können zwölf Minuten schauen!")]
    case .noInternet: [.init(.bennie, "Wir brauchen Internet.")]
    case .youtubeTapped: [.init(.narrator, "Film ab!")]
    case .videoOneMinute: [.init(.bennie, "Noch eine Minute.")]
    case .videoTimeUp: [.init(.bennie, "Die Zeit ist um. Lass uns spielen!")]
    case .playTimeBreakSoon: [.init(.bennie, "Bald machen wir eine Pause.")]
    // No device named: the game runs on a tablet, a laptop or a phone alike.
    case .playTimeLastActivity: [.init(.bennie, "Noch ein Spiel. Dann machen wir Pause.")]
    case .playTimeGoodbye: [.init(.bennie, "Du hast heute so toll gespielt! Bis morgen! Sag Mama oder Papa Bescheid.")]
    case .playTimeUpInFilm: [.init(.bennie, "Die Zeit ist um.")]
    case .levelLeft: [.init(.bennie, "Du hast toll geübt!")]
    case .suggestLabyrinth: [.init(.bennie, "Wollen wir mal das Labyrinth spielen?")]
    case .suggestPuzzle: [.init(.bennie, "Wollen wir mal das Puzzle spielen?")]
    }
  }

  /// Every template of every trigger, for checks over the whole table.
  public static var allTemplates: [(trigger: NarrationTrigger, line: LineTemplate)] {
    NarrationTrigger.allCases.flatMap { trigger in templates(for: trigger).map { (trigger, $0) } }
  }

  /// The lines to speak for `trigger`, gaps filled. For ``NarrationTrigger/success`` use ``success(using:)``.
  public static func lines(for trigger: NarrationTrigger, _ values: LineValues = LineValues()) -> [SpokenLine] {
    templates(for: trigger).map { line($0, of: trigger, values) }
  }

  /// One of `trigger`'s lines, filled with `values`, spoken after its own delay or `delay` when given.
  public static func line(_ template: LineTemplate, of trigger: NarrationTrigger, _ values: LineValues, delay: Double? = nil) -> SpokenLine {
    SpokenLine(trigger: trigger, speaker: template.speaker, text: fill(template.template, with: values), delay: delay ?? template.delay)
  }

  /// One success phrase, picked with `generator`.
  public static func success(using generator: inout some RandomNumberGenerator) -> SpokenLine {
    let phrase = successPhrases.randomElement(using: &generator) ?? "Super!"
    return SpokenLine(trigger: .success, speaker: .both, text: phrase)
  }

  /// The family's children as the player screen asks for them: "Mia", "Mia oder Ben", "Mia, Ben oder Lea".
  public static func nameList(_ names: [String]) -> String {
    guard let last = names.last else { return "" }
    guard names.count > 1 else { return last }
    return names.dropLast().joined(separator: ", ") + " oder " + last
  }

  /// The milestone line for a coin count: 5, 10, 15, 20, and from 25 on every fifth coin names the count
  /// ("Wir haben 25 Goldmünzen! Weiter so!"). The script repeats the 15-coin line there, but "Fünfzehn!"
  /// at 25 coins would be a wrong number to a child who takes words literally. Nil off the milestones.
  public static func milestone(coins: Int) -> NarrationTrigger? {
    guard coins > 0, coins % 5 == 0 else { return nil }
    switch coins {
    case 5: return .coins5
    case 10: return .coins10
    case 15: return .coins15
    case 20: return .coins20
    default: return .coinsMore
    }
  }

  /// What Bennie says on the treasure screen for `coins`.
  public static func treasure(coins: Int) -> [SpokenLine] {
    switch coins {
    case ..<VideoTier.fiveMinutes.cost:
      lines(for: .treasureBelowTen, LineValues(x: coins, y: VideoTier.fiveMinutes.cost - coins))
    case ..<VideoTier.twelveMinutes.cost: lines(for: .treasureFiveMinutes)
    default: lines(for: .treasureTwelveMinutes)
    }
  }

  /// The nouns a number agrees with, as they follow a number gap in the script ("[X] Münzen"): plural as
  /// written, and the singular for one.
  public static let countedNouns: [(plural: String, singular: String)] = [
    (" Goldmünzen", " Goldmünze"), (" Münzen", " Münze"), (" Minuten", " Minute"),
  ]

  /// A count with its noun, by the one rule every line and screen text follows: one takes the singular
  /// ("1 Münze"; spoken "eine Münze"), every other count the plural; a spoken zero is "keine Münzen".
  /// `plural` is one of ``countedNouns``' plurals, with its leading space.
  public static func counted(_ count: Int, _ plural: String, spoken: Bool) -> String {
    fill("[X]" + plural, with: LineValues(x: count), spoken: spoken)
  }

  /// `template` with each gap replaced by its value; a gap without a value stays as written, so a
  /// missing value is visible rather than silently dropped. A number followed by one of ``countedNouns``
  /// agrees with it (see ``counted(_:_:spoken:)``); `spoken` lines say "eine" and "keine" in words.
  public static func fill(_ template: String, with values: LineValues, spoken: Bool = true) -> String {
    // One pass over the bytes (the gaps are ASCII) into a buffer on the stack, instead of a Foundation
    // search per gap: lines are filled inside a state transition, which has a 1 µs budget, and a line of up
    // to 15 bytes ("Zeig mir die 3!") then becomes a string with no allocation at all. A value is never
    // searched again.
    let open = UInt8(ascii: "[")
    let hasGap = template.utf8.withContiguousStorageIfAvailable { $0.contains(open) } ?? template.utf8.contains(open)
    guard hasGap else { return template }  // the script's own string, shared
    var template = template
    return template.withUTF8 { bytes -> String in
      let name = values.name ?? ""
      let capacity = bytes.count + name.utf8.count + 3 * 21 + 16  // each number at most a sign and 20 digits; a spoken count a word
      return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { out -> String in
        var count = 0
        func put(_ byte: UInt8) {
          out[count] = byte
          count += 1
        }
        func put(_ number: Int) {
          if number < 0 { put(UInt8(ascii: "-")) }
          var magnitude = number.magnitude
          var digits = 1
          var probe = magnitude
          while probe >= 10 {
            probe /= 10
            digits += 1
          }
          count += digits
          var position = count
          repeat {
            position -= 1
            out[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
          } while magnitude > 0
        }
        /// Puts `number` and, when a counted noun follows at `after`, agrees with it; returns the bytes of
        /// the template it used beyond the gap.
        func putCount(_ number: Int, after: Int) -> Int {
          guard number == 0 || number == 1 else {
            put(number)
            return 0
          }
          let rest = UnsafeBufferPointer(rebasing: bytes[after...])
          for noun in countedNouns {
            var plural = noun.plural
            guard plural.withUTF8({ rest.starts(with: $0) }) else { continue }
            if number == 1 {
              for byte in (spoken ? "eine" : "1").utf8 { put(byte) }
              for byte in noun.singular.utf8 { put(byte) }
              return noun.plural.utf8.count
            }
            for byte in (spoken ? "keine" : "0").utf8 { put(byte) }
            return 0
          }
          put(number)
          return 0
        }
        var index = 0
        while index < bytes.count {
          let byte = bytes[index]
          guard byte == open else {
            put(byte)
            index += 1
            continue
          }
          let rest = UnsafeBufferPointer(rebasing: bytes[index...])
          var matched = false
          var extra = 0
          for placeholder in Placeholder.allCases {
            var key = placeholder.rawValue
            let fits = key.withUTF8 { key in rest.starts(with: key) }
            guard fits else { continue }
            let length = placeholder.rawValue.utf8.count
            switch placeholder {
            case .name:
              guard let name = values.name else { break }
              for byte in name.utf8 { put(byte) }
              matched = true
            case .n, .x, .y:
              let number = placeholder == .n ? values.n : placeholder == .x ? values.x : values.y
              guard let number else { break }
              extra = putCount(number, after: index + length)
              matched = true
            }
            if matched { index += length + extra }
            break
          }
          if !matched {
            put(open)
            index += 1
          }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: out[..<count]), as: UTF8.self)
      }
    }
  }
}
