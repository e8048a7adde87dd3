#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI

/// Wähle die Zahl, in the mode the server's level names (`level.mode`):
///
/// - Trace: the tablet only shows the numbers (the asked one glows, `model.highlightedNumber`) and the big
///   number to trace sits beside it (`level.strokes`), with what counts of the child's strokes so far
///   (`level.traced`) and how much is covered (`model.traceCoverage`). Each finished finger stroke goes to the
///   server in the box's 0…1 coordinates; the server judges it and wipes a miss.
/// - Tap: the tablet's numbers (`level.numberRows`) are buttons. After a wrong tap the answer glows for the
///   server's time (`model.shownAnswer`), then the same number is asked again.
struct WaehleDieZahlView: View {
  let model: WaldabenteuerModel
  let level: KidsLevelView
  let acceptsInput: Bool

  var body: some View {
    if level.mode == "trace" {
      HStack(spacing: 40) {
        // Shown, not pressed: in trace mode the tablet only says which number it is.
        NumberPad(rows: level.numberRows, side: 76, isGlowing: { model.highlightedNumber == $0 })
        VStack(spacing: 16) {
          TracePad(
            guide: level.strokes ?? [], traced: level.traced ?? [], maxPoints: model.catalog?.maxTracePoints ?? 0,
            isEnabled: acceptsInput, answers: model.lastEffects
          ) { stroke in
            model.traceStroke(stroke)
          }
          .frame(width: TracePad.preferredSide, height: TracePad.preferredSide)
          .accessibilityLabel(Text(verbatim: "Fahre die \(level.askedNumber ?? 0) nach"))
          TraceMeter(coverage: model.traceCoverage)
            .frame(width: TracePad.preferredSide)
        }
      }
    } else {
      NumberPad(
        rows: level.numberRows, side: 120, isGlowing: { model.shownAnswer == $0 },
        // While the answer shows, the tablet waits for the same question again.
        isEnabled: acceptsInput && model.shownAnswer == nil
      ) { number in
        model.tapNumber(number)
      }
      .padding(24)
      .background(
        KidsPalette.pathStone.opacity(0.85), in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous))
    }
  }
}

/// "Schon nachgemalt": how much of the number the strokes cover, as the server measured it.
struct TraceMeter: View {
  let coverage: Double

  var body: some View {
    GeometryReader { proxy in
      ZStack(alignment: .leading) {
        Capsule().fill(KidsPalette.cream.opacity(0.8))
        Capsule()
          .fill(KidsPalette.success)
          .frame(width: proxy.size.width * CGFloat(min(1, max(0, coverage))))
      }
    }
    .frame(height: 18)
    .overlay { Capsule().strokeBorder(KidsPalette.woodMid, lineWidth: 2) }
    .animation(.easeOut(duration: 0.3), value: coverage)
    .accessibilityElement()
    .accessibilityLabel("Schon nachgemalt")
    .accessibilityValue(Text(coverage, format: .percent.precision(.fractionLength(0))))
  }
}

/// The number to trace: the server's strokes glowing gold, the strokes that counted so far over them, the
/// stroke under the finger, and the strokes sent but not yet answered. Points are captured in the box's own
/// 0…1 coordinates (y down), at most `maxPoints` per stroke (the server's limit), and handed over when the
/// finger lifts.
struct TracePad: View {
  let guide: [[[Double]]]
  let traced: [[[Double]]]
  let maxPoints: Int
  let isEnabled: Bool
  /// The model's last answer: any new one settles the strokes still waiting (counted in `traced`, or wiped).
  let answers: [KidsEffectView]
  let onStroke: ([[Double]]) -> Void

  /// The box's side on the design screen (the scoring is relative to the box, so any size works).
  static let preferredSide: CGFloat = 360
  /// Points closer than this (box units) add nothing to a stroke: how finely a finger is sampled.
  static let minimumStep = 0.004

  @State private var current: [[Double]] = []
  @State private var waiting: [[[Double]]] = []

  var body: some View {
    // Read here, in the body, so a change redraws the canvas (its closure runs later, when drawn).
    let guide = guide
    let strokes = traced + waiting + [current]
    GeometryReader { proxy in
      let side = min(proxy.size.width, proxy.size.height)
      Canvas { context, size in
        let side = min(size.width, size.height)
        // The number itself, glowing gold: a soft wide lane, then the line.
        for stroke in guide {
          context.stroke(
            Self.path(stroke, side: side), with: .color(KidsPalette.coinGold.opacity(0.3)),
            style: StrokeStyle(lineWidth: side * 0.12, lineCap: .round, lineJoin: .round))
        }
        for stroke in guide {
          context.stroke(
            Self.path(stroke, side: side), with: .color(KidsPalette.coinGold),
            style: StrokeStyle(lineWidth: side * 0.05, lineCap: .round, lineJoin: .round))
        }
        // The child's strokes: what counted, what waits for the server's answer, what is being drawn.
        for stroke in strokes where !stroke.isEmpty {
          context.stroke(
            Self.path(stroke, side: side), with: .color(KidsPalette.woodland),
            style: StrokeStyle(lineWidth: side * 0.035, lineCap: .round, lineJoin: .round))
        }
      }
      .frame(width: side, height: side)
      .background(KidsPalette.cream, in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous))
      .overlay {
        RoundedRectangle(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
          .strokeBorder(KidsPalette.woodMid, lineWidth: 4)
      }
      .contentShape(.rect)
      .gesture(stroking(side: side))
      // Only while the level is played (not under level complete or the celebration).
      .allowsHitTesting(isEnabled)
      .frame(width: proxy.size.width, height: proxy.size.height)
    }
    .aspectRatio(1, contentMode: .fit)
    .onChange(of: answers) {
      waiting = []
    }
    .onChange(of: guide) {
      current = []
      waiting = []
    }
    .accessibilityElement()
    .accessibilityAddTraits(.allowsDirectInteraction)
  }

  private func stroking(side: CGFloat) -> some Gesture {
    DragGesture(minimumDistance: 0, coordinateSpace: .local)
      .onChanged { value in
        guard side > 0, maxPoints > 0, current.count < maxPoints else { return }
        let point = [Double(value.location.x / side), Double(value.location.y / side)]
        if let last = current.last, hypot(point[0] - last[0], point[1] - last[1]) < Self.minimumStep { return }
        current.append(point)
      }
      .onEnded { _ in
        // Four decimals are finer than any finger; the server reads what the page would send.
        let stroke = current.map { $0.map { ($0 * 10_000).rounded() / 10_000 } }
        current = []
        guard !stroke.isEmpty else { return }
        waiting.append(stroke)
        onStroke(stroke)
      }
  }

  /// `points` ([x, y] in 0…1) as a path in a box of `side` points; a single point becomes a dot.
  nonisolated static func path(_ points: [[Double]], side: CGFloat) -> Path {
    Path { path in
      let scaled = points.compactMap { $0.count >= 2 ? CGPoint(x: CGFloat($0[0]) * side, y: CGFloat($0[1]) * side) : nil }
      guard let first = scaled.first else { return }
      if scaled.count == 1 {
        path.addEllipse(in: CGRect(x: first.x - 1, y: first.y - 1, width: 2, height: 2))
      } else {
        path.addLines(scaled)
      }
    }
  }
}
#endif
