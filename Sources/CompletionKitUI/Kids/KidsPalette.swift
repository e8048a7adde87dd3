#if canImport(SwiftUI)
import CompletionAPI
import CompletionCore
import SwiftUI

/// Waldabenteuer's colours (SPEC-NOTES §1 "Design language"). Calm, desaturated woodland tones only: never pure
/// red, and never pure white or black on a large area. The one exception, ``parentDanger`` (#CC0000), is for
/// errors and danger buttons in the parent area, never in front of a child.
public enum KidsPalette {
  // MARK: Core colours

  /// Woodland green, #738F66: the forest, primary buttons, the "fine" play-time bar.
  public static let woodland = Color(kidsHex: 0x738F66)
  /// Bark brown, #8C7259 (also Bennie's fur).
  public static let bark = Color(kidsHex: 0x8C7259)
  /// Sky blue, #B3D1E6.
  public static let sky = Color(kidsHex: 0xB3D1E6)
  /// Cream, #FAF5EB: cards and the celebration card (used instead of white).
  public static let cream = Color(kidsHex: 0xFAF5EB)
  /// Success green, #99BF8C: the video clock's arc, correct answers.
  public static let success = Color(kidsHex: 0x99BF8C)
  /// Coin gold, #D9C27A: coins, glows, the one-minute warning, the clock's centre dot.
  public static let coinGold = Color(kidsHex: 0xD9C27A)

  // MARK: Wood, rope, chain

  /// Light wood, #C4A574 (also Bennie's snout).
  public static let woodLight = Color(kidsHex: 0xC4A574)
  /// Mid wood, #A67C52.
  public static let woodMid = Color(kidsHex: 0xA67C52)
  /// Dark wood, #6B4423: outlines and the text colour on wood and cream.
  public static let woodDark = Color(kidsHex: 0x6B4423)
  /// Rope, #B8956B.
  public static let rope = Color(kidsHex: 0xB8956B)
  /// Chain grey, #6B6B6B: the chains across locked signs and buttons.
  public static let chain = Color(kidsHex: 0x6B6B6B)

  // MARK: Forest layers

  /// Far trees, #4A6B5C.
  public static let forestFar = Color(kidsHex: 0x4A6B5C)
  /// Middle trees, #738F66.
  public static let forestMid = Color(kidsHex: 0x738F66)
  /// Near trees, #7A9973.
  public static let forestNear = Color(kidsHex: 0x7A9973)
  /// Light rays, #F5E6C8 (drawn at 30 %).
  public static let lightRays = Color(kidsHex: 0xF5E6C8)
  /// Moss, #5D6B4D.
  public static let moss = Color(kidsHex: 0x5D6B4D)
  /// Path stone, #A8A090 (also the grey of locked buttons).
  public static let pathStone = Color(kidsHex: 0xA8A090)

  // MARK: Characters

  /// Bennie's fur, #8C7259.
  public static let bennieFur = Color(kidsHex: 0x8C7259)
  /// Bennie's snout, #C4A574 (only the snout is light).
  public static let bennieSnout = Color(kidsHex: 0xC4A574)
  /// Bennie's nose, #3D2B1F.
  public static let bennieNose = Color(kidsHex: 0x3D2B1F)
  /// The Lemminge, always #6FA8DC (never green or brown).
  public static let lemming = Color(kidsHex: 0x6FA8DC)
  /// A Lemming's belly, #FAF5EB.
  public static let lemmingBelly = Color(kidsHex: 0xFAF5EB)
  /// A Lemming's nose and paws, #E8A0A0.
  public static let lemmingNose = Color(kidsHex: 0xE8A0A0)

  // MARK: Text and shading

  /// Text on light surfaces: the darkest brown of the palette instead of black.
  public static let ink = Color(kidsHex: 0x3D2B1F)
  /// The shade laid over a dimmed screen (dark brown, never black).
  public static let dim = Color(kidsHex: 0x3D2B1F)
  /// Errors and danger buttons in the parent area only (the QA spec's exception to "no red").
  public static let parentDanger = Color(kidsHex: 0xCC0000)

