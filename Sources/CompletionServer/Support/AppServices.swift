import Cryptogram
import Foundation
import KidsGame
import Vapor

/// Everything the routes share, made once by `configure`: options, the clock, the sign-in cache, the one
/// game runner, the quote cache.
///
/// A class: requests read it several times each, and a struct of some thirty references would be copied out
/// of the application's storage (a retain and a release each) every time.
final class AppServices: Sendable {
  let options: ServerOptions
  /// This process, as the notices it writes for others name it (``LiveNoticeLog``).
  let processID = UUID().uuidString
  /// The time every server path uses (the test hook can move it).
  let clock: AppClock
  let sessions: SessionCache
  /// Delays after failed sign-ins, per username and client address.
  let loginThrottle: LoginThrottle
  /// What `/metrics` reports.
  let metrics: ServerMetrics
  /// New guest accounts per client address (``ServerOptions/guestsPerAddressPerHour``).
  let guestLimiter: RefillingBuckets
  /// Comments per member (``ServerOptions/commentsPerMinute``).
  let commentLimiter: RefillingBuckets
  /// This process's open HTTP connections, so a live stream ends when its connection closes.
  let connections = OpenConnections()
  /// Uploads being received, held against their account's quota.
  let uploads: UploadLedger
  /// Password hashing, a few at a time.
  let passwordWork: PasswordWork
  /// Load → handle → save for every per-game request.
  let runner: GameRunner
  let quotes: QuoteStore
  /// One cryptogram game creation at a time per person (two taps on "daily" make one game).
  let people: SerialQueues
  /// Live updates of projects to open pages.
  let projectsLive: ProjectsLive
  /// Live updates of feeds to open pages.
  let feedLive: FeedLive
  /// Copies bigger accounts' posts into their followers' feeds after the completion, a batch per write.
  let feedFanOut = FeedFanOut()
  /// Cryptogram games as last loaded or saved, so the next move need not read or decode its game again.
  let boards = DecodedStateCache<UUID, GameRecord, Board>(capacity: 4096)
  /// Cryptogram puzzles by quote and seed, so a move need not build its puzzle again.
  let puzzles = PuzzleCache(capacity: 4096)
  /// Families' games as last loaded or saved.
  let kidsGames = DecodedStateCache<UUID, KidsGameRecord, GameMachine>(capacity: 4096)
  /// Share videos, made in the background a few at a time and kept.
  let videos: VideoRenderQueue
  /// The FFmpeg that makes them; nil when none is installed.
  let videoEncoder: VideoEncoder?

  /// `sqlitePath` is the SQLite file the app uses (nil on PostgreSQL): group commit writes on a connection
  /// of its own to it.
  init(options: ServerOptions, sqlitePath: String?) {
    self.options = options
    clock = AppClock()
    sessions = SessionCache()
    metrics = ServerMetrics()
    guestLimiter = RefillingBuckets(capacity: options.guestsPerAddressPerHour, period: 3600)
    commentLimiter = RefillingBuckets(capacity: options.commentsPerMinute, period: 60)
    loginThrottle = LoginThrottle(shared: sqlitePath == nil)
    uploads = UploadLedger(shared: sqlitePath == nil)
    passwordWork = PasswordWork(cost: options.passwordCost)
    let writes: DatabaseWriteGate
    if let sqlitePath {
      let durability = options.sqliteDurability
      let writer = SQLiteWriter(path: sqlitePath, synchronous: durability.synchronous)
      writes = DatabaseWriteGate(mode: durability == .fullGroupCommit ? .groupCommit(writer) : .oneAtATime(writer), metrics: metrics)
    } else {
      writes = DatabaseWriteGate(mode: .concurrent, metrics: metrics)
    }
    runner = GameRunner(clock: clock, writes: writes)
    quotes = QuoteStore()
    people = SerialQueues()
    projectsLive = ProjectsLive(options: options)
    feedLive = FeedLive(options: options)
    videos = VideoRenderQueue(directory: options.videosDirectory, slots: options.videoEncodes, waitingLimit: options.videoWaitingLimit)
    videoEncoder = VideoEncoder.locate(configured: options.ffmpegPath)
  }
}

extension Application {
  private struct ServicesKey: StorageKey {
    typealias Value = AppServices
  }

  /// The shared services (set by `configure`).
  var services: AppServices {
    get {
      guard let services = storage[ServicesKey.self] else { preconditionFailure("configure(_:options:) must run before the app is used") }
      return services
    }
    set { storage[ServicesKey.self] = newValue }
  }

  /// The options the app was configured with.
  public var serverOptions: ServerOptions { services.options }

  /// SQLite commits so far and the writes they carried (nil on PostgreSQL), for benchmarks.
  public var groupCommitStats: (groups: Int, writes: Int)? { services.runner.writes.groupCommitStats }
}
