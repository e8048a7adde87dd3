#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// The whole game "Waldabenteuer": shows the screen for `model.machine.state`, cross-fading 0.3 s between
/// screens (an instant cut under Reduce Motion), with the confetti layer on top of everything. Laid out for a
/// landscape iPad (1194×834 pt).
///
/// It starts the model's clock work (loading bar, heartbeat) for as long as it is on screen, reports scene
/// phases (background saves and pauses a video clock) and opens `waldabenteuer://eltern` deep links. A host
/// keeps the model alive:
///
/// ```swift
/// @main struct WaldabenteuerApp: App {
///   @State private var model = KidsGameModel()
///   var body: some Scene { WindowGroup { WaldabenteuerView(model: model) } }
/// }
/// ```
public struct WaldabenteuerView: View {
  let model: KidsGameModel

  @Environment(\.scenePhase) private var scenePhase
  @Environment(\.accessibilityReduceMotion) private var reduceMotion

  /// The game played with `model`.
  public init(model: KidsGameModel) {
    self.model = model
  }

  public var body: some View {
    let screen = KidsScreen(state: model.machine.state, activity: model.machine.activity, timeUp: model.timeUp)
    ZStack {
      content(for: screen)
        .id(screen)
        .transition(.opacity)
      ConfettiView(bursts: model.confettiBursts)
    }
    .animation(KidsMotion.crossFade(reduceMotion: reduceMotion), value: screen)
    .fontDesign(.rounded)
    .task {
      await model.run()
    }
    .onChange(of: scenePhase) { _, phase in
      model.scenePhaseChanged(to: phase)
    }
    .onOpenURL { url in
      model.open(url)
    }
  }

  @ViewBuilder
  private func content(for screen: KidsScreen) -> some View {
    switch screen {
    case .loading:
      LoadingView(progress: model.loadingProgress, line: model.bubbleLine)
    case .playerSelection:
      PlayerSelectionView(model: model)
    case .home:
      HomeView(model: model)
    case .activitySelection(let activity):
      ActivitySelectionView(model: model, activity: activity)
    case .activity(let game):
      ActivityScreen(model: model, game: game)
    case .treasure:
      TreasureView(model: model)
    case .videoSelection:
      VideoSelectionView(model: model)
    case .video:
      if let timeUp = model.timeUp {
        VideoPlayerView(model: model, session: timeUp.session, now: timeUp.at, isTimeUp: true)
      } else if let session = model.machine.navigation.video {
        VideoPlayerView(model: model, session: session, now: model.now, isTimeUp: false)
      }
    case .parentGate:
      ParentGateView(model: model)
    case .parentDashboard:
      ParentDashboardView(model: model)
    }
  }
}

/// Which screen is up. The activity keeps one identity through its levels, the level-complete moment and the
/// celebration overlay (no cross-fade between levels, and the overlay lies over the same screen), and the
/// video screen stays through "Zeit ist um!" although the machine is already home.
enum KidsScreen: Hashable {
  case loading
  case playerSelection
  case home
  case activitySelection(ActivityType)
  case activity(SubActivity)
  case treasure
  case videoSelection
  case video
  case parentGate
  case parentDashboard

  init(state: GameState, activity: ActivityContext?, timeUp: TimeUpMoment?) {
    if timeUp != nil {
      self = .video
      return
    }
    switch state {
    case .loading: self = .loading
    case .playerSelection: self = .playerSelection
    case .home: self = .home
    case .activitySelection(let activityType): self = .activitySelection(activityType)
    case .playing(_, let game): self = .activity(game)
    case .levelComplete, .celebrationOverlay:
      // Both sit on top of the level under way; without one (never from the machine) home is the safe place.
      self = activity.map { .activity($0.game) } ?? .home
    case .treasureScreen: self = .treasure
    case .videoSelection: self = .videoSelection
    case .videoPlaying: self = .video
    case .parentGate: self = .parentGate
    case .parentDashboard: self = .parentDashboard
    }
  }
}

#Preview("Waldabenteuer") {
  WaldabenteuerView(model: .preview())
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
