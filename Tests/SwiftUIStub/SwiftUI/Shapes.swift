// NOT SwiftUI: the stub's colours, shape styles, paths and shapes (see ../README.md).

// MARK: - Shape styles and colours

public protocol ShapeStyle: Sendable {}

public struct Color: ShapeStyle, Hashable {
  public enum RGBColorSpace: Sendable { case sRGB, sRGBLinear, displayP3 }
  public init(_ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {}
  public init(_ colorSpace: Color.RGBColorSpace = .sRGB, white: Double, opacity: Double = 1) {}
  nonisolated public func opacity(_ opacity: Double) -> Color { fatalError() }
  public static let black = Color(white: 0)
  public static let white = Color(white: 1)
  public static let red = Color(red: 1, green: 0, blue: 0)
  public static let orange = Color(red: 1, green: 0.5, blue: 0)
  public static let yellow = Color(red: 1, green: 1, blue: 0)
  public static let green = Color(red: 0, green: 1, blue: 0)
  public static let gray = Color(white: 0.5)
  public static let blue = Color(red: 0, green: 0, blue: 1)
  public static let cyan = Color(red: 0, green: 1, blue: 1)
  public static let pink = Color(red: 1, green: 0.75, blue: 0.8)
  public static let purple = Color(red: 0.5, green: 0, blue: 0.5)
  public static let clear = Color(white: 0, opacity: 0)
  public static let primary = Color(white: 0)
  public static let secondary = Color(white: 0.5)
  public static var accentColor: Color { fatalError() }
}
extension ShapeStyle where Self == Color {
  public static var black: Color { fatalError() }
  public static var white: Color { fatalError() }
  public static var red: Color { fatalError() }
  public static var orange: Color { fatalError() }
  public static var yellow: Color { fatalError() }
  public static var green: Color { fatalError() }
  public static var gray: Color { fatalError() }
  public static var blue: Color { fatalError() }
  public static var cyan: Color { fatalError() }
  public static var pink: Color { fatalError() }
  public static var purple: Color { fatalError() }
  public static var clear: Color { fatalError() }
}

public struct HierarchicalShapeStyle: ShapeStyle {
  public static let primary = HierarchicalShapeStyle()
  public static let secondary = HierarchicalShapeStyle()
}
extension ShapeStyle where Self == HierarchicalShapeStyle {
  public static var primary: HierarchicalShapeStyle { fatalError() }
  public static var secondary: HierarchicalShapeStyle { fatalError() }
}
public struct TintShapeStyle: ShapeStyle {
  public init() {}
}
extension ShapeStyle where Self == TintShapeStyle {
  public static var tint: TintShapeStyle { fatalError() }
}
public struct ForegroundStyle: ShapeStyle {
  public init() {}
}
extension ShapeStyle where Self == ForegroundStyle {
  public static var foreground: ForegroundStyle { fatalError() }
}
public struct BackgroundStyle: ShapeStyle {
  public init() {}
}
extension ShapeStyle where Self == BackgroundStyle {
  public static var background: BackgroundStyle { fatalError() }
}
public struct Material: ShapeStyle {
  public static let regular = Material()
}
extension ShapeStyle where Self == Material {
  public static var regularMaterial: Material { fatalError() }
}
extension ShapeStyle {
  nonisolated public func opacity(_ opacity: Double) -> some ShapeStyle { _ShapeStyle() }
}
/// What the stub returns where SwiftUI returns an opaque `some ShapeStyle`.
public struct _ShapeStyle: ShapeStyle {
  public init() {}
}

public struct Gradient: Hashable, Sendable {
  public struct Stop: Hashable, Sendable {
    public var color: Color
    public var location: CGFloat
    public init(color: Color, location: CGFloat) { fatalError() }
  }
  public var stops: [Gradient.Stop]
  public init(stops: [Gradient.Stop]) { fatalError() }
  public init(colors: [Color]) { fatalError() }
}
public struct LinearGradient: ShapeStyle {
  public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {}
  public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {}
  public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {}
}
public struct RadialGradient: ShapeStyle {
  public init(gradient: Gradient, center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {}
  public init(colors: [Color], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {}
  public init(stops: [Gradient.Stop], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {}
}

// MARK: - Stroke and fill

/// CoreGraphics' line caps and joins, which SwiftUI's `StrokeStyle` takes (CoreGraphics is not on Linux).
public enum CGLineCap: Int32, Sendable { case butt, round, square }
public enum CGLineJoin: Int32, Sendable { case miter, round, bevel }

public struct StrokeStyle: Equatable, Sendable {
  public var lineWidth: CGFloat
  public var lineCap: CGLineCap
  public var lineJoin: CGLineJoin
  public var miterLimit: CGFloat
  public var dash: [CGFloat]
  public var dashPhase: CGFloat
  public init(lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter, miterLimit: CGFloat = 10, dash: [CGFloat] = [CGFloat](), dashPhase: CGFloat = 0) {
    fatalError()
  }
}

public struct FillStyle: Equatable, Sendable {
  public var isEOFilled: Bool
  public var isAntialiased: Bool
  public init(eoFill: Bool = false, antialiased: Bool = true) { fatalError() }
}

public enum RoundedCornerStyle: Equatable, Hashable, Sendable {
  case circular, continuous
}

// MARK: - Paths and shapes

public struct Path: Equatable {
  public init() {}
  public init(_ rect: CGRect) {}
  public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {}
  public init(ellipseIn rect: CGRect) {}
  public init(_ callback: (inout Path) -> ()) {}
  nonisolated public func path(in _: CGRect) -> Path { self }
  public var isEmpty: Bool { fatalError() }
  public mutating func move(to end: CGPoint) {}
  public mutating func addLine(to end: CGPoint) {}
  public mutating func addLines(_ lines: [CGPoint]) {}
  public mutating func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {}
  public mutating func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {}
  public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle, clockwise: Bool, transform: CGAffineTransform = .identity) {}
  public mutating func closeSubpath() {}
}

/// A 2D shape (`SwiftUI.Shape`): drawn by its path, filled or stroked with a style.
public protocol Shape: Sendable, Animatable, View {
  nonisolated func path(in rect: CGRect) -> Path
}
extension Shape {
  public var body: _ShapeView<Self> { fatalError() }
}
extension Animatable where Self.AnimatableData == EmptyAnimatableData {
  public var animatableData: EmptyAnimatableData {
    get { fatalError() }
    set {}
  }
}
public struct _ShapeView<Content: Shape> {}

/// A shape that can be inset (`SwiftUI.InsettableShape`).
public protocol InsettableShape: Shape {
  associatedtype InsetShape: InsettableShape
  nonisolated func inset(by amount: CGFloat) -> Self.InsetShape
}

extension Shape {
  nonisolated public func fill<S: ShapeStyle>(_ content: S = .foreground, style: FillStyle = FillStyle()) -> some View { _StubView() }
  nonisolated public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle, antialiased: Bool = true) -> some View { _StubView() }
  nonisolated public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1, antialiased: Bool = true) -> some View { _StubView() }
  nonisolated public func trim(from startFraction: CGFloat = 0, to endFraction: CGFloat = 1) -> some Shape { _Shape() }
}
extension InsettableShape {
  nonisolated public func strokeBorder<S: ShapeStyle>(_ content: S = .foreground, style: StrokeStyle, antialiased: Bool = true) -> some View { _StubView() }
  nonisolated public func strokeBorder<S: ShapeStyle>(_ content: S = .foreground, lineWidth: CGFloat = 1, antialiased: Bool = true) -> some View { _StubView() }
}
/// What the stub returns where SwiftUI returns an opaque `some Shape`.
public struct _Shape {
  public init() {}
  nonisolated public func path(in rect: CGRect) -> Path { Path() }
  nonisolated public func inset(by amount: CGFloat) -> _Shape { self }
}

public struct Rectangle {
  public init() {}
  nonisolated public func path(in rect: CGRect) -> Path { Path() }
  nonisolated public func inset(by amount: CGFloat) -> some InsettableShape { _Shape() }
}
public struct RoundedRectangle {
  public var cornerSize: CGSize
  public var style: RoundedCornerStyle
  public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) { fatalError() }
  public init(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) { fatalError() }
  nonisolated public func path(in rect: CGRect) -> Path { Path() }
  nonisolated public func inset(by amount: CGFloat) -> some InsettableShape { _Shape() }
}
public struct Circle {
  public init() {}
  nonisolated public func path(in rect: CGRect) -> Path { Path() }
  nonisolated public func inset(by amount: CGFloat) -> some InsettableShape { _Shape() }
}
public struct Ellipse {
  public init() {}
  nonisolated public func path(in rect: CGRect) -> Path { Path() }
  nonisolated public func inset(by amount: CGFloat) -> some InsettableShape { _Shape() }
}
public struct Capsule {
  public var style: RoundedCornerStyle
  public init(style: RoundedCornerStyle = .continuous) { fatalError() }
  nonisolated public func path(in rect: CGRect) -> Path { Path() }
  nonisolated public func inset(by amount: CGFloat) -> some InsettableShape { _Shape() }
}

extension Shape where Self == Rectangle {
  public static var rect: Rectangle { fatalError() }
}
extension Shape where Self == RoundedRectangle {
  public static func rect(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) -> RoundedRectangle { fatalError() }
}
extension Shape where Self == Circle {
  public static var circle: Circle { fatalError() }
}
extension Shape where Self == Capsule {
  public static var capsule: Capsule { fatalError() }
}

// View conformances in extensions, as SwiftUI declares them: members of the types stay nonisolated.
extension Color: _PrimitiveView {}
extension LinearGradient: _PrimitiveView {}
extension RadialGradient: _PrimitiveView {}
extension Path: Shape {}
extension _ShapeView: _PrimitiveView {}
extension _Shape: Shape, InsettableShape {}
extension Rectangle: InsettableShape {}
extension RoundedRectangle: InsettableShape {}
extension Circle: InsettableShape {}
extension Ellipse: InsettableShape {}
extension Capsule: InsettableShape {}
