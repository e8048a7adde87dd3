import Foundation

/// Why a pasted link was not accepted.
public enum YouTubeLinkError: Error, Hashable, Sendable {
  case invalid

  /// What the parent dashboard shows.
  public var message: String { ScreenText.invalidYouTubeLink.rawValue }
}

/// A YouTube video named by a link a parent pasted. Accepted forms: `youtube.com/watch?v=ID`,
/// `youtu.be/ID` and `youtube.com/embed/ID` (with or without `https://`, `www.` or `m.`, extra query
/// items allowed). The ID is exactly 11 characters of `A–Z a–z 0–9 _ -`. Anything else is refused.
public struct YouTubeLink: Hashable, Sendable, Codable {
  /// Length of every video ID.
  public static let idLength = 11

  /// The 11-character video ID.
  public let videoID: String

  /// Parses `text`, or throws ``YouTubeLinkError/invalid``.
  public init(parsing text: String) throws(YouTubeLinkError) {
    guard let id = Self.videoID(in: text) else { throw .invalid }
    videoID = id
  }

  /// Parses `text` into a result (for callers that prefer values to throws).
  public static func parse(_ text: String) -> Result<YouTubeLink, YouTubeLinkError> {
    Result { () throws(YouTubeLinkError) in try YouTubeLink(parsing: text) }
  }

  /// The link in its canonical form.
  public var watchURL: String { "https://www.youtube.com/watch?v=\(videoID)" }
  /// The player address without YouTube's own controls and suggestions.
  public var embedURL: String { Self.embedURL(id: videoID) }

  /// The player address for the video with `id`: no controls, no related videos, no keyboard seeking; the
  /// player API on, so the page can stop the film whenever the clock stops.
  public static func embedURL(id: String) -> String {
    "https://www.youtube-nocookie.com/embed/\(id)?controls=0&rel=0&disablekb=1&modestbranding=1&playsinline=1&autoplay=1&enablejsapi=1"
  }
  /// YouTube's still image for the video (the 80×45 and 200×112 thumbnails scale it).
  public var thumbnailURL: String { Self.thumbnailURL(id: videoID) }

  /// Where YouTube's still images come from (the one image origin the site's Content-Security-Policy allows
  /// besides its own).
  public static let thumbnailOrigin = "https://i.ytimg.com"

  /// YouTube's still image for the video with `id`.
  public static func thumbnailURL(id: String) -> String { "\(thumbnailOrigin)/vi/\(id)/mqdefault.jpg" }

  /// Whether `id` has the shape of a video ID.
  public static func isValidID(_ id: some StringProtocol) -> Bool {
    id.count == idLength
      && id.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_" || scalar == "-")
      }
  }

  private static let watchHosts: Set<String> = ["youtube.com", "www.youtube.com", "m.youtube.com"]
  private static let shortHosts: Set<String> = ["youtu.be", "www.youtu.be"]
  private static let embedHosts: Set<String> = watchHosts.union(["youtube-nocookie.com", "www.youtube-nocookie.com"])

  private static func videoID(in text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty, !trimmed.contains(where: \.isWhitespace) else { return nil }
    let lower = trimmed.lowercased()
    let withScheme = lower.hasPrefix("http://") || lower.hasPrefix("https://") ? trimmed : "https://" + trimmed
    guard let components = URLComponents(string: withScheme),
      let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
      let host = components.host?.lowercased(),
      components.user == nil, components.password == nil
    else { return nil }
    let parts = components.path.split(separator: "/", omittingEmptySubsequences: true)
    let candidate: Substring?
    if shortHosts.contains(host), parts.count == 1 {
      candidate = parts[0]
    } else if watchHosts.contains(host), parts == ["watch"] {
      let value = components.queryItems?.first { $0.name == "v" }?.value
      candidate = value.map { Substring($0) }
    } else if embedHosts.contains(host), parts.count == 2, parts[0] == "embed" {
      candidate = parts[1]
    } else {
      candidate = nil
    }
    guard let candidate, isValidID(candidate) else { return nil }
    return String(candidate)
  }
}
