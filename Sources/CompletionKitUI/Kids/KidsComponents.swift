#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI

// Pieces shared by the Waldabenteuer screens: the characters (simple shapes until the art arrives), Bennie's
// speech bubble, coins and chests, chains over locked things, and the wooden buttons of the top bar.

// MARK: - Characters

/// Bennie, the brown bear: pear-shaped, fur #8C7259, only the snout light (#C4A574), nose #3D2B1F, no
/// clothing. A placeholder drawn from shapes; it breathes (1.0 → 1.03 over 2 s) unless Reduce Motion is on.
struct BennieView: View {
  var height: CGFloat = 220

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  @State private var isBreathingIn = false

  var body: some View {
    let unit = height / 10
    ZStack(alignment: .top) {
      // Pear-shaped body: narrow shoulders, wide bottom.
      Ellipse()
        .fill(KidsPalette.bennieFur)
        .frame(width: unit * 6.4, height: unit * 6.2)
        .offset(y: unit * 3.6)
      // Ears.
      HStack(spacing: unit * 2.2) {
        Circle().fill(KidsPalette.bennieFur).frame(width: unit * 1.5, height: unit * 1.5)
        Circle().fill(KidsPalette.bennieFur).frame(width: unit * 1.5, height: unit * 1.5)
      }
      .offset(y: unit * 0.1)
      // Head.
      Circle()
        .fill(KidsPalette.bennieFur)
        .frame(width: unit * 4.2, height: unit * 4.2)
        .offset(y: unit * 0.5)
      // Eyes.
      HStack(spacing: unit * 1.3) {
        Circle().fill(KidsPalette.bennieNose).frame(width: unit * 0.45, height: unit * 0.45)
        Circle().fill(KidsPalette.bennieNose).frame(width: unit * 0.45, height: unit * 0.45)
      }
      .offset(y: unit * 1.9)
      // Snout with nose.
      Ellipse()
        .fill(KidsPalette.bennieSnout)
        .frame(width: unit * 1.9, height: unit * 1.4)
        .overlay(alignment: .top) {
          Ellipse()
            .fill(KidsPalette.bennieNose)
            .frame(width: unit * 0.8, height: unit * 0.5)
            .offset(y: unit * 0.15)
        }
        .offset(y: unit * 2.6)
    }
    .frame(width: unit * 6.4, height: height, alignment: .top)
    .scaleEffect(isBreathingIn ? 1.03 : 1, anchor: .bottom)
    .onAppear {
      guard !reduceMotion else { return }
      withAnimation(.easeInOut(duration: 2).repeatForever(autoreverses: true)) {
        isBreathingIn = true
      }
    }
    .onChange(of: reduceMotion) { _, reduce in
      // Static characters under Reduce Motion: stop the repeating breath where it is.
      guard reduce else { return }
      var transaction = Transaction()
      transaction.disablesAnimations = true
      withTransaction(transaction) { isBreathingIn = false }
    }
    .accessibilityHidden(true)
  }
}

/// One of the Lemminge: a round blob, always #6FA8DC, cream belly, pink nose and buck teeth.
struct LemmingView: View {
  var size: CGFloat = 80

  var body: some View {
    ZStack {
      Circle().fill(KidsPalette.lemming)
      Ellipse()
        .fill(KidsPalette.lemmingBelly)
        .frame(width: size * 0.55, height: size * 0.5)
        .offset(y: size * 0.2)
      HStack(spacing: size * 0.2) {
        Circle().fill(KidsPalette.ink).frame(width: size * 0.12, height: size * 0.12)
        Circle().fill(KidsPalette.ink).frame(width: size * 0.12, height: size * 0.12)
      }
      .offset(y: -size * 0.15)
      VStack(spacing: 0) {
        Ellipse()
          .fill(KidsPalette.lemmingNose)
          .frame(width: size * 0.16, height: size * 0.11)
        // Buck teeth.
        HStack(spacing: 1) {
          Rectangle().fill(KidsPalette.lemmingBelly).frame(width: size * 0.06, height: size * 0.08)
          Rectangle().fill(KidsPalette.lemmingBelly).frame(width: size * 0.06, height: size * 0.08)
        }
      }
      .offset(y: size * 0.02)
    }
    .frame(width: size, height: size)
    .accessibilityHidden(true)
  }
}

