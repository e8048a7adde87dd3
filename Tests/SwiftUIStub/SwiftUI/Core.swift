// NOT SwiftUI. An interface stub of the SwiftUI declarations `Sources/CompletionKitUI` uses, with Apple's
// signatures and no behaviour, so that Linux CI can type-check the layer (see ../README.md). Every body
// traps; nothing here ever runs.

@_exported import Foundation

// MARK: - Views and the view builder

/// A piece of user interface (`SwiftUI.View`).
@MainActor @preconcurrency public protocol View {
  associatedtype Body: View
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension Never: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

/// The stub's marker for views whose body is primitive (`Never`), as SwiftUI's leaf views are.
public protocol _PrimitiveView: View where Body == Never {}
extension _PrimitiveView {
  public var body: Never { fatalError() }
}

/// What the stub returns where SwiftUI returns an opaque `some View`.
public struct _StubView {
  public init() {}
}
extension _StubView: _PrimitiveView {}

@resultBuilder public struct ViewBuilder {
  public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock() -> EmptyView { EmptyView() }
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
    fatalError()
  }
  public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
  public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> {
    fatalError()
  }
  public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> {
    fatalError()
  }
  public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { fatalError() }
}

public struct TupleView<T> {
  public var value: T
  public init(_ value: T) { self.value = value }
}
public struct _ConditionalContent<TrueContent: View, FalseContent: View> {}
public struct EmptyView {
  public init() {}
}
public struct AnyView {
  public init<V: View>(_ view: V) {}
}
extension Optional: View where Wrapped: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

public protocol DynamicProperty {}

// MARK: - View modifiers

public protocol ViewModifier {
  associatedtype Body: View
  typealias Content = _ViewModifier_Content<Self>
  @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

public struct _ViewModifier_Content<Modifier: ViewModifier> {}

public struct ModifiedContent<Content, Modifier> {
  public var content: Content
  public var modifier: Modifier
  public init(content: Content, modifier: Modifier) {
    self.content = content
    self.modifier = modifier
  }
}
extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
  public typealias Body = Never
  public var body: Never { fatalError() }
}

extension View {
  public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { fatalError() }
}

// MARK: - Animation and transactions

public struct Animation: Equatable, Sendable {
  public static let `default` = Animation()
  public static func linear(duration: TimeInterval) -> Animation { fatalError() }
  public static func easeIn(duration: TimeInterval) -> Animation { fatalError() }
  public static func easeOut(duration: TimeInterval) -> Animation { fatalError() }
  public static func easeInOut(duration: TimeInterval) -> Animation { fatalError() }
  public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: TimeInterval = 0) -> Animation {
    fatalError()
  }
  public func delay(_ delay: TimeInterval) -> Animation { fatalError() }
  public func repeatForever(autoreverses: Bool = true) -> Animation { fatalError() }
}

public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
  fatalError()
}

public struct AnimationCompletionCriteria: Hashable, Sendable {
  public static let logicallyComplete = AnimationCompletionCriteria()
  public static let removed = AnimationCompletionCriteria()
}

public func withAnimation<Result>(
  _ animation: Animation? = .default, completionCriteria: AnimationCompletionCriteria = .logicallyComplete,
  _ body: () throws -> Result, completion: @escaping () -> Void
) rethrows -> Result {
  fatalError()
}

public struct Transaction {
  public init() { fatalError() }
  public init(animation: Animation?) { fatalError() }
  public var animation: Animation?
  public var disablesAnimations: Bool
}

public func withTransaction<Result>(_ transaction: Transaction, _ body: () throws -> Result) rethrows -> Result {
  fatalError()
}

/// The values SwiftUI can interpolate (`Double`, `CGFloat`, pairs of them).
public protocol VectorArithmetic: AdditiveArithmetic {
  mutating func scale(by rhs: Double)
  var magnitudeSquared: Double { get }
}
extension Double: VectorArithmetic {
  public mutating func scale(by rhs: Double) { fatalError() }
  public var magnitudeSquared: Double { fatalError() }
}
extension CGFloat: VectorArithmetic {
  public mutating func scale(by rhs: Double) { fatalError() }
  public var magnitudeSquared: Double { fatalError() }
}
extension Float: VectorArithmetic {
  public mutating func scale(by rhs: Double) { fatalError() }
  public var magnitudeSquared: Double { fatalError() }
}

