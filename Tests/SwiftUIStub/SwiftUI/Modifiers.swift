// NOT SwiftUI: the stub's view modifiers, with SwiftUI's labels, types and defaults (see ../README.md).

extension View {
  // MARK: Navigation

  nonisolated public func navigationTitle(_ title: Text) -> some View { _StubView() }
  nonisolated public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { _StubView() }
  @_disfavoredOverload
  nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { _StubView() }

  // MARK: Layout

  nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View { _StubView() }
  nonisolated public func frame(
    minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
    idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
  ) -> some View { _StubView() }
  nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { _StubView() }
  nonisolated public func padding(_ length: CGFloat) -> some View { _StubView() }
  nonisolated public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { _StubView() }
  nonisolated public func position(_ position: CGPoint) -> some View { _StubView() }
  nonisolated public func position(x: CGFloat = 0, y: CGFloat = 0) -> some View { _StubView() }
  nonisolated public func fixedSize() -> some View { _StubView() }
  nonisolated public func fixedSize(horizontal: Bool, vertical: Bool) -> some View { _StubView() }
  nonisolated public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> some View { _StubView() }
  nonisolated public func scaledToFill() -> some View { _StubView() }
  nonisolated public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> some View { _StubView() }
  nonisolated public func hidden() -> some View { _StubView() }
  nonisolated public func id<ID: Hashable>(_ id: ID) -> some View { _StubView() }

  // MARK: Text and colour

  nonisolated public func font(_ font: Font?) -> some View { _StubView() }
  nonisolated public func fontDesign(_ design: Font.Design?) -> some View { _StubView() }
  nonisolated public func bold(_ isActive: Bool = true) -> some View { _StubView() }
  nonisolated public func monospacedDigit() -> some View { _StubView() }
  nonisolated public func lineLimit(_ number: Int?) -> some View { _StubView() }
  nonisolated public func lineLimit(_ limit: Int, reservesSpace: Bool) -> some View { _StubView() }
  nonisolated public func minimumScaleFactor(_ factor: CGFloat) -> some View { _StubView() }
  nonisolated public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { _StubView() }
  nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { _StubView() }
  nonisolated public func tint<S: ShapeStyle>(_ tint: S?) -> some View { _StubView() }

  // MARK: Backgrounds, overlays, clipping

