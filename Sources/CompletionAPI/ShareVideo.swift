/// `POST`/`GET …/video`: where a share video stands. A client starts it, shows `progress` while it is made, and
/// fetches `videoPath` once `state` is `ready`.
public struct ShareVideoView: Codable, Hashable, Sendable {
  /// `none` (never asked for), `queued`, `rendering`, `ready` or `failed` (asking again tries again).
  public let state: String
  /// 0…1 while rendering; 1 when ready.
  public let progress: Double
  /// The MP4, relative to the site, once ready.
  public let videoPath: String?
  /// The file name a download should get, e.g. `perfect-pancakes.mp4`.
  public let fileName: String
  /// The video's length in seconds.
  public let seconds: Double

  public init(state: String, progress: Double, videoPath: String?, fileName: String, seconds: Double) {
    self.state = state
    self.progress = progress
    self.videoPath = videoPath
    self.fileName = fileName
    self.seconds = seconds
  }
}