public protocol Animatable {
  associatedtype AnimatableData: VectorArithmetic
  var animatableData: Self.AnimatableData { get set }
}

public struct AnyTransition: Sendable {
  public static let opacity = AnyTransition()
  public static let identity = AnyTransition()
  public static func asymmetric(insertion: AnyTransition, removal: AnyTransition) -> AnyTransition { fatalError() }
  public static func modifier<E: ViewModifier>(active: E, identity: E) -> AnyTransition { fatalError() }
}

// MARK: - Property wrappers

@propertyWrapper public struct State<Value>: DynamicProperty {
  public init(wrappedValue value: Value) {}
  public init(initialValue value: Value) {}
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set {}
  }
  public var projectedValue: Binding<Value> { fatalError() }
}
extension State where Value: ExpressibleByNilLiteral {
  public init() {}
}

@propertyWrapper @dynamicMemberLookup public struct Binding<Value>: DynamicProperty {
  public var transaction: Transaction
  public init(get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void) {
    fatalError()
  }
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set {}
  }
  public var projectedValue: Binding<Value> { fatalError() }
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> { fatalError() }
}
extension Binding: @unchecked Sendable where Value: Sendable {}

@propertyWrapper public struct Environment<Value>: DynamicProperty {
  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
  public var wrappedValue: Value { fatalError() }
}

public struct EnvironmentValues {
  public init() {}
  public var accessibilityReduceMotion: Bool { fatalError() }
  public var scenePhase: ScenePhase {
    get { fatalError() }
    set {}
  }
}

public enum ScenePhase: Comparable, Hashable, Sendable {
  case background, inactive, active
}

@propertyWrapper public struct FocusState<Value: Hashable>: DynamicProperty {
  private let _token: Int
  @propertyWrapper public struct Binding {
    private let _token: Int
    public var wrappedValue: Value {
      get { fatalError() }
      nonmutating set {}
    }
    public var projectedValue: FocusState<Value>.Binding { fatalError() }
  }
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set {}
  }
  public var projectedValue: FocusState<Value>.Binding { fatalError() }
}
extension FocusState where Value == Bool {
  public init() { fatalError() }
}
extension FocusState {
  public init<T: Hashable>() where Value == T? { fatalError() }
}

@propertyWrapper public struct ScaledMetric<Value: BinaryFloatingPoint>: DynamicProperty {
  public init(wrappedValue: Value) {}
  public init(wrappedValue: Value, relativeTo textStyle: Font.TextStyle) {}
  public var wrappedValue: Value { fatalError() }
}

// MARK: - Geometry

public struct Angle: Comparable, Hashable, Sendable {
  public var radians: Double
  public var degrees: Double
  public init() { fatalError() }
  public init(radians: Double) { fatalError() }
  public init(degrees: Double) { fatalError() }
  public static func radians(_ radians: Double) -> Angle { fatalError() }
  public static func degrees(_ degrees: Double) -> Angle { fatalError() }
  public static var zero: Angle { fatalError() }
  public static func < (lhs: Angle, rhs: Angle) -> Bool { fatalError() }
  public static func + (lhs: Angle, rhs: Angle) -> Angle { fatalError() }
  public static func - (lhs: Angle, rhs: Angle) -> Angle { fatalError() }
  public static prefix func - (angle: Angle) -> Angle { fatalError() }
  public static func * (lhs: Angle, rhs: Double) -> Angle { fatalError() }
  public static func / (lhs: Angle, rhs: Double) -> Angle { fatalError() }
}

