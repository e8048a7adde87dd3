#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import CompletionCore
import SwiftUI

/// The solved-puzzle screen of seed 000: trophy, the quote, its attribution and source, the stats and
/// "Next Puzzle", each arriving on its own step of the celebration the server sent with the solving move.
///
/// Timing: the model plays the server's choreography on its own clock from the moment the answer arrived
/// (`celebrationAppearance(of:)`), so every step keeps its time from the solve however late SwiftUI inserts
/// this view; it only asks for frames while the steps move. Under Reduce Motion the server sends the calm
/// form (the model sends the preference with every move). A puzzle opened already solved has no celebration
/// and shows everything at rest.
public struct PuzzleCompletionView: View {
  private let model: CryptogramModel

  /// The completion screen of `model`'s solved puzzle.
  public init(model: CryptogramModel) {
    self.model = model
  }

  /// The seed's layout over the background, each element on its step.
  public var body: some View {
    MomentTimeline(moment: model.celebrationStart, isOver: { _ in isCelebrationOver }) {
      // Built here, inside the frame's closure, so each frame reads the steps afresh.
      if let game = model.game, let solution = game.solution {
        screen(game, solution)
          .choreographed(step("overlay"))
      }
    }
  }

  /// Whether every step has reached its rest (or there is no celebration to play).
  private var isCelebrationOver: Bool {
    guard let elapsed = model.celebrationElapsed, let celebration = model.celebration else { return true }
    return elapsed >= celebration.totalDuration
  }

  private func step(_ id: String) -> Appearance {
    model.celebrationAppearance(of: id)
  }

  private func screen(_ game: CryptogramGameView, _ solution: CryptogramSolutionView) -> some View {
    ZStack {
      Rectangle()
        .fill(.background)
        .ignoresSafeArea()

      VStack(spacing: 24) {
        Image(systemName: "trophy.fill")
          .font(.system(size: 48))
          .foregroundStyle(.tint)
          // Decoration: the quote and stats say everything VoiceOver needs.
          .accessibilityHidden(true)
          .choreographed(step("trophy"))

        // A solve after Continue is finished, not won (the core's `PuzzleOutcome`): said in words.
        if game.outcome == .finished {
          Text("Finished after continuing past the mistake limit: not a win, no points or streak day.")
            .font(.footnote)
            .foregroundStyle(.secondary)
            .multilineTextAlignment(.center)
            .padding(.horizontal, 32)
            .choreographed(step("trophy"))
        }

        Spacer()

        Text(solution.text)
          .font(.system(.title3, design: .serif))
          .italic()
          .multilineTextAlignment(.center)
          .foregroundStyle(.primary)
          .padding(.horizontal, 32)
          .choreographed(step("quote"))

        if !solution.author.isEmpty {
          HStack {
            Spacer()
            Text(solution.attribution)
              .font(.subheadline)
              .foregroundStyle(.secondary)
          }
          .padding(.horizontal, 40)
          .choreographed(step("attribution"))
        }

        if let source = solution.source, !source.isEmpty {
          Text("From: \(source)")
            .font(.caption)
            .foregroundStyle(Color.secondary.opacity(0.7))
            .padding(.top, 4)
            .choreographed(step("source"))
        }

        Spacer()

        // The game's own numbers: the server's stats of a solved game are these same three.
        CompletionStatsView(seconds: game.elapsedSeconds, mistakes: game.mistakes, hints: game.hints)
          .choreographed(step("stats"))

        Button {
          model.next()
        } label: {
          Text("Next Puzzle")
            .font(.headline)
            .foregroundStyle(.white)
            .padding(.vertical, 12)
            .padding(.horizontal, 24)
            .background(.tint, in: .rect(cornerRadius: 12))
        }
        // The label is the whole button; the default style would add a bezel of its own on macOS.
        .buttonStyle(.plain)
        .disabled(model.isSending)
        .choreographed(step("next"))
        .padding(.bottom, 32)
      }
      .padding()
    }
  }
}
#endif
