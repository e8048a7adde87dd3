// NOT SwiftUI: the stub's views, text, images and controls (see ../README.md).

// MARK: - Text

public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
  public init(_ value: String) {}
  public init(stringLiteral value: String) {}
  public init(stringInterpolation: StringInterpolation) {}

  public struct StringInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    public mutating func appendInterpolation(_ string: String) {}
    public mutating func appendInterpolation<Subject: ReferenceConvertible>(_ subject: Subject, formatter: Formatter? = nil) {}
    public mutating func appendInterpolation<Subject: NSObject>(_ subject: Subject, formatter: Formatter? = nil) {}
    public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T) {}
    public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T, specifier: String) {}
    public mutating func appendInterpolation<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatInput: Equatable, F.FormatOutput == String {}
    public mutating func appendInterpolation(_ text: Text) {}
    public mutating func appendInterpolation(_ image: Image) {}
  }
}

/// The numbers `LocalizedStringKey` interpolates with a format specifier.
public protocol _FormatSpecifiable: Equatable {}
extension Int: _FormatSpecifiable {}
extension Int8: _FormatSpecifiable {}
extension Int16: _FormatSpecifiable {}
extension Int32: _FormatSpecifiable {}
extension Int64: _FormatSpecifiable {}
extension UInt: _FormatSpecifiable {}
extension UInt8: _FormatSpecifiable {}
extension UInt16: _FormatSpecifiable {}
extension UInt32: _FormatSpecifiable {}
extension UInt64: _FormatSpecifiable {}
extension Float: _FormatSpecifiable {}
extension Double: _FormatSpecifiable {}
extension CGFloat: _FormatSpecifiable {}

public struct Text: Equatable, Sendable {
  public init(verbatim content: String) {}
  public init<S: StringProtocol>(_ content: S) {}
  public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatInput: Equatable, F.FormatOutput == String {}
  public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {}
  public func font(_ font: Font?) -> Text { fatalError() }
  public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text { fatalError() }
  public func bold() -> Text { fatalError() }
  public func italic() -> Text { fatalError() }
  public func monospacedDigit() -> Text { fatalError() }
  public static func + (lhs: Text, rhs: Text) -> Text { fatalError() }
}

public struct Font: Hashable, Sendable {
  public enum TextStyle: CaseIterable, Hashable, Sendable {
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
  }
  public enum Design: Hashable, Sendable {
    case `default`, serif, rounded, monospaced
  }
  public struct Weight: Hashable, Sendable {
    public static let thin = Weight()
    public static let light = Weight()
    public static let regular = Weight()
    public static let medium = Weight()
    public static let semibold = Weight()
    public static let bold = Weight()
    public static let heavy = Weight()
    public static let black = Weight()
  }

  public static let largeTitle = Font()
  public static let title = Font()
  public static let title2 = Font()
  public static let title3 = Font()
  public static let headline = Font()
  public static let subheadline = Font()
  public static let body = Font()
  public static let footnote = Font()
  public static let caption = Font()
  public static let caption2 = Font()

  public static func system(size: CGFloat, weight: Font.Weight? = nil, design: Font.Design? = nil) -> Font { fatalError() }
  public static func system(_ style: Font.TextStyle, design: Font.Design? = nil, weight: Font.Weight? = nil) -> Font { fatalError() }
  public func weight(_ weight: Font.Weight) -> Font { fatalError() }
  public func bold() -> Font { fatalError() }
  public func italic() -> Font { fatalError() }
  public func monospacedDigit() -> Font { fatalError() }
  public func monospaced() -> Font { fatalError() }
}

public struct Image: Equatable, Sendable {
  public init(systemName: String) {}
  public init(_ name: String, bundle: Bundle? = nil) {}
  public enum ResizingMode: Sendable { case tile, stretch }
  public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: Image.ResizingMode = .stretch) -> Image { fatalError() }
}

public struct EdgeInsets: Equatable, Sendable {
  public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat
  public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) { fatalError() }
  public init() { fatalError() }
}

public enum AsyncImagePhase: Sendable {
  case empty
  case success(Image)
  case failure(any Error)
  public var image: Image? { fatalError() }
  public var error: (any Error)? { fatalError() }
}

