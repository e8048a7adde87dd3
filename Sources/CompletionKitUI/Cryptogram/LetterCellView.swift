#if canImport(SwiftUI)
import SwiftUI
import CompletionCore
import Cryptogram

/// One cell of the puzzle: the found letter above a rule, the cipher letter small underneath, and the
/// completion wiggle of seed 000.
public struct LetterCellView: View {
  /// The puzzle cell drawn; spaces never reach here, punctuation and digits are shown as written.
  public let cell: Puzzle.Cell
  /// The letter found (or given) for this cell, or nil while it is blank.
  public let foundLetter: Character?
  /// A wrong guess to show for a moment in the error colour, or nil.
  public let wrongLetter: Character?
  /// Whether the keyboard types into this cell.
  public let isSelected: Bool
  /// Whether the cell shares the selected cell's cipher letter (a right guess fills it too).
  public let isRelated: Bool
  /// Whether the letter was revealed by a hint.
  public let isHinted: Bool
  /// This cell's part in the completion wiggle, or nil to keep it still.
  public let wiggleCell: Wiggle.Cell?
  /// The wiggle's spring and repeats.
  public let wiggle: Wiggle
  /// Whether the completion wiggle is playing.
  public let isWiggling: Bool

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  // Scaled so cells grow with Dynamic Type instead of clipping their letters.
  @ScaledMetric(relativeTo: .title3) private var letterWidth: CGFloat = 22
  @State private var wiggleOffset: CGFloat = 0

  /// A cell showing `foundLetter` (or a blank) over `cell`'s cipher letter.
  public init(
    cell: Puzzle.Cell,
    foundLetter: Character? = nil,
    wrongLetter: Character? = nil,
    isSelected: Bool = false,
    isRelated: Bool = false,
    isHinted: Bool = false,
    wiggleCell: Wiggle.Cell? = nil,
    wiggle: Wiggle = CompletionCelebration.wiggle,
    isWiggling: Bool = false
  ) {
    self.cell = cell
    self.foundLetter = foundLetter
    self.wrongLetter = wrongLetter
    self.isSelected = isSelected
    self.isRelated = isRelated
    self.isHinted = isHinted
    self.wiggleCell = wiggleCell
    self.wiggle = wiggle
    self.isWiggling = isWiggling
  }

  /// The letter, its rule and the cipher letter, offset sideways while wiggling.
  public var body: some View {
    VStack(spacing: 2) {
      Text(shownText)
        .font(.system(.title3, design: .monospaced).weight(.semibold))
        .foregroundStyle(shownColor)
      Rectangle()
        .frame(height: 1)
        .foregroundStyle(.secondary)
        // Kept (invisibly) on punctuation so every cell has the same height and the lines stay level.
        .opacity(cell.isLetter ? 1 : 0)
      Text(cipherText)
        .font(.system(.caption2, design: .monospaced))
        .foregroundStyle(.secondary)
    }
    .frame(width: width)
    .padding(.vertical, 4)
    .padding(.horizontal, 1)
    .background(highlight, in: .rect(cornerRadius: 4))
    .offset(x: wiggleOffset)
    .onChange(of: isWiggling) { _, wiggling in
      playWiggle(wiggling)
    }
    .accessibilityElement(children: .ignore)
    .accessibilityLabel(accessibilityText)
    .accessibilityAddTraits(isSelected ? .isSelected : [])
  }

  /// Letters and digits take a full cell; punctuation is narrower so it reads as part of the word.
  private var width: CGFloat {
    cell.isLetter || cell.character.isNumber ? letterWidth : letterWidth * 0.6
  }

  private var shownText: String {
    guard cell.isLetter else { return String(cell.character) }
    if let foundLetter { return String(foundLetter) }
    if let wrongLetter { return String(wrongLetter) }
    // A space keeps the blank cell as tall as a filled one.
    return " "
  }

  private var shownColor: Color {
    if foundLetter == nil, wrongLetter != nil { return .red }
    if isHinted { return .orange }
    return .primary
  }

  private var cipherText: String {
    cell.cipher.map { String(Letters.letter($0)) } ?? " "
  }

  private var highlight: Color {
    if isSelected { return Color.accentColor.opacity(0.3) }
    if isRelated { return Color.accentColor.opacity(0.12) }
    return .clear
  }

  private var accessibilityText: Text {
    guard let cipher = cell.cipher else { return Text(verbatim: String(cell.character)) }
    let cipherLetter = String(Letters.letter(cipher))
    if let foundLetter {
      return Text("Cipher \(cipherLetter), \(String(foundLetter))")
    }
    return Text("Cipher \(cipherLetter), blank")
  }

  /// Springs the cell to its offset (seed 000), or snaps it home when the wiggle stops.
  private func playWiggle(_ wiggling: Bool) {
    // The wiggle is decorative: Reduce Motion leaves the cell still (`MotionPreference.reduced`).
    guard wiggling, !reduceMotion, let wiggleCell else {
      // No animation, as in the seed: the reset lands while the repeats are still running and cuts them off.
      wiggleOffset = 0
      return
    }
    withAnimation(
      wiggle.spring.animation
        .delay(wiggleCell.delay)
        .repeatCount(wiggle.repeatCount, autoreverses: wiggle.autoreverses)
    ) {
      wiggleOffset = CGFloat(wiggleCell.offset)
    }
  }
}
#endif
