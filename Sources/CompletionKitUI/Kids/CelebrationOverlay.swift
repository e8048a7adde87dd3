#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import CompletionCore
import Foundation
import SwiftUI

/// The celebration the server shows at a milestone (`view.screen == "celebrationOverlay"`). It is an overlay,
/// not a screen: the activity stays where it is, dimmed and softly blurred underneath (``ActivityScreen`` does
/// that), and this card sits on top.
///
/// The card is 70 % of the screen wide, cream at 90 %, corner radius 24, and enters on the catalog's
/// `kidsCelebration` "card" step (a plain appearance under Reduce Motion). Bennie and three Lemminge cheer,
/// the coins and Bennie's milestone words (the line the server had him say) are shown, and only "Weiter"
/// closes it: taps anywhere else are swallowed.
public struct CelebrationOverlay: View {
  let model: WaldabenteuerModel

  /// The card's width as a share of the screen.
  static let widthShare: CGFloat = 0.7

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  @State private var hasEntered = false

  /// The overlay over `model`'s activity.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The card over a layer that swallows every other tap, entering on its step.
  public var body: some View {
    let entrance = model.motion("kidsCelebration", step: "card")
    let appearance = hasEntered || reduceMotion ? Appearance.identity : (entrance?.from ?? .identity)
    GeometryReader { proxy in
      ZStack {
        // Catches every tap around the card: only "Weiter" dismisses.
        Color.clear
          .contentShape(.rect)
          .onTapGesture {}
          .accessibilityHidden(true)
        card
          .frame(width: proxy.size.width * Self.widthShare)
          .choreographed(appearance)
      }
      .frame(width: proxy.size.width, height: proxy.size.height)
    }
    .ignoresSafeArea()
    .onAppear {
      withAnimation(KidsMotion.animation(entrance, reduceMotion: reduceMotion)) {
        hasEntered = true
      }
    }
    .accessibilityAddTraits(.isModal)
  }

  private var card: some View {
    VStack(spacing: 24) {
      HStack(alignment: .bottom, spacing: 18) {
        LemmingView(size: 70)
        BennieView(height: 190)
        LemmingView(size: 84)
        LemmingView(size: 70)
      }
      HStack(spacing: 14) {
        CoinView(size: 56)
        Text(model.text("coinCount", "\(model.activePlayer?.coins ?? 0)"))
          .font(KidsFont.number(size: 48))
          .foregroundStyle(KidsPalette.woodDark)
      }
      .accessibilityElement(children: .combine)
      // Bennie's milestone words, as the server had him say them (the bubble moves onto the card).
      if let line = model.bubbleLine {
        Text(line.text)
          .font(KidsFont.body)
          .foregroundStyle(KidsPalette.ink)
          .multilineTextAlignment(.center)
          .transition(.opacity)
      }
      Button {
        model.tapWeiter()
      } label: {
        Text(model.text("weiter"))
          .font(KidsFont.button)
          .foregroundStyle(KidsPalette.cream)
          .padding(.horizontal, 56)
          .frame(minHeight: KidsMetrics.minTouch)
          .background(KidsPalette.woodland, in: .capsule)
          .overlay { Capsule().strokeBorder(KidsPalette.woodDark.opacity(0.5), lineWidth: 3) }
      }
      .buttonStyle(.kidsPress)
    }
    .padding(36)
    .frame(maxWidth: .infinity)
    .background(
      KidsPalette.cream.opacity(0.9), in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
    )
    .shadow(color: KidsPalette.dim.opacity(0.3), radius: 16, y: 8)
  }
}

/// Full-screen confetti each time `bursts` changes (the server's `confetti` effect), for the catalog's
/// `kidsCelebration` "confetti" step's seconds. Nothing at all under Reduce Motion. It never takes a touch.
public struct ConfettiView: View {
  let bursts: Int
  let seconds: Double

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  /// The burst falling now, if one is.
  @State private var falling: Int?

  /// Confetti that falls for `seconds` whenever `bursts` changes.
  public init(bursts: Int, seconds: Double) {
    self.bursts = bursts
    self.seconds = seconds
  }

  /// The falling burst, if one is; nothing otherwise.
  public var body: some View {
    ZStack {
      if let falling, allowsConfetti, seconds > 0 {
        ConfettiBurst(number: falling, seconds: seconds) {
          // A newer burst may have started meanwhile; only the one that ended goes.
          if self.falling == falling { self.falling = nil }
        }
        // Each burst is a new view, so it always falls from the top.
        .id(falling)
      }
    }
    .ignoresSafeArea()
    .allowsHitTesting(false)
    .accessibilityHidden(true)
    .onChange(of: bursts) { _, number in
      guard allowsConfetti else { return }
      falling = number
    }
    .onChange(of: reduceMotion) { _, reduce in
      // Turning Reduce Motion on stops a burst at once.
      if reduce { falling = nil }
    }
  }