/// Bennie's speech bubble: the words he is saying, typed out letter by letter (all at once under Reduce
/// Motion). It pops up with the server's `kidsSpeechBubble` step, and keeps the size of the whole line from
/// the start, so nothing around it moves while it types.
struct SpeechBubble: View {
  let line: KidsLine?
  /// The bubble's entrance (`model.motion("kidsSpeechBubble", step: "bubble")`).
  var pop: StepPayload?
  /// The typewriter's pace, from the server's catalog (`timing.typewriterSecondsPerCharacter`); nil before
  /// the catalog has arrived (the line then shows at once).
  var secondsPerCharacter: Double?
  var maxWidth: CGFloat = 380

  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  var body: some View {
    ZStack(alignment: .topLeading) {
      if let line {
        TypedLine(text: line.text, secondsPerCharacter: reduceMotion ? nil : secondsPerCharacter)
          // A new line starts typing from nothing, never from the old line's count.
          .id(line)
          .padding(.horizontal, 22)
          .padding(.vertical, 16)
          .frame(maxWidth: maxWidth, alignment: .leading)
          .background(KidsPalette.cream, in: .rect(cornerRadius: 22, style: .continuous))
          .overlay {
            RoundedRectangle(cornerRadius: 22, style: .continuous)
              .strokeBorder(KidsPalette.woodLight, lineWidth: 3)
          }
          .shadow(color: KidsPalette.woodDark.opacity(0.2), radius: 4, y: 2)
          .accessibilityElement(children: .ignore)
          .accessibilityLabel(line.text)
          .transition(.appearance(from: pop?.from ?? .identity))
      }
    }
    // Pops when the bubble opens; a line following a line only retypes.
    .animation(KidsMotion.animation(pop, reduceMotion: reduceMotion), value: line == nil)
  }
}

/// A line typed out: the whole text reserves its space (hidden), the typed part is drawn over it.
struct TypedLine: View {
  let text: String
  /// Seconds per typed character, as the server's catalog says (the web page's typewriter reads the same
  /// value); nil shows the whole line at once (Reduce Motion, or no catalog yet).
  let secondsPerCharacter: Double?

  /// 0 → 1 over the typing; animated by SwiftUI from the moment the line appears.
  @State private var typed = 0.0

  var body: some View {
    Text(text)
      .font(KidsFont.body)
      .hidden()
      .overlay(alignment: .topLeading) {
        Color.clear
          .modifier(TypingReveal(text: text, fraction: (secondsPerCharacter ?? 0) > 0 ? typed : 1))
      }
      .multilineTextAlignment(.leading)
      .onAppear {
        guard let secondsPerCharacter, secondsPerCharacter > 0 else { return }
        withAnimation(.linear(duration: Double(text.count) * secondsPerCharacter)) {
          typed = 1
        }
      }
  }
}

/// Shows the first `fraction` of `text`. Animatable, so SwiftUI steps `fraction` every frame of the typing
/// animation and the view needs no timer of its own.
struct TypingReveal: ViewModifier, Animatable {
  let text: String
  var fraction: Double

  // Nonisolated as `Animatable` asks: SwiftUI interpolates it outside the main actor's view updates.
  nonisolated var animatableData: Double {
    get { fraction }
    set { fraction = newValue }
  }

  func body(content: Content) -> some View {
    let count = Int((Double(text.count) * min(1, max(0, fraction))).rounded(.down))
    content.overlay(alignment: .topLeading) {
      Text(String(text.prefix(count)))
        .font(KidsFont.body)
        .foregroundStyle(KidsPalette.ink)
        .multilineTextAlignment(.leading)
        .fixedSize(horizontal: false, vertical: true)
    }
  }
}

/// Bennie with his speech bubble beside him (bottom-left of most child screens).
struct BennieWithBubble: View {
  let model: WaldabenteuerModel
  var height: CGFloat = 200

  var body: some View {
    HStack(alignment: .top, spacing: 12) {
      BennieView(height: height)
      SpeechBubble(
        line: model.bubbleLine, pop: model.motion("kidsSpeechBubble", step: "bubble"),
        secondsPerCharacter: model.catalog?.timing.typewriterSecondsPerCharacter)
        .frame(minHeight: 0, alignment: .top)
    }
  }
}