public struct AsyncImage<Content: View> {
  public init(url: URL?, scale: CGFloat = 1) where Content == Image {}
  public init(url: URL?, scale: CGFloat = 1, transaction: Transaction = Transaction(), @ViewBuilder content: @escaping (AsyncImagePhase) -> Content) {}
  public init<I: View, P: View>(url: URL?, scale: CGFloat = 1, @ViewBuilder content: @escaping (Image) -> I, @ViewBuilder placeholder: @escaping () -> P) where Content == _ConditionalContent<I, P> {}
}

// MARK: - Layout containers

public struct HStack<Content: View> {
  public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}
public struct VStack<Content: View> {
  public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}
public struct ZStack<Content: View> {
  public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {}
}
public struct LazyVStack<Content: View> {
  public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content) {}
}
public struct PinnedScrollableViews: OptionSet, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
}

public struct GridItem: Sendable {
  public enum Size: Sendable {
    case fixed(CGFloat)
    case flexible(minimum: CGFloat = 10, maximum: CGFloat = .infinity)
    case adaptive(minimum: CGFloat, maximum: CGFloat = .infinity)
  }
  public var size: GridItem.Size
  public var spacing: CGFloat?
  public var alignment: Alignment?
  public init(_ size: GridItem.Size = .flexible(), spacing: CGFloat? = nil, alignment: Alignment? = nil) { fatalError() }
}
public struct LazyVGrid<Content: View> {
  public init(columns: [GridItem], alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content) {}
}
public struct Grid<Content: View> {
  public init(alignment: Alignment = .center, horizontalSpacing: CGFloat? = nil, verticalSpacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}
public struct GridRow<Content: View> {
  public init(alignment: VerticalAlignment? = nil, @ViewBuilder content: () -> Content) {}
}

public struct Spacer {
  public init(minLength: CGFloat? = nil) {}
}
public struct Divider {
  public init() {}
}

public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
  public var data: Data
  public var content: (Data.Element) -> Content
}
extension ForEach: View where Content: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
  public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) { fatalError() }
}
extension ForEach where ID == Data.Element.ID, Content: View, Data.Element: Identifiable {
  public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) { fatalError() }
}
extension ForEach where Data == Range<Int>, ID == Int, Content: View {
  public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) { fatalError() }
}

// A project's task list draws its headings as sections of a list (CompletionKitUI/Projects/ProjectTaskList.swift).
public struct List<SelectionValue: Hashable, Content: View> {
  public init(@ViewBuilder content: () -> Content) where SelectionValue == Never {}
}
public struct Section<Parent, Content, Footer> {}
extension Section: View where Parent: View, Content: View, Footer: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
}
extension Section where Parent: View, Content: View, Footer == EmptyView {
  public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) { fatalError() }
}
extension Section where Parent == EmptyView, Content: View, Footer == EmptyView {
  public init(@ViewBuilder content: () -> Content) { fatalError() }
}

public struct GeometryReader<Content: View> {
  public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {}
}

public struct ScrollView<Content: View> {
  public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {}
}
public struct ScrollIndicatorVisibility: Equatable, Sendable {
  public static let automatic = ScrollIndicatorVisibility()
  public static let visible = ScrollIndicatorVisibility()
  public static let hidden = ScrollIndicatorVisibility()
  public static let never = ScrollIndicatorVisibility()
}

// MARK: - Timelines and drawing

public protocol TimelineSchedule {}
public struct AnimationTimelineSchedule: TimelineSchedule, Sendable {
  public init(minimumInterval: Double? = nil, paused: Bool = false) {}
}
extension TimelineSchedule where Self == AnimationTimelineSchedule {
  public static var animation: AnimationTimelineSchedule { fatalError() }
  public static func animation(minimumInterval: Double? = nil, paused: Bool = false) -> AnimationTimelineSchedule { fatalError() }
}

public struct TimelineViewDefaultContext {
  public enum Cadence: Comparable, Sendable { case live, seconds, minutes }
  public let date: Date
  public let cadence: Cadence
}

public struct TimelineView<Schedule: TimelineSchedule, Content> {
  public typealias Context = TimelineViewDefaultContext
}
extension TimelineView: View where Content: View {
  public typealias Body = Never
  public var body: Never { fatalError() }
  public init(_ schedule: Schedule, @ViewBuilder content: @escaping (TimelineViewDefaultContext) -> Content) { fatalError() }
}

public struct Canvas<Symbols: View> {
  public init(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear, rendersAsynchronously: Bool = false, renderer: @escaping (inout GraphicsContext, CGSize) -> Void) where Symbols == EmptyView {}
}
public enum ColorRenderingMode: Equatable, Hashable, Sendable {
  case nonLinear, linear, extendedLinear
}

