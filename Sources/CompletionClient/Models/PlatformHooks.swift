import Foundation

/// Whether the app is in front of the person (SwiftUI's scene phase, without importing SwiftUI).
public enum AppPhase: String, Sendable, Hashable {
  case active, inactive, background
}

/// A buzz the device can give.
public enum Haptic: String, Sendable, Hashable {
  case light, medium, heavy, success, warning
}

/// Plays haptics (UIKit's feedback generators on a phone; nothing elsewhere).
@MainActor
public protocol HapticsPlaying: AnyObject {
  func play(_ haptic: Haptic)
}

/// Wraps a change of model state in the platform's animation (SwiftUI's `withAnimation`), or runs it plainly.
@MainActor
public protocol StateAnimating: AnyObject {
  func animate(_ change: () -> Void)
}

/// No buzz, no animation: the default on Linux, in tests and on the command line.
@MainActor
public final class PlainPlatform: HapticsPlaying, StateAnimating {
  /// Every haptic asked for, in order (tests read it).
  public private(set) var played: [Haptic] = []

  public init() {}

  public func play(_ haptic: Haptic) { played.append(haptic) }

  public func animate(_ change: () -> Void) { change() }
}
