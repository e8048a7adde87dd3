#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import CompletionCore
import SwiftUI

/// The seed's overlay when a challenge is completed: the party popper bouncing three times, the headline,
/// the message and the points the server actually paid. Everything comes from the completion's answer in
/// `model.celebration`: the words, the points, the steps (played on the model's clock by
/// `celebrationAppearance(of:)`) and the time after which the model takes it away by itself. A tap takes it
/// away at once. Place it over the challenges screen; it draws nothing while there is no celebration.
public struct ChallengeCelebrationView: View {
  let model: ChallengesModel

  /// The overlay of `model`'s current celebration.
  public init(model: ChallengesModel) {
    self.model = model
  }

  /// The overlay while a celebration is on, redrawn every frame until its steps are at rest.
  public var body: some View {
    if let done = model.celebration {
      MomentTimeline(moment: model.celebrationStart, isOver: { date in isOver(done, at: date) }) {
        overlay(done)
      }
      .transition(.opacity)
    }
  }

  /// Whether every step has reached its rest at the frame's `date` (a celebration switched off has none).
  private func isOver(_ done: ChallengeCompletionView, at date: Date) -> Bool {
    guard let payload = done.celebration, let start = model.celebrationStart else { return true }
    return date.timeIntervalSince(start) >= payload.totalDuration
  }

  private func step(_ id: String) -> Appearance {
    model.celebrationAppearance(of: id)
  }

  private func overlay(_ done: ChallengeCompletionView) -> some View {
    ZStack {
      Color.black.opacity(0.7)
        .ignoresSafeArea()
        .choreographed(step("backdrop"))
      VStack(spacing: 20) {
        Image(systemName: "party.popper.fill")
          .font(.system(size: 80))
          .foregroundStyle(
            LinearGradient(
              colors: [Color(red: 1, green: 0.84, blue: 0), .orange], startPoint: .topLeading, endPoint: .bottomTrailing)
          )
          // Three nested steps: their scales multiply into the seed's 1 → 1.2 → 1 → 1.2.
          .choreographed(step("bounce3"))
          .choreographed(step("bounce2"))
          .choreographed(step("bounce1"))
          .choreographed(step("popper"))
          .accessibilityHidden(true)
        Text(done.headline)
          .font(.system(size: 32, weight: .bold, design: .rounded))
          .foregroundStyle(.white)
          .choreographed(step("title"))
        Text(done.message)
          .font(.system(size: 18))
          .foregroundStyle(.white.opacity(0.9))
          .multilineTextAlignment(.center)
          .padding(.horizontal)
          .choreographed(step("message"))
        // The figure the server paid: 0 on a repeat, which is never celebrated anyway.
        if done.pointsAwarded > 0 {
          Label("+\(done.pointsAwarded) Points", systemImage: "star.fill")
            .font(.system(size: 24, weight: .semibold))
            .foregroundStyle(.yellow)
            .padding()
            .background(Color.yellow.opacity(0.2), in: RoundedRectangle(cornerRadius: 12))
            .choreographed(step("points"))
        }
      }
      .padding()
    }
    .contentShape(Rectangle())
    .onTapGesture {
      model.dismissCelebration()
    }
    .accessibilityElement(children: .combine)
    .accessibilityAddTraits(.isModal)
    .accessibilityAction(named: Text("Dismiss")) {
      model.dismissCelebration()
    }
  }
}
#endif