public struct GraphicsContext {
  public var opacity: Double
  public var transform: CGAffineTransform
  public struct Shading: Sendable {
    public static func color(_ color: Color) -> Shading { fatalError() }
  }
  public mutating func translateBy(x: CGFloat, y: CGFloat) {}
  public mutating func rotate(by angle: Angle) {}
  public func fill(_ path: Path, with shading: GraphicsContext.Shading, style: FillStyle = FillStyle()) {}
  public func stroke(_ path: Path, with shading: GraphicsContext.Shading, style: StrokeStyle) {}
  public func stroke(_ path: Path, with shading: GraphicsContext.Shading, lineWidth: CGFloat = 1) {}
}

// MARK: - Controls

public struct ButtonRole: Equatable, Sendable {
  public static let destructive = ButtonRole()
  public static let cancel = ButtonRole()
}

public struct Button<Label: View> {
  public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
  public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
}
extension Button where Label == Text {
  public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
  @_disfavoredOverload
  public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
  public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
  @_disfavoredOverload
  public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
}
extension Button where Label == SwiftUI.Label<Text, Image> {
  public init(_ titleKey: LocalizedStringKey, systemImage: String, action: @escaping @MainActor () -> Void) {}
  @_disfavoredOverload
  public init<S: StringProtocol>(_ title: S, systemImage: String, action: @escaping @MainActor () -> Void) {}
}

public struct Label<Title: View, Icon: View> {
  public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {}
}
extension Label where Title == Text, Icon == Image {
  public init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
  @_disfavoredOverload
  public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
}

public struct Toggle<Label: View> {
  public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {}
}
extension Toggle where Label == Text {
  public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
  @_disfavoredOverload
  public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
}

public struct Slider<Label: View, ValueLabel: View> {}
extension Slider where Label == EmptyView, ValueLabel == EmptyView {
  public init<V: BinaryFloatingPoint>(
    value: Binding<V>, in bounds: ClosedRange<V> = 0...1, step: V.Stride = 1, onEditingChanged: @escaping (Bool) -> Void = { _ in }
  ) where V.Stride: BinaryFloatingPoint {}
  public init<V: BinaryFloatingPoint>(
    value: Binding<V>, in bounds: ClosedRange<V> = 0...1, onEditingChanged: @escaping (Bool) -> Void = { _ in }
  ) where V.Stride: BinaryFloatingPoint {}
}

public struct Picker<Label: View, SelectionValue: Hashable, Content: View> {
  public init(selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) {}
}
extension Picker where Label == Text {
  public init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
  @_disfavoredOverload
  public init<S: StringProtocol>(_ title: S, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
}

public struct TextField<Label: View> {}
extension TextField where Label == Text {
  public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
  @_disfavoredOverload
  public init<S: StringProtocol>(_ title: S, text: Binding<String>) {}
  public init(_ titleKey: LocalizedStringKey, text: Binding<String>, prompt: Text?) {}
}

public struct ProgressView<Label: View, CurrentValueLabel: View> {}
extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
  public init() {}
  public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {}
}

// MARK: - Styles

public struct ButtonStyleConfiguration {
  public struct Label: _PrimitiveView {}
  public let role: ButtonRole?
  public let label: ButtonStyleConfiguration.Label
  public let isPressed: Bool
}
public protocol ButtonStyle {
  associatedtype Body: View
  typealias Configuration = ButtonStyleConfiguration
  @ViewBuilder @MainActor @preconcurrency func makeBody(configuration: Self.Configuration) -> Self.Body
}
public struct PrimitiveButtonStyleConfiguration {
  public struct Label: _PrimitiveView {}
  public let role: ButtonRole?
  public let label: PrimitiveButtonStyleConfiguration.Label
  public func trigger() {}
}
public protocol PrimitiveButtonStyle {
  associatedtype Body: View
  typealias Configuration = PrimitiveButtonStyleConfiguration
  @ViewBuilder @MainActor @preconcurrency func makeBody(configuration: Self.Configuration) -> Self.Body
}
public struct PlainButtonStyle: PrimitiveButtonStyle {
  public init() {}
  public func makeBody(configuration: Configuration) -> _StubView { _StubView() }
}
public struct BorderedButtonStyle: PrimitiveButtonStyle {
  public init() {}
  public func makeBody(configuration: Configuration) -> _StubView { _StubView() }
}
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {
  public init() {}
  public func makeBody(configuration: Configuration) -> _StubView { _StubView() }
}
extension PrimitiveButtonStyle where Self == PlainButtonStyle {
  public static var plain: PlainButtonStyle { fatalError() }
}
extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
  public static var bordered: BorderedButtonStyle { fatalError() }
}
extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
  public static var borderedProminent: BorderedProminentButtonStyle { fatalError() }
}

