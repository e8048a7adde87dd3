#if canImport(SwiftUI)
import SwiftUI
import KidsGame
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// The parent area "Elternbereich", behind the gate: one card per child (today's play time against the daily
/// limit, coins, the four signs, the daily limit, Wähle die Zahl's trace or tap mode, and a progress reset
/// with confirmation), then the approved videos (newest first, delete with confirmation) and the field to add
/// one from a YouTube link. "Zurück" goes home. Every change is a `ParentCommand` to the machine.
public struct ParentDashboardView: View {
  let model: KidsGameModel

  /// The dashboard for `model`.
  public init(model: KidsGameModel) {
    self.model = model
  }

  public var body: some View {
    let data = model.machine.data
    ZStack {
      KidsPalette.cream
        .ignoresSafeArea()
      VStack(spacing: 0) {
        HStack {
          BackButton(model: model)
          Spacer()
          Text(ScreenText.parentArea.text())
            .font(KidsFont.title)
            .foregroundStyle(KidsPalette.ink)
            .accessibilityAddTraits(.isHeader)
          Spacer()
          Color.clear.frame(width: KidsMetrics.minTouch, height: 1)
        }
        .padding([.horizontal, .top], KidsMetrics.screenPadding)
        .padding(.bottom, 12)
        ScrollView {
          VStack(alignment: .leading, spacing: 32) {
            LazyVGrid(
              columns: [GridItem(.flexible(), spacing: 24, alignment: .top), GridItem(.flexible(), alignment: .top)],
              spacing: 24
            ) {
              ForEach(data.players) { player in
                ParentPlayerCard(
                  model: model, player: player, settings: data.settings.parentSettings.settings(for: player.id))
              }
            }
            ApprovedVideosSection(model: model, videos: data.settings.parentSettings.approvedVideos)
            AddVideoSection(model: model)
          }
          .padding(KidsMetrics.screenPadding)
        }
      }
    }
    .foregroundStyle(KidsPalette.ink)
  }
}

// MARK: - Player card

/// One child's card in the dashboard.
struct ParentPlayerCard: View {
  let model: KidsGameModel
  let player: PlayerData
  let settings: PlayerSettings

  @State private var isConfirmingReset = false

  var body: some View {
    let limit = settings.dailyLimit
    let minutes = player.minutesPlayedToday
    VStack(alignment: .leading, spacing: 16) {
      Text(player.name)
        .font(KidsFont.smallTitle)
        .accessibilityAddTraits(.isHeader)

      VStack(alignment: .leading, spacing: 8) {
        Text(ScreenText.playedToday.text(LineValues(x: Int(minutes.rounded(.down)), y: limit.minutes)))
          .font(KidsFont.body)
        PlayTimeBar(
          usage: limit.usage(minutesPlayed: minutes),
          color: KidsPalette.color(for: limit.band(minutesPlayed: minutes)))
      }
      .accessibilityElement(children: .combine)

      HStack(spacing: 8) {
        CoinView(size: 24)
        Text(ScreenText.coinsLabel.text(LineValues(x: player.coins)))
          .font(KidsFont.body)
      }
      .accessibilityElement(children: .combine)

      VStack(spacing: 4) {
        ForEach(ActivityType.allCases, id: \.self) { activity in
          Toggle(activity.title, isOn: unlockedBinding(for: activity))
            .font(KidsFont.body)
            .tint(KidsPalette.woodland)
        }
      }

      Picker(ScreenText.dailyPlayTime.text(), selection: limitBinding) {
        ForEach(PlayTimeLimit.options, id: \.self) { option in
          Text(verbatim: "\(option) min").tag(option)
        }
      }
      .font(KidsFont.body)
      .tint(KidsPalette.woodDark)

      Picker(SubActivity.waehleDieZahl.title, selection: modeBinding) {
        ForEach(NumberChoiceMode.allCases, id: \.self) { mode in
          Image(systemName: mode == .trace ? "hand.draw" : "hand.tap")
            .tag(mode)
        }
      }
      .pickerStyle(.segmented)

      Button(role: .destructive) {
        isConfirmingReset = true
      } label: {
        Text(ScreenText.resetQuestion.text())
          .font(KidsFont.body.weight(.semibold))
          .foregroundStyle(KidsPalette.parentDanger)
          .frame(maxWidth: .infinity, minHeight: 56)
          .overlay {
            RoundedRectangle(cornerRadius: 14, style: .continuous)
              .strokeBorder(KidsPalette.parentDanger, lineWidth: 2)
          }
      }
      .buttonStyle(.plain)
      .confirmationDialog(ScreenText.resetQuestion.text(), isPresented: $isConfirmingReset, titleVisibility: .visible) {
        Button(ScreenText.gateConfirm.text(), role: .destructive) {
          model.parent(.resetProgress(player: player.id))
        }
        Button(ScreenText.gateCancel.text(), role: .cancel) {}
      } message: {
        Text(ScreenText.resetMessage.text())
      }
    }
    .padding(24)
    .frame(maxWidth: .infinity, alignment: .leading)
    .background(KidsPalette.lightRays.opacity(0.6), in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous))
    .overlay {
      RoundedRectangle(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
        .strokeBorder(KidsPalette.woodLight, lineWidth: 2)
    }
  }

  private func unlockedBinding(for activity: ActivityType) -> Binding<Bool> {
    Binding {
      settings.unlockedActivities.contains(activity)
    } set: { enabled in
      model.parent(.setActivity(activity, enabled: enabled, player: player.id))
    }
  }

  private var limitBinding: Binding<Int> {
    Binding {
      settings.dailyLimit.minutes
    } set: { minutes in
      model.parent(.setDailyLimit(player: player.id, minutes: minutes))
    }
  }

