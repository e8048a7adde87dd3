/// How long the cryptogram's own moments last on screen, in one place for every client (the web page sets its
/// CSS animation from the effect that carries it; the Swift client schedules with it).
public enum CryptogramTiming {
  /// A wrong letter is shown in the error colour, then cleared after half a second (the original game's 0.5 s).
  public static let mistakeFlashSeconds = 0.5
}