public protocol TextFieldStyle {}
public struct RoundedBorderTextFieldStyle: TextFieldStyle {
  public init() {}
}
extension TextFieldStyle where Self == RoundedBorderTextFieldStyle {
  public static var roundedBorder: RoundedBorderTextFieldStyle { fatalError() }
}

public protocol PickerStyle {}
public struct SegmentedPickerStyle: PickerStyle {
  public init() {}
}
extension PickerStyle where Self == SegmentedPickerStyle {
  public static var segmented: SegmentedPickerStyle { fatalError() }
}

public struct TextInputAutocapitalization: Sendable {
  public static var never: TextInputAutocapitalization { fatalError() }
}

// MARK: - Keys, gestures, accessibility

public struct KeyEquivalent: Equatable, Hashable, Sendable {
  public var character: Character
  public init(_ character: Character) { self.character = character }
  public static let leftArrow = KeyEquivalent("\u{F702}")
  public static let rightArrow = KeyEquivalent("\u{F703}")
}

public struct KeyPress: Sendable {
  public enum Result: Sendable { case handled, ignored }
  public struct Phases: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let down = Phases(rawValue: 1)
    public static let `repeat` = Phases(rawValue: 2)
    public static let up = Phases(rawValue: 4)
    public static let all = Phases(rawValue: 7)
  }
  public var phase: KeyPress.Phases
  public var key: KeyEquivalent
  public var characters: String
}

public protocol Gesture<Value> {
  associatedtype Value
}
public struct _ChangedGesture<Content: Gesture>: Gesture {
  public typealias Value = Content.Value
}
public struct _EndedGesture<Content: Gesture>: Gesture {
  public typealias Value = Content.Value
}
extension Gesture where Value: Equatable {
  public func onChanged(_ action: @escaping (Self.Value) -> Void) -> _ChangedGesture<Self> { fatalError() }
}
extension Gesture {
  public func onEnded(_ action: @escaping (Self.Value) -> Void) -> _EndedGesture<Self> { fatalError() }
}
public struct DragGesture: Gesture {
  public struct Value: Equatable, Sendable {
    public var time: Date
    public var location: CGPoint
    public var startLocation: CGPoint
    public var translation: CGSize
    public var velocity: CGSize
    public var predictedEndLocation: CGPoint
    public var predictedEndTranslation: CGSize
  }
  public var minimumDistance: CGFloat
  public init(minimumDistance: CGFloat = 10, coordinateSpace: some CoordinateSpaceProtocol = .local) { fatalError() }
}
public struct GestureMask: OptionSet, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  public static let all = GestureMask(rawValue: 3)
}

