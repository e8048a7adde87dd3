#if canImport(SwiftUI)
import CompletionCore
import Projects
import SwiftUI

/// The seed's completion ring: a 1 pt outer ring in the project colour and, once anything is done, an
/// inner ring at 0.6× and a pie slice at 0.56× filling clockwise from 12 o'clock. The value moves with
/// the core's ``ProgressAnimator`` (the same one the web page's curve is sampled from), retargeted from
/// wherever it is, so a new count mid-animation never jumps or restarts.
public struct ProjectCompletionIndicator: View {
  let fraction: Double
  let percent: Int
  let name: String
  let color: Color
  let size: CGFloat

  @State private var animator = ProjectRing.animator()
  @State private var started = false
  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// `fraction` and `percent` as the server computed them; `size` 10–20 pt.
  public init(fraction: Double, percent: Int, name: String, color: Color, size: CGFloat = ProjectRing.Geometry.sizes.sidebar) {
    self.fraction = fraction
    self.percent = percent
    self.name = name
    self.color = color
    self.size = size
  }

  public var body: some View {
    TimelineView(.animation(paused: !animator.isAnimating)) { _ in
      Canvas { context, canvasSize in
        let value = animator.value
        let side = min(canvasSize.width, canvasSize.height)
        let center = CGPoint(x: canvasSize.width / 2, y: canvasSize.height / 2)
        let stroke = ProjectRing.Geometry.outerStroke
        let outer = Path(ellipseIn: CGRect(x: center.x - side / 2 + stroke / 2, y: center.y - side / 2 + stroke / 2, width: side - stroke, height: side - stroke))
        context.stroke(outer, with: .color(color), lineWidth: stroke)
        guard value > 0 else { return }
        let inner = side * ProjectRing.Geometry.innerRing / 2
        context.stroke(Path(ellipseIn: CGRect(x: center.x - inner, y: center.y - inner, width: inner * 2, height: inner * 2)), with: .color(color), lineWidth: stroke)
        var pie = Path()
        pie.move(to: center)
        pie.addArc(
          center: center, radius: side * ProjectRing.Geometry.pie / 2, startAngle: .degrees(-90), endAngle: .degrees(-90 + 360 * value),
          clockwise: false)
        pie.closeSubpath()
        context.fill(pie, with: .color(color))
      }
    }
    .frame(width: size, height: size)
    .accessibilityElement()
    .accessibilityLabel(Text("\(name) progress"))
    .accessibilityValue(Text("\(percent) percent complete"))
    .onAppear {
      guard !started else { return }
      started = true
      animator.reset(to: fraction)  // a row that appears shows its value; it does not animate in
    }
    .onChange(of: fraction) { _, newValue in
      if reduceMotion { animator.reset(to: newValue) } else { animator.retarget(to: newValue) }
    }
  }
}

/// A sidebar row: the 16 pt ring, the project's name and its count of tasks still to do.
public struct ProjectSidebarRow: View {
  let name: String
  let fraction: Double
  let percent: Int
  let active: Int
  let color: Color

  public init(name: String, fraction: Double, percent: Int, active: Int, color: Color) {
    self.name = name
    self.fraction = fraction
    self.percent = percent
    self.active = active
    self.color = color
  }

  public var body: some View {
    HStack(spacing: 8) {
      ProjectCompletionIndicator(fraction: fraction, percent: percent, name: name, color: color, size: ProjectRing.Geometry.sizes.sidebar)
      Text(name).lineLimit(1)
      Spacer()
      if active > 0 {
        Text("\(active)").font(.caption).monospacedDigit().foregroundStyle(.secondary)
          .accessibilityLabel(Text("\(active) to do"))
      }
    }
  }
}
#endif
