import Foundation

/// Ignores a tap that comes too soon after the last accepted one, so a double tap counts once.
/// Times are the caller's timestamps; nothing here reads a clock.
public struct TapDebounce: Hashable, Sendable, Codable {
  /// Taps closer together than this are one tap.
  public static let interval = 0.3

  /// When the last counted tap came.
  public private(set) var lastAcceptedAt: Date?

  /// No tap yet: the first one always counts.
  public init() {}

  /// Whether a tap at `date` counts; if it does, it becomes the new reference.
  public mutating func accept(at date: Date) -> Bool {
    guard wouldAccept(at: date) else { return false }
    lastAcceptedAt = date
    return true
  }

  /// Whether a tap at `date` would count, without recording it.
  public func wouldAccept(at date: Date) -> Bool {
    guard let lastAcceptedAt else { return true }
    // Compared in whole milliseconds: `Date` arithmetic turns an exact 300 ms into 299.99… ms.
    let milliseconds = (date.timeIntervalSince(lastAcceptedAt) * 1000).rounded()
    return milliseconds >= Self.interval * 1000
  }
}
