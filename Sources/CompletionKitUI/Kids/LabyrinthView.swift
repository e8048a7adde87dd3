#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI

/// Labyrinth: a stone path through the forest from START to ZIEL, where a Lemming waits. The view draws the
/// maze the server sent (`level.labyrinth`, in maze space) scaled to fit, and the child's finger line; one
/// whole trace (touch-down to lift) goes to the server in maze space (`traceLabyrinth`), and the server judges
/// it. The line stays until the answer: the next level, or `clearTrace`, when it fades on the catalog's
/// `kidsTraceFade` step and the child simply tries again. A hint draws the way (`model.shownWay`).
struct LabyrinthView: View {
  let model: WaldabenteuerModel
  let level: KidsLevelView
  let acceptsInput: Bool

  /// Points closer than this (maze points) to the last one add nothing to a trace: how finely a finger is
  /// sampled, as the web page does.
  static let minimumStep = 1.5

  @Environment(\.accessibilityReduceMotion) private var reduceMotion
  /// The trace under the finger, in maze points.
  @State private var current: [[Double]] = []
  /// The trace sent, shown until the server's answer.
  @State private var sent: [[Double]]?
  @State private var sentOpacity = 1.0

  var body: some View {
    if let maze = level.labyrinth, maze.width > 0, maze.height > 0 {
      GeometryReader { proxy in
        let scale = min(proxy.size.width / maze.width, proxy.size.height / maze.height)
        let origin = CGPoint(
          x: (proxy.size.width - maze.width * scale) / 2, y: (proxy.size.height - maze.height * scale) / 2)
        // Read here, in the body, so a change redraws the canvases (their closures run later, when drawn).
        let way = model.shownWay
        let live = current
        let shown = sent
        ZStack(alignment: .topLeading) {
          Canvas { context, _ in
            Self.draw(maze, way: way, in: &context, scale: scale, origin: origin)
          }
          // The sent line is a layer of its own, so its fade is an opacity SwiftUI can animate.
          Canvas { context, _ in
            if let shown { Self.drawTrace(shown, maze: maze, in: &context, scale: scale, origin: origin) }
          }
          .opacity(sentOpacity)
          Canvas { context, _ in
            Self.drawTrace(live, maze: maze, in: &context, scale: scale, origin: origin)
          }
          marks(maze, scale: scale, origin: origin)
        }
        .contentShape(.rect)
        .gesture(tracing(maze, scale: scale, origin: origin))
        .allowsHitTesting(acceptsInput)
      }
      .accessibilityElement()
      .accessibilityLabel("Labyrinth: Fahre mit dem Finger vom Start zum Ziel")
      .accessibilityAddTraits(.allowsDirectInteraction)
      .onChange(of: model.lastEffects) { _, effects in
        if effects.contains(where: { $0.type == "clearTrace" }) { fadeSentTrace() }
      }
      .onChange(of: level.level) {
        current = []
        sent = nil
      }
      .onChange(of: acceptsInput) { _, accepts in
        // A trace cannot go on once the level is over.
        if !accepts { current = [] }
      }
    }
  }

  // MARK: Drawing

  // Nonisolated: the canvases call these while drawing.
  nonisolated private static func point(_ values: [Double], scale: CGFloat, origin: CGPoint) -> CGPoint? {
    guard values.count >= 2 else { return nil }
    return CGPoint(x: origin.x + CGFloat(values[0]) * scale, y: origin.y + CGFloat(values[1]) * scale)
  }

  nonisolated private static func line(_ points: [[Double]], scale: CGFloat, origin: CGPoint) -> Path {
    Path { path in
      let scaled = points.compactMap { point($0, scale: scale, origin: origin) }
      guard scaled.count > 1 else { return }
      path.addLines(scaled)
    }
  }

