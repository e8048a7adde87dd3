import FluentSQL
import Foundation
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

/// How much one account may keep uploaded: videos (files on disk) and challenge photos (in the database)
/// count together, by number and by bytes. Checked on every upload, which is rare, so it is measured then
/// rather than kept.
enum UploadQuota {
  /// The files and bytes `userID` has stored.
  static func usage(of userID: UUID, options: ServerOptions, on db: any Database, threadPool: NIOThreadPool) async throws -> (files: Int, bytes: Int) {
    guard let sql = db as? any SQLDatabase else { preconditionFailure("CompletionKit runs on SQL databases only") }
    struct Row: Decodable {
      let files: Int
      let bytes: Int?
    }
    let photos = try await sql.raw(
      """
      SELECT COUNT(*) AS files, SUM(LENGTH(full_jpeg) + LENGTH(thumbnail_jpeg)) AS bytes FROM challenge_photos WHERE user_id = \(bind: userID)
      """
    ).first(decoding: Row.self)
    let folder = KidsController.uploadFolder(of: userID, in: options)
    let videos: (files: Int, bytes: Int) = try await threadPool.runIfActive {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      var bytes = 0
      for name in names {
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
        bytes += (attributes?[.size] as? Int) ?? 0
      }
      return (names.count, bytes)
    }
    return (videos.files + (photos?.files ?? 0), videos.bytes + (photos?.bytes ?? 0))
  }

  /// Refuses when one more file would pass the count, or the account has no bytes left; returns the bytes left.
  static func bytesLeft(for userID: UUID, req: Request) async throws -> Int {
    let options = req.application.serverOptions
    let used = try await usage(of: userID, options: options, on: req.db, threadPool: req.application.threadPool)
    guard used.files < options.uploadQuotaFiles else {
      throw UploadQuotaError(options)
    }
    let left = options.uploadQuotaBytes - used.bytes
    guard left > 0 else { throw UploadQuotaError(options) }
    return left
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
    "You have reached the upload limit of \(files) files and \(bytes >> 20) MB. Remove a video you no longer need, then try again."
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
