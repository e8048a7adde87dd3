import Cryptogram

/// What a move did, for the client to show: one case per effect, switched over exhaustively. On the wire it
/// is an object the page reads by `type` (`{"type": "mistake", "cells": [4], "letter": "E", "flashSeconds": 0.5}`,
/// `{"type": "refused", "reason": "paused"}`).
public enum CryptogramEffectView: Codable, Hashable, Sendable {
  /// These cells now show `letter` (a right guess fills every cell with the same cipher letter).
  case revealed(cells: [Int], letter: String)
  /// A wrong `letter` in `cell`: shown in the error colour for `flashSeconds`, then cleared.
  case mistake(cell: Int, letter: String, flashSeconds: Double)
  /// A hint showed these cells.
  case hint(cells: [Int])
  case failed
  case solved
  case paused
  case resumed
  case continued
  case restarted
  case abandoned
  /// Nothing happened, and why.
  case refused(Board.Refusal)

  /// The effect of the board's `effect`.
  public init(_ effect: Board.Effect) {
    switch effect {
    case .revealed(let cells, let letter): self = .revealed(cells: cells, letter: String(letter))
    case .mistake(let cell, let letter, _): self = .mistake(cell: cell, letter: String(letter), flashSeconds: CryptogramTiming.mistakeFlashSeconds)
    case .hintUsed(let cells, _): self = .hint(cells: cells)
    case .failed: self = .failed
    case .solved: self = .solved
    case .paused: self = .paused
    case .resumed: self = .resumed
    case .continued: self = .continued
    case .restarted: self = .restarted
    case .abandoned: self = .abandoned
    case .refused(let refusal): self = .refused(refusal)
    }
  }

  /// The wire's `type`: "revealed", "mistake", "hint", "failed", "solved", "paused", "resumed", "continued",
  /// "restarted", "abandoned" or "refused".
  public var type: String {
    switch self {
    case .revealed: "revealed"
    case .mistake: "mistake"
    case .hint: "hint"
    case .failed: "failed"
    case .solved: "solved"
    case .paused: "paused"
    case .resumed: "resumed"
    case .continued: "continued"
    case .restarted: "restarted"
    case .abandoned: "abandoned"
    case .refused: "refused"
    }
  }

  /// The cells it names, if any.
  public var cells: [Int]? {
    switch self {
    case .revealed(let cells, _), .hint(let cells): cells
    case .mistake(let cell, _, _): [cell]
    default: nil
    }
  }

  private enum CodingKeys: String, CodingKey {
    case type, cells, letter, flashSeconds, reason
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let type = try container.decode(String.self, forKey: .type)
    switch type {
    case "revealed":
      self = .revealed(cells: try container.decode([Int].self, forKey: .cells), letter: try container.decode(String.self, forKey: .letter))
    case "mistake":
      let cells = try container.decode([Int].self, forKey: .cells)
      guard let cell = cells.first else {
        throw DecodingError.dataCorruptedError(forKey: .cells, in: container, debugDescription: "A mistake names its cell.")
      }
      self = .mistake(
        cell: cell, letter: try container.decode(String.self, forKey: .letter),
        flashSeconds: try container.decode(Double.self, forKey: .flashSeconds))
    case "hint": self = .hint(cells: try container.decode([Int].self, forKey: .cells))
    case "failed": self = .failed
    case "solved": self = .solved
    case "paused": self = .paused
    case "resumed": self = .resumed
    case "continued": self = .continued
    case "restarted": self = .restarted
    case "abandoned": self = .abandoned
    case "refused": self = .refused(try container.decode(Board.Refusal.self, forKey: .reason))
    default:
      throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "Unknown effect '\(type)'.")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(type, forKey: .type)
    switch self {
    case .revealed(let cells, let letter):
      try container.encode(cells, forKey: .cells)
      try container.encode(letter, forKey: .letter)
    case .mistake(let cell, let letter, let flashSeconds):
      try container.encode([cell], forKey: .cells)
      try container.encode(letter, forKey: .letter)
      try container.encode(flashSeconds, forKey: .flashSeconds)
    case .hint(let cells): try container.encode(cells, forKey: .cells)
    case .refused(let refusal): try container.encode(refusal, forKey: .reason)
    case .failed, .solved, .paused, .resumed, .continued, .restarted, .abandoned: break
    }
  }
}
