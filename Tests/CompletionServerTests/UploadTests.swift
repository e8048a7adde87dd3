import CompletionAPI
import FluentSQL
import Foundation
import Testing
import Vapor

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@testable import CompletionServer

@Suite("Uploads: content checked by its bytes, served safely, quotas, refusals that keep the connection")
struct UploadTests {
  static let html = Array("<!doctype html><script>alert(document.cookie)</script>".utf8)
  static let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#.utf8)
  /// A valid-looking `ftyp` box followed by a page instead of a movie.
  static let polyglot = Array(VideoBytes.mp4.prefix(24)) + html

  /// A family at the parent dashboard, where videos are uploaded.
  static func openParentArea(_ family: KidsAPITests.Family) async throws {
    try await family.launch()
    try await family.send("loadingTick") { $0.seconds = 7 }
    try await family.send("selectPlayer") { $0.player = "oliver" }
    try await family.toDashboard()
  }

  @Test("What a file is comes from its first bytes: MP4, WebM and Ogg pass; text, HTML, SVG and an MP4-headed page do not")
  func containerDetection() {
    #expect(VideoContainer.detect(VideoBytes.mp4) == .isoMedia)
    #expect(VideoContainer.detect(VideoBytes.webm) == .matroska)
    let ogg = Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 30)
    #expect(VideoContainer.detect(ogg) == .ogg)
    for bytes in [Array("fake video bytes!!".utf8), Self.html, Self.svg, Self.polyglot, Array(VideoBytes.mp4.prefix(24)), []] {
      #expect(VideoContainer.detect(bytes) == nil, "\(String(decoding: bytes, as: UTF8.self))")
    }
    #expect(VideoContainer.isoMedia.matches(subType: "mp4") && VideoContainer.isoMedia.matches(subType: "quicktime"))
    #expect(!VideoContainer.matroska.matches(subType: "mp4") && !VideoContainer.ogg.matches(subType: "webm"))
  }

  @Test("Text, HTML, SVG, a polyglot, a mislabelled WebM and a declared type with parameters or a list are refused; nothing is kept")
  func refusedUploads() async throws {
    try await withTestApp(options: KidsAPITests.options) { client, app in
      let family = KidsAPITests.Family(client: client)
      try await Self.openParentArea(family)
      let attempts: [(bytes: [UInt8], type: String)] = [
        (Array("fake video bytes!!".utf8), "video/mp4"), (Self.html, "video/mp4"), (Self.svg, "video/mp4"), (Self.polyglot, "video/mp4"),
        (VideoBytes.webm, "video/mp4"), (VideoBytes.mp4, "video/mp4; charset=utf-8"), (VideoBytes.mp4, "video/mp4, text/html"),
        (VideoBytes.mp4, "text/html"), (VideoBytes.mp4, "image/svg+xml"),
      ]
      for attempt in attempts {
        let refused = try await client.send(.POST, "/api/kids/videos?title=x", bytes: attempt.bytes, contentType: attempt.type)
        #expect(refused.status == .unsupportedMediaType, "\(attempt.type) \(attempt.bytes.count) bytes")
        #expect(try client.decode(APIErrorBody.self, from: refused).code == "unsupported_video_type")
      }
      #expect(try await family.state().dashboard?.videos.isEmpty == true)
      let me = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
      let folder = KidsController.uploadFolder(of: try #require(UUID(uuidString: me.id)), in: app.serverOptions)
      #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty)
      // The real thing is welcome.
      #expect(try await client.send(.POST, "/api/kids/videos?title=ok", bytes: VideoBytes.mp4, contentType: "video/mp4").status == .ok)
    }
  }

  @Test("Each account keeps at most its quota of files and bytes (videos and photos together), with a clear refusal")
  func quotas() async throws {
    var options = KidsAPITests.options
    options.uploadQuotaFiles = 2
    try await withTestApp(options: options) { client, app in
      let family = KidsAPITests.Family(client: client)
      try await Self.openParentArea(family)
      #expect(try await client.send(.POST, "/api/kids/videos?title=a", bytes: VideoBytes.mp4, contentType: "video/mp4").status == .ok)
      #expect(try await client.send(.POST, "/api/photos", bytes: ChallengesAPITests.gpsPhoto, contentType: "image/jpeg").status == .created)
      for (path, bytes, type) in [
        ("/api/kids/videos?title=b", VideoBytes.webm, "video/webm"), ("/api/photos", ChallengesAPITests.gpsPhoto, "image/jpeg"),
      ] {
        let full = try await client.send(.POST, path, bytes: bytes, contentType: type)
        #expect(full.status == .forbidden, "\(path)")
        let error = try client.decode(APIErrorBody.self, from: full)
        #expect(error.code == "upload_quota_exceeded" && error.message.contains("2 files"))
      }
      #expect(try await family.state().dashboard?.videos.count == 1)
      // Another account has its own quota.
      let other = KidsAPITests.Family(client: client.stranger())
      try await Self.openParentArea(other)
      #expect(try await other.client.send(.POST, "/api/kids/videos?title=c", bytes: VideoBytes.mp4, contentType: "video/mp4").status == .ok)
    }
    options.uploadQuotaFiles = 100
    options.uploadQuotaBytes = VideoBytes.mp4.count + 10
    try await withTestApp(options: options) { client, _ in
      let family = KidsAPITests.Family(client: client)
      try await Self.openParentArea(family)
      #expect(try await client.send(.POST, "/api/kids/videos?title=a", bytes: VideoBytes.mp4, contentType: "video/mp4").status == .ok)
      let full = try await client.send(.POST, "/api/kids/videos?title=b", bytes: VideoBytes.mp4, contentType: "video/mp4")
      #expect(try client.decode(APIErrorBody.self, from: full).code == "upload_quota_exceeded")
    }
  }

  /// An MP4 of about `bytes` bytes (a real header, then an empty payload).
  static func video(bytes: Int) -> [UInt8] { VideoBytes.mp4 + [UInt8](repeating: 0, count: max(0, bytes - VideoBytes.mp4.count)) }

  @Test("Uploads sent at once never pass the quota together: 10 photos against 5 files, 6 videos of 0.9 MB against 3 MB")
  func concurrentUploadsHoldTheQuota() async throws {
    var options = KidsAPITests.options
    options.uploadQuotaFiles = 5
    options.uploadQuotaBytes = 3 << 20
    options.maxUploadSize = 2 << 20
    try await withTestApp(options: options) { client, app in
      let family = KidsAPITests.Family(client: client)
      try await Self.openParentArea(family)
      let me = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
      let userID = try #require(UUID(uuidString: me.id))
      let photos = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for _ in 0..<10 {
          group.addTask { try await client.send(.POST, "/api/photos", bytes: ChallengesAPITests.gpsPhoto, contentType: "image/jpeg").status }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(photos.allSatisfy { $0 == .created || $0 == .forbidden }, "\(photos)")
      let used = try await UploadQuota.usage(of: userID, options: app.serverOptions, on: app.db, threadPool: app.threadPool)
      #expect(used.files <= 5 && photos.filter { $0 == .created }.count == used.files)
      #expect(photos.filter { $0 == .created }.count == 5, "the quota's files are all usable")
    }
    options.uploadQuotaFiles = 100
    try await withTestApp(options: options) { client, app in
      let family = KidsAPITests.Family(client: client)
      try await Self.openParentArea(family)
      let me = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
      let userID = try #require(UUID(uuidString: me.id))
      let video = Self.video(bytes: 900 << 10)
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for index in 0..<6 {
          group.addTask { try await client.send(.POST, "/api/kids/videos?title=v\(index)", bytes: video, contentType: "video/mp4").status }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.allSatisfy { $0 == .ok || $0 == .forbidden }, "\(statuses)")
      let used = try await UploadQuota.usage(of: userID, options: app.serverOptions, on: app.db, threadPool: app.threadPool)
      #expect(used.bytes <= 3 << 20, "\(used.bytes) bytes stored")
      #expect(statuses.filter { $0 == .ok }.count == used.files && used.files >= 1)
      #expect(try await family.state().dashboard?.videos.count == used.files)
      // Nothing is left on disk but the listed videos.
      let folder = KidsController.uploadFolder(of: userID, in: app.serverOptions)
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == used.files)
    }
  }

  @Test(
    "On PostgreSQL an upload's hold counts in every server process: another process refuses what would pass the quota beside it",
    .enabled(if: ProcessInfo.processInfo.environment["DATABASE_URL"]?.isEmpty == false))
  func quotaHeldAcrossProcesses() async throws {
    var options = KidsAPITests.options
    options.uploadQuotaBytes = 3 << 20
    options.maxUploadSize = 2 << 20
    // Two apps on one database and one data folder: two server processes.
    try await withTestApp(options: options) { client, app in
      try await withTestApp(options: options) { second, _ in
        let family = KidsAPITests.Family(client: client)
        try await Self.openParentArea(family)
        let me = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
        let userID = try #require(UUID(uuidString: me.id))
        let there = TestClient(app: second.app, base: second.base, address: client.address)
        there.sessionCookie = client.sessionCookie
        // The first process receives a 2 MB video, slowly: its head and first bytes, then nothing for now.
        let big = Self.video(bytes: 2 << 20)
        let slow = try RawHTTPConnection(port: try #require(URL(string: client.base)?.port))
        let head =
          "POST /api/kids/videos?title=big HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: video/mp4\r\nContent-Length: \(big.count)\r\n"
          + "Cookie: ck_session=\(try #require(client.sessionCookie))\r\nX-CompletionKit: 1\r\nX-Forwarded-For: \(client.address)\r\n\r\n"
        try await slow.sendBytes(Array(head.utf8) + big.prefix(64 << 10))
        // Wait until its hold is taken (in the shared table), then ask the second process for 1.5 MB more.
        let sql = app.db.sql
        struct Count: Decodable { let n: Int }
        var held = 0
        for _ in 0..<400 where held == 0 {
          held = try await sql.raw("SELECT COUNT(*) AS n FROM upload_holds WHERE user_id = \(bind: userID)").first(decoding: Count.self)?.n ?? 0
          if held == 0 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(held == 1, "the first upload's hold is in the shared table")
        let refused = try await there.send(.POST, "/api/kids/videos?title=more", bytes: Self.video(bytes: 1536 << 10), contentType: "video/mp4")
        #expect(refused.status == .forbidden, "the second process let 2 + 1.5 MB pass a 3 MB quota")
        #expect((try? there.decode(APIErrorBody.self, from: refused))?.code == "upload_quota_exceeded")
        // The first upload completes, and what fits still fits in the other process.
        let answer = try await slow.sendBytesAndRead(Array(big.dropFirst(64 << 10)))
        #expect(answer.status == 200, "\(answer.body)")
        #expect(try await there.send(.POST, "/api/kids/videos?title=small", bytes: Self.video(bytes: 512 << 10), contentType: "video/mp4").status == .ok)
        let used = try await UploadQuota.usage(of: userID, options: app.serverOptions, on: app.db, threadPool: app.threadPool)
        #expect(used.files == 2 && used.bytes <= 3 << 20)
        let left = try await sql.raw("SELECT COUNT(*) AS n FROM upload_holds WHERE user_id = \(bind: userID)").first(decoding: Count.self)?.n
        #expect(left == 0, "every hold is given back")
      }
    }
  }

  @Test("A partial upload left by a crash is swept at start-up (a young one, still being written, is not); an unlisted file costs no quota")
  func partialUploadsAreSwept() async throws {
    var options = KidsAPITests.options
    options.uploadQuotaBytes = 3 << 20
    options.maxUploadSize = 2 << 20
    let folder = options.uploadsDirectory.appendingPathComponent("kids/\(UUID().uuidString.lowercased())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let abandoned = folder.appendingPathComponent(UploadLedger.partialPrefix + "upload-old.mp4")
    let young = folder.appendingPathComponent(UploadLedger.partialPrefix + "upload-young.mp4")
    for file in [abandoned, young] { #expect(FileManager.default.createFile(atPath: file.path, contents: Data(count: 1000))) }
    try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: abandoned.path)
    try await withTestApp(options: options) { client, app in
      #expect(!FileManager.default.fileExists(atPath: abandoned.path))
      #expect(FileManager.default.fileExists(atPath: young.path))
      let family = KidsAPITests.Family(client: client)
      try await Self.openParentArea(family)
      let me = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
      let mine = KidsController.uploadFolder(of: try #require(UUID(uuidString: me.id)), in: app.serverOptions)
      try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
      // 2.5 MB nobody lists (a crash after writing, before listing): the 0.9 MB video below still fits in 3 MB.
      #expect(FileManager.default.createFile(atPath: mine.appendingPathComponent("upload-orphan.mp4").path, contents: Data(count: 2_500 << 10)))
      let stored = try await client.send(.POST, "/api/kids/videos?title=fits", bytes: Self.video(bytes: 900 << 10), contentType: "video/mp4")
      #expect(stored.status == .ok)
    }
  }

  @Test("A stored photo is served as a JPEG file with a sandboxing policy")
  func photoHeaders() async throws {
    try await withTestApp { client in
      let photo = try await ChallengesAPITests.upload(client)
      let stored = try await client.send(.GET, photo.url)
      #expect(stored.headers.first(name: "Content-Security-Policy") == UploadedFileHeaders.contentSecurityPolicy)
      #expect(stored.headers.first(name: "Content-Disposition") == "inline; filename=\"photo.jpg\"")
      #expect(stored.headers.first(name: "X-Content-Type-Options") == "nosniff")
    }
  }

  @Test("An upload refused partway (too large, not a video, a photo too big) is answered, and its connection serves the next request")
  func refusalKeepsTheConnection() async throws {
    try await withTestApp(options: KidsAPITests.options) { client, _ in
      let family = KidsAPITests.Family(client: client)
      try await Self.openParentArea(family)
      let cookie = try #require(client.sessionCookie)
      let port = try #require(URL(string: client.base)?.port)
      let connection = try RawHTTPConnection(port: port)
      // Chunked, so the server cannot refuse from a declared length: it finds out while reading.
      let tooLarge = VideoBytes.mp4 + [UInt8](repeating: 0x55, count: 4 << 20)
      let notVideo = Self.html + [UInt8](repeating: 0x20, count: 4 << 20)
      for (body, type, status) in [(tooLarge, "video/mp4", 413), (notVideo, "video/mp4", 415)] {
        let answer = try await connection.exchange(
          "POST /api/kids/videos?title=x HTTP/1.1", headers: ["Cookie": "ck_session=\(cookie)", "Content-Type": type, "X-CompletionKit": "1"],
          chunkedBody: body)
        #expect(answer.status == status)
        let next = try await connection.exchange("GET /health HTTP/1.1", headers: [:], chunkedBody: nil)
        #expect(next.status == 200 && next.body.contains("\"ok\""))
      }
      let bigPhoto = [UInt8](repeating: 0xFF, count: (12 << 20) + 4096)
      let photo = try await connection.exchange(
        "POST /api/photos HTTP/1.1", headers: ["Cookie": "ck_session=\(cookie)", "Content-Type": "image/jpeg"], chunkedBody: bigPhoto)
      #expect(photo.status == 413)
      #expect(try await connection.exchange("GET /health HTTP/1.1", headers: [:], chunkedBody: nil).status == 200)
    }
  }
}

extension UploadTests {
  @Test("Many chunked uploads at once, half of them refused partway: each is answered, every connection serves the next request")
  func concurrentStreamedUploads() async throws {
    var options = KidsAPITests.options
    options.maxUploadSize = 512 * 1024
    options.uploadQuotaFiles = 1_000
    options.uploadQuotaBytes = 1 << 30
    try await withTestApp(options: options) { client, _ in
      let family = KidsAPITests.Family(client: client)
      try await Self.openParentArea(family)
      let cookie = try #require(client.sessionCookie)
      let port = try #require(URL(string: client.base)?.port)
      // Bodies of many 16 KB chunks each, so every upload waits on the server's reading many times over.
      let fits = VideoBytes.mp4 + [UInt8](repeating: 0x00, count: 400 * 1024)
      let tooLarge = VideoBytes.mp4 + [UInt8](repeating: 0x00, count: 700 * 1024)
      let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
        for index in 0..<24 {
          group.addTask {
            let connection = try RawHTTPConnection(port: port)
            let answer = try await connection.exchange(
              "POST /api/kids/videos?title=v\(index) HTTP/1.1",
              headers: ["Cookie": "ck_session=\(cookie)", "Content-Type": "video/mp4", "X-CompletionKit": "1"],
              chunkedBody: index.isMultiple(of: 2) ? fits : tooLarge)
            let next = try await connection.exchange("GET /health HTTP/1.1", headers: [:], chunkedBody: nil)
            return [index.isMultiple(of: 2) ? 200 : 413, answer.status, next.status]
          }
        }
        return try await group.reduce(into: [[Int]]()) { $0.append($1) }
      }
      #expect(statuses.count == 24)
      for row in statuses { #expect(row[1] == row[0] && row[2] == 200, "\(row)") }
      #expect(try await family.state().dashboard?.videos.count == 12)
    }
  }
}

@Suite("Connections")
struct ConnectionTests {
  @Test("A connection that stalls mid-request is closed once it has been idle for the configured time")
  func idleConnectionsAreClosed() async throws {
    var options = TestDatabase.options
    // Long enough that a request sent at once is answered before it, even while other tests keep both cores busy.
    options.idleTimeout = 3
    try await withTestApp(options: options) { client, _ in
      let port = try #require(URL(string: client.base)?.port)
      let connection = try RawHTTPConnection(port: port)
      // Half a request, then nothing: the server closes the connection (a stalled one would time the read out).
      // On a machine so busy that the idle time passes before the half request is written, the server has
      // closed the idle connection already — the same behaviour, seen earlier.
      do {
        try await connection.sendRaw("POST /api/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
      } catch {
        #expect("\(error)".contains("closed"), "writing failed for another reason: \(error)")
      }
      #expect(await connection.waitForClose() == .closedByServer)
      // A connection in use is not cut off.
      let fresh = try RawHTTPConnection(port: port)
      #expect(try await fresh.exchange("GET /health HTTP/1.1", headers: [:], chunkedBody: nil).status == 200)
    }
  }
}

/// One kept-alive HTTP/1.1 connection over a plain socket, to see what the server does with the connection
/// itself. Every read gives up after 30 seconds, so a server that stalls fails the test instead of hanging it.
///
/// Its socket calls block, so each one runs on a thread of its own: a test waiting in `recv` on one of the two
/// cooperative threads (two cores), beside another such test, would leave the servers under test no thread to
/// answer on — every test in the process stalled until an idle timeout cut a connection. Used by one test at a
/// time.
final class RawHTTPConnection: @unchecked Sendable {
  struct Answer {
    let status: Int
    let body: String
  }

  private let socket: Int32
  private var buffer: [UInt8] = []

  init(port: Int) throws {
    #if canImport(Glibc)
      socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard socket >= 0 else { throw Failure("socket") }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw Failure("connect") }
  }

  deinit { close(socket) }

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  /// Sends a request (its body in 16 KB chunks when there is one) and reads one whole response.
  /// Sends a request and reads its answer.
  func exchange(_ requestLine: String, headers: [String: String], chunkedBody: [UInt8]?) async throws -> Answer {
    try await Self.offThePool { try self.exchangeNow(requestLine, headers: headers, chunkedBody: chunkedBody) }
  }

  /// Sends text as it is (half a request, say).
  func sendRaw(_ text: String) async throws {
    try await Self.offThePool { try self.write(Array(text.utf8)) }
  }

  /// Reads until the server closes the connection (or 30 seconds pass with nothing).
  func waitForClose() async -> Ending {
    (try? await Self.offThePool { self.waitForCloseNow() }) ?? .stillOpen
  }

  /// Sends bytes as they are (a request's head and part of its body, say).
  func sendBytes(_ bytes: [UInt8]) async throws {
    try await Self.offThePool { try self.write(bytes) }
  }

  /// Sends the rest of a request and reads its answer.
  func sendBytesAndRead(_ bytes: [UInt8]) async throws -> Answer {
    try await Self.offThePool {
      try self.write(bytes)
      return try self.readResponse()
    }
  }

  /// Everything the server sends until it closes the connection (or 30 seconds pass with nothing: `stillOpen`).
  func readUntilClose() async -> (text: String, ending: Ending) {
    (try? await Self.offThePool { self.readUntilCloseNow() }) ?? ("", .stillOpen)
  }

  /// Sends `text` a byte at a time, waiting up to `milliseconds` after each byte for the server to answer or
  /// close (which ends the sending: the wait is for that, the pace is the sender's), then reads until the close.
  func trickle(_ text: String, pause milliseconds: Int32) async -> (text: String, ending: Ending) {
    (try? await Self.offThePool {
      for byte in text.utf8 {
        guard (try? self.write([byte])) != nil else { break }
        var poller = pollfd(fd: self.socket, events: Int16(POLLIN), revents: 0)
        if poll(&poller, 1, milliseconds) > 0 { break }
      }
      return self.readUntilCloseNow()
    }) ?? ("", .stillOpen)
  }

  private func readUntilCloseNow() -> (text: String, ending: Ending) {
    var received = buffer
    buffer = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        received += chunk[0..<count]
        continue
      }
      return (String(decoding: received, as: UTF8.self), count == 0 || errno == ECONNRESET ? .closedByServer : .stillOpen)
    }
  }

  /// Runs blocking socket work on a thread of its own and waits for it without holding a cooperative thread.
  static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (done: CheckedContinuation<T, any Error>) in
      Thread {
        do {
          done.resume(returning: try work())
        } catch {
          done.resume(throwing: error)
        }
      }.start()
    }
  }

  private func exchangeNow(_ requestLine: String, headers: [String: String], chunkedBody: [UInt8]?) throws -> Answer {
    var head = requestLine + "\r\nHost: 127.0.0.1\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if chunkedBody != nil { head += "Transfer-Encoding: chunked\r\n" }
    try write(Array((head + "\r\n").utf8))
    if let body = chunkedBody {
      var offset = 0
      while offset < body.count {
        let piece = body[offset..<min(body.count, offset + 16 * 1024)]
        try write(Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8))
        offset += piece.count
      }
      try write(Array("0\r\n\r\n".utf8))
    }
    return try readResponse()
  }

  /// Sends raw text as it is.

  enum Ending: Equatable { case closedByServer, stillOpen }

  private func waitForCloseNow() -> Ending {
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count == 0 { return .closedByServer }
      if count < 0 { return errno == ECONNRESET ? .closedByServer : .stillOpen }
    }
  }

  private func write(_ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard count > 0 else { throw Failure("send failed (the server stopped reading)") }
      sent += count
    }
  }

  private func fill() throws {
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { throw Failure(count == 0 ? "the server closed the connection" : "no answer within 30 seconds") }
    buffer += chunk[0..<count]
  }

  private func readResponse() throws -> Answer {
    let separator = Array("\r\n\r\n".utf8)
    var end: Int?
    while end == nil {
      end = buffer.indices.dropLast(3).first { Array(buffer[$0..<($0 + 4)]) == separator }
      if end == nil { try fill() }
    }
    let headerText = String(decoding: buffer[0..<end!], as: UTF8.self)
    buffer.removeFirst(end! + 4)
    let lines = headerText.components(separatedBy: "\r\n")
    let status = Int(lines[0].split(separator: " ")[1]) ?? 0
    let length = lines.dropFirst().compactMap { line -> Int? in
      let parts = line.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
      return Int(parts[1].trimmingCharacters(in: .whitespaces))
    }.first ?? 0
    while buffer.count < length { try fill() }
    let body = String(decoding: buffer[0..<length], as: UTF8.self)
    buffer.removeFirst(length)
    return Answer(status: status, body: body)
  }
}