  /// The ground, the path, ZIEL's glow, the hint's way and the START stone.
  nonisolated private static func draw(_ maze: KidsLabyrinthView, way: [[Double]]?, in context: inout GraphicsContext, scale: CGFloat, origin: CGPoint) {
    let ground = CGRect(x: origin.x, y: origin.y, width: maze.width * scale, height: maze.height * scale)
    context.fill(Path(roundedRect: ground, cornerRadius: 34 * scale), with: .color(KidsPalette.forestNear))
    let paths = Path { path in
      for segment in maze.segments where segment.count >= 4 {
        path.move(to: CGPoint(x: origin.x + segment[0] * scale, y: origin.y + segment[1] * scale))
        path.addLine(to: CGPoint(x: origin.x + segment[2] * scale, y: origin.y + segment[3] * scale))
      }
    }
    // A soft moss edge, then the stone path exactly as wide as the corridor the server allows.
    let corridor = maze.tolerance * 2 * scale
    context.stroke(paths, with: .color(KidsPalette.moss), style: StrokeStyle(lineWidth: corridor + 10 * scale, lineCap: .round, lineJoin: .round))
    context.stroke(paths, with: .color(KidsPalette.pathStone), style: StrokeStyle(lineWidth: corridor, lineCap: .round, lineJoin: .round))
    // ZIEL: a warm glow exactly where the server counts the goal as reached.
    if let goal = point(maze.goal, scale: scale, origin: origin) {
      let radius = maze.tolerance * scale
      context.fill(
        Path(ellipseIn: CGRect(x: goal.x - radius, y: goal.y - radius, width: radius * 2, height: radius * 2)),
        with: .color(KidsPalette.coinGold.opacity(0.5)))
    }
    // The hint: the way through, while it shows.
    if let way {
      context.stroke(
        line(way, scale: scale, origin: origin), with: .color(KidsPalette.coinGold),
        style: StrokeStyle(lineWidth: maze.tolerance * 0.4 * scale, lineCap: .round, lineJoin: .round, dash: [12 * scale, 10 * scale]))
    }
    // START: the stone the server accepts a first touch on.
    if let start = point(maze.start, scale: scale, origin: origin) {
      let radius = maze.startRadius * scale
      let stone = Path(ellipseIn: CGRect(x: start.x - radius, y: start.y - radius, width: radius * 2, height: radius * 2))
      context.fill(stone, with: .color(KidsPalette.cream))
      context.stroke(stone, with: .color(KidsPalette.woodMid), lineWidth: max(2, 4 * scale))
    }
  }

  /// A finger's line through the maze.
  nonisolated private static func drawTrace(_ points: [[Double]], maze: KidsLabyrinthView, in context: inout GraphicsContext, scale: CGFloat, origin: CGPoint) {
    context.stroke(
      line(points, scale: scale, origin: origin), with: .color(KidsPalette.woodland),
      style: StrokeStyle(lineWidth: maze.tolerance * 0.5 * scale, lineCap: .round, lineJoin: .round))
  }

  /// The words and the waiting Lemming, drawn as views over the maze (they are never scaled down to nothing).
  @ViewBuilder
  private func marks(_ maze: KidsLabyrinthView, scale: CGFloat, origin: CGPoint) -> some View {
    if let start = Self.point(maze.start, scale: scale, origin: origin) {
      Text(model.text("labyrinthStart"))
        .font(KidsFont.label.weight(.bold))
        .foregroundStyle(KidsPalette.woodDark)
        .position(start)
        .allowsHitTesting(false)
    }
    if let goal = Self.point(maze.goal, scale: scale, origin: origin) {
      let friend = max(40, maze.tolerance * 1.3 * scale)
      VStack(spacing: 4) {
        LemmingView(size: friend)
        Text(model.text("puzzleTarget"))
          .font(KidsFont.label.weight(.bold))
          .foregroundStyle(KidsPalette.woodDark)
          .padding(.horizontal, 10)
          .padding(.vertical, 2)
          .background { WoodSurface(cornerRadius: 8) }
      }
      .position(x: goal.x, y: goal.y)
      .allowsHitTesting(false)
    }
  }

  // MARK: The finger

  private func tracing(_ maze: KidsLabyrinthView, scale: CGFloat, origin: CGPoint) -> some Gesture {
    DragGesture(minimumDistance: 0, coordinateSpace: .local)
      .onChanged { value in
        guard scale > 0 else { return }
        let point = [Double((value.location.x - origin.x) / scale), Double((value.location.y - origin.y) / scale)]
        if let last = current.last, hypot(point[0] - last[0], point[1] - last[1]) < Self.minimumStep { return }
        current.append(point)
      }
      .onEnded { _ in
        let trace = Self.thin(current, to: maze.maxPoints).map { $0.map { ($0 * 10).rounded() / 10 } }
        current = []
        guard !trace.isEmpty else { return }
        sentOpacity = 1
        sent = trace
        model.send("traceLabyrinth") { $0.points = trace }
      }
  }

  /// `count` points spread evenly over `points`, the first and the last always kept (the server's limit on
  /// one trace is `count`).
  static func thin(_ points: [[Double]], to count: Int) -> [[Double]] {
    guard count > 1, points.count > count else { return points }
    let last = points.count - 1
    return (0..<count).map { index in
      points[Int((Double(index * last) / Double(count - 1)).rounded())]
    }
  }

  /// `clearTrace`: the line fades away (at once under Reduce Motion).
  private func fadeSentTrace() {
    guard sent != nil else { return }
    let fade = model.motion("kidsTraceFade", step: "trace")
    guard let animation = KidsMotion.animation(fade, reduceMotion: reduceMotion) else {
      sent = nil
      return
    }
    withAnimation(animation) {
      sentOpacity = fade?.to.opacity ?? 0
    } completion: {
      sent = nil
      sentOpacity = 1
    }
  }
}
#endif