  /// The "Heute gespielt" bar's colour for the server's band: "green", "gold" (80–100 %) or "red" (over).
  public static func color(forBand band: String) -> Color {
    switch band {
    case "gold": coinGold
    case "red": parentDanger
    default: woodland
    }
  }

  /// The confetti's colours: the palette's bright tones, nothing neon.
  public static let confetti: [Color] = [success, coinGold, sky, lemming, woodLight, lemmingNose]
}

extension Color {
  /// A colour from the server's `#RRGGBB` (a puzzle leaf), or nil for anything else.
  init?(kidsHexString text: String) {
    let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
    guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
    self.init(kidsHex: value)
  }

  /// A colour from a 24-bit sRGB hex value (`0x738F66`).
  init(kidsHex hex: UInt32, opacity: Double = 1) {
    self.init(
      .sRGB,
      red: Double((hex >> 16) & 0xFF) / 255,
      green: Double((hex >> 8) & 0xFF) / 255,
      blue: Double(hex & 0xFF) / 255,
      opacity: opacity
    )
  }
}

/// Type scale from the style guide, always SF Rounded: titles Bold 32–48, body Regular 17–24, buttons
/// Semibold 20–28, labels Medium 14–17, numbers Bold 40–72.
public enum KidsFont {
  /// A screen title ("Waldabenteuer", "Wer spielt heute?").
  public static var title: Font { .system(size: 44, weight: .bold, design: .rounded) }
  /// A smaller title (cards, the parent area).
  public static var smallTitle: Font { .system(size: 32, weight: .bold, design: .rounded) }
  /// Running text and Bennie's speech bubble.
  public static var body: Font { .system(size: 22, weight: .regular, design: .rounded) }
  /// Button labels.
  public static var button: Font { .system(size: 26, weight: .semibold, design: .rounded) }
  /// Small labels (badges, captions).
  public static var label: Font { .system(size: 16, weight: .medium, design: .rounded) }
  /// Numbers a child answers with (die buttons, the number tablet).
  public static var number: Font { .system(size: 56, weight: .bold, design: .rounded) }
  /// The biggest numbers (the coin counter).
  public static var bigNumber: Font { .system(size: 72, weight: .bold, design: .rounded) }

  /// A number of any size in the game's number style.
  public static func number(size: CGFloat) -> Font {
    .system(size: size, weight: .bold, design: .rounded)
  }
}

/// Sizes the screens are laid out for.
public enum KidsMetrics {
  /// The smallest touch target a child is offered (the style guide's 96 pt).
  public static let minTouch: CGFloat = 96
  /// The landscape iPad the screens are designed for (11" iPad Pro, 1194×834 pt).
  public static let designSize = CGSize(width: 1194, height: 834)
  /// Corner radius of cards and wooden buttons.
  public static let cornerRadius: CGFloat = 24
  /// The player cards on the player-selection screen.
  public static let playerCard = CGSize(width: 200, height: 180)
  /// Edge padding of every screen.
  public static let screenPadding: CGFloat = 32
}

/// Waldabenteuer's motion on top of the shared curve helpers (`CurveAnimation.swift`). The game's own movement
/// (cross-fade, celebration card, coin flight, die tumble, confetti…) comes from the server's catalog through
/// `model.motion(name, step:)`; under Reduce Motion every such change is an instant cut (no cross-fade, no
/// spring, no confetti), as the catalog says.
public enum KidsMotion {
  /// The press feedback: scale 0.95 (the style guide's touch feel, not a game timing).
  public static let pressScale: CGFloat = 0.95
  /// How long the press feedback takes.
  public static let pressSeconds = 0.1

