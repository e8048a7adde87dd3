import Challenges
import CompletionAPI
import CompletionCore
import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor

@testable import CompletionServer

/// Share videos made by the real FFmpeg and checked with the real ffprobe. Serialized: each encode keeps a core busy.
@Suite("Share videos", .serialized)
struct ShareVideoTests {
  /// What ffprobe says about a file: its streams and its length.
  struct Probe: Decodable {
    struct Stream: Decodable {
      let codec_type: String
      let codec_name: String
      let width: Int?
      let height: Int?
      let r_frame_rate: String?
      let pix_fmt: String?
    }
    struct Format: Decodable { let duration: String }
    let streams: [Stream]
    let format: Format

    var video: Stream? { streams.first { $0.codec_type == "video" } }
    var seconds: Double { Double(format.duration) ?? 0 }
  }

  static func probe(_ bytes: ByteBuffer) throws -> Probe {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString).mp4")
    try Data(buffer: bytes).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    process.arguments = ["-v", "error", "-show_entries", "stream=codec_type,codec_name,width,height,r_frame_rate,pix_fmt:format=duration",
      "-of", "json", file.path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return try JSONDecoder().decode(Probe.self, from: data)
  }

  /// Asks for the video at `base` and waits until it is ready (or failed), checking progress only ever grows.
  static func makeVideo(_ client: TestClient, _ base: String) async throws -> ShareVideoView {
    let started = try await client.send(.POST, base + "/video")
    #expect(started.status == .accepted || started.status == .ok)
    var view = try client.decode(ShareVideoView.self, from: started)
    var lastProgress = 0.0
    // Waits for a condition (the encode's end), polling as the share sheet does; the bound only stops a hung encode.
    for _ in 0..<1200 where view.state == "queued" || view.state == "rendering" {
      try await Task.sleep(for: .milliseconds(100))
      view = try client.decode(ShareVideoView.self, from: try await client.send(.GET, base + "/video"))
      #expect(view.progress >= lastProgress || view.state != "rendering")
      lastProgress = view.progress
    }
    return view
  }

  static func completion(_ cook: TestClient) async throws -> String {
    let overview = try await ChallengesAPITests.overview(cook)
    let daily = try #require(overview.challenges.first { $0.type == "daily" })
    let response = try await ChallengesAPITests.complete(
      cook, daily, photo: try await ChallengesAPITests.upload(cook), story: "Fluffy on the first try.\nThe batter rested ten minutes.")
    #expect(response.status == .ok)
    return try cook.decode(ChallengeCompletionView.self, from: response).activity.id
  }

  @Test("A completion's video: H.264 1080×1920 at 30 fps, 6–8 s, with sound; made once; ranges; for exactly who may see its card")
  func challengeVideo() async throws {
    try await withTestApp { cook, app in
      let username = try await ChallengesAPITests.account(cook)
      let friend = cook.stranger()
      _ = try await ChallengesAPITests.account(friend, "friend")
      try await ChallengesAPITests.follow(friend, username)
      let stranger = cook.stranger()
      _ = try await ChallengesAPITests.account(stranger, "stranger")
      let post = try await Self.completion(cook)
      let base = "/api/activities/\(post)"

      // Not made yet: the file is not there, and nobody who may not see the post learns anything.
      let early = try await friend.send(.GET, base + "/video.mp4")
      #expect(early.status == .notFound)
      #expect(try friend.decode(APIErrorBody.self, from: early).code == "video_not_ready")
      #expect(try friend.decode(ShareVideoView.self, from: try await friend.send(.GET, base + "/video")).state == "none")
      for path in ["/video", "/video.mp4"] {
        let refused = try await stranger.send(.GET, base + path)
        #expect(refused.status == .notFound)
        #expect(try stranger.decode(APIErrorBody.self, from: refused).code == "activity_not_found")
      }
      #expect(try await stranger.send(.POST, base + "/video").status == .notFound)
      #expect(await app.services.videos.encodes == 0)

      // A follower asks; the server makes it in the background and says how far it is.
      let made = try await Self.makeVideo(friend, base)
      #expect(made.state == "ready" && made.progress == 1 && made.videoPath == base + "/video.mp4")
      #expect(made.fileName.hasSuffix(".mp4") && (6...8).contains(made.seconds))

      let file = try await friend.send(.GET, base + "/video.mp4")
      #expect(file.status == .ok && file.headers.contentType == HTTPMediaType(type: "video", subType: "mp4"))
      let probe = try Self.probe(file.body)
      let video = try #require(probe.video)
      #expect(video.codec_name == "h264" && video.width == 1080 && video.height == 1920)
      #expect(video.r_frame_rate == "30/1" && video.pix_fmt == "yuv420p")
      #expect((6.0...8.0).contains(probe.seconds), "\(probe.seconds) s")
      #expect(probe.streams.contains { $0.codec_type == "audio" && $0.codec_name == "aac" })
      // `+faststart`: the index (moov) comes before the frames (mdat), so players start before the end arrives.
      let head = Data(buffer: file.body).prefix(4096)
      let moov = try #require(head.range(of: Data("moov".utf8)))
      #expect(head.range(of: Data("mdat".utf8)).map { moov.lowerBound < $0.lowerBound } ?? true)

      // Made once: the author's request is answered from the cache, without another encode.
      let again = try await cook.send(.POST, base + "/video")
      #expect(again.status == .ok)
      #expect(try cook.decode(ShareVideoView.self, from: again).state == "ready")
      #expect(await app.services.videos.encodes == 1)

      // Range requests: a part, then the rest from where it stopped.
      let part = try await cook.send(.GET, base + "/video.mp4", headers: ["Range": "bytes=0-99"])
      #expect(part.status == .partialContent && part.body.readableBytes == 100)
      #expect(part.headers.first(name: .contentRange) == "bytes 0-99/\(file.body.readableBytes)")
      let rest = try await cook.send(.GET, base + "/video.mp4", headers: ["Range": "bytes=100-"])
      #expect(rest.status == .partialContent && rest.body.readableBytes == file.body.readableBytes - 100)

      // Kept in the data folder; still refused to those who may not see the post, made or not.
      #expect(FileManager.default.fileExists(atPath: app.serverOptions.videosDirectory.path))
      #expect(try await stranger.send(.GET, base + "/video.mp4").status == .notFound)
      #expect(try await cook.stranger().send(.GET, base + "/video.mp4").status == .notFound)
    }
  }

