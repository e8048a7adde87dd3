#if canImport(SwiftUI)
import SwiftUI
import CompletionCore
import Cryptogram

/// The solved-puzzle screen of seed 000: trophy, the quote, its attribution and source, the stats and
/// "Next Puzzle", each arriving on its own step of `CompletionCelebration.choreography`.
///
/// Timing: the choreography is one timeline from the moment of solving, as the seed means it (the view is
/// inserted at the solve and only its fade waits 0.7 s, so the trophy starts at 0.4 s, the stats at 1.8 s).
/// `player` is therefore started when the
/// puzzle is solved (`CryptogramGameModel` does it), not when this view appears: starting on appear would
/// make the timings depend on when SwiftUI inserts the view (at the solve under a delayed fade, or later)
/// and could add the overlay delay twice. Under Reduce Motion `.choreographed` switches the player to its
/// reduced form: the same order and delays, each element a short cross-fade without movement or scale.
public struct PuzzleCompletionView: View {
  private let quote: Quote
  private let stats: CompletionStats
  private let player: ChoreographyPlayer
  private let onNext: @MainActor () -> Void

  /// The completion screen for `quote` solved with `stats`. `player` plays `CompletionCelebration.choreography`
  /// and should be started when the puzzle is solved; `onNext` loads the next puzzle.
  public init(
    quote: Quote,
    stats: CompletionStats,
    player: ChoreographyPlayer,
    onNext: @escaping @MainActor () -> Void
  ) {
    self.quote = quote
    self.stats = stats
    self.player = player
    self.onNext = onNext
  }

  /// The seed's layout over the background, each element choreographed.
  public var body: some View {
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
          .choreographed("trophy", player: player)

        Spacer()

        Text(quote.text)
          .font(.system(.title3, design: .serif))
          .italic()
          .multilineTextAlignment(.center)
          .foregroundStyle(.primary)
          .padding(.horizontal, 32)
          .choreographed("quote", player: player)

        if !quote.author.isEmpty {
          HStack {
            Spacer()
            Text(quote.attribution)
              .font(.subheadline)
              .foregroundStyle(.secondary)
          }
          .padding(.horizontal, 40)
          .choreographed("attribution", player: player)
        }

        if let source = quote.source, !source.isEmpty {
          Text("From: \(source)")
            .font(.caption)
            .foregroundStyle(Color.secondary.opacity(0.7))
            .padding(.top, 4)
            .choreographed("source", player: player)
        }

        Spacer()

        CompletionStatsView(stats: stats)
          .choreographed("stats", player: player)

        Button {
          onNext()
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
        .choreographed("next", player: player)
        .padding(.bottom, 32)
      }
      .padding()
    }
    // Only for a host that shows this view without having started the player (a preview, say): then the
    // timings count from here. In the game the model started it at the solve, and `start()` on a running
    // player changes nothing.
    .onAppear {
      player.start()
    }
  }
}

#Preview("Completion") {
  PuzzleCompletionView(
    quote: Quote(
      text: "The only thing we have to fear is fear itself.",
      author: "Franklin D. Roosevelt",
      year: 1933,
      source: "First Inaugural Address"
    ),
    stats: CompletionStats(seconds: 95, mistakes: 1, hints: 2),
    player: ChoreographyPlayer(CompletionCelebration.choreography),
    onNext: {}
  )
}
#endif
