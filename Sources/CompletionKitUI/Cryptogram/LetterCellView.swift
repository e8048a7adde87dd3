#if canImport(SwiftUI)
import CompletionAPI
import SwiftUI

/// One cell of the puzzle as the server describes it: the letter shown (found, given or hinted) above a
/// rule, the cipher letter small underneath, and the cell's place in the completion wiggle.
public struct LetterCellView: View {
  /// The cell; spaces never reach here, punctuation and digits are shown as written.
  public let cell: CryptogramCellView
  /// A wrong guess to show for a moment in the error colour, or nil.
  public let wrongLetter: Character?
  /// Whether the keyboard types into this cell.
  public let isSelected: Bool
  /// Whether the cell shares the selected cell's cipher letter (a right guess fills it too).
  public let isRelated: Bool
  /// Points sideways in the completion wiggle now (the model's `wiggleOffset(of:)`), 0 at rest.
  public let wiggleOffset: Double

  // Scaled so cells grow with Dynamic Type instead of clipping their letters.
  @ScaledMetric(relativeTo: .title3) private var letterWidth: CGFloat = 22

  /// A cell showing `cell` with the given marks.
  public init(cell: CryptogramCellView, wrongLetter: Character? = nil, isSelected: Bool = false, isRelated: Bool = false, wiggleOffset: Double = 0) {
    self.cell = cell
    self.wrongLetter = wrongLetter
    self.isSelected = isSelected
    self.isRelated = isRelated
    self.wiggleOffset = wiggleOffset
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
      Text(cell.cipher ?? " ")
        .font(.system(.caption2, design: .monospaced))
        .foregroundStyle(.secondary)
    }
    .frame(width: width)
    .padding(.vertical, 4)
    .padding(.horizontal, 1)
    .background(highlight, in: .rect(cornerRadius: 4))
    .offset(x: CGFloat(wiggleOffset))
    .accessibilityElement(children: .ignore)
    .accessibilityLabel(accessibilityText)
    .accessibilityAddTraits(isSelected ? .isSelected : [])
  }

  /// Letters and digits take a full cell; punctuation is narrower so it reads as part of the word.
  private var width: CGFloat {
    let isDigit = cell.shown?.first?.isNumber ?? false
    return cell.isLetter || isDigit ? letterWidth : letterWidth * 0.6
  }

  private var shownText: String {
    if let shown = cell.shown { return shown }
    if let wrongLetter { return String(wrongLetter) }
    // A space keeps the blank cell as tall as a filled one.
    return " "
  }

  private var shownColor: Color {
    if cell.shown == nil, wrongLetter != nil { return .red }
    if cell.hinted { return .orange }
    return .primary
  }

  private var highlight: Color {
    if isSelected { return Color.accentColor.opacity(0.3) }
    if isRelated { return Color.accentColor.opacity(0.12) }
    return .clear
  }

  private var accessibilityText: Text {
    guard cell.isLetter, let cipher = cell.cipher else { return Text(verbatim: cell.shown ?? "") }
    if let shown = cell.shown {
      return Text("Cipher \(cipher), \(shown)")
    }
    return Text("Cipher \(cipher), blank")
  }
}
#endif
