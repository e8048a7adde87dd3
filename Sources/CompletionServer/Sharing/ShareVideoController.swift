import Challenges
import CompletionAPI
import CompletionCore
import Cryptogram
import FluentSQL
import Foundation
import Imaging
import Vapor

/// Share videos (seed 004's `generateChallengeVideo(image, challengeName, userStory)`, and a solved cryptogram's):
/// `POST …/video` starts one in the background and answers where it stands, `GET …/video` tells how far it is, and
/// `GET …/video.mp4` streams the finished file (Range requests work, so players can seek and resume).
///
/// Who may have a completion's video is exactly who may have its card (``SocialController/shareableActivity(_:)``),
/// asked again on every request, so a post hidden or revoked after its video was made is not served from the cache.
/// A cryptogram's video is its player's, like its card.
struct ShareVideoController: RouteCollection {
  /// Part of every video's cache key: a change to the art or the script makes new videos instead of serving old ones.
  static let artVersion = "1"

  func boot(routes: any RoutesBuilder) throws {
    routes.on(.startActivityVideo) { try await Self.start(Self.challengeVideo($0), req: $0) }
    routes.on(.getActivityVideoStatus) { try await Self.status(Self.challengeVideo($0), req: $0) }
    routes.on(.getActivityVideo) { try await Self.file(Self.challengeVideo($0), req: $0) }
    routes.on(.startCryptogramVideo) { try await Self.start(Self.cryptogramVideo($0), req: $0) }
    routes.on(.getCryptogramVideoStatus) { try await Self.status(Self.cryptogramVideo($0), req: $0) }
    routes.on(.getCryptogramVideo) { try await Self.file(Self.cryptogramVideo($0), req: $0) }
  }

  /// One video: its cache key, where its routes live, what it is called, how it plays and how its art is drawn.
  struct Video: Sendable {
    let key: String
    let basePath: String
    let fileName: String
    let script: ShareVideoScript
    /// The photo under the layers (JPEG), if any.
    let photo: Data?
    let draw: @Sendable (ShareCardFonts) -> VideoArt
  }

  // MARK: The two kinds of video

  static func challengeVideo(_ req: Request) async throws -> Video {
    let post = try await SocialController.shareableActivity(req)
    guard post.isCompletion else { throw ChallengesError.activityNotFound }
    let photo = try await post.photo.asyncMap { try await SQLChallengesStore(req.db).photoJPEG($0, thumbnail: false) } ?? nil
    let title = post.challenge?.title ?? post.title
    // The story's first line: a video shows one line well, and the rest stays in the post.
    let storyLine = (post.story ?? "").split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
    let content = ChallengeVideoContent(
      title: title, points: post.shownPoints ?? 0, storyLine: storyLine, personName: post.author.displayName,
      challengeType: ChallengeType(rawValue: post.challenge?.type ?? "")?.displayName ?? "", hasPhoto: photo != nil)
    let script = ShareVideoScript(choreography: ChallengeCompletion.choreography)
    let fingerprint = [artVersion, title, "\(content.points)", storyLine, content.personName, content.challengeType,
      post.photo?.uuidString ?? "-"].joined(separator: "\u{1F}")
    return Video(
      key: "challenge-\(post.id.uuidString.lowercased())-\(Digest.sha256Hex(Data(fingerprint.utf8)).prefix(16))",
      basePath: "/api/activities/\(post.id.uuidString)", fileName: "\(slug(title)).mp4", script: script, photo: photo,
      draw: { VideoArtist.challenge(content, fonts: $0) })
  }

  static func cryptogramVideo(_ req: Request) async throws -> Video {
    let game = try await CryptogramController.ownedGame(req)
    let share = try await CryptogramController.share(of: game, req: req)
    let content = CryptogramController.cardContent(share)
    // The streak in the figures changes from day to day: a new day's figures make a new video.
    let fingerprint = ([artVersion, content.title, content.subtitle, content.invitation]
      + content.figures.flatMap { [$0.label, $0.value] }).joined(separator: "\u{1F}")
    let name = (game.mode == "daily" ? game.dailyDate.map { "cryptogram-\($0)" } : nil) ?? "cryptogram"
    return Video(
      key: "cryptogram-\(game.id.uuidString.lowercased())-\(Digest.sha256Hex(Data(fingerprint.utf8)).prefix(16))",
      basePath: "/api/cryptogram/games/\(game.id.uuidString)", fileName: "\(name).mp4",
      script: ShareVideoScript(choreography: CompletionCelebration.choreography), photo: nil,
      draw: { VideoArtist.cryptogram(content, fonts: $0) })
  }

  // MARK: Routes

