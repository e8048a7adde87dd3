#if canImport(SwiftUI)
import SwiftUI
import CompletionCore
import Cryptogram

/// The solved puzzle's numbers (seed 000): the time always, mistakes and hints only when there were any.
public struct CompletionStatsView: View {
  /// The numbers shown.
  public let stats: CompletionStats

  /// A stats panel for `stats`.
  public init(stats: CompletionStats) {
    self.stats = stats
  }

  /// One row per number, each with the seed's symbol.
  public var body: some View {
    VStack(spacing: 16) {
      Label {
        Text("Time: \(stats.formattedTime)")
      } icon: {
        Image(systemName: "clock")
          .foregroundStyle(.tint)
      }

      // A clean solve is not cluttered with zeros.
      if stats.mistakes > 0 {
        Label {
          Text("Mistakes: \(stats.mistakes)")
        } icon: {
          Image(systemName: "exclamationmark.triangle")
            .foregroundStyle(.red)
        }
      }

      if stats.hints > 0 {
        Label {
          Text("Hints used: \(stats.hints)")
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
#endif
