#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// Wähle die Zahl: the tablet with 1–10 in rows of 4, 3 and 3.
///
/// - Trace mode: the tablet only shows the numbers (the asked one glows gold, from the machine's
///   `highlightNumber`) and the big number to trace sits beside it. Each finished finger stroke goes to the
///   machine as `.traceStroke` in the box's 0…1 coordinates; the machine judges coverage and wipes a miss.
/// - Tap mode: the tablet's numbers are buttons. After a wrong tap the answer glows for the machine's
///   `showAnswer` time, then the same number is asked again.
struct WaehleDieZahlView: View {
  let model: KidsGameModel
  let round: NumberChoiceRound

  var body: some View {
    switch round.mode {
    case .trace:
      HStack(spacing: 40) {
        tablet(interactive: false, side: 76)
        TracePad(number: round.target, strokes: model.traceStrokes) { stroke in
          model.submitTrace(stroke)
        }
        .frame(width: TracePad.preferredSide, height: TracePad.preferredSide)
      }
    case .tap:
      tablet(interactive: true, side: 120)
    }
  }

  private func tablet(interactive: Bool, side: CGFloat) -> some View {
    VStack(spacing: 16) {
      ForEach(NumberChoiceRound.tabletRows, id: \.self) { row in
        HStack(spacing: 16) {
          ForEach(row, id: \.self) { number in
            if interactive {
              Button {
                model.tapNumber(number)
              } label: {
                NumberTile(number: number, isGlowing: model.shownAnswer == number, side: side)
              }
              .buttonStyle(.kidsPress)
              // While the answer shows, the tablet waits for the same question again.
              .disabled(model.shownAnswer != nil)
            } else {
              NumberTile(number: number, isGlowing: model.highlightedNumber == number, side: side)
                .accessibilityAddTraits(model.highlightedNumber == number ? .isSelected : [])
            }
          }
        }
      }
    }
    .padding(24)
    .background(
      KidsPalette.pathStone.opacity(0.85), in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
    )
  }
}

/// The number to trace: its strokes (`DigitStrokes`) drawn in gold with the tolerance lane around them, the
/// child's finished strokes over it, and the stroke under the finger. Points are captured in the box's own
/// 0…1 coordinates (y down), as `TracePoint`s, and handed over when the finger lifts.
struct TracePad: View {
  let number: Int
  let strokes: [[TracePoint]]
  let onStroke: ([TracePoint]) -> Void

  /// The box's side on the design screen (the scoring's tolerance is relative, so any size works).
  static let preferredSide: CGFloat = 360

  @State private var current: [TracePoint] = []

  var body: some View {
    GeometryReader { proxy in
      let side = min(proxy.size.width, proxy.size.height)
      Canvas { context, size in
        let side = min(size.width, size.height)
        let guide = DigitStrokes.strokes(for: number)
        // The lane the scoring accepts (±tolerance), soft gold…
        for stroke in guide {
          context.stroke(
            Self.path(stroke, side: side), with: .color(KidsPalette.coinGold.opacity(0.3)),
            style: StrokeStyle(lineWidth: side * CGFloat(TraceScoring.tolerance) * 2, lineCap: .round, lineJoin: .round))
        }
        // …and the number itself, glowing gold.
        for stroke in guide {
          context.stroke(
            Self.path(stroke, side: side), with: .color(KidsPalette.coinGold),
            style: StrokeStyle(lineWidth: side * 0.05, lineCap: .round, lineJoin: .round))
        }
        // The child's strokes.
        for stroke in strokes + [current] where !stroke.isEmpty {
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
      .gesture(
        DragGesture(minimumDistance: 0, coordinateSpace: .local)
          .onChanged { value in
            // A real finger never sends more; the machine would refuse the stroke.
            guard current.count < NumberChoiceRound.maxPointsPerStroke else { return }
            current.append(
              TracePoint(
                screenX: Double(value.location.x), screenY: Double(value.location.y), boxOriginX: 0, boxOriginY: 0,
                boxSide: Double(side)))
          }
          .onEnded { _ in
            let stroke = current
            current = []
            onStroke(stroke)
          }
      )
      .frame(width: proxy.size.width, height: proxy.size.height)
    }
    .aspectRatio(1, contentMode: .fit)
    .onChange(of: number) {
      current = []
    }
    .accessibilityElement()
    .accessibilityLabel(Text(verbatim: "\(number)"))
    .accessibilityAddTraits(.allowsDirectInteraction)
  }

  /// `points` (0…1) as a path in a box of `side` points; a single point becomes a dot.
  static func path(_ points: [TracePoint], side: CGFloat) -> Path {
    Path { path in
      let scaled = points.map { CGPoint(x: CGFloat($0.x) * side, y: CGFloat($0.y) * side) }
      guard let first = scaled.first else { return }
      if scaled.count == 1 {
        path.addEllipse(in: CGRect(x: first.x - 1, y: first.y - 1, width: 2, height: 2))
      } else {
        path.addLines(scaled)
      }
    }
  }
}

#Preview("Wähle die Zahl") {
  ActivityScreen(
    model: .previewHome(then: [.tapActivity(.zahlen), .tapSubActivity(.waehleDieZahl)]), game: .waehleDieZahl
  )
  .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
