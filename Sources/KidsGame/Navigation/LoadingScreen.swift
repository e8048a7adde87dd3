/// The loading screen's timing (seed 001: shown for 2–3 s on every launch, "gives the child processing
/// time"): a calm fake progress bar (one step per 20 ms, full after 2 s), the narrator, then player
/// selection half a second later. (The original's bar took 5 s and the hand-off 2 s more, 7 s in all; the
/// seed's 2–3 s wins.)
public enum LoadingScreen {
  /// Progress steps per second (one per 20 ms).
  public static let stepsPerSecond = 50.0
  /// When the bar reaches 100 %.
  public static let fullAfter = 2.0
  /// The pause between 100 % and player selection.
  public static let handOffDelay = 0.5
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
