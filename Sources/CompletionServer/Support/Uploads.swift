import FluentSQL
import Foundation
import Synchronization
import Vapor

/// What a file's first bytes show it to be, so an upload is judged by its content and not by its name or
/// declared type: an HTML page named `film.mp4` is refused.
enum VideoContainer: String, Sendable, CaseIterable {
  /// ISO base media (MP4, and QuickTime's MOV): a `ftyp` box, then a known top-level box.
  case isoMedia
  /// WebM or Matroska: an EBML header naming its document type.
  case matroska
  /// Ogg: pages that begin `OggS`.
  case ogg

  /// How many leading bytes ``detect(_:)`` wants (fewer are fine for a shorter file).
  static let headLength = 4096

  /// Top-level ISO boxes that may follow `ftyp`; anything else there (say, `<htm`) is not a video.
  private static let isoBoxes: Set<String> = [
    "moov", "mdat", "free", "skip", "wide", "uuid", "pdin", "moof", "sidx", "meta", "styp", "prft", "emsg", "mfra", "ssix", "pnot", "junk",
  ]

  /// The container `head` starts with, or nil when it is not one of the three.
  static func detect(_ head: [UInt8]) -> VideoContainer? {
    if head.count >= 16, Array(head[4..<8]) == Array("ftyp".utf8) {
      let size = Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3])
      guard (16...1024).contains(size), size % 4 == 0 else { return nil }
      // The box after `ftyp` must be a real one when the head reaches it.
      guard head.count >= size + 8 else { return nil }
      let next = String(decoding: head[(size + 4)..<(size + 8)], as: UTF8.self)
      return isoBoxes.contains(next) ? .isoMedia : nil
    }
    if head.count >= 8, head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) {
      let header = head.prefix(64)
      let webm = Array("webm".utf8), matroska = Array("matroska".utf8)
      let names = { (word: [UInt8]) in header.indices.contains { header[$0...].starts(with: word) } }
      return names(webm) || names(matroska) ? .matroska : nil
    }
    // An Ogg page: capture pattern, version 0, and a header-type byte that only uses its three flags.
    if head.count >= 27, head.starts(with: Array("OggS".utf8)), head[4] == 0, head[5] & 0xF8 == 0 { return .ogg }
    return nil
  }

  /// Whether a file of this container may be served as the declared video subtype (`mp4`, `webm` …).
  func matches(subType: String) -> Bool {
    switch self {
    case .isoMedia: subType == "mp4" || subType == "quicktime"
    case .matroska: subType == "webm"
    case .ogg: subType == "ogg"
    }
  }
}

/// Headers on everything a person uploaded, when it is served back: its own type and no sniffing, named as a
/// file, and a policy that runs nothing should a browser ever open it as a page.
enum UploadedFileHeaders {
  static let contentSecurityPolicy = "default-src 'none'; media-src 'self'; img-src 'self'; sandbox"

  static func apply(to headers: inout HTTPHeaders, fileName: String, inline: Bool) {
    headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
    headers.replaceOrAdd(name: "Content-Security-Policy", value: contentSecurityPolicy)
    headers.replaceOrAdd(name: "Content-Disposition", value: "\(inline ? "inline" : "attachment"); filename=\"\(fileName)\"")
  }
}

/// How much one account may keep uploaded: videos (files on disk, counted when the family's game lists them)
/// and challenge photos that no post shows yet (in the database) count together, by number and by bytes. A photo in
/// a completion belongs to the post and stops counting (it goes when the post is revoked or deleted), and a photo
/// never posted is removed after a day (``PhotoJanitor``), so a member who completes challenges every day never
/// reaches the limit. The photos' share is a kept counter (`upload_usage`), moved in the transactions that add, post
/// and remove photos, so it is read, not recounted. What is stored is measured when an upload starts and again
/// when it is stored; uploads still being written are held against the quota in between (``UploadLedger``), so
/// uploads running at once never pass it together.
enum UploadQuota {
  /// The files and bytes `userID` keeps. Only videos the family's game lists count: a file left behind
  /// by a crash (or a failed listing) is no one's and costs nothing.
  static func usage(of userID: UUID, options: ServerOptions, on db: any Database, threadPool: NIOThreadPool) async throws -> (files: Int, bytes: Int) {
    let photos = try await SQLChallengesStore(db).uploadUsage(of: userID)
    var listed = [String]()
    if let record = try await KidsGameRecord.load(userID, on: db), let machine = KidsController.machine(from: record) {
      listed = machine.data.settings.parentSettings.approvedVideos.filter { $0.source == .upload }.map(\.id)
    }
    let folder = KidsController.uploadFolder(of: userID, in: options)
    let videos: (files: Int, bytes: Int) = try await threadPool.runIfActive { [listed] in
      var bytes = 0
      for name in listed where !name.contains("/") {
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
        bytes += (attributes?[.size] as? Int) ?? 0
      }
      return (listed.count, bytes)
    }
    return (videos.files + photos.files, videos.bytes + photos.bytes)
  }

