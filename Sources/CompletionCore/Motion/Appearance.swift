/// What an animated element looks like at one instant: the properties every client can render.
public struct Appearance: Hashable, Sendable, Codable {
  public var opacity: Double
  public var offsetX: Double
  public var offsetY: Double
  public var scale: Double

  public init(opacity: Double = 1, offsetX: Double = 0, offsetY: Double = 0, scale: Double = 1) {
    self.opacity = opacity
    self.offsetX = offsetX
    self.offsetY = offsetY
    self.scale = scale
  }

  /// Fully shown, in place.
  public static let identity = Appearance()
  /// Where staggered list items enter from: transparent, 20 points low, 95 % size.
  public static let staggerHidden = Appearance(opacity: 0, offsetY: 20, scale: 0.95)
  /// Where choreographed elements enter from: transparent, 15 points low, 98 % size.
  public static let choreographedHidden = Appearance(opacity: 0, offsetY: 15, scale: 0.98)
  /// Transparent but unmoved: the start of a cross-fade.
  public static let transparent = Appearance(opacity: 0)

  /// Interpolates from `self` to `target` by `progress` (a spring may pass 1; opacity is clamped).
  @inlinable
  public func interpolated(to target: Appearance, progress p: Double) -> Appearance {
    Appearance(
      opacity: min(max(opacity + (target.opacity - opacity) * p, 0), 1),
      offsetX: offsetX + (target.offsetX - offsetX) * p,
      offsetY: offsetY + (target.offsetY - offsetY) * p,
      scale: scale + (target.scale - scale) * p
    )
  }

  /// The same appearance without movement or scaling: what reduced motion keeps.
  public var withoutMovement: Appearance { Appearance(opacity: opacity) }
}