  @Test("A solved cryptogram's video is its player's: not before the solve, not for anyone else")
  func cryptogramVideo() async throws {
    try await withTestApp { client, app in
      let puzzles = CryptogramAPITests()
      let game = try await puzzles.newGame(client)
      let early = try await client.send(.POST, "/api/cryptogram/games/\(game.id)/video")
      #expect(early.status == .conflict)
      #expect(try client.decode(APIErrorBody.self, from: early).code == "not_solved")
      _ = try await puzzles.solveAll(client, game, app: app)
      let base = "/api/cryptogram/games/\(game.id)"
      let other = client.stranger()
      _ = try await other.becomeGuest()
      #expect(try await other.send(.POST, base + "/video").status == .notFound)

      let made = try await Self.makeVideo(client, base)
      #expect(made.state == "ready" && made.fileName.hasPrefix("cryptogram"))
      let file = try await client.send(.GET, base + "/video.mp4")
      #expect(file.status == .ok)
      let probe = try Self.probe(file.body)
      #expect(probe.video?.codec_name == "h264" && probe.video?.width == 1080 && probe.video?.height == 1920)
      #expect((6.0...8.0).contains(probe.seconds) && probe.streams.contains { $0.codec_type == "audio" })
      #expect(try await other.send(.GET, base + "/video.mp4").status == .notFound)
    }
  }

  @Test("Without FFmpeg the server starts, works, and refuses videos with 503 video_unavailable")
  func withoutFFmpeg() async throws {
    var options = TestDatabase.options
    options.ffmpegPath = "/nonexistent/ffmpeg"
    try await withTestApp(options: options) { cook, app in
      #expect(app.services.videoEncoder == nil)
      _ = try await ChallengesAPITests.account(cook)
      let post = try await Self.completion(cook)
      let refused = try await cook.send(.POST, "/api/activities/\(post)/video")
      #expect(refused.status == .serviceUnavailable)
      #expect(try cook.decode(APIErrorBody.self, from: refused).code == "video_unavailable")
      // The card, the still alternative, is there.
      #expect(try await cook.send(.GET, "/api/activities/\(post)/card.png").status == .ok)
    }
  }

