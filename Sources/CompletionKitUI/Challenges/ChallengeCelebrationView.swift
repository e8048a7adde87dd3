#if canImport(SwiftUI)
import Challenges
import CompletionCore
import SwiftUI

/// The seed's overlay when a challenge is completed: the party popper bouncing three times, the headline,
/// the message and the points the server actually paid. Timings are ``ChallengeCompletion/choreography``
/// (played by ``ChoreographyPlayer``, reduced under Reduce Motion); it dismisses itself after
/// ``ChallengeCompletion/dismissAfterSeconds`` and on a tap.
public struct ChallengeCelebrationView: View {
  let points: Int
  let onDismiss: () -> Void

  @State private var player: ChoreographyPlayer

  /// `points`: the figure from the server's answer (`pointsAwarded`), never a constant.
  public init(points: Int, preference: MotionPreference = .full, onDismiss: @escaping () -> Void) {
    self.points = points
    self.onDismiss = onDismiss
    _player = State(initialValue: ChoreographyPlayer(ChallengeCompletion.choreography, preference: preference))
  }

  public var body: some View {
    ZStack {
      Color.black.opacity(0.7).ignoresSafeArea().choreographed("backdrop", player: player)
      VStack(spacing: 20) {
        Image(systemName: "party.popper.fill")
          .font(.system(size: 80))
          .foregroundStyle(LinearGradient(colors: [Color(red: 1, green: 0.84, blue: 0), .orange], startPoint: .topLeading, endPoint: .bottomTrailing))
          // Three nested steps: their scales multiply into the seed's 1 → 1.2 → 1 → 1.2.
          .choreographed("bounce3", player: player)
          .choreographed("bounce2", player: player)
          .choreographed("bounce1", player: player)
          .choreographed("popper", player: player)
          .accessibilityHidden(true)
        Text(ChallengeCompletion.headline)
          .font(.system(size: 32, weight: .bold, design: .rounded))
          .foregroundStyle(.white)
          .choreographed("title", player: player)
        Text(ChallengeCompletion.sharedMessage)
          .font(.system(size: 18))
          .foregroundStyle(.white.opacity(0.9))
          .multilineTextAlignment(.center)
          .padding(.horizontal)
          .choreographed("message", player: player)
        if points > 0 {
          Label("+\(points) Points", systemImage: "star.fill")
            .font(.system(size: 24, weight: .semibold))
            .foregroundStyle(.yellow)
            .padding()
            .background(Color.yellow.opacity(0.2), in: RoundedRectangle(cornerRadius: 12))
            .choreographed("points", player: player)
        }
      }
      .padding()
    }
    .contentShape(Rectangle())
    .onTapGesture(perform: onDismiss)
    .accessibilityAddTraits(.isModal)
    .sensoryFeedback(.success, trigger: player.isActive("popper"))
    .task {
      player.start()
      try? await Task.sleep(for: .seconds(ChallengeCompletion.dismissAfterSeconds))
      onDismiss()
    }
  }
}
#endif
