/// The loading screen's timing: a calm fake progress bar (one step per 50 ms, full after 5 s), then the
/// narrator, then player selection 2 s later. A child never sees it for less than the seed's 2–3 s.
public enum LoadingScreen {
  /// Progress steps per second (one per 50 ms).
  public static let stepsPerSecond = 20.0
  /// When the bar reaches 100 %.
  public static let fullAfter = 5.0
  /// The pause between 100 % and player selection.
  public static let handOffDelay = 2.0
  /// When the machine moves on to player selection.
  public static var handOffAfter: Double { fullAfter + handOffDelay }
  /// The seed's minimum display time (always met: the hand-off comes later).
  public static let minimumDisplay = 2.0

  /// The bar's value after `elapsed` seconds, 0…100.
  public static func progress(elapsed: Double) -> Int {
    guard elapsed.isFinite, elapsed > 0 else { return 0 }
    return Int(min(100, (elapsed * stepsPerSecond).rounded(.down)))
  }
}