  /// Refuses when one more file would pass the count, or the account has no bytes left (counting uploads
  /// still being written); returns the bytes left. A quick check before a body is read; the upload itself is
  /// held to the quota by ``UploadLedger``.
  static func bytesLeft(for userID: UUID, req: Request) async throws -> Int {
    let options = req.application.serverOptions
    let used = try await usage(of: userID, options: options, on: req.db, threadPool: req.application.threadPool)
    let pending = try await req.application.services.uploads.pending(of: userID, except: nil, on: req.db)
    guard used.files + pending.files < options.uploadQuotaFiles else {
      throw UploadQuotaError(options)
    }
    let left = options.uploadQuotaBytes - used.bytes - pending.bytes
    guard left > 0 else { throw UploadQuotaError(options) }
    return left
  }
}

/// Uploads in flight, held against their account's quota from before their first byte is written until
/// they are stored (or given up). Reserving and storing run one at a time per account, each measuring what
/// is stored and adding what is held, so no two uploads can both take the last of a quota. On SQLite the holds
/// and turns are this process's; on PostgreSQL, which several server processes may share, the holds are rows of
/// `upload_holds` and an account's turn is an advisory lock, so uploads spread over processes hold the quota too.
final class UploadLedger: Sendable {
  /// One upload's place in its account's quota: one file and at most `bytes` bytes.
  struct Hold: Sendable {
    let id: UUID
    let userID: UUID
    let bytes: Int
  }

  /// The name an upload is written under until it is complete (swept at start-up when left by a crash).
  static let partialPrefix = ".partial-"
  /// A partial file untouched for this long is left over from a crash, not an upload in progress (another
  /// process sharing the data folder may be writing a younger one).
  static let abandonedAfter: TimeInterval = 10 * 60

  /// A hold left by a process that stopped mid-upload stops counting after this long (a live upload's own
  /// hold may lapse too: the check when it is stored still keeps the quota).
  static let sharedHoldLifetime: TimeInterval = 2 * 3600

  private let turns = SerialQueues()
  private let holds = Mutex<[UUID: [UUID: Int]]>([:])
  /// Holds and turns live in the database (PostgreSQL), shared by every server process.
  let shared: Bool

  init(shared: Bool = false) {
    self.shared = shared
  }

  /// The files and bytes held for `userID`'s uploads in flight, but `hold`'s own.
  func pending(of userID: UUID, except hold: UUID?, on db: any Database) async throws -> (files: Int, bytes: Int) {
    guard shared else {
      return holds.withLock { holds in
        let mine = (holds[userID] ?? [:]).filter { $0.key != hold }
        return (mine.count, mine.values.reduce(0, +))
      }
    }
    struct Row: Decodable {
      let files: Int
      let bytes: Int?
    }
    let row = try await db.sql.raw(
      """
      SELECT COUNT(*) AS files, CAST(COALESCE(SUM(bytes), 0) AS BIGINT) AS bytes FROM \(ident: UploadHolds.schema)
      WHERE user_id = \(bind: userID) AND expires_at > \(bind: Date()) AND id <> \(bind: hold ?? UUID())
      """
    ).first(decoding: Row.self)
    return (row?.files ?? 0, row?.bytes ?? 0)
  }

