// NOT UIKit: the few UIKit declarations `Sources/CompletionKitUI` uses outside `#if os(iOS)`, with Apple's
// signatures and no behaviour (see ../README.md). Code under `#if os(iOS)` is not type-checked on Linux.

@_exported import Foundation

/// UIKit's accessibility settings.
@MainActor public enum UIAccessibility {
  public static var isReduceMotionEnabled: Bool { fatalError() }
}

/// The system pasteboard.
open class UIPasteboard: NSObject, @unchecked Sendable {
  open class var general: UIPasteboard { fatalError() }
  open var string: String? {
    get { fatalError() }
    set {}
  }
}
