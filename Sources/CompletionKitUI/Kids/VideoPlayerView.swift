#if canImport(SwiftUI)
import SwiftUI
import KidsGame
#if canImport(AVKit)
import AVKit
#endif
#if canImport(WebKit) && os(iOS)
import WebKit
#endif

/// A paid video with the analog countdown clock beside it. The clock decides, not the video: there is no
/// back or home button, no seeking, no restarting; the video pauses when the app is in the background (the
/// machine pauses the clock) and when time is up, when "Zeit ist um!" shows until home fades in.
///
/// Uploaded files play with AVKit (looping, without controls). YouTube plays in an embedded web view without
/// YouTube's own controls on iOS; elsewhere its still stands in.
public struct VideoPlayerView: View {
  let model: KidsGameModel
  let session: VideoSession
  let now: Date
  let isTimeUp: Bool

  /// The player for `session` with its clock at `now`; `isTimeUp` shows the "Zeit ist um!" moment.
  public init(model: KidsGameModel, session: VideoSession, now: Date, isTimeUp: Bool) {
    self.model = model
    self.session = session
    self.now = now
    self.isTimeUp = isTimeUp
  }

  public var body: some View {
    let isPlaying = !isTimeUp && !session.timer.isPaused && model.isInForeground
    ZStack {
      KidsPalette.woodDark
        .ignoresSafeArea()
      HStack(spacing: 32) {
        videoArea(isPlaying: isPlaying)
          .aspectRatio(16.0 / 9.0, contentMode: .fit)
          .clipShape(.rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous))
          .overlay {
            RoundedRectangle(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
              .strokeBorder(KidsPalette.woodMid, lineWidth: 6)
          }
        AnalogCountdownClock(timer: session.timer, now: now)
          .frame(width: 200)
      }
      .padding(KidsMetrics.screenPadding)
      if isTimeUp {
        timeUpCard
      }
    }
  }

  @ViewBuilder
  private func videoArea(isPlaying: Bool) -> some View {
    let video = model.machine.data.settings.parentSettings.approvedVideos.first { $0.id == session.videoID }
    if video?.source == .upload, let url = model.uploadedVideoURL(for: session.videoID) {
      #if canImport(AVKit)
      UploadedVideoPlayer(url: url, isPlaying: isPlaying)
      #else
      placeholder(video)
      #endif
    } else {
      #if canImport(WebKit) && os(iOS)
      YouTubeEmbed(videoID: session.videoID, isPlaying: isPlaying)
      #else
      placeholder(video)
      #endif
    }
  }

  /// The video's still with a play symbol, where no player is available.
  private func placeholder(_ video: ApprovedVideo?) -> some View {
    ZStack {
      KidsPalette.forestFar
      if let video {
        GeometryReader { proxy in
          VideoThumbnail(video: video, size: proxy.size)
        }
      }
      Image(systemName: "play.circle.fill")
        .font(.system(size: 96))
        .foregroundStyle(KidsPalette.cream.opacity(0.9))
        .accessibilityHidden(true)
    }
  }

  private var timeUpCard: some View {
    ZStack {
      KidsPalette.dim.opacity(0.6)
        .ignoresSafeArea()
      VStack(spacing: 20) {
        Image(systemName: "bell.fill")
          .font(.system(size: 64))
          .foregroundStyle(KidsPalette.coinGold)
          .accessibilityHidden(true)
        Text(ScreenText.timeUp.text())
          .font(KidsFont.title)
          .foregroundStyle(KidsPalette.woodDark)
        BennieView(height: 160)
      }
      .padding(48)
      .background(
        KidsPalette.cream.opacity(0.95), in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous))
    }
    .accessibilityElement(children: .combine)
    .accessibilityAddTraits(.isModal)
  }
}

#if canImport(AVKit)
/// An uploaded video file, looping, without controls: the clock is the only way it ends.
struct UploadedVideoPlayer: View {
  let url: URL
  let isPlaying: Bool

  // Made once, when the view first appears (not on every re-creation of this struct).
  @State private var player: AVQueuePlayer?
  @State private var looper: AVPlayerLooper?

  var body: some View {
    VideoPlayer(player: player)
      // No controls, no seeking: touches never reach the player.
      .allowsHitTesting(false)
      .onAppear {
        let player = self.player ?? AVQueuePlayer()
        if self.player == nil {
          looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(url: url))
          self.player = player
        }
        if isPlaying { player.play() }
      }
      .onChange(of: isPlaying) { _, playing in
        if playing {
          player?.play()
        } else {
          player?.pause()
        }
      }
      .onDisappear {
        player?.pause()
      }
      .accessibilityHidden(true)
  }
}
#endif

#if canImport(WebKit) && os(iOS)
/// YouTube's embedded player (no controls, no related videos, no keyboard seeking: `YouTubeLink.embedURL`),
/// with touches switched off so the child cannot leave it. Playback is suspended when `isPlaying` turns false.
struct YouTubeEmbed: UIViewRepresentable {
  let videoID: String
  let isPlaying: Bool

  func makeUIView(context: Context) -> WKWebView {
    let configuration = WKWebViewConfiguration()
    configuration.allowsInlineMediaPlayback = true
    configuration.mediaTypesRequiringUserActionForPlayback = []
    let view = WKWebView(frame: .zero, configuration: configuration)
    view.isUserInteractionEnabled = false
    view.scrollView.isScrollEnabled = false
    view.isOpaque = false
    view.backgroundColor = .clear
    if let url = URL(string: YouTubeLink.embedURL(id: videoID)) {
      view.load(URLRequest(url: url))
    }
    return view
  }

  func updateUIView(_ view: WKWebView, context: Context) {
    view.setAllMediaPlaybackSuspended(!isPlaying, completionHandler: nil)
  }

  static func dismantleUIView(_ view: WKWebView, coordinator: ()) {
    view.pauseAllMediaPlayback(completionHandler: nil)
  }
}
#endif
#endif
