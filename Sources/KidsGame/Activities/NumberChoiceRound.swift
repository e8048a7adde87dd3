import Foundation

/// How the child answers in Wähle die Zahl (a parent setting per player).
public enum NumberChoiceMode: String, CaseIterable, Hashable, Sendable, Codable {
  /// Trace the glowing number with a finger (the playbook's version).
  case trace
  /// Tap the number on the tablet (the shipped app's version; easier for the youngest).
  case tap
}

/// One level of Wähle die Zahl: the narrator asks for a number 1…10 and the child traces or taps it.
public struct NumberChoiceRound: Hashable, Sendable, Codable {
  /// The numbers on the tablet.
  public static let numbers = DigitStrokes.numbers
  /// The tablet's rows, top to bottom.
  public static let tabletRows = [[1, 2, 3, 4], [5, 6, 7], [8, 9, 10]]
  /// How long a wrong tap shows the answer before the same number is asked again.
  public static let answerShownSeconds = 1.5
  /// More points than this in one stroke is not a finger.
  public static let maxPointsPerStroke = 4_000

  /// What a tap or a stroke did.
  public enum Outcome: Hashable, Sendable {
    case correct(Int)
    /// Tap mode: show `answer` for a moment, then the same target again.
    case wrongTap(tapped: Int, answer: Int)
    /// Trace mode: on the number but not finished; more strokes may come.
    case traceContinues(coverage: Double)
    /// Trace mode: too little covered (or off the number). The trace clears; same target.
    case traceRetry(coverage: Double)
    case refused(RefusalReason)
  }

  /// The number asked for.
  public let target: Int
  /// Trace or tap, from the parent setting when the level began.
  public let mode: NumberChoiceMode
  /// Strokes traced so far in this attempt.
  public private(set) var strokes: [[TracePoint]] = []
  /// Misses this level (they cost nothing).
  public private(set) var wrongAttempts = 0
  /// The last counted tap, for the 300 ms debounce.
  public private(set) var debounce = TapDebounce()

  /// A level asking for `target`.
  public init(target: Int, mode: NumberChoiceMode) {
    self.target = target
    self.mode = mode
  }

  /// A random target in `range` (1…10 at most; the child's difficulty picks 1–5, 1–7 or 1–10) that is never
  /// `previous`, so the same number is not asked twice in a row.
  public static func nextTarget(
    after previous: Int?, in range: ClosedRange<Int> = numbers, using generator: inout some RandomNumberGenerator
  ) -> Int {
    let choices = numbers.filter { range.contains($0) && $0 != previous }
    return choices.randomElement(using: &generator) ?? numbers.lowerBound
  }

  /// Judges a tap on number `number` at `date` (tap mode).
  public mutating func tap(_ number: Int, at date: Date) -> Outcome {
    guard mode == .tap else { return .refused(.wrongMode) }
    guard Self.numbers.contains(number) else { return .refused(.numberOutOfRange) }
    guard debounce.accept(at: date) else { return .refused(.debounced) }
    guard number == target else {
      wrongAttempts += 1
      return .wrongTap(tapped: number, answer: target)
    }
    return .correct(number)
  }

  /// Adds one finished stroke (trace mode) and judges everything traced so far.
  ///
  /// Success as soon as the strokes cover ≥ 70 % of the number while staying on it. Otherwise the trace is
  /// judged a miss — cleared, same target — when it has wandered off the number, or when the child has drawn
  /// as many strokes as the number has and still covers too little; until then more strokes may come
  /// (a 4 or a 10 takes two).
  public mutating func addStroke(_ points: [TracePoint]) -> Outcome {
    guard mode == .trace else { return .refused(.wrongMode) }
    guard points.count <= Self.maxPointsPerStroke else { return .refused(.traceTooLong) }
    guard !TraceScoring.sanitized(points).isEmpty else { return .refused(.emptyTrace) }
    let all = strokes + [points]
    let score = TraceScoring.score(all, number: target)
    if score.isSuccess {
      strokes = all
      return .correct(target)
    }
    let offNumber = score.precision < TraceScoring.requiredPrecision
    let allStrokesDrawn = all.count >= DigitStrokes.strokes(for: target).count
    guard offNumber || allStrokesDrawn else {
      strokes = all
      return .traceContinues(coverage: score.coverage)
    }
    strokes = []
    wrongAttempts += 1
    return .traceRetry(coverage: score.coverage)
  }
}
