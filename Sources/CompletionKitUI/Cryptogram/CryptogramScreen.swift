#if canImport(SwiftUI)
import CompletionClient
import CompletionCore
import Foundation
import SwiftUI

/// The cryptogram as a whole screen: it owns its ``CryptogramModel`` (real time, UIKit haptics, SwiftUI
/// animation), opens the person's unfinished puzzle or today's daily when it appears, and tells the model
/// when the app leaves the foreground, so the server stops the puzzle's clock.
///
/// ```swift
/// WindowGroup { CryptogramScreen(client: CompletionClient(server: "https://example.org")) }
/// ```
public struct CryptogramScreen: View {
  @State private var model: CryptogramModel

  @Environment(\.scenePhase) private var scenePhase

  /// A screen playing through `client`. `timeZone` decides which day's daily is today; `preference` is sent
  /// with every move so the server adapts the celebration (nil: from the system's Reduce Motion setting).
  public init(client: CompletionClient, timeZone: TimeZone = .current, preference: MotionPreference? = nil) {
    // `State` keeps the first model it is given; a model made by a later init is dropped unused (making one
    // sends nothing: the puzzle is only opened in `.task`).
    _model = State(
      initialValue: CryptogramModel(
        client: client, clock: SystemModelClock(), timeZone: timeZone,
        preference: preference ?? SwiftUIStateAnimator.systemPreference,
        haptics: DeviceHaptics(), animator: SwiftUIStateAnimator()))
  }

  /// The puzzle screen, loading its puzzle on first appearance.
  public var body: some View {
    CryptogramPuzzleView(model: model)
      .task {
        // Coming back to the screen keeps the puzzle already shown; the first appearance opens one.
        guard model.game == nil else { return }
        await model.open().value
      }
      .onChange(of: scenePhase) { _, phase in
        // Time away from the app is not playing time: the server pauses and resumes the clock.
        model.phaseChanged(to: AppPhase(phase))
      }
  }
}
#endif