  nonisolated public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { _StubView() }
  nonisolated public func background<S: ShapeStyle>(_ style: S, ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View { _StubView() }
  nonisolated public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> some View { _StubView() }
  nonisolated public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View { _StubView() }
  nonisolated public func overlay<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> some View { _StubView() }
  nonisolated public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View { _StubView() }
  nonisolated public func clipped(antialiased: Bool = false) -> some View { _StubView() }
  nonisolated public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> some View { _StubView() }
  nonisolated public func shadow(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> some View { _StubView() }

  // MARK: Effects

  nonisolated public func opacity(_ opacity: Double) -> some View { _StubView() }
  nonisolated public func scaleEffect(_ s: CGFloat, anchor: UnitPoint = .center) -> some View { _StubView() }
  nonisolated public func scaleEffect(x: CGFloat = 1.0, y: CGFloat = 1.0, anchor: UnitPoint = .center) -> some View { _StubView() }
  nonisolated public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> some View { _StubView() }
  nonisolated public func rotation3DEffect(
    _ angle: Angle, axis: (x: CGFloat, y: CGFloat, z: CGFloat), anchor: UnitPoint = .center, anchorZ: CGFloat = 0,
    perspective: CGFloat = 1
  ) -> some View { _StubView() }
  nonisolated public func blur(radius: CGFloat, opaque: Bool = false) -> some View { _StubView() }
  nonisolated public func saturation(_ amount: Double) -> some View { _StubView() }

  // MARK: Animation

  nonisolated public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View { _StubView() }
  nonisolated public func transition(_ t: AnyTransition) -> some View { _StubView() }
  nonisolated public func transaction(_ transform: @escaping (inout Transaction) -> Void) -> some View { _StubView() }
  nonisolated public func keyframeAnimator<Value>(
    initialValue: Value, trigger: some Equatable,
    @ViewBuilder content: @escaping @Sendable (PlaceholderContentView<Self>, Value) -> some View,
    @KeyframesBuilder<Value> keyframes: @escaping (Value) -> some Keyframes<Value>
  ) -> some View { _StubView() }
  nonisolated public func keyframeAnimator<Value>(
    initialValue: Value, repeating: Bool = true,
    @ViewBuilder content: @escaping @Sendable (PlaceholderContentView<Self>, Value) -> some View,
    @KeyframesBuilder<Value> keyframes: @escaping (Value) -> some Keyframes<Value>
  ) -> some View { _StubView() }

  // MARK: Events and lifecycle

  nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { _StubView() }
  nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { _StubView() }
  nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void) -> some View {
    _StubView()
  }
  nonisolated public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void) -> some View { _StubView() }
  nonisolated public func task(priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void) -> some View {
    _StubView()
  }
  nonisolated public func task<T: Equatable>(id value: T, priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void) -> some View {
    _StubView()
  }
  nonisolated public func onOpenURL(perform action: @escaping (URL) -> ()) -> some View { _StubView() }
  nonisolated public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> some View { _StubView() }
  nonisolated public func gesture<T: Gesture>(_ gesture: T, including mask: GestureMask = .all) -> some View { _StubView() }
  nonisolated public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping () -> Void) -> some View { _StubView() }
  nonisolated public func onKeyPress(_ key: KeyEquivalent, action: @escaping () -> KeyPress.Result) -> some View { _StubView() }
  nonisolated public func onKeyPress(
    characters: CharacterSet, phases: KeyPress.Phases = [.down, .repeat], action: @escaping (KeyPress) -> KeyPress.Result
  ) -> some View { _StubView() }

  // MARK: Interaction, focus, controls

  nonisolated public func disabled(_ disabled: Bool) -> some View { _StubView() }
  nonisolated public func allowsHitTesting(_ enabled: Bool) -> some View { _StubView() }
  nonisolated public func focusable(_ isFocusable: Bool = true) -> some View { _StubView() }
  nonisolated public func focused(_ condition: FocusState<Bool>.Binding) -> some View { _StubView() }
  nonisolated public func focused<Value: Hashable>(_ binding: FocusState<Value>.Binding, equals value: Value) -> some View { _StubView() }
  nonisolated public func focusEffectDisabled(_ disabled: Bool = true) -> some View { _StubView() }
  nonisolated public func buttonStyle<S: ButtonStyle>(_ style: S) -> some View { _StubView() }
  nonisolated public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { _StubView() }
  nonisolated public func textFieldStyle<S: TextFieldStyle>(_ style: S) -> some View { _StubView() }
  nonisolated public func pickerStyle<S: PickerStyle>(_ style: S) -> some View { _StubView() }
  nonisolated public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View { _StubView() }
  nonisolated public func autocorrectionDisabled(_ disable: Bool = true) -> some View { _StubView() }
  nonisolated public func scrollIndicators(_ visibility: ScrollIndicatorVisibility, axes: Axis.Set = [.vertical, .horizontal]) -> some View { _StubView() }
  nonisolated public func tag<V: Hashable>(_ tag: V) -> some View { _StubView() }
  nonisolated public func confirmationDialog<A: View, M: View>(
    _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
    @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M
  ) -> some View { _StubView() }
  @_disfavoredOverload
  nonisolated public func confirmationDialog<S: StringProtocol, A: View, M: View>(
    _ title: S, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
    @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M
  ) -> some View { _StubView() }
  nonisolated public func confirmationDialog<A: View>(
    _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
    @ViewBuilder actions: () -> A
  ) -> some View { _StubView() }
  @_disfavoredOverload
  nonisolated public func confirmationDialog<S: StringProtocol, A: View>(
    _ title: S, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
    @ViewBuilder actions: () -> A
  ) -> some View { _StubView() }
  @_disfavoredOverload
  nonisolated public func confirmationDialog<S: StringProtocol, A: View, M: View, T>(
    _ title: S, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic, presenting data: T?,
    @ViewBuilder actions: (T) -> A, @ViewBuilder message: (T) -> M
  ) -> some View { _StubView() }
  nonisolated public func confirmationDialog<A: View, M: View, T>(
    _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic, presenting data: T?,
    @ViewBuilder actions: (T) -> A, @ViewBuilder message: (T) -> M
  ) -> some View { _StubView() }
  @_disfavoredOverload
  nonisolated public func confirmationDialog<S: StringProtocol, A: View, T>(
    _ title: S, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic, presenting data: T?,
    @ViewBuilder actions: (T) -> A
  ) -> some View { _StubView() }

  // MARK: Accessibility

  nonisolated public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { _StubView() }
  nonisolated public func accessibilityLabel(_ label: Text) -> some View { _StubView() }
  nonisolated public func accessibilityLabel(_ labelKey: LocalizedStringKey) -> some View { _StubView() }
  @_disfavoredOverload
  nonisolated public func accessibilityLabel<S: StringProtocol>(_ label: S) -> some View { _StubView() }
  nonisolated public func accessibilityValue(_ valueDescription: Text) -> some View { _StubView() }
  nonisolated public func accessibilityValue(_ valueKey: LocalizedStringKey) -> some View { _StubView() }
  @_disfavoredOverload
  nonisolated public func accessibilityValue<S: StringProtocol>(_ value: S) -> some View { _StubView() }
  nonisolated public func accessibilityHidden(_ hidden: Bool) -> some View { _StubView() }
  nonisolated public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { _StubView() }
  nonisolated public func accessibilityAction(_ actionKind: AccessibilityActionKind = .default, _ handler: @escaping () -> Void) -> some View { _StubView() }
  nonisolated public func accessibilityAction(named name: Text, _ handler: @escaping () -> Void) -> some View { _StubView() }
  nonisolated public func accessibilityAction(named nameKey: LocalizedStringKey, _ handler: @escaping () -> Void) -> some View { _StubView() }
}