  private var modeBinding: Binding<NumberChoiceMode> {
    Binding {
      settings.numberChoiceMode
    } set: { mode in
      model.parent(.setNumberChoiceMode(mode, player: player.id))
    }
  }
}

/// "Heute gespielt" as a bar: full at the daily limit, coloured by `PlayTimeLimit.band`.
struct PlayTimeBar: View {
  let usage: Double
  let color: Color

  var body: some View {
    GeometryReader { proxy in
      ZStack(alignment: .leading) {
        Capsule().fill(KidsPalette.pathStone.opacity(0.35))
        Capsule()
          .fill(color)
          .frame(width: proxy.size.width * CGFloat(min(1, max(0, usage))))
      }
    }
    .frame(height: 16)
    .accessibilityHidden(true)
  }
}

// MARK: - Videos

/// "Genehmigte Videos": newest first, each with an 80×45 thumbnail, its title and a delete button that asks
/// "Video entfernen?" first.
struct ApprovedVideosSection: View {
  let model: KidsGameModel
  let videos: [ApprovedVideo]

  @State private var pendingRemoval: ApprovedVideo?

  var body: some View {
    VStack(alignment: .leading, spacing: 12) {
      Text(ScreenText.approvedVideos.text())
        .font(KidsFont.smallTitle)
        .accessibilityAddTraits(.isHeader)
      ForEach(videos.sorted { $0.addedAt > $1.addedAt }) { video in
        HStack(spacing: 16) {
          VideoThumbnail(video: video, size: CGSize(width: 80, height: 45))
          Text(video.title)
            .font(KidsFont.body)
            .lineLimit(2)
          Spacer()
          Button(role: .destructive) {
            pendingRemoval = video
          } label: {
            Image(systemName: "trash")
              .font(.system(size: 24, weight: .semibold))
              .foregroundStyle(KidsPalette.parentDanger)
              .frame(width: 56, height: 56)
          }
          .buttonStyle(.plain)
          .accessibilityLabel(ScreenText.removeVideo.text())
        }
        .padding(.vertical, 4)
        Divider()
      }
    }
    .confirmationDialog(
      ScreenText.removeVideo.text(),
      isPresented: Binding(get: { pendingRemoval != nil }, set: { if !$0 { pendingRemoval = nil } }),
      titleVisibility: .visible,
      presenting: pendingRemoval
    ) { video in
      Button(ScreenText.gateConfirm.text(), role: .destructive) {
        model.parent(.removeVideo(id: video.id))
      }
      Button(ScreenText.gateCancel.text(), role: .cancel) {}
    } message: { video in
      Text(video.title)
    }
  }
}

/// "+ Video hinzufügen": a link field (or the clipboard), a preview of the video's still, and "Hinzufügen".
/// The link is checked with `YouTubeLink.parse` first; a bad one shows "Ungültiger YouTube Link".
struct AddVideoSection: View {
  let model: KidsGameModel

  @State private var link = ""
  @State private var isInvalid = false
  @State private var isPreviewing = false

  var body: some View {
    VStack(alignment: .leading, spacing: 12) {
      Text(ScreenText.addVideo.text())
        .font(KidsFont.smallTitle)
        .accessibilityAddTraits(.isHeader)
      TextField(ScreenText.pasteLink.text(), text: $link)
        .font(KidsFont.body)
        .textFieldStyle(.roundedBorder)
        .autocorrectionDisabled()
        #if os(iOS)
        .textInputAutocapitalization(.never)
        .keyboardType(.URL)
        #endif
        .onSubmit(add)
        .onChange(of: link) {
          isInvalid = false
          isPreviewing = false
        }
      HStack(spacing: 16) {
        Button(ScreenText.pasteFromClipboard.text(), systemImage: "doc.on.clipboard") {
          if let text = Self.clipboardText() { link = text }
        }
        Button(ScreenText.preview.text(), systemImage: "eye") {
          isPreviewing = parsedLink != nil
          isInvalid = parsedLink == nil
        }
        .disabled(link.isEmpty)
        Button(ScreenText.add.text(), systemImage: "plus.circle.fill", action: add)
          .buttonStyle(.borderedProminent)
          .tint(KidsPalette.woodland)
          .disabled(link.isEmpty)
      }
      .font(KidsFont.body)
      .buttonStyle(.bordered)
      .tint(KidsPalette.woodDark)
      if isInvalid {
        Text(ScreenText.invalidYouTubeLink.text())
          .font(KidsFont.body)
          .foregroundStyle(KidsPalette.parentDanger)
      }
      if isPreviewing, let parsed = parsedLink, let url = URL(string: parsed.thumbnailURL) {
        AsyncImage(url: url) { image in
          image.resizable().scaledToFill()
        } placeholder: {
          KidsPalette.sky
        }
        .frame(width: 200, height: 112)
        .clipShape(.rect(cornerRadius: 10, style: .continuous))
        .accessibilityHidden(true)
      }
    }
  }

  private var parsedLink: YouTubeLink? {
    try? YouTubeLink.parse(link).get()
  }

  private func add() {
    guard parsedLink != nil else {
      isInvalid = true
      return
    }
    // False for a video already on the list: the field keeps the link, nothing else changes.
    if model.addVideo(link: link) {
      link = ""
      isPreviewing = false
    }
  }

  private static func clipboardText() -> String? {
    #if canImport(UIKit)
    UIPasteboard.general.string
    #elseif canImport(AppKit)
    NSPasteboard.general.string(forType: .string)
    #else
    nil
    #endif
  }
}

#Preview("Parent dashboard") {
  ParentDashboardView(model: .previewParentDashboard(coins: 14))
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