  /// Jobs that finish when the test says so.
  actor Gates {
    private var open: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func wait(_ key: String) async {
      if open.contains(key) { return }
      await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    func release(_ key: String) {
      open.insert(key)
      for continuation in waiting.removeValue(forKey: key) ?? [] { continuation.resume() }
    }
  }

  static func until(_ queue: VideoRenderQueue, _ key: String, is wanted: VideoRenderQueue.Status) async throws {
    for _ in 0..<2000 where await queue.status(of: key) != wanted { try await Task.sleep(for: .milliseconds(5)) }
    #expect(await queue.status(of: key) == wanted)
  }

  @Test("The render queue runs at most one encode per slot, keeps a bounded line, refuses beyond it, and joins repeats")
  func queueBounds() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("videos-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let queue = VideoRenderQueue(directory: folder, slots: 2, waitingLimit: 1)
    let gates = Gates()
    let work: @Sendable (String) -> VideoRenderQueue.Work = { key in
      { output, progress in
        progress(0.5)
        await gates.wait(key)
        try Data(key.utf8).write(to: output)
      }
    }
    #expect(try await queue.start("a", work: work("a")) == .rendering(progress: 0))
    #expect(try await queue.start("b", work: work("b")) == .rendering(progress: 0))
    #expect(try await queue.start("c", work: work("c")) == .queued)
    await #expect(throws: VideoRenderQueue.Busy.self) { try await queue.start("d", work: work("d")) }
    // Asking again for one being made joins it.
    _ = try await queue.start("a", work: work("a"))
    #expect(await queue.encodes == 2)

    await gates.release("a")
    try await Self.until(queue, "a", is: .ready)
    // A slot came free: the one waiting starts, and the line has room again.
    try await Self.until(queue, "c", is: .rendering(progress: 0.5))
    #expect(try await queue.start("d", work: work("d")) == .queued)
    for key in ["b", "c", "d"] { await gates.release(key) }
    for key in ["b", "c", "d"] { try await Self.until(queue, key, is: .ready) }
    #expect(await queue.peakRunning == 2)
    #expect(await queue.encodes == 4)
    #expect(try Data(contentsOf: queue.file(for: "c")) == Data("c".utf8))
    // Made: asked again, it is answered from the file.
    #expect(try await queue.start("a", work: work("a")) == .ready)
    #expect(await queue.encodes == 4)

    // A failed encode says so, leaves no file, and asking again tries again.
    let failing: VideoRenderQueue.Work = { _, _ in throw VideoEncoder.Failed(description: "no") }
    _ = try await queue.start("e", work: failing)
    try await Self.until(queue, "e", is: .failed("no"))
    #expect(!FileManager.default.fileExists(atPath: queue.file(for: "e").path))
    _ = try await queue.start("e", work: work("e"))
    await gates.release("e")
    try await Self.until(queue, "e", is: .ready)
  }

  @Test(
    "The encoder reads the progress FFmpeg writes and, when it fails, says why from what it wrote to stderr; several at once",
    .timeLimit(.minutes(1)))
  func encoderReadsItsPipes() async throws {
    // A shell stands in for FFmpeg: it writes progress lines (one split across two writes) and messages.
    let shell = VideoEncoder(executable: URL(fileURLWithPath: "/bin/sh"))
    let seen = NIOLockedValueBox<[Double]>([])
    try await shell.run(
      ["-c", "printf 'frame=1\\nout_time_us=250000\\nout_ti'; printf 'me_us=1000000\\nprogress=end\\n'; echo working >&2"],
      duration: 1.0
    ) { fraction in seen.withLockedValue { $0.append(fraction) } }
    #expect(seen.withLockedValue { $0 } == [0.25, 1.0])

    let failure = await #expect(throws: VideoEncoder.Failed.self) {
      try await shell.run(["-c", "printf 'out_time_us=500000\\n'; echo 'Unknown encoder libx264' >&2; exit 3"], duration: 2.0) { _ in }
    }
    #expect(failure?.description.contains("status 3") == true)
    #expect(failure?.description.contains("Unknown encoder libx264") == true)

    // Encodes side by side, each reading its own pipes to their end.
    try await withThrowingTaskGroup(of: [Double].self) { group in
      for index in 1...8 {
        group.addTask {
          let mine = NIOLockedValueBox<[Double]>([])
          try await shell.run(["-c", "printf 'out_time_us=\(index)00000\\n'"], duration: 1.0) { fraction in mine.withLockedValue { $0.append(fraction) } }
          return mine.withLockedValue { $0 }
        }
      }
      var results: [[Double]] = []
      for try await result in group { results.append(result) }
      #expect(results.map { $0.count } == Array(repeating: 1, count: 8))
      #expect(Set(results.map { $0[0] }) == Set((1...8).map { Double($0) / 10 }))
    }
  }

  @Test("The video plays the choreography's timings: each layer arrives at its step's delay after the lead-in")
  func scriptFollowsChoreography() throws {
    let script = ShareVideoScript(choreography: ChallengeCompletion.choreography)
    #expect(ShareVideoScript.durationRange.contains(script.duration))
    let title = try #require(ChallengeCompletion.choreography.step("title"))
    let entrance = try #require(script.entrance(of: "title"))
    #expect(entrance.start == ShareVideoScript.leadIn + title.delay)
    #expect(entrance.fade > 0 && entrance.fade <= title.activeDuration + 1.0 / 30)
    // The rise starts at the step's offset (in frame pixels) and ends at rest.
    #expect(entrance.rise.contains("\(Int((title.from.offsetY * ShareVideoScript.pixelsPerPoint).rounded()))"))
    #expect(entrance.rise.trimmingCharacters(in: CharacterSet(charactersIn: ")")).hasSuffix(",0"))
    #expect(script.entrance(of: "no-such-step") == nil)
  }
}