  /// Runs `body` in `userID`'s turn: this process's queue for the account, and on PostgreSQL also a transaction
  /// holding the account's advisory lock, so turns in other processes wait too. `body` gets the database to
  /// read the quota's figures on (the transaction's, on PostgreSQL).
  private func turn<T: Sendable>(
    _ userID: UUID, on db: any Database, _ body: @escaping @Sendable (any Database) async throws -> T
  ) async throws -> T {
    try await turns.run(userID) {
      guard self.shared else { return try await body(db) }
      return try await db.transaction { db in
        // Two 32-bit keys: a constant of the uploads' own ("UPLD"), so other advisory locks never meet it, and the account's hash.
        try await db.sql.raw("SELECT pg_advisory_xact_lock(1431321668, hashtext(\(bind: userID.uuidString)))").run()
        return try await body(db)
      }
    }
  }

  /// Holds a place for one upload of `bytes` (nil: not known yet, so whatever the quota has left, up to
  /// `limit`) before anything is written; throws ``UploadQuotaError`` when it does not fit.
  func reserve(userID: UUID, bytes: Int?, limit: Int, req: Request) async throws -> Hold {
    let options = req.application.serverOptions
    let db = req.db
    let threadPool = req.application.threadPool
    return try await turn(userID, on: db) { db in
      let used = try await UploadQuota.usage(of: userID, options: options, on: db, threadPool: threadPool)
      let pending = try await self.pending(of: userID, except: nil, on: db)
      let left = options.uploadQuotaBytes - used.bytes - pending.bytes
      guard used.files + pending.files < options.uploadQuotaFiles, left > 0, (bytes ?? 1) <= left else { throw UploadQuotaError(options) }
      let hold = Hold(id: UUID(), userID: userID, bytes: min(bytes ?? limit, left))
      if self.shared {
        let now = Date()
        try await db.sql.delete(from: UploadHolds.schema).where("expires_at", .lessThanOrEqual, SQLBind(now)).run()
        try await db.sql.insert(into: UploadHolds.schema).columns("id", "user_id", "bytes", "expires_at")
          .values(SQLBind(hold.id), SQLBind(userID), SQLBind(hold.bytes), SQLBind(now.addingTimeInterval(Self.sharedHoldLifetime))).run()
      } else {
        self.holds.withLock { $0[userID, default: [:]][hold.id] = hold.bytes }
      }
      return hold
    }
  }

  /// Stores an upload of `actual` bytes once it is complete: checks, in the account's turn, that it fits
  /// beside everything stored and every other upload in flight, runs `store` (which makes it count), and
  /// gives the hold back. Without a hold (a photo, received whole before anything is written) the check is
  /// the same.
  func settle<T: Sendable>(
    _ hold: Hold?, userID: UUID, actual: Int, req: Request, store: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    let options = req.application.serverOptions
    let db = req.db
    let threadPool = req.application.threadPool
    let check = { @Sendable (db: any Database) async throws in
      let used = try await UploadQuota.usage(of: userID, options: options, on: db, threadPool: threadPool)
      let others = try await self.pending(of: userID, except: hold?.id, on: db)
      guard used.files + others.files < options.uploadQuotaFiles, used.bytes + others.bytes + actual <= options.uploadQuotaBytes else {
        throw UploadQuotaError(options)
      }
    }
    guard shared else {
      defer { if let hold { releaseHere(hold) } }
      return try await turns.run(userID) {
        try await check(db)
        return try await store()
      }
    }
    // PostgreSQL: the check, and the hold set to the upload's real size, in one short turn; the store runs after
    // it (it needs database connections of its own, which the turn's transaction must not hold up), while the
    // hold still counts, so a turn in between sees it (for a moment both as stored and as held: never too little).
    let storing = try await turn(userID, on: db) { db in
      try await check(db)
      let storing = Hold(id: hold?.id ?? UUID(), userID: userID, bytes: actual)
      try await db.sql.raw(
        """
        INSERT INTO \(ident: UploadHolds.schema) (id, user_id, bytes, expires_at)
        VALUES (\(bind: storing.id), \(bind: userID), \(bind: actual), \(bind: Date().addingTimeInterval(Self.sharedHoldLifetime)))
        ON CONFLICT (id) DO UPDATE SET bytes = EXCLUDED.bytes, expires_at = EXCLUDED.expires_at
        """
      ).run()
      return storing
    }
    do {
      let result = try await store()
      await release(storing, on: db)
      return result
    } catch {
      await release(storing, on: db)
      throw error
    }
  }

  /// Gives a hold back (the upload was refused or stored). A hold that cannot be removed from the database
  /// lapses on its own (``sharedHoldLifetime``).
  func release(_ hold: Hold, on db: any Database) async {
    guard shared else { return releaseHere(hold) }
    try? await db.sql.delete(from: UploadHolds.schema).where("id", .equal, SQLBind(hold.id)).run()
  }