// MARK: - Coins and chests

/// A gold coin.
struct CoinView: View {
  var size: CGFloat = 40

  var body: some View {
    Circle()
      .fill(KidsPalette.coinGold)
      .overlay {
        Circle()
          .strokeBorder(KidsPalette.woodMid, lineWidth: max(2, size * 0.08))
      }
      .overlay {
        Circle()
          .strokeBorder(KidsPalette.lightRays.opacity(0.8), lineWidth: max(1, size * 0.04))
          .padding(size * 0.2)
      }
      .frame(width: size, height: size)
      .accessibilityHidden(true)
  }
}

/// One treasure chest, closed and dull or open with a golden glow.
struct ChestView: View {
  var isOpen: Bool
  var size: CGFloat = 160

  var body: some View {
    let width = size
    let height = size * 0.75
    ZStack(alignment: .bottom) {
      if isOpen {
        // Coins heaped inside, seen over the front.
        Ellipse()
          .fill(KidsPalette.coinGold)
          .frame(width: width * 0.8, height: height * 0.35)
          .offset(y: -height * 0.5)
      }
      // The box.
      RoundedRectangle(cornerRadius: size * 0.06, style: .continuous)
        .fill(KidsPalette.woodMid)
        .overlay {
          RoundedRectangle(cornerRadius: size * 0.06, style: .continuous)
            .strokeBorder(KidsPalette.woodDark, lineWidth: size * 0.03)
        }
        .overlay {
          HStack {
            Rectangle().fill(KidsPalette.woodDark).frame(width: size * 0.06)
            Spacer()
            Rectangle().fill(KidsPalette.woodDark).frame(width: size * 0.06)
          }
          .padding(.horizontal, size * 0.12)
        }
        .overlay(alignment: .top) {
          // The lock plate.
          RoundedRectangle(cornerRadius: size * 0.02)
            .fill(KidsPalette.coinGold)
            .frame(width: size * 0.14, height: size * 0.16)
            .offset(y: size * 0.02)
        }
        .frame(width: width, height: height * 0.62)
      // The lid: closed on the box, or lifted and tipped back.
      RoundedRectangle(cornerRadius: size * 0.12, style: .continuous)
        .fill(KidsPalette.woodLight)
        .overlay {
          RoundedRectangle(cornerRadius: size * 0.12, style: .continuous)
            .strokeBorder(KidsPalette.woodDark, lineWidth: size * 0.03)
        }
        .frame(width: width, height: height * 0.36)
        .offset(y: isOpen ? -height * 0.86 : -height * 0.6)
        .rotation3DEffect(.degrees(isOpen ? 35 : 0), axis: (x: 1, y: 0, z: 0), anchor: .bottom)
    }
    .frame(width: width, height: height * (isOpen ? 1.25 : 1), alignment: .bottom)
    .saturation(isOpen ? 1 : 0.6)
    .shadow(color: isOpen ? KidsPalette.coinGold.opacity(0.8) : .clear, radius: isOpen ? size * 0.15 : 0)
    .accessibilityHidden(true)
  }
}

/// The home chest as the server names it (`KidsPlayerView.chest`): "closed" (closed and dull), "open" (open
/// with a glow), or "openWithSparkles" (two open chests with sparkles).
struct ChestPile: View {
  let state: String
  var size: CGFloat = 160

  var body: some View {
    let count = state == "openWithSparkles" ? 2 : 1
    HStack(alignment: .bottom, spacing: -size * 0.2) {
      ForEach(0..<count, id: \.self) { _ in
        ChestView(isOpen: state != "closed", size: count > 1 ? size * 0.8 : size)
      }
    }
    .overlay(alignment: .topTrailing) {
      if state == "openWithSparkles" {
        Image(systemName: "sparkles")
          .font(.system(size: size * 0.3, weight: .semibold))
          .foregroundStyle(KidsPalette.coinGold)
          .offset(x: size * 0.1, y: -size * 0.2)
      }
    }
    .accessibilityHidden(true)
  }
}

// MARK: - Locked things