  /// Confetti is decorative motion: the core's reduced preference (Reduce Motion) has none.
  private var allowsConfetti: Bool {
    KidsMotion.preference(reduceMotion: reduceMotion).allowsDecorativeMotion
  }
}

/// One burst: SwiftUI animates `progress` 0 → 1 linearly over the burst's seconds, and the field draws the
/// pieces where that moment puts them.
struct ConfettiBurst: View {
  let number: Int
  let seconds: Double
  let finished: () -> Void

  @State private var progress = 0.0

  var body: some View {
    ConfettiField(progress: progress, seconds: seconds, pieces: ConfettiPainter.pieces(seed: UInt64(truncatingIfNeeded: number)))
      .onAppear {
        withAnimation(.linear(duration: seconds)) {
          progress = 1
        } completion: {
          finished()
        }
      }
  }
}

/// The pieces at `progress` of the burst. Animatable, so SwiftUI redraws it every frame of the animation and
/// no timer or date is needed.
struct ConfettiField: View, Animatable {
  var progress: Double
  let seconds: Double
  let pieces: [ConfettiPainter.Piece]

  // Nonisolated as `Animatable` asks: SwiftUI interpolates it outside the main actor's view updates.
  nonisolated var animatableData: Double {
    get { progress }
    set { progress = newValue }
  }

  var body: some View {
    let elapsed = progress * seconds
    let seconds = seconds
    let pieces = pieces
    Canvas { context, size in
      ConfettiPainter.draw(pieces, elapsed: elapsed, seconds: seconds, in: &context, size: size)
    }
  }
}

/// Where confetti pieces are and how they look: decoration only, the same pieces for the same burst.
enum ConfettiPainter {
  /// One piece: where it starts across the screen, when it starts and how long it falls (shares of the
  /// burst's seconds), its sway, spin, size and colour.
  struct Piece: Sendable {
    let x: Double
    let delayShare: Double
    let fallShare: Double
    let sway: Double
    let spin: Double
    let width: Double
    let colorIndex: Int
  }

  /// Pieces per burst.
  static let pieceCount = 90

  /// The pieces of burst `seed`, from a small fixed generator so a burst always looks the same.
  static func pieces(seed: UInt64) -> [Piece] {
    var random = SplitMix(state: seed &+ 0x5741_4C44)
    return (0..<pieceCount).map { _ in
      Piece(
        x: Double.random(in: 0...1, using: &random),
        delayShare: Double.random(in: 0...0.2, using: &random),
        fallShare: Double.random(in: 0.53...0.8, using: &random),
        sway: Double.random(in: 0.3...1, using: &random),
        spin: Double.random(in: -240...240, using: &random),
        width: Double.random(in: 10...16, using: &random),
        colorIndex: Int.random(in: 0..<KidsPalette.confetti.count, using: &random)
      )
    }
  }

  /// Draws every piece as it is `elapsed` seconds into a burst of `seconds`.
  static func draw(_ pieces: [Piece], elapsed: Double, seconds: Double, in context: inout GraphicsContext, size: CGSize) {
    guard seconds > 0 else { return }
    // Fades over the last fifth of the burst instead of vanishing.
    let fade = max(0, min(1, (seconds - elapsed) / (seconds * 0.2)))
    for piece in pieces {
      let t = elapsed - piece.delayShare * seconds
      let fall = piece.fallShare * seconds
      guard t > 0, t < fall else { continue }
      let x = piece.x * size.width + sin(t * 2 + piece.sway * 6) * 24 * piece.sway
      let y = -20 + t / fall * (size.height + 40)
      var pieceContext = context
      pieceContext.opacity = fade
      pieceContext.translateBy(x: x, y: y)
      pieceContext.rotate(by: .degrees(t * piece.spin))
      let rect = CGRect(x: -piece.width / 2, y: -piece.width * 0.3, width: piece.width, height: piece.width * 0.6)
      let color = KidsPalette.confetti[piece.colorIndex % KidsPalette.confetti.count]
      pieceContext.fill(Path(roundedRect: rect, cornerRadius: 2), with: .color(color))
    }
  }

  /// SplitMix64: a tiny seeded generator, enough for where confetti falls.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
#endif
