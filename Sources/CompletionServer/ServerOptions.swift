import Foundation

/// Everything `configure` needs to know about where it runs: database, data folder, web client.
public struct ServerOptions: Sendable {
  /// Which database backs the server.
  public enum Database: Sendable, Equatable {
    /// A SQLite file (WAL mode) at this path.
    case sqliteFile(path: String)
    /// A throwaway SQLite database: a temporary file, removed when the app shuts down (tests).
    case sqliteMemory
    /// PostgreSQL at this `postgres://` URL.
    case postgres(url: String)

    /// "sqlite" or "postgres", as `/health` reports it.
    public var kind: String {
      switch self {
      case .sqliteFile, .sqliteMemory: "sqlite"
      case .postgres: "postgres"
      }
    }
  }

  public var database: Database
  /// The folder holding the SQLite file and uploads.
  public var dataDirectory: URL
  /// The folder of the web client (HTML, CSS, JS).
  public var publicDirectory: URL
  /// Bcrypt cost; lower only in tests, where hashing speed matters more than strength.
  public var passwordCost: Int
  /// Mark session cookies `Secure` (set when served over HTTPS).
  public var secureCookies: Bool
  /// Largest request body accepted, in bytes.
  public var maxBodySize: Int
  /// Largest video file a parent may upload, in bytes.
  public var maxUploadSize: Int
  /// How SQLite writes reach the disk. The default (`full` with group commit) makes every acknowledged write
  /// survive a power cut; the others exist to measure what that costs (`completionkit-bench`).
  public var sqliteDurability: SQLiteDurability = .fullGroupCommit
  /// Largest challenge photo accepted, in bytes (before it is re-encoded).
  public var maxPhotoSize: Int = 12 << 20
  /// Reports that hide a challenge completion from feeds until an operator reviews it.
  public var reportThreshold: Int = 3
  /// Accounts with more followers than this are not copied into every follower's feed; their activities
  /// are merged in when a follower reads.
  public var fanOutLimit: Int = 10_000
  /// Whether this process copies posts waiting in the feed outbox into followers' feeds (``FeedFanOut``). Tests
  /// that share one database turn it off and copy when they choose; a server always copies.
  public var copiesFeedsInBackground = true
  /// Files (videos and photos together) one account may keep uploaded.
  public var uploadQuotaFiles: Int = 500
  /// Bytes one account may keep uploaded, videos and photos together.
  public var uploadQuotaBytes: Int = 2 << 30
  /// Seconds a connection may stay without a byte in either direction before the server closes it.
  public var idleTimeout: TimeInterval = 120
  /// Seconds between a live stream's heartbeats (`COMPLETIONKIT_LIVE_HEARTBEAT`): each keeps the connection open and
  /// ends the streams whose sign-in ended meanwhile (signed out, revoked on any server process, expired). Keep it
  /// well under ``idleTimeout``; tests shorten it.
  public var liveHeartbeat: TimeInterval = LivePages.heartbeatSeconds
  /// Seconds a connection has to send a request's head (its request line and headers) once it opens, or once the
  /// next request's first byte arrives; a connection that takes longer is closed (`408`), however many bytes it
  /// trickles in.
  public var requestHeadTimeout: TimeInterval = 10
  /// The server runs behind a reverse proxy that appends the visitor's address to `X-Forwarded-For`: per-address
  /// limits (sign-in attempts, new guests) use that address instead of the proxy's.
  public var trustProxy = false
  /// The address people reach this server at (`https://games.example.org`), for absolute links such as a shared
  /// daily's link preview; without it those links name the address the server listens on.
  public var publicURL: String?
  /// When set, `/metrics` answers only requests bearing this token.
  public var metricsToken: String?
  /// New guest accounts one client address may make per hour (0: no limit). A guest is made on a visitor's
  /// first write, never on a read.
  public var guestsPerAddressPerHour: Int = 60
  /// Comments one member may post per minute, as a burst that refills evenly (0: no limit); beyond it
  /// `429 too_many_comments` with `Retry-After`.
  public var commentsPerMinute: Int = 10
  /// Guests older than this who never saved anything are removed (`completionkit accounts prune`, and daily).
  public var guestIdleTime: TimeInterval = 30 * 86_400
  /// The FFmpeg that makes share videos (`COMPLETIONKIT_FFMPEG`); nil: `ffmpeg` on `PATH`. A path that is not an
  /// executable turns videos off (the server answers `video_unavailable`).
  public var ffmpegPath: String?
  /// Share videos encoded at once (`COMPLETIONKIT_VIDEO_ENCODES`): one per core by default.
  public var videoEncodes: Int = ProcessInfo.processInfo.activeProcessorCount
  /// Share videos that may wait for an encode before requests are refused with `busy`.
  public var videoWaitingLimit: Int = 8
  /// Where share videos are kept once made.
  public var videosDirectory: URL { dataDirectory.appendingPathComponent("videos", isDirectory: true) }
  /// Enables `POST /api/test/clock`, which moves the server's clock (browser tests of the video timer).
  /// Never set it on a server people use.
  public var testHooks: Bool

  public init(
    database: Database, dataDirectory: URL, publicDirectory: URL = ServerOptions.defaultPublicDirectory(),
    passwordCost: Int = 12, secureCookies: Bool = false, maxBodySize: Int = 1 << 20, maxUploadSize: Int = 500 << 20,
    testHooks: Bool = false
  ) {
    self.database = database
    self.dataDirectory = dataDirectory
    self.publicDirectory = publicDirectory
    self.passwordCost = passwordCost
    self.secureCookies = secureCookies
    self.maxBodySize = maxBodySize
    self.maxUploadSize = maxUploadSize
    self.testHooks = testHooks
  }

