#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI
#if canImport(AVKit)
import AVKit
#endif
#if canImport(WebKit) && os(iOS)
import WebKit
#endif

/// A paid video with the analog countdown clock beside it. The server's clock decides, not the video:
/// there is no back or home button, no seeking, no restarting. The film plays exactly while the server's
/// clock runs (`playback.paused` is false) and the app is in front; when time is up, "Zeit ist um!" shows
/// over the stopped film for the server's moment (`model.isHoldingTimeUp`) before home fades in.
///
/// Uploaded files (`playback.video.source == "upload"`) play from the server (`model.client.server +
/// playback.src`) with AVKit, looping, without controls. YouTube plays the embed address the server gives
/// (`playback.src`: no controls, no suggestions) in a web view without touches on iOS; elsewhere its still
/// stands in.
public struct VideoPlayerView: View {
  let model: WaldabenteuerModel
  let playback: KidsPlaybackView
  let isTimeUp: Bool

  @Environment(\.scenePhase) private var scenePhase
  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// The player for `playback`; `isTimeUp` shows the "Zeit ist um!" moment over the stopped film.
  public init(model: WaldabenteuerModel, playback: KidsPlaybackView, isTimeUp: Bool) {
    self.model = model
    self.playback = playback
    self.isTimeUp = isTimeUp
  }

  /// The film beside its clock, and "Zeit ist um!" over it when time is up.
  public var body: some View {
    let isPlaying = !isTimeUp && !playback.paused && scenePhase == .active
    let fade = model.motion("kidsTimeUp", step: "overlay")
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
        // Time up: the arc is gone, the hand is round at 12, the label says so (as the web page's clock).
        AnalogCountdownClock(
          fractionRemaining: isTimeUp ? 0 : playback.fractionRemaining,
          handAngle: isTimeUp ? 360 : playback.handAngle,
          label: isTimeUp ? model.text("timeUp") : playback.label,
          isWarned: playback.warned,
          isRunning: isPlaying,
          grantedSeconds: playback.grantedSeconds,
          glideSeconds: model.catalog?.timing.videoTickSeconds ?? 0,
          pulses: reduceMotion ? [] : model.catalog?.motion["kidsClockWarning"]?.steps ?? []
        )
        .frame(width: 200)
      }
      .padding(KidsMetrics.screenPadding)
      if isTimeUp {
        timeUpCard
          .transition(.appearance(from: fade?.from ?? .identity))
      }
    }
    .animation(KidsMotion.animation(fade, reduceMotion: reduceMotion), value: isTimeUp)
  }

  @ViewBuilder
  private func videoArea(isPlaying: Bool) -> some View {
    if playback.video.source == "upload", let url = URL(string: model.client.server + playback.src) {
      #if canImport(AVKit)
      UploadedVideoPlayer(url: url, headers: model.client.authorizationHeaders, isPlaying: isPlaying)
      #else
      placeholder
      #endif
    } else if let url = URL(string: playback.src) {
      #if canImport(WebKit) && os(iOS)
      YouTubeEmbed(url: url, isPlaying: isPlaying)
      #else
      placeholder
      #endif
    } else {
      placeholder
    }
  }

  /// The video's still with a play symbol, where no player is available.
  private var placeholder: some View {
    ZStack {
      KidsPalette.forestFar
      GeometryReader { proxy in
        VideoThumbnail(video: playback.video, size: proxy.size)
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
        Text(model.text("timeUp"))
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
  /// The client's sign-in: the file is only served to its family.
  let headers: [String: String]
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
          // The header option is AVFoundation's (long-standing, though unlisted) way to sign a file's requests.
          let asset = AVURLAsset(url: url, options: ["AVURLAssetHTTPHeaderFieldsKey": headers])
          looper = AVPlayerLooper(player: player, templateItem: AVPlayerItem(asset: asset))
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
/// YouTube's embedded player at the server's embed address (no controls, no related videos, no keyboard
/// seeking), with touches switched off so the child cannot leave it. Playback is suspended when `isPlaying`
/// turns false.
struct YouTubeEmbed: UIViewRepresentable {
  let url: URL
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
    view.load(URLRequest(url: url))
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