  /// The core's motion preference for the system's Reduce Motion setting.
  public static func preference(reduceMotion: Bool) -> MotionPreference {
    reduceMotion ? .reduced : .full
  }

  /// The animation of one step of the game's choreographies, or nil (an instant change) under Reduce Motion
  /// or before the catalog has arrived.
  public static func animation(_ step: StepPayload?, reduceMotion: Bool) -> Animation? {
    guard !reduceMotion, let step else { return nil }
    return step.animation
  }

  /// A timing curve of `duration` seconds, or nil under Reduce Motion.
  public static func curve(_ curve: CompletionCore.Curve, duration: Double, reduceMotion: Bool) -> Animation? {
    reduceMotion ? nil : curve.animation(duration: duration)
  }
}

/// The game's button feel: a single tap, a 0.95 press for 0.1 s (none under Reduce Motion), and a touch area
/// of at least 96 pt whatever the label's size.
public struct KidsPressStyle: ButtonStyle {
  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// The style.
  public init() {}

  /// The label, pressed down slightly while touched.
  public func makeBody(configuration: Configuration) -> some View {
    configuration.label
      .frame(minWidth: KidsMetrics.minTouch, minHeight: KidsMetrics.minTouch)
      .contentShape(.rect)
      .scaleEffect(configuration.isPressed && !reduceMotion ? KidsMotion.pressScale : 1)
      .animation(
        KidsMotion.curve(.easeOut, duration: KidsMotion.pressSeconds, reduceMotion: reduceMotion),
        value: configuration.isPressed)
  }
}

extension ButtonStyle where Self == KidsPressStyle {
  /// The game's button feel (see ``KidsPressStyle``).
  public static var kidsPress: KidsPressStyle { KidsPressStyle() }
}

/// A wooden plank: the background of signs, buttons and the top bar's round buttons.
struct WoodSurface: View {
  var cornerRadius: CGFloat = KidsMetrics.cornerRadius

  var body: some View {
    RoundedRectangle(cornerRadius: cornerRadius, style: .continuous)
      .fill(
        LinearGradient(
          colors: [KidsPalette.woodLight, KidsPalette.woodMid], startPoint: .top, endPoint: .bottom)
      )
      .overlay {
        RoundedRectangle(cornerRadius: cornerRadius, style: .continuous)
          .strokeBorder(KidsPalette.woodDark, lineWidth: 4)
      }
      .shadow(color: KidsPalette.woodDark.opacity(0.3), radius: 4, y: 3)
  }
}

/// The forest behind the child's screens: sky, soft light, and three rows of rounded trees.
struct ForestBackground: View {
  var body: some View {
    GeometryReader { proxy in
      let size = proxy.size
      ZStack(alignment: .bottom) {
        LinearGradient(
          colors: [KidsPalette.sky, KidsPalette.lightRays], startPoint: .top, endPoint: .bottom)
        treeRow(count: 7, height: size.height * 0.55, color: KidsPalette.forestFar, width: size.width)
        treeRow(count: 6, height: size.height * 0.42, color: KidsPalette.forestMid, width: size.width)
        treeRow(count: 5, height: size.height * 0.3, color: KidsPalette.forestNear, width: size.width)
        Rectangle()
          .fill(KidsPalette.moss)
          .frame(height: size.height * 0.08)
      }
    }
    .ignoresSafeArea()
    // Scenery: nothing here to read out.
    .accessibilityHidden(true)
  }

  private func treeRow(count: Int, height: CGFloat, color: Color, width: CGFloat) -> some View {
    HStack(alignment: .bottom, spacing: -width / CGFloat(count * 4)) {
      ForEach(0..<count, id: \.self) { index in
        Capsule()
          .fill(color)
          .frame(width: width / CGFloat(count) * 1.2, height: height * (index.isMultiple(of: 2) ? 1 : 0.85))
      }
    }
    .frame(maxWidth: .infinity)
    .offset(y: height * 0.35)
  }
}
#endif
