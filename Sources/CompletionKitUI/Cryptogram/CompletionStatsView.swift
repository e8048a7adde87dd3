#if canImport(SwiftUI)
import CompletionCore
import SwiftUI

/// The solved puzzle's numbers (seed 000): the time always, mistakes and hints only when there were any.
public struct CompletionStatsView: View {
  let seconds: Double
  let mistakes: Int
  let hints: Int

  /// A panel for the server's numbers of a solved puzzle (`CryptogramGameView`'s time, mistakes, hints).
  public init(seconds: Double, mistakes: Int, hints: Int) {
    self.seconds = seconds
    self.mistakes = mistakes
    self.hints = hints
  }

  /// One row per number, each with the seed's symbol.
  public var body: some View {
    VStack(spacing: 16) {
      Label {
        // Formatted as the core formats play time everywhere (the web page and the share text agree).
        Text("Time: \(PlaySession.formatted(seconds: seconds))")
      } icon: {
        Image(systemName: "clock")
          .foregroundStyle(.tint)
      }

      // A clean solve is not cluttered with zeros.
      if mistakes > 0 {
        Label {
          Text("Mistakes: \(mistakes)")
        } icon: {
          Image(systemName: "exclamationmark.triangle")
            .foregroundStyle(.red)
        }
      }

      if hints > 0 {
        Label {
          Text("Hints used: \(hints)")
        } icon: {
          Image(systemName: "lightbulb.fill")
            .foregroundStyle(.orange)
        }
      }
    }
    .font(.body)
    .foregroundStyle(.primary)
    .padding()
    .background(Color.secondary.opacity(0.1), in: .rect(cornerRadius: 12))
  }
}

#Preview("Stats") {
  CompletionStatsView(seconds: 95, mistakes: 1, hints: 2)
}
#endif