  /// SQLite's sync setting and whether waiting writes share a commit.
  public enum SQLiteDurability: String, Sendable, CaseIterable {
    /// `synchronous=FULL`, writes waiting together share one commit (the default).
    case fullGroupCommit = "full-group"
    /// `synchronous=FULL`, one commit per write.
    case fullSerial = "full"
    /// `synchronous=NORMAL` (WAL syncs at checkpoints only: a power cut can lose the last commits), one
    /// commit per write.
    case normalSerial = "normal"

    /// SQLite's `synchronous` setting for every connection that writes.
    var synchronous: String { self == .normalSerial ? "NORMAL" : "FULL" }
  }

  /// Where uploaded files live.
  public var uploadsDirectory: URL { dataDirectory.appendingPathComponent("uploads", isDirectory: true) }

  /// Reads the environment the way `completionkit serve` documents it:
  /// `DATABASE_URL` (postgres://…) switches to PostgreSQL; `COMPLETIONKIT_DATA` names the data folder.
  public static func fromEnvironment(
    dataDirectory explicitDataDirectory: String? = nil,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ServerOptions {
    let dataPath = explicitDataDirectory ?? environment["COMPLETIONKIT_DATA"] ?? ".completionkit"
    let dataDirectory = URL(fileURLWithPath: dataPath, isDirectory: true).standardizedFileURL
    let database: Database
    if let url = environment["DATABASE_URL"], !url.isEmpty {
      database = .postgres(url: url)
    } else {
      database = .sqliteFile(path: dataDirectory.appendingPathComponent("completionkit.sqlite").path)
    }
    var options = ServerOptions(database: database, dataDirectory: dataDirectory)
    if let publicPath = environment["COMPLETIONKIT_PUBLIC"], !publicPath.isEmpty {
      options.publicDirectory = URL(fileURLWithPath: publicPath, isDirectory: true)
    }
    options.secureCookies = environment["COMPLETIONKIT_SECURE_COOKIES"] == "1"
    if let megabytes = environment["COMPLETIONKIT_MAX_UPLOAD_MB"].flatMap(Int.init), megabytes > 0 {
      options.maxUploadSize = megabytes << 20
    }
    if let megabytes = environment["COMPLETIONKIT_MAX_PHOTO_MB"].flatMap(Int.init), megabytes > 0 {
      options.maxPhotoSize = megabytes << 20
    }
    if let reports = environment["COMPLETIONKIT_REPORT_THRESHOLD"].flatMap(Int.init), reports > 0 {
      options.reportThreshold = reports
    }
    if let limit = environment["COMPLETIONKIT_FANOUT_LIMIT"].flatMap(Int.init), limit >= 0 {
      options.fanOutLimit = limit
    }
    if let files = environment["COMPLETIONKIT_UPLOAD_QUOTA_FILES"].flatMap(Int.init), files > 0 {
      options.uploadQuotaFiles = files
    }
    if let megabytes = environment["COMPLETIONKIT_UPLOAD_QUOTA_MB"].flatMap(Int.init), megabytes > 0 {
      options.uploadQuotaBytes = megabytes << 20
    }
    options.trustProxy = environment["COMPLETIONKIT_TRUST_PROXY"] == "1"
    if let seconds = environment["COMPLETIONKIT_IDLE_TIMEOUT"].flatMap(Double.init), seconds >= 1 { options.idleTimeout = seconds }
    if let seconds = environment["COMPLETIONKIT_LIVE_HEARTBEAT"].flatMap(Double.init), seconds >= 0.1, seconds <= 60 {
      options.liveHeartbeat = seconds
    }
    if let seconds = environment["COMPLETIONKIT_HEAD_TIMEOUT"].flatMap(Double.init), seconds >= 1 { options.requestHeadTimeout = seconds }
    if let token = environment["COMPLETIONKIT_METRICS_TOKEN"], !token.isEmpty { options.metricsToken = token }
    options.publicURL = environment["COMPLETIONKIT_PUBLIC_URL"].flatMap(Self.publicURL)
    if let guests = environment["COMPLETIONKIT_GUESTS_PER_HOUR"].flatMap(Int.init), guests >= 0 {
      options.guestsPerAddressPerHour = guests
    }
    if let comments = environment["COMPLETIONKIT_COMMENTS_PER_MINUTE"].flatMap(Int.init), comments >= 0 {
      options.commentsPerMinute = comments
    }
    if let days = environment["COMPLETIONKIT_GUEST_IDLE_DAYS"].flatMap(Double.init), days > 0 {
      options.guestIdleTime = days * 86_400
    }
    if let ffmpeg = environment["COMPLETIONKIT_FFMPEG"], !ffmpeg.isEmpty { options.ffmpegPath = ffmpeg }
    if let encodes = environment["COMPLETIONKIT_VIDEO_ENCODES"].flatMap(Int.init), encodes > 0 { options.videoEncodes = encodes }
    options.testHooks = environment["COMPLETIONKIT_TEST_HOOKS"] == "1"
    return options
  }

  /// `Public/` in the working directory if there is one, else the one beside this package's sources.
  public static func defaultPublicDirectory() -> URL {
    let fileManager = FileManager.default
    let local = URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Public", isDirectory: true)
    if fileManager.fileExists(atPath: local.appendingPathComponent("index.html").path) { return local }
    // Sources/CompletionServer/ServerOptions.swift → package root.
    return URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Public", isDirectory: true)
  }
}

extension ServerOptions {
  /// `text` as a public address: http(s), a host, no query; the trailing slash dropped. Nil for anything else.
  static func publicURL(_ text: String) -> String? {
    guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
    else { return nil }
    var origin = url.absoluteString
    while origin.hasSuffix("/") { origin.removeLast() }
    return origin
  }
}
