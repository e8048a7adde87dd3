/// The math question in front of the parent area: "A + B = ?" with A and B in 5…15. Wrong answers clear
/// the input; after three the question changes. There is no lockout: a parent is never shut out.
public struct ParentGate: Hashable, Sendable, Codable {
  /// One question.
  public struct Question: Hashable, Sendable, Codable {
    /// First operand (5…15).
    public let a: Int
    /// Second operand (5…15).
    public let b: Int

    /// The question `a + b`.
    public init(a: Int, b: Int) {
      self.a = a
      self.b = b
    }

    /// The sum to type.
    public var answer: Int { a + b }
    /// "7 + 12 = ?".
    public var text: String { "\(a) + \(b) = ?" }
  }

  /// The range of both operands.
  public static let operands = 5...15
  /// Digits the number pad takes.
  public static let maxDigits = 2
  /// Wrong answers before the question changes.
  public static let wrongAnswersPerQuestion = 3
  /// How long "Versuch es nochmal" shows.
  public static let wrongMessageSeconds = 2.0

  /// What a key press did.
  public enum Outcome: Hashable, Sendable {
    /// The input now reads `input`.
    case input(String)
    case correct
    /// Wrong: input cleared; a new question after the third miss.
    case wrong(newQuestion: Question?)
    case refused(RefusalReason)
  }

  /// The question shown.
  public private(set) var question: Question
  /// The digits typed so far.
  public private(set) var input = ""
  /// Wrong answers to the current question.
  public private(set) var wrongAnswers = 0

  /// A gate with a random question.
  public init(using generator: inout some RandomNumberGenerator) {
    question = Self.randomQuestion(using: &generator)
  }

  /// A gate with a fixed question (tests, previews).
  public init(question: Question) {
    self.question = question
  }

  /// A number-pad key.
  public mutating func enter(digit: Int) -> Outcome {
    guard (0...9).contains(digit) else { return .refused(.numberOutOfRange) }
    guard input.count < Self.maxDigits else { return .refused(.inputFull) }
    input += String(digit)
    return .input(input)
  }

  /// Deletes the last digit.
  public mutating func erase() -> Outcome {
    guard !input.isEmpty else { return .refused(.noInput) }
    input.removeLast()
    return .input(input)
  }

  /// "Bestätigen".
  public mutating func confirm(using generator: inout some RandomNumberGenerator) -> Outcome {
    guard let value = Int(input) else { return .refused(.noInput) }
    if value == question.answer { return .correct }
    input = ""
    wrongAnswers += 1
    guard wrongAnswers >= Self.wrongAnswersPerQuestion else { return .wrong(newQuestion: nil) }
    // A different question, so a parent who misread the first one sees that it changed.
    var next = Self.randomQuestion(using: &generator)
    while next == question { next = Self.randomQuestion(using: &generator) }
    question = next
    wrongAnswers = 0
    return .wrong(newQuestion: next)
  }

  private static func randomQuestion(using generator: inout some RandomNumberGenerator) -> Question {
    Question(a: Int.random(in: operands, using: &generator), b: Int.random(in: operands, using: &generator))
  }
}