public struct AccessibilityChildBehavior: Hashable, Sendable {
  public static let ignore = AccessibilityChildBehavior()
  public static let contain = AccessibilityChildBehavior()
  public static let combine = AccessibilityChildBehavior()
}
public struct AccessibilityTraits: SetAlgebra, Sendable {
  public init() {}
  public static let isHeader = AccessibilityTraits()
  public static let isSelected = AccessibilityTraits()
  public static let isModal = AccessibilityTraits()
  public static let updatesFrequently = AccessibilityTraits()
  public static let allowsDirectInteraction = AccessibilityTraits()
  public typealias Element = AccessibilityTraits
  public func contains(_ member: AccessibilityTraits) -> Bool { fatalError() }
  public func union(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
  public func intersection(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
  public func symmetricDifference(_ other: AccessibilityTraits) -> AccessibilityTraits { fatalError() }
  public mutating func insert(_ newMember: AccessibilityTraits) -> (inserted: Bool, memberAfterInsert: AccessibilityTraits) { fatalError() }
  public mutating func remove(_ member: AccessibilityTraits) -> AccessibilityTraits? { fatalError() }
  public mutating func update(with newMember: AccessibilityTraits) -> AccessibilityTraits? { fatalError() }
  public mutating func formUnion(_ other: AccessibilityTraits) {}
  public mutating func formIntersection(_ other: AccessibilityTraits) {}
  public mutating func formSymmetricDifference(_ other: AccessibilityTraits) {}
}
public struct AccessibilityActionKind: Equatable, Sendable {
  private init() {}
  public static let `default` = AccessibilityActionKind()
  public init(named name: Text) {}
}

// MARK: - Keyframes

public protocol Keyframes<Value> {
  associatedtype Value = Self.Body.Value
  associatedtype Body: Keyframes
}
public protocol KeyframeTrackContent<Value> {
  associatedtype Value: Animatable = Self.Body.Value
  associatedtype Body: KeyframeTrackContent
}
public struct KeyframeTrack<Root, Value: Animatable, Content: KeyframeTrackContent>: Keyframes where Value == Content.Value {
  public typealias Body = KeyframeTrack<Root, Value, Content>
  public init(@KeyframeTrackContentBuilder<Root> content: () -> Content) where Root == Value {}
  public init(_ keyPath: WritableKeyPath<Root, Value>, @KeyframeTrackContentBuilder<Value> content: () -> Content) {}
}
public struct CubicKeyframe<Value: Animatable>: KeyframeTrackContent {
  public typealias Body = CubicKeyframe<Value>
  public init(_ to: Value, duration: TimeInterval, startVelocity: Value? = nil, endVelocity: Value? = nil) {}
}
public struct MoveKeyframe<Value: Animatable>: KeyframeTrackContent {
  public typealias Body = MoveKeyframe<Value>
  public init(_ to: Value) {}
}
/// SwiftUI's own spring (the reason `CompletionCore.Spring` is spelled out in full in the layer).
public struct Spring: Hashable, Sendable {
  public init(response: Double = 0.5, dampingRatio: Double = 1) {}
}
extension Double: Animatable {
  public var animatableData: Double {
    get { self }
    set { self = newValue }
  }
}
extension CGFloat: Animatable {
  public var animatableData: CGFloat {
    get { self }
    set { self = newValue }
  }
}
extension Float: Animatable {
  public var animatableData: Float {
    get { self }
    set { self = newValue }
  }
}

@resultBuilder public struct KeyframeTrackContentBuilder<Value: Animatable> {
  public static func buildExpression<K: KeyframeTrackContent>(_ expression: K) -> K where Value == K.Value { expression }
  public static func buildArray(_ components: [some KeyframeTrackContent<Value>]) -> some KeyframeTrackContent<Value> { _Keyframe<Value>() }
  public static func buildPartialBlock<K: KeyframeTrackContent<Value>>(first: K) -> K { first }
  public static func buildPartialBlock(accumulated: some KeyframeTrackContent<Value>, next: some KeyframeTrackContent<Value>) -> some KeyframeTrackContent<Value> {
    _Keyframe<Value>()
  }
}
/// What the stub's keyframe builders return where SwiftUI returns opaque keyframes.
public struct _Keyframe<Value: Animatable>: KeyframeTrackContent, Keyframes {
  public typealias Body = _Keyframe<Value>
  public init() {}
}

@resultBuilder public struct KeyframesBuilder<Value> {
  public static func buildExpression<K: Keyframes>(_ expression: K) -> K where Value == K.Value { expression }
  public static func buildPartialBlock<K: Keyframes<Value>>(first: K) -> K { first }
  public static func buildBlock<K: Keyframes<Value>>(_ k: K) -> K { k }
}

public struct PlaceholderContentView<Value> {}

// View conformances in extensions, as SwiftUI declares them: members of the types stay nonisolated.
extension Text: _PrimitiveView {}
extension Image: _PrimitiveView {}
extension AsyncImage: _PrimitiveView {}
extension HStack: _PrimitiveView {}
extension VStack: _PrimitiveView {}
extension ZStack: _PrimitiveView {}
extension LazyVStack: _PrimitiveView {}
extension LazyVGrid: _PrimitiveView {}
extension Grid: _PrimitiveView {}
extension GridRow: _PrimitiveView {}
extension Spacer: _PrimitiveView {}
extension Divider: _PrimitiveView {}
extension GeometryReader: _PrimitiveView {}
extension ScrollView: _PrimitiveView {}
extension List: _PrimitiveView {}
extension Canvas: _PrimitiveView {}
extension Button: _PrimitiveView {}
extension Label: _PrimitiveView {}
extension Toggle: _PrimitiveView {}
extension Slider: _PrimitiveView {}
extension Picker: _PrimitiveView {}
extension TextField: _PrimitiveView {}
extension ProgressView: _PrimitiveView {}
extension PlaceholderContentView: _PrimitiveView {}
