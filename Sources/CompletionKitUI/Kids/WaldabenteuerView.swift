#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI

/// The whole game "Waldabenteuer": the server runs it, and this view shows the screen it describes
/// (`model.view?.screen`), cross-fading between screens with the catalog's `kidsCrossFade` (an instant cut
/// under Reduce Motion), with the confetti layer on top of everything. Laid out for a landscape iPad
/// (1194×834 pt).
///
/// It owns its ``WaldabenteuerModel`` (real time, the German voice, sound effects, UIKit haptics, SwiftUI
/// animation), starts it when it appears (the catalog, the launch, the heartbeat), keeps `isOnline` in step
/// with the network, reports scene phases (the server pauses a video's clock in the background) and opens
/// `waldabenteuer://eltern` deep links at the parent gate:
///
/// ```swift
/// @main struct WaldabenteuerApp: App {
///   let client = CompletionClient(server: "https://example.org")
///   var body: some Scene { WindowGroup { WaldabenteuerView(client: client) } }
/// }
/// ```
public struct WaldabenteuerView: View {
  @State private var model: WaldabenteuerModel

  @Environment(\.scenePhase) private var scenePhase
  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// The URL scheme of deep links (`waldabenteuer://eltern` opens the parent gate, never the dashboard).
  public static let deepLinkScheme = "waldabenteuer"

  /// The game played through `client`. `timeZone` decides when the family's day starts; `tab` names this
  /// device to the server, so a second device joins the game in play instead of relaunching it.
  public init(client: CompletionClient, timeZone: TimeZone = .current, tab: String = UUID().uuidString) {
    // `State` keeps the first model it is given; a model made by a later init is dropped unused (making one
    // sends nothing, and the voice and sounds touch no hardware until they are first used).
    _model = State(initialValue: Self.makeModel(client: client, timeZone: timeZone, tab: tab))
  }

  /// The game played with a model the host made (one shared with other views, or a preview's).
  public init(model: WaldabenteuerModel) {
    _model = State(initialValue: model)
  }

  private static func makeModel(client: CompletionClient, timeZone: TimeZone, tab: String) -> WaldabenteuerModel {
    #if canImport(AVFoundation)
    WaldabenteuerModel(
      client: client, clock: SystemModelClock(), timeZone: timeZone, tab: tab, haptics: DeviceHaptics(),
      animator: SwiftUIStateAnimator(), voice: GermanVoice(), sounds: KidsSoundEffects())
    #else
    WaldabenteuerModel(
      client: client, clock: SystemModelClock(), timeZone: timeZone, tab: tab, haptics: DeviceHaptics(),
      animator: SwiftUIStateAnimator())
    #endif
  }

  /// The current screen with the confetti over it.
  public var body: some View {
    // "Zeit ist um!": the server is home already; the finished video stays for the effect's seconds.
    let heldForTimeUp = model.isHoldingTimeUp ? model.timeUpPlayback : nil
    let screen = KidsScreen(view: model.view, timeUp: heldForTimeUp)
    ZStack {
      content(for: screen, timeUp: heldForTimeUp)
        .id(screen)
        .transition(.opacity)
      ConfettiView(bursts: model.confettiBursts, seconds: model.motion("kidsCelebration", step: "confetti")?.duration ?? 0)
      if model.isUnreachable {
        UnreachableNotice()
          .transition(.opacity)
      }
    }
    .animation(KidsMotion.animation(model.motion("kidsCrossFade", step: "incoming"), reduceMotion: reduceMotion), value: screen)
    .fontDesign(.rounded)
    .task {
      // Back on screen after leaving it: the game goes on where it is, without a new launch.
      if model.view == nil { model.start() } else { model.resumeTimers() }
    }
    .task {
      await KidsNetworkMonitor.watch(model)
    }
    .onDisappear {
      model.stop()
    }
    .onChange(of: scenePhase) { _, phase in
      model.phaseChanged(to: AppPhase(phase))
    }
    .onOpenURL { url in
      if Self.opensParentArea(url) { model.send("openParentDeepLink") }
    }
  }

  @ViewBuilder
  private func content(for screen: KidsScreen, timeUp: KidsPlaybackView?) -> some View {
    switch screen {
    case .loading:
      LoadingView(model: model)
    case .playerSelection:
      PlayerSelectionView(model: model)
    case .home:
      HomeView(model: model)
    case .activitySelection:
      ActivitySelectionView(model: model)
    case .activity:
      ActivityScreen(model: model)
    case .treasure:
      TreasureView(model: model)
    case .videoSelection:
      VideoSelectionView(model: model)
    case .video:
      if let timeUp {
        VideoPlayerView(model: model, playback: timeUp, isTimeUp: true)
      } else if let playback = model.view?.playback {
        VideoPlayerView(model: model, playback: playback, isTimeUp: false)
      }
    case .parentGate:
      ParentGateView(model: model)
    case .parentDashboard:
      ParentDashboardView(model: model)
    }
  }

  /// `waldabenteuer://eltern` (or `…://parent`): the way into the parent gate from outside the app.
  static func opensParentArea(_ url: URL) -> Bool {
    guard url.scheme?.lowercased() == deepLinkScheme else { return false }
    let target = (url.host(percentEncoded: false) ?? url.path(percentEncoded: false))
      .trimmingCharacters(in: CharacterSet(charactersIn: "/")).lowercased()
    return ["eltern", "parent", "parents"].contains(target)
  }
}

/// Which screen is up, as the server names it. The activity keeps one identity through its levels, the
/// level-complete moment and the celebration overlay (no cross-fade between levels, and the overlay lies
/// over the same screen), and the video screen stays through "Zeit ist um!" although the server is home.
enum KidsScreen: Hashable {
  case loading
  case playerSelection
  case home
  case activitySelection(String)
  case activity(String)
  case treasure
  case videoSelection
  case video(String)
  case parentGate
  case parentDashboard

  init(view: KidsView?, timeUp: KidsPlaybackView?) {
    if let timeUp {
      self = .video(timeUp.video.id)
      return
    }
    guard let view else {
      self = .loading
      return
    }
    switch view.screen {
    case "playerSelection": self = .playerSelection
    case "home": self = .home
    case "activitySelection": self = .activitySelection(view.activity ?? "")
    case "playing", "levelComplete", "celebrationOverlay": self = .activity(view.game ?? view.level?.game ?? "")
    case "treasureScreen": self = .treasure
    case "videoSelection": self = .videoSelection
    case "videoPlaying":
      // Without its playback (never from the server) there is nothing to play: the loading screen waits.
      if let playback = view.playback {
        self = .video(playback.video.id)
      } else {
        self = .loading
      }
    case "parentGate": self = .parentGate
    case "parentDashboard": self = .parentDashboard
    default: self = .loading
    }
  }
}

/// The gentle notice while the server cannot be reached (the model marks it when a tap could not be sent;
/// the next answer that arrives clears it).
struct UnreachableNotice: View {
  var body: some View {
    VStack {
      Text("Einen Moment bitte …")
        .font(KidsFont.body)
        .foregroundStyle(KidsPalette.ink)
        .padding(.horizontal, 28)
        .padding(.vertical, 14)
        .background(KidsPalette.cream.opacity(0.95), in: .capsule)
        .overlay { Capsule().strokeBorder(KidsPalette.woodMid, lineWidth: 3) }
        .padding(.top, 24)
      Spacer()
    }
    .allowsHitTesting(false)
    .accessibilityAddTraits(.updatesFrequently)
  }
}
#endif