  private func releaseHere(_ hold: Hold) {
    holds.withLock { holds in
      holds[hold.userID]?[hold.id] = nil
      if holds[hold.userID]?.isEmpty == true { holds[hold.userID] = nil }
    }
  }

  /// Removes partial uploads a crash left behind in `uploads` (any account's folder); returns how many.
  @discardableResult
  static func sweep(_ uploads: URL, now: Date = Date()) -> Int {
    let manager = FileManager.default
    var removed = 0
    for area in (try? manager.contentsOfDirectory(atPath: uploads.path)) ?? [] {
      let areaURL = uploads.appendingPathComponent(area, isDirectory: true)
      for account in (try? manager.contentsOfDirectory(atPath: areaURL.path)) ?? [] {
        let folder = areaURL.appendingPathComponent(account, isDirectory: true)
        for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(partialPrefix) {
          let file = folder.appendingPathComponent(name)
          let modified = (try? manager.attributesOfItem(atPath: file.path)[.modificationDate] as? Date) ?? .distantPast
          guard now.timeIntervalSince(modified) >= abandonedAfter else { continue }
          if (try? manager.removeItem(at: file)) != nil { removed += 1 }
        }
      }
    }
    return removed
  }
}

/// Uploads in flight, held against their account's quota (used on PostgreSQL; the table exists on SQLite too,
/// empty).
struct UploadHolds: AsyncMigration {
  static let schema = "upload_holds"

  func prepare(on database: any Database) async throws {
    try await database.schema(Self.schema)
      .id()
      .field("user_id", .uuid, .required)
      .field("bytes", .int64, .required)
      .field("expires_at", .datetime, .required)
      .create()
    try await database.sql.create(index: "upload_holds_user").on(Self.schema).column("user_id").run()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(Self.schema).delete()
  }
}

/// Sweeps partial uploads left by a crash when the server starts.
struct UploadSweep: LifecycleHandler {
  func didBootAsync(_ application: Application) async throws {
    let uploads = application.serverOptions.uploadsDirectory
    let removed = try await application.threadPool.runIfActive { UploadLedger.sweep(uploads) }
    if removed > 0 { application.logger.info("removed \(removed) partial upload(s) left by an earlier stop") }
  }
}

/// An upload that would take an account past its quota.
struct UploadQuotaError: APIErrorConvertible {
  let files: Int
  let bytes: Int

  init(files: Int, bytes: Int) {
    self.files = files
    self.bytes = bytes
  }

  /// The refusal for the quota `options` set.
  init(_ options: ServerOptions) {
    self.init(files: options.uploadQuotaFiles, bytes: options.uploadQuotaBytes)
  }

  var status: HTTPResponseStatus { .forbidden }
  var code: String { "upload_quota_exceeded" }
  var message: String {
    "You have reached the upload limit of \(files) files and \(bytes >> 20) MB. Remove a video or an unused photo you no longer need, then try again."
  }
}

/// A streamed upload refused partway: the rest of its body is read and thrown away before the refusal is
/// answered. (Leaving it unread would stall the connection: the server stops reading a body its handler
/// gave up on, so the client's upload and any next request on that connection would hang.) A client that
/// keeps sending past ``drainLimit`` is given up on.
struct BodyRefusal {
  /// The most bytes read and thrown away after a refusal.
  static let drainLimit = 64 << 20

  private(set) var error: (any Error)?
  private var drained = 0
  /// The client sent more than ``drainLimit`` after the refusal.
  private(set) var gaveUp = false

  /// Records the refusal; later chunks are discarded.
  mutating func refuse(_ error: any Error) {
    if self.error == nil { self.error = error }
  }

  /// True when `chunk` was thrown away (an upload already refused); false when it is to be used, or when
  /// the drain limit is reached (then ``gaveUp`` is set and reading should stop).
  mutating func discard(_ chunk: ByteBuffer) -> Bool {
    guard error != nil, !gaveUp else { return false }
    drained += chunk.readableBytes
    if drained > Self.drainLimit {
      gaveUp = true
      return false
    }
    return true
  }

  /// Throws the refusal, if there was one.
  func rethrow() throws {
    if let error { throw error }
  }
}