public struct SubmitTriggers: OptionSet, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }
  public static let text = SubmitTriggers(rawValue: 1)
  public static let search = SubmitTriggers(rawValue: 2)
}

// MARK: - Layout protocol

public struct ProposedViewSize: Equatable, Sendable {
  public var width: CGFloat?
  public var height: CGFloat?
  public init(width: CGFloat?, height: CGFloat?) { fatalError() }
  public init(_ size: CGSize) { fatalError() }
  public static let zero = ProposedViewSize(width: 0, height: 0)
  public static let unspecified = ProposedViewSize(width: nil, height: nil)
}

public struct ViewDimensions: Equatable {
  public var width: CGFloat { fatalError() }
  public var height: CGFloat { fatalError() }
}

public struct LayoutSubview: Equatable {
  nonisolated public func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize { fatalError() }
  nonisolated public func dimensions(in proposal: ProposedViewSize) -> ViewDimensions { fatalError() }
  nonisolated public func place(at position: CGPoint, anchor: UnitPoint = .topLeading, proposal: ProposedViewSize) {}
}

public struct LayoutSubviews: Equatable, RandomAccessCollection {
  public typealias Element = LayoutSubview
  public typealias Index = Int
  public var startIndex: Int { fatalError() }
  public var endIndex: Int { fatalError() }
  public subscript(index: Int) -> LayoutSubview { fatalError() }
}

/// A container's own arrangement of its subviews (`SwiftUI.Layout`).
public protocol Layout: Animatable {
  associatedtype Cache = Void
  typealias Subviews = LayoutSubviews
  func sizeThatFits(proposal: ProposedViewSize, subviews: Self.Subviews, cache: inout Self.Cache) -> CGSize
  func placeSubviews(in bounds: CGRect, proposal: ProposedViewSize, subviews: Self.Subviews, cache: inout Self.Cache)
  func makeCache(subviews: Self.Subviews) -> Self.Cache
}
extension Layout where Cache == () {
  nonisolated public func makeCache(subviews: Self.Subviews) -> Self.Cache { () }
}
extension Layout {
  nonisolated public func callAsFunction<V: View>(@ViewBuilder _ content: () -> V) -> some View { _StubView() }
}

public struct EmptyAnimatableData: VectorArithmetic {
  public init() {}
  public static var zero: EmptyAnimatableData { fatalError() }
  public static func + (lhs: EmptyAnimatableData, rhs: EmptyAnimatableData) -> EmptyAnimatableData { fatalError() }
  public static func - (lhs: EmptyAnimatableData, rhs: EmptyAnimatableData) -> EmptyAnimatableData { fatalError() }
  public mutating func scale(by rhs: Double) {}
  public var magnitudeSquared: Double { fatalError() }
}

// MARK: - Previews

/// `#Preview`: its body is type-checked as an argument; the stub's macro plugin (`PreviewsMacros`, built by
/// `typecheck.sh`) expands it to nothing.
@freestanding(declaration)
public macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) =
  #externalMacro(module: "PreviewsMacros", type: "PreviewMacro")
