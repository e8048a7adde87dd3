import Foundation

/// Reads the time-zone names clients send ("Europe/Berlin"). The one parser every route uses.
public enum TimeZoneName {
  /// The zone named `identifier`; UTC when nothing was sent; nil for a name no one knows.
  public static func parse(_ identifier: String?) -> TimeZone? {
    guard let identifier, !identifier.isEmpty else { return .gmt }
    guard identifier.count <= 64 else { return nil }
    return TimeZone(identifier: identifier)
  }
}
