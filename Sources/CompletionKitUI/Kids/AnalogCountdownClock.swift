#if canImport(SwiftUI)
import CompletionAPI
import SwiftUI

/// The video clock (150 pt): 12 markers with every third one bolder, the time left as a #99BF8C arc (12 pt)
/// that shrinks counter-clockwise towards 12 as the one hand turns clockwise from 12, a #D9C27A centre dot,
/// and the server's words below ("Noch 4 Minuten").
///
/// The server's clock decides (`KidsPlaybackView`: `fractionRemaining`, `handAngle`, `label`, `warned`,
/// `paused`). Its values arrive with each video tick; between them the face glides on at the clock's own
/// rate, from the last values towards where they will be at the next tick, as the web page's clock moves on
/// between updates. Paused, it stands still. Once `warned`, the arc turns gold and the clock swells once per
/// step of the catalog's `kidsClockWarning` (none under Reduce Motion).
public struct AnalogCountdownClock: View {
  let fractionRemaining: Double
  let handAngle: Double
  let label: String
  let isWarned: Bool
  let isRunning: Bool
  let grantedSeconds: Double
  let glideSeconds: Double
  let pulses: [StepPayload]

  /// The clock face's diameter.
  public static let diameter: CGFloat = 150
  /// The arc's line width.
  static let arcWidth: CGFloat = 12

  /// What the face shows: the server's values, moved on between ticks.
  @State private var face = Face(fraction: 1, angle: 0)

  struct Face: Equatable {
    var fraction: Double
    var angle: Double
  }

  /// A clock at the server's values. `isRunning`: the clock runs (not paused, the app in front, time not up);
  /// `grantedSeconds` sets its rate; `glideSeconds` is how far ahead to glide (the catalog's video tick);
  /// `pulses` are the warning's steps.
  public init(
    fractionRemaining: Double, handAngle: Double, label: String, isWarned: Bool, isRunning: Bool, grantedSeconds: Double,
    glideSeconds: Double, pulses: [StepPayload] = []
  ) {
    self.fractionRemaining = fractionRemaining
    self.handAngle = handAngle
    self.label = label
    self.isWarned = isWarned
    self.isRunning = isRunning
    self.grantedSeconds = grantedSeconds
    self.glideSeconds = glideSeconds
    self.pulses = pulses
  }

  /// The face, the arc, the hand and the words, swelling once warned.
  public var body: some View {
    let segments = Self.pulseSegments(pulses)
    VStack(spacing: 12) {
      ZStack {
        Circle()
          .fill(KidsPalette.cream)
        Circle()
          .strokeBorder(KidsPalette.woodDark, lineWidth: 4)
        // Time left: from 12 o'clock counter-clockwise to the hand. The circle's path starts at 3 o'clock and
        // runs clockwise; turned back a quarter and mirrored, it starts at 12 and runs counter-clockwise.
        Circle()
          .inset(by: 4 + Self.arcWidth / 2)
          .trim(from: 0, to: CGFloat(min(1, max(0, face.fraction))))
          .stroke(isWarned ? KidsPalette.coinGold : KidsPalette.success, style: StrokeStyle(lineWidth: Self.arcWidth))
          .rotationEffect(.degrees(-90))
          .scaleEffect(x: -1, y: 1)
        markers
        hand
          .rotationEffect(.degrees(face.angle))
        Circle()
          .fill(KidsPalette.coinGold)
          .frame(width: 16, height: 16)
      }
      .frame(width: Self.diameter, height: Self.diameter)
      .animation(.easeInOut(duration: 0.4), value: isWarned)
      .keyframeAnimator(initialValue: 1.0, trigger: segments.isEmpty ? false : isWarned) { content, scale in
        content.scaleEffect(CGFloat(scale))
      } keyframes: { _ in
        KeyframeTrack {
          for segment in segments {
            CubicKeyframe(segment.scale, duration: segment.duration)
          }
        }
      }
      Text(label)
        .font(KidsFont.button)
        .foregroundStyle(KidsPalette.cream)
        .monospacedDigit()
    }
    .accessibilityElement(children: .ignore)
    .accessibilityLabel(label)
    .onChange(of: Sample(fraction: fractionRemaining, angle: handAngle, running: isRunning), initial: true) { _, sample in
      follow(sample)
    }
  }

  private struct Sample: Equatable {
    let fraction: Double
    let angle: Double
    let running: Bool
  }

  /// Takes the server's values, then (while running) glides to where the clock will be one tick later. The
  /// hand moving is the clock telling the time, not decoration, so it glides under Reduce Motion too.
  private func follow(_ sample: Sample) {
    var snap = Transaction()
    snap.disablesAnimations = true
    withTransaction(snap) {
      face = Face(fraction: sample.fraction, angle: sample.angle)
    }
    guard sample.running, glideSeconds > 0, grantedSeconds > 0 else { return }
    let share = glideSeconds / grantedSeconds
    withAnimation(.linear(duration: glideSeconds)) {
      face = Face(fraction: max(0, sample.fraction - share), angle: min(360, sample.angle + 360 * share))
    }
  }

  /// The warning as keyframes: for each step, rest until its delay, swell to its scale in the first half of
  /// its time, come back in the second.
  static func pulseSegments(_ pulses: [StepPayload]) -> [(scale: Double, duration: Double)] {
    var segments: [(scale: Double, duration: Double)] = []
    var time = 0.0
    for pulse in pulses.sorted(by: { $0.delay < $1.delay }) where pulse.duration > 0 {
      if pulse.delay > time {
        segments.append((pulse.from.scale, pulse.delay - time))
      }
      segments.append((pulse.to.scale, pulse.duration / 2))
      segments.append((pulse.from.scale, pulse.duration / 2))
      time = max(time, pulse.delay) + pulse.duration
    }
    return segments
  }

  /// Twelve markers; 12, 3, 6 and 9 are bolder.
  private var markers: some View {
    ForEach(0..<12, id: \.self) { index in
      let isBold = index.isMultiple(of: 3)
      Capsule()
        .fill(KidsPalette.woodDark)
        .frame(width: isBold ? 5 : 2.5, height: isBold ? 16 : 9)
        // Just inside the arc.
        .offset(y: -(Self.diameter / 2 - 4 - Self.arcWidth - 4 - (isBold ? 8 : 4.5)))
        .rotationEffect(.degrees(Double(index) * 30))
    }
  }

  /// The hand, from the centre towards 12 before it is turned.
  private var hand: some View {
    let length = Self.diameter * 0.34
    return Capsule()
      .fill(KidsPalette.woodDark)
      .frame(width: 5, height: length)
      .offset(y: -length / 2)
  }
}

#Preview("Clock") {
  HStack(spacing: 40) {
    AnalogCountdownClock(
      fractionRemaining: 0.7, handAngle: 108, label: "Noch 4 Minuten", isWarned: false, isRunning: false, grantedSeconds: 300,
      glideSeconds: 5)
    AnalogCountdownClock(
      fractionRemaining: 0.12, handAngle: 316.8, label: "Noch 1 Minute", isWarned: true, isRunning: false, grantedSeconds: 720,
      glideSeconds: 5)
  }
  .padding(40)
  .background(KidsPalette.woodDark)
}
#endif
