#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI

/// The daily streak with its streak freezes, as the web page's Challenges header shows them: the days in a
/// row, the freezes held, the days a freeze covered, and "Buy a freeze" at the server's price.
///
/// Everything comes from `model.stats` (the overview's or the last purchase's figures): how many are held, the
/// most one may hold, the price and why one cannot be bought now are the server's, never this view's. A
/// purchase goes through ``ChallengesModel/buyStreakFreeze()``; the server's words about it (bought, or why
/// not) show under the button. Draws nothing before the overview has loaded.
public struct ChallengeStreakView: View {
  let model: ChallengesModel

  @State private var isBuying = false
  /// The server's words about the last purchase made here: its message, or why it refused.
  @State private var answer: String?

  /// The streak and freezes of `model`.
  public init(model: ChallengesModel) {
    self.model = model
  }

  /// The streak, the freezes held, a note and the purchase.
  public var body: some View {
    // The person's own figures carry their freezes (a profile someone else reads does not).
    if let stats = model.stats, let freezes = stats.freezes {
      VStack(alignment: .leading, spacing: 12) {
        HStack(spacing: 24) {
          Label(Self.count(stats.currentStreak, "day"), systemImage: "flame.fill")
            .foregroundStyle(.orange)
            .accessibilityLabel("Streak: \(Self.count(stats.currentStreak, "day")) in a row")
          Label("×\(freezes.held)", systemImage: "snowflake")
            .foregroundStyle(.cyan)
            .accessibilityLabel(Self.count(freezes.held, "streak freeze") + " held, of at most \(freezes.max)")
        }
        .font(.system(size: 20, weight: .semibold, design: .rounded))
        .monospacedDigit()

        Text(Self.note(freezes))
          .font(.system(size: 15))
          .foregroundStyle(.secondary)
          .fixedSize(horizontal: false, vertical: true)

        Button {
          buy()
        } label: {
          Label("Buy a freeze · \(freezes.price) points", systemImage: "snowflake")
            .frame(minHeight: 44)
        }
        .buttonStyle(.borderedProminent)
        .tint(Color.cyan)
        // The server says why one cannot be bought (the most are held, too few points): the note shows it.
        .disabled(isBuying || freezes.unavailable != nil)

        if let answer {
          Text(answer)
            .font(.system(size: 15))
            .accessibilityAddTraits(.updatesFrequently)
        }
      }
      .frame(maxWidth: .infinity, alignment: .leading)
    }
  }

  private func buy() {
    guard !isBuying else { return }
    isBuying = true
    answer = nil
    Task {
      await model.buyStreakFreeze()
      answer = model.freezeMessage ?? model.problem
      isBuying = false
    }
  }

  /// "1 day", "3 streak freezes".
  static func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
  }

  /// What the freezes did and can do, with the server's reason when one cannot be bought now.
  static func note(_ freezes: StreakFreezesView) -> String {
    var notes: [String] = []
    if !freezes.usedOn.isEmpty { notes.append("Used on \(dayList(freezes.usedOn)): your streak kept going.") }
    if let unavailable = freezes.unavailable {
      notes.append(unavailable)
    } else {
      notes.append(freezes.held > 0 ? "A freeze is used by itself on a day you miss." : "A freeze keeps your streak alive on a day you miss.")
    }
    return notes.joined(separator: " ")
  }

  /// "23 Nov", "23 Nov and 24 Nov" from the server's "YYYY-MM-DD" days.
  static func dayList(_ days: [String]) -> String {
    let words = days.map(shortDay)
    guard let last = words.last, words.count > 1 else { return words.joined() }
    return words.dropLast().joined(separator: ", ") + " and " + last
  }

  /// "2026-11-23" as "23 Nov" (the day as the server named it, in no time zone of the device's).
  static func shortDay(_ day: String) -> String {
    let parts = day.split(separator: "-").compactMap { Int($0) }
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    guard parts.count == 3, (1...12).contains(parts[1]) else { return day }
    return "\(parts[2]) \(months[parts[1] - 1])"
  }
}
#endif