/// Two crossed chains and a padlock over something locked (a sign, a treasure button).
struct ChainsOverlay: View {
  var body: some View {
    GeometryReader { proxy in
      let diagonal = (proxy.size.width * proxy.size.width + proxy.size.height * proxy.size.height).squareRoot()
      let angle = Angle.radians(atan2(proxy.size.height, proxy.size.width))
      ZStack {
        chain(length: diagonal).rotationEffect(angle)
        chain(length: diagonal).rotationEffect(-angle)
        Image(systemName: "lock.fill")
          .font(.system(size: min(proxy.size.width, proxy.size.height) * 0.3, weight: .bold))
          .foregroundStyle(KidsPalette.chain)
          .padding(10)
          .background(KidsPalette.cream.opacity(0.85), in: .circle)
      }
      .frame(width: proxy.size.width, height: proxy.size.height)
    }
    .allowsHitTesting(false)
    .accessibilityHidden(true)
  }

  private func chain(length: CGFloat) -> some View {
    HStack(spacing: 2) {
      ForEach(0..<max(1, Int(length / 22)), id: \.self) { _ in
        Capsule()
          .strokeBorder(KidsPalette.chain, lineWidth: 4)
          .frame(width: 20, height: 12)
      }
    }
    .frame(width: length)
    .clipped()
  }
}

// MARK: - Buttons

/// A round wooden button with a symbol (home, settings, sound): 96 pt, the child's minimum target.
struct WoodenIconButton: View {
  let systemImage: String
  /// What VoiceOver says; nil keeps the symbol's own (system-localised) description.
  var label: String?
  let action: @MainActor () -> Void

  var body: some View {
    Button(action: action) {
      Image(systemName: systemImage)
        .font(.system(size: 38, weight: .semibold))
        .foregroundStyle(KidsPalette.woodDark)
        .frame(width: KidsMetrics.minTouch, height: KidsMetrics.minTouch)
        .background { WoodSurface(cornerRadius: KidsMetrics.minTouch / 2) }
    }
    .buttonStyle(.kidsPress)
    .modifier(OptionalAccessibilityLabel(label: label))
  }
}

/// A wooden button with a word ("Zurück", "Weiter").
struct WoodenTextButton: View {
  let title: String
  var systemImage: String?
  let action: @MainActor () -> Void

  var body: some View {
    Button(action: action) {
      HStack(spacing: 12) {
        if let systemImage {
          Image(systemName: systemImage)
            .accessibilityHidden(true)
        }
        Text(title)
      }
      .font(KidsFont.button)
      .foregroundStyle(KidsPalette.woodDark)
      .padding(.horizontal, 28)
      .frame(minHeight: KidsMetrics.minTouch)
      .background { WoodSurface() }
    }
    .buttonStyle(.kidsPress)
  }
}

/// Sets an accessibility label only when one is given.
private struct OptionalAccessibilityLabel: ViewModifier {
  let label: String?

  func body(content: Content) -> some View {
    if let label {
      content.accessibilityLabel(label)
    } else {
      content
    }
  }
}

/// The sound button: narration and effects on or off (the server keeps the setting).
struct SoundButton: View {
  let model: WaldabenteuerModel

  var body: some View {
    let enabled = model.view?.audioEnabled ?? true
    WoodenIconButton(systemImage: enabled ? "speaker.wave.2.fill" : "speaker.slash.fill", label: enabled ? "Ton aus" : "Ton an") {
      model.setAudio(!enabled)
    }
  }
}

/// The home button of the activities' top bar (the house; it goes straight home).
struct HomeButton: View {
  let model: WaldabenteuerModel

  var body: some View {
    WoodenIconButton(systemImage: "house.fill", label: model.text("homeTitle")) {
      model.home()
    }
  }
}

/// The "Zurück" button (top left of selection and treasure screens).
struct BackButton: View {
  let model: WaldabenteuerModel

  var body: some View {
    WoodenTextButton(title: model.text("back"), systemImage: "chevron.backward") {
      model.back()
    }
  }
}

#Preview("Chests") {
  HStack(spacing: 40) {
    ChestPile(state: "closed")
    ChestPile(state: "open")
    ChestPile(state: "openWithSparkles")
  }
  .padding(40)
  .background(KidsPalette.sky)
}
#endif
