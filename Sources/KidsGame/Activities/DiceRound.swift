import Foundation

/// One level of Würfel: roll the die, then tap the number it shows. A wrong tap costs nothing and the
/// right button keeps glowing.
public struct DiceRound: Hashable, Sendable, Codable {
  /// The die's faces (and the number buttons).
  public static let faces = 1...6
  /// The die tumbles this long before its face counts; the buttons wait for it.
  public static let tumbleSeconds = 0.5

  /// What a roll or a tap did.
  public enum Outcome: Hashable, Sendable {
    case rolled(Int)
    case correct(Int)
    /// Not this one: nothing is lost; `answer` keeps glowing.
    case wrong(tapped: Int, answer: Int)
    case refused(RefusalReason)
  }

  /// The face rolled, once the die has been tapped.
  public private(set) var rolled: Int?
  /// When the die was tapped (the tumble runs from here).
  public private(set) var rolledAt: Date?
  /// Wrong numbers tapped this level (they cost nothing).
  public private(set) var wrongTaps = 0
  /// The last counted tap, for the 300 ms debounce.
  public private(set) var debounce = TapDebounce()

  /// A level before the roll.
  public init() {}

  /// Rolls the die once per level (buttons are disabled until then).
  public mutating func roll(at date: Date, using generator: inout some RandomNumberGenerator) -> Outcome {
    guard rolled == nil else { return .refused(.alreadyRolled) }
    let face = Int.random(in: Self.faces, using: &generator)
    rolled = face
    rolledAt = date
    return .rolled(face)
  }

  /// Judges a tap on number button `number` at `date`.
  public mutating func tap(_ number: Int, at date: Date) -> Outcome {
    guard let rolled, let rolledAt else { return .refused(.notRolled) }
    guard Self.faces.contains(number) else { return .refused(.numberOutOfRange) }
    guard date.timeIntervalSince(rolledAt) >= Self.tumbleSeconds else { return .refused(.stillRolling) }
    guard debounce.accept(at: date) else { return .refused(.debounced) }
    guard number == rolled else {
      wrongTaps += 1
      return .wrong(tapped: number, answer: rolled)
    }
    return .correct(number)
  }
}
