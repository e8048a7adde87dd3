#if canImport(SwiftUI)
import Foundation
import SwiftUI
import CompletionCore
import KidsGame

/// The celebration at every fifth coin. It is an overlay, not a screen: the activity stays where it is,
/// dimmed to 40 % and softly blurred underneath (``ActivityScreen`` does that), and this card sits on top.
///
/// The card is 70 % of the screen wide, cream at 90 %, corner radius 24, and springs in from 0.8 to full size
/// (a plain appearance under Reduce Motion). Bennie and three Lemminge cheer, the milestone line is shown,
/// and only "Weiter" closes it: taps anywhere else are swallowed.
public struct CelebrationOverlay: View {
  let coins: Int
  let onWeiter: () -> Void

  /// The card's width as a share of the screen.
  static let widthShare: CGFloat = 0.7
  /// The card's starting scale.
  static let enteringScale: CGFloat = 0.8

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  @State private var hasEntered = false

  /// The overlay for reaching `coins`; `onWeiter` sends "Weiter" to the machine.
  public init(coins: Int, onWeiter: @escaping () -> Void) {
    self.coins = coins
    self.onWeiter = onWeiter
  }

  public var body: some View {
    GeometryReader { proxy in
      ZStack {
        // Catches every tap around the card: only "Weiter" dismisses.
        Color.clear
          .contentShape(.rect)
          .onTapGesture {}
          .accessibilityHidden(true)
        card
          .frame(width: proxy.size.width * Self.widthShare)
          .scaleEffect(hasEntered || reduceMotion ? 1 : Self.enteringScale)
          .opacity(hasEntered || reduceMotion ? 1 : 0)
      }
      .frame(width: proxy.size.width, height: proxy.size.height)
    }
    .ignoresSafeArea()
    .onAppear {
      withAnimation(reduceMotion ? nil : KidsMotion.cardSpring.animation) {
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
        Text(ScreenText.coinCount.text(LineValues(x: coins)))
          .font(KidsFont.number(size: 48))
          .foregroundStyle(KidsPalette.woodDark)
      }
      .accessibilityElement(children: .combine)
      if let line = milestoneLine {
        Text(line)
          .font(KidsFont.body)
          .foregroundStyle(KidsPalette.ink)
          .multilineTextAlignment(.center)
      }
      Button(action: onWeiter) {
        Text(ScreenText.weiter.text())
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

  /// Bennie's milestone words for this count, from the script (nil off a milestone).
  private var milestoneLine: String? {
    guard let trigger = Narration.milestone(coins: coins) else { return nil }
    return Narration.lines(for: trigger, LineValues(x: coins)).map(\.text).joined(separator: " ")
  }
}

/// Full-screen confetti for 3 s each time `bursts` changes, drawn from seeded pieces so a burst always
/// looks the same. Nothing at all under Reduce Motion. It never takes a touch.
public struct ConfettiView: View {
  let bursts: Int

  /// How long a burst lasts.
  public static let seconds = KidsChoreography.celebration.step("confetti")?.duration ?? 0
  /// Pieces per burst.
  static let pieceCount = 90

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  @State private var activeBurst: Burst?

  private struct Burst: Equatable {
    let number: Int
    let start: Date
  }

  private struct Piece {
    let x: Double
    let delay: Double
    let fallSeconds: Double
    let sway: Double
    let spin: Double
    let width: Double
    let colorIndex: Int
  }

  /// Confetti that bursts whenever `bursts` changes.
  public init(bursts: Int) {
    self.bursts = bursts
  }

  public var body: some View {
    ZStack {
      if let burst = activeBurst, allowsConfetti {
        let pieces = Self.pieces(seed: burst.number)
        TimelineView(.animation) { timeline in
          Canvas { context, size in
            let elapsed = timeline.date.timeIntervalSince(burst.start)
            for piece in pieces {
              draw(piece, elapsed: elapsed, in: &context, size: size)
            }
          }
        }
        .task(id: burst.number) {
          do {
            try await Task.sleep(for: .seconds(Self.seconds))
          } catch {
            return
          }
          activeBurst = nil
        }
      }
    }
    .ignoresSafeArea()
    .allowsHitTesting(false)
    .accessibilityHidden(true)
    .onChange(of: bursts) { _, number in
      guard allowsConfetti else { return }
      activeBurst = Burst(number: number, start: .now)
    }
  }

  /// Confetti is decorative motion: the core's reduced preference (Reduce Motion) has none.
  private var allowsConfetti: Bool {
    KidsMotion.preference(reduceMotion: reduceMotion).allowsDecorativeMotion
  }

  private func draw(_ piece: Piece, elapsed: Double, in context: inout GraphicsContext, size: CGSize) {
    let t = elapsed - piece.delay
    guard t > 0 else { return }
    let progress = t / piece.fallSeconds
    guard progress < 1 else { return }
    let x = piece.x * size.width + sin(t * 2 + piece.sway * 6) * 24 * piece.sway
    let y = -20 + progress * (size.height + 40)
    // Fades over the last fifth of the burst instead of vanishing.
    let fade = min(1, (Self.seconds - elapsed) / (Self.seconds * 0.2))
    var pieceContext = context
    pieceContext.opacity = max(0, fade)
    pieceContext.translateBy(x: x, y: y)
    pieceContext.rotate(by: .degrees(t * piece.spin))
    let rect = CGRect(x: -piece.width / 2, y: -piece.width * 0.3, width: piece.width, height: piece.width * 0.6)
    let color = KidsPalette.confetti[piece.colorIndex % KidsPalette.confetti.count]
    pieceContext.fill(Path(roundedRect: rect, cornerRadius: 2), with: .color(color))
  }

  private static func pieces(seed: Int) -> [Piece] {
    var random = SeededRandom(seed: "waldabenteuer-confetti-\(seed)")
    return (0..<pieceCount).map { _ in
      Piece(
        x: Double.random(in: 0...1, using: &random),
        delay: Double.random(in: 0...0.6, using: &random),
        fallSeconds: Double.random(in: 1.6...2.4, using: &random),
        sway: Double.random(in: 0.3...1, using: &random),
        spin: Double.random(in: -240...240, using: &random),
        width: Double.random(in: 10...16, using: &random),
        colorIndex: Int.random(in: 0..<KidsPalette.confetti.count, using: &random)
      )
    }
  }
}

#Preview("Celebration over an activity") {
  ZStack {
    ForestBackground()
      .blur(radius: 10)
      .overlay { KidsPalette.dim.opacity(0.6) }
    CelebrationOverlay(coins: 10, onWeiter: {})
    ConfettiView(bursts: 1)
  }
  .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
