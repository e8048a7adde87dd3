#if canImport(SwiftUI)
import SwiftUI
import CompletionCore

/// A lazy vertical list whose items cascade in, one after another, when it appears.
public struct AnimatedList<Data: RandomAccessCollection, Content: View>: View where Data.Element: Identifiable {
  private let data: Data
  private let config: StaggerConfig
  private let content: (Data.Element) -> Content

  @State private var isVisible = false

  /// Creates a list of `data`, staggered with `config`, each item drawn by `content`.
  public init(
    _ data: Data,
    config: StaggerConfig = .standard,
    @ViewBuilder content: @escaping (Data.Element) -> Content
  ) {
    self.data = data
    self.config = config
    self.content = content
  }

  /// The items in a `LazyVStack`, each staggered by its position.
  public var body: some View {
    LazyVStack(spacing: 12) {
      // Identity stays the element's id (not its position) so inserts and moves animate correctly;
      // the offset only feeds the stagger delay.
      ForEach(Array(data.enumerated()), id: \.element.id) { index, item in
        content(item)
          .staggeredAppearance(index: index, isVisible: isVisible, config: config)
      }
    }
    .onAppear {
      isVisible = true
    }
  }
}

/// A `ForEach` whose items cascade in whenever `isTriggered` becomes true (and hide when it turns false).
public struct StaggeredForEach<Data: RandomAccessCollection, Content: View>: View where Data.Element: Identifiable {
  private let data: Data
  private let config: StaggerConfig
  @Binding private var isTriggered: Bool
  private let content: (Data.Element) -> Content

  /// Creates the items of `data`, revealed with `config` when `isTriggered` is true, each drawn by `content`.
  public init(
    _ data: Data,
    isTriggered: Binding<Bool>,
    config: StaggerConfig = .standard,
    @ViewBuilder content: @escaping (Data.Element) -> Content
  ) {
    self.data = data
    self._isTriggered = isTriggered
    self.config = config
    self.content = content
  }

  /// The items, each staggered by its position; place it in any stack or list.
  public var body: some View {
    ForEach(Array(data.enumerated()), id: \.element.id) { index, item in
      content(item)
        .staggeredAppearance(index: index, isVisible: isTriggered, config: config)
    }
  }
}
#endif