  /// `POST …/video`: starts the video unless it is made or being made; 200 when ready, else 202.
  static func start(_ video: Video, req: Request) async throws -> Response {
    guard let encoder = req.application.services.videoEncoder else { throw ShareVideoError.unavailable }
    let fonts = try CardFonts.shared()
    let app = req.application
    let status: VideoRenderQueue.Status
    do {
      status = try await req.application.services.videos.start(video.key) { output, progress in
        try await render(video, fonts: fonts, encoder: encoder, into: output, app: app, progress: progress)
      }
    } catch {
      throw ShareVideoError.busy
    }
    return try await view(video, status).encodeResponse(status: status == .ready ? .ok : .accepted, for: req)
  }

  /// `GET …/video`: where the video stands.
  static func status(_ video: Video, req: Request) async throws -> ShareVideoView {
    view(video, await req.application.services.videos.status(of: video.key))
  }

  /// `GET …/video.mp4`: the finished video, streamed from the cache (with Range and ETag support).
  static func file(_ video: Video, req: Request) async throws -> Response {
    let queue = req.application.services.videos
    guard await queue.status(of: video.key) == .ready else { throw ShareVideoError.notReady }
    let response = try await req.fileio.asyncStreamFile(
      at: queue.file(for: video.key).path, mediaType: HTTPMediaType(type: "video", subType: "mp4"))
    response.headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=3600")
    response.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
    response.headers.replaceOrAdd(name: .contentDisposition, value: "inline; filename=\"\(video.fileName)\"")
    return response
  }

  static func view(_ video: Video, _ status: VideoRenderQueue.Status) -> ShareVideoView {
    let (state, progress): (String, Double) =
      switch status {
      case .none: ("none", 0)
      case .queued: ("queued", 0)
      case .rendering(let fraction): ("rendering", fraction)
      case .ready: ("ready", 1)
      case .failed: ("failed", 0)
      }
    return ShareVideoView(
      state: state, progress: progress, videoPath: status == .ready ? video.basePath + "/video.mp4" : nil, fileName: video.fileName,
      seconds: video.script.duration)
  }

  // MARK: Making one

  /// Draws the art (on the thread pool, off the event loops), writes it beside the output, and runs one FFmpeg.
  static func render(
    _ video: Video, fonts: ShareCardFonts, encoder: VideoEncoder, into output: URL, app: Application,
    progress: @escaping @Sendable (Double) -> Void
  ) async throws {
    let art = try await app.threadPool.runIfActive { video.draw(fonts) }
    let folder = output.deletingLastPathComponent().appendingPathComponent(output.lastPathComponent + ".art", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let background = folder.appendingPathComponent(video.photo == nil ? "background.png" : "photo.jpg")
    try (video.photo ?? Data(art.background ?? [])).write(to: background)
    var layers: [(file: String, layer: VideoLayer)] = []
    for (index, layer) in art.layers.enumerated() {
      let file = folder.appendingPathComponent("layer-\(index).png")
      try Data(layer.png).write(to: file)
      layers.append((file.path, layer))
    }
    let arguments = video.script.arguments(background: background.path, layers: layers, output: output.path)
    try await encoder.run(arguments, duration: video.script.duration, progress: progress)
  }

  /// "Perfect Pancakes!" → "perfect-pancakes": a file name any system accepts.
  static func slug(_ title: String) -> String {
    var result = ""
    for character in title.lowercased() {
      if character.isASCII, character.isLetter || character.isNumber {
        result.append(character)
      } else if !result.isEmpty, result.last != "-" {
        result.append("-")
      }
    }
    while result.last == "-" { result.removeLast() }
    return result.isEmpty ? "challenge" : String(result.prefix(60))
  }
}

/// Why a share video cannot be had.
enum ShareVideoError: APIErrorConvertible, Equatable {
  /// No FFmpeg on this server.
  case unavailable
  /// Every encode slot is taken and the waiting line is full.
  case busy
  /// The video has not been made (yet): start it with `POST …/video`.
  case notReady

  var status: HTTPResponseStatus {
    switch self {
    case .unavailable, .busy: .serviceUnavailable
    case .notReady: .notFound
    }
  }

  var code: String {
    switch self {
    case .unavailable: "video_unavailable"
    case .busy: "busy"
    case .notReady: "video_not_ready"
    }
  }

  var message: String {
    switch self {
    case .unavailable: "Videos cannot be made on this server right now. Share the picture instead."
    case .busy: "Many videos are being made right now. Please try again in a few seconds."
    case .notReady: "That video has not been made yet. Ask for it first, then fetch it when it is ready."
    }
  }

  var retryAfter: Int? { self == .busy ? 5 : nil }
}

extension ShareVideoView: Content {}