public struct UnitPoint: Hashable, Sendable {
  public var x: CGFloat
  public var y: CGFloat
  public init(x: CGFloat, y: CGFloat) { fatalError() }
  public static let zero = UnitPoint(x: 0, y: 0)
  public static let center = UnitPoint(x: 0.5, y: 0.5)
  public static let leading = UnitPoint(x: 0, y: 0.5)
  public static let trailing = UnitPoint(x: 1, y: 0.5)
  public static let top = UnitPoint(x: 0.5, y: 0)
  public static let bottom = UnitPoint(x: 0.5, y: 1)
  public static let topLeading = UnitPoint(x: 0, y: 0)
  public static let topTrailing = UnitPoint(x: 1, y: 0)
  public static let bottomLeading = UnitPoint(x: 0, y: 1)
  public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

public struct HorizontalAlignment: Equatable, Sendable {
  public static let leading = HorizontalAlignment()
  public static let center = HorizontalAlignment()
  public static let trailing = HorizontalAlignment()
}
public struct VerticalAlignment: Equatable, Sendable {
  public static let top = VerticalAlignment()
  public static let center = VerticalAlignment()
  public static let bottom = VerticalAlignment()
}
public struct Alignment: Equatable, Sendable {
  public var horizontal: HorizontalAlignment
  public var vertical: VerticalAlignment
  public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) { fatalError() }
  public static let center = Alignment(horizontal: .center, vertical: .center)
  public static let leading = Alignment(horizontal: .leading, vertical: .center)
  public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
  public static let top = Alignment(horizontal: .center, vertical: .top)
  public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
  public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
  public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
  public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
  public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

public enum Edge: Int8, CaseIterable, Hashable, Sendable {
  case top, leading, bottom, trailing
  public struct Set: OptionSet, Sendable {
    public let rawValue: Int8
    public init(rawValue: Int8) { self.rawValue = rawValue }
    public init(_ e: Edge) { fatalError() }
    public static let top = Set(rawValue: 1)
    public static let leading = Set(rawValue: 2)
    public static let bottom = Set(rawValue: 4)
    public static let trailing = Set(rawValue: 8)
    public static let all = Set(rawValue: 15)
    public static let horizontal = Set(rawValue: 10)
    public static let vertical = Set(rawValue: 5)
  }
}

public struct SafeAreaRegions: OptionSet, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let container = SafeAreaRegions(rawValue: 1)
  public static let keyboard = SafeAreaRegions(rawValue: 2)
  public static let all = SafeAreaRegions(rawValue: 3)
}

public enum Axis: Int8, CaseIterable, Hashable, Sendable {
  case horizontal, vertical
  public struct Set: OptionSet, Sendable {
    public let rawValue: Int8
    public init(rawValue: Int8) { self.rawValue = rawValue }
    public static let horizontal = Set(rawValue: 1)
    public static let vertical = Set(rawValue: 2)
  }
}

public enum ContentMode: Hashable, CaseIterable, Sendable {
  case fit, fill
}

public enum TextAlignment: Hashable, CaseIterable, Sendable {
  case leading, center, trailing
}

public enum Visibility: Hashable, CaseIterable, Sendable {
  case automatic, visible, hidden
}

/// CoreGraphics' affine transform, which SwiftUI's paths and contexts take (CoreGraphics is not on Linux).
public struct CGAffineTransform: Equatable, Sendable {
  public static let identity = CGAffineTransform()
}

public struct GeometryProxy {
  public var size: CGSize { fatalError() }
  public func frame(in coordinateSpace: some CoordinateSpaceProtocol) -> CGRect { fatalError() }
}

public protocol CoordinateSpaceProtocol {}
public struct LocalCoordinateSpace: CoordinateSpaceProtocol {}
extension CoordinateSpaceProtocol where Self == LocalCoordinateSpace {
  public static var local: LocalCoordinateSpace { fatalError() }
}

// View conformances in extensions, as SwiftUI declares them: members of the types stay nonisolated.
extension TupleView: _PrimitiveView {}
extension _ConditionalContent: _PrimitiveView {}
extension EmptyView: _PrimitiveView {}
extension AnyView: _PrimitiveView {}
extension _ViewModifier_Content: _PrimitiveView {}
