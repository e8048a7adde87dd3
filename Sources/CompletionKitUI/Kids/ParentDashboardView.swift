#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// The parent area "Elternbereich", behind the gate, as the server describes it (`view.dashboard`): one card
/// per child (today's play time against the daily limit in its band's colour, coins, the signs, Wähle die
/// Zahl's trace or tap mode, each sign's difficulty, the daily limit, rename, remove and a progress reset
/// with confirmation), a child to add, then the approved videos (newest first, remove with confirmation) and
/// the form to add one from a YouTube link. "Zurück" goes home.
///
/// Every change is a command sent to the server (`model.send("setDailyLimit") { … }`); the server checks it
/// and answers with the new dashboard, "Gespeichert." (`model.parentNotice`), or a refusal whose code this
/// view puts into German words for the parent.
public struct ParentDashboardView: View {
  let model: WaldabenteuerModel

  /// The dashboard for `model`.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The top bar, the notice and the dashboard's sections.
  public var body: some View {
    let dashboard = model.view?.dashboard
    ZStack {
      KidsPalette.cream
        .ignoresSafeArea()
      VStack(spacing: 0) {
        HStack {
          BackButton(model: model)
          Spacer()
          Text(model.text("parentArea"))
            .font(KidsFont.title)
            .foregroundStyle(KidsPalette.ink)
            .accessibilityAddTraits(.isHeader)
          Spacer()
          Color.clear.frame(width: KidsMetrics.minTouch, height: 1)
        }
        .padding([.horizontal, .top], KidsMetrics.screenPadding)
        .padding(.bottom, 12)
        ParentNotice(model: model)
          .padding(.horizontal, KidsMetrics.screenPadding)
        if let dashboard {
          ScrollView {
            VStack(alignment: .leading, spacing: 32) {
              LazyVGrid(
                columns: [GridItem(.flexible(), spacing: 24, alignment: .top), GridItem(.flexible(), alignment: .top)],
                spacing: 24
              ) {
                ForEach(dashboard.players, id: \.id) { card in
                  ParentPlayerCard(model: model, card: card, dashboard: dashboard)
                }
              }
              AddPlayerSection(model: model, count: dashboard.players.count)
              ApprovedVideosSection(model: model, videos: dashboard.videos)
              AddVideoSection(model: model, videoCount: dashboard.videos.count)
            }
            .padding(KidsMetrics.screenPadding)
          }
        } else {
          Spacer()
        }
      }
    }
    .foregroundStyle(KidsPalette.ink)
  }
}

// MARK: - Notices

/// "Gespeichert." after a change, or what the server refused, in words for a parent.
struct ParentNotice: View {
  let model: WaldabenteuerModel

  var body: some View {
    if let refusal = model.refusal {
      Text(Self.message(for: refusal, model: model))
        .font(KidsFont.body)
        .foregroundStyle(KidsPalette.parentDanger)
        .frame(maxWidth: .infinity, alignment: .leading)
        .accessibilityAddTraits(.updatesFrequently)
    } else if let notice = model.parentNotice {
      Text(notice)
        .font(KidsFont.body)
        .foregroundStyle(KidsPalette.woodland)
        .frame(maxWidth: .infinity, alignment: .leading)
        .accessibilityAddTraits(.updatesFrequently)
    }
  }

  /// German words for what the server may refuse in the parent area (its own messages are for developers),
  /// as the web page words them; words naming a limit (a name's length, how many children) are the catalog's.
  static func message(for code: String, model: WaldabenteuerModel) -> String {
    if let line = model.refusalLine(for: code) { return line }
    return switch code {
    case "invalid_youtube_link": model.text("invalidYouTubeLink")
    case "duplicate_video": "Dieses Video ist schon in der Liste."
    case "last_player": "Ein Kind muss bleiben."
    case "unknown_player": "Dieses Kind gibt es nicht mehr. Die Liste ist jetzt aktuell."
    case "unknown_video": "Dieses Video gibt es nicht mehr. Die Liste ist jetzt aktuell."
    case "invalid_time_limit": "Bitte wähle eine der angebotenen Spielzeiten."
    case "parent_gate_required": "Bitte öffne den Elternbereich noch einmal."
    default: "Das hat leider nicht geklappt. Bitte versuche es noch einmal."
    }
  }
}

// MARK: - Player card

/// One child's card in the dashboard.
struct ParentPlayerCard: View {
  let model: WaldabenteuerModel
  let card: KidsDashboardView.PlayerCard
  let dashboard: KidsDashboardView

  @State private var isConfirmingReset = false
  @State private var isConfirmingRemoval = false
  @State private var isRenaming = false
  @State private var newName = ""

  var body: some View {
    let signs = model.view?.signs ?? []
    VStack(alignment: .leading, spacing: 16) {
      HStack {
        Text(card.name)
          .font(KidsFont.smallTitle)
          .accessibilityAddTraits(.isHeader)
        Spacer()
        Button("Umbenennen") {
          newName = card.name
          isRenaming.toggle()
        }
        .buttonStyle(.bordered)
        Button("Entfernen", role: .destructive) {
          isConfirmingRemoval = true
        }
        .buttonStyle(.bordered)
        .tint(KidsPalette.parentDanger)
      }
      .font(KidsFont.label)

      if isRenaming {
        HStack {
          TextField("Neuer Name", text: $newName)
            .textFieldStyle(.roundedBorder)
            .onSubmit(rename)
          Button("Speichern", action: rename)
            .buttonStyle(.borderedProminent)
            .tint(KidsPalette.woodland)
        }
        .font(KidsFont.body)
      }

      VStack(alignment: .leading, spacing: 8) {
        Text(model.text("playedToday", "\(card.playedMinutes)", "\(card.limitMinutes)"))
          .font(KidsFont.body)
        PlayTimeBar(usage: card.usage, color: KidsPalette.color(forBand: card.band))
      }
      .accessibilityElement(children: .combine)

      HStack(spacing: 8) {
        CoinView(size: 24)
        Text(model.text("coinsLabel", "\(card.coins)"))
          .font(KidsFont.body)
      }
      .accessibilityElement(children: .combine)

      VStack(alignment: .leading, spacing: 4) {
        ForEach(signs, id: \.activity) { sign in
          activityToggle(sign)
        }
      }

      // The server's two modes, worded as the web page words them.
      Picker("Wähle die Zahl", selection: modeBinding) {
        Text("Nachfahren").tag("trace")
        Text("Antippen").tag("tap")
      }
      .pickerStyle(.segmented)

      ForEach(signs.filter { card.difficulty[$0.activity] != nil }, id: \.activity) { sign in
        difficultyRow(sign)
      }

      Picker(model.text("dailyPlayTime"), selection: limitBinding) {
        ForEach(dashboard.limitOptions, id: \.self) { option in
          Text(verbatim: "\(option) min").tag(option)
        }
      }
      .font(KidsFont.body)
      .tint(KidsPalette.woodDark)

      Button(role: .destructive) {
        isConfirmingReset = true
      } label: {
        Text(model.text("resetQuestion"))
          .font(KidsFont.body.weight(.semibold))
          .foregroundStyle(KidsPalette.parentDanger)
          .frame(maxWidth: .infinity, minHeight: 56)
          .overlay {
            RoundedRectangle(cornerRadius: 14, style: .continuous)
              .strokeBorder(KidsPalette.parentDanger, lineWidth: 2)
          }
      }
      .buttonStyle(.plain)
    }
    .padding(24)
    .frame(maxWidth: .infinity, alignment: .leading)
    .background(KidsPalette.lightRays.opacity(0.6), in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous))
    .overlay {
      RoundedRectangle(cornerRadius: KidsMetrics.cornerRadius, style: .continuous)
        .strokeBorder(KidsPalette.woodLight, lineWidth: 2)
    }
    .confirmationDialog(model.text("resetQuestion"), isPresented: $isConfirmingReset, titleVisibility: .visible) {
      Button("Zurücksetzen", role: .destructive) {
        model.send("resetProgress") { $0.player = card.id }
      }
      Button(model.text("gateCancel"), role: .cancel) {}
    } message: {
      Text(model.text("resetMessage"))
    }
    .confirmationDialog("\(card.name) entfernen?", isPresented: $isConfirmingRemoval, titleVisibility: .visible) {
      Button("Entfernen", role: .destructive) {
        model.send("removePlayer") { $0.player = card.id }
      }
      Button(model.text("gateCancel"), role: .cancel) {}
    } message: {
      Text("Alle Münzen und Level von \(card.name) werden gelöscht.")
    }
  }

  /// A sign's switch: what the child sees. A sign whose games do not exist yet stays off ("kommt bald").
  private func activityToggle(_ sign: KidsSignView) -> some View {
    let isComingSoon = dashboard.comingSoon.contains(sign.activity)
    // Main-actor closures: the binding reads the server's dashboard and sends through the main-actor model.
    let binding = Binding { @MainActor in
      !isComingSoon && card.activities[sign.activity] == true
    } set: { @MainActor enabled in
      model.send("setActivity") {
        $0.player = card.id
        $0.activity = sign.activity
        $0.enabled = enabled
      }
    }
    return Toggle(isOn: binding) {
      HStack {
        Text(sign.title)
        if isComingSoon {
          Text("kommt bald")
            .font(KidsFont.label)
            .foregroundStyle(KidsPalette.woodMid)
        }
      }
    }
    .font(KidsFont.body)
    .tint(KidsPalette.woodland)
    .disabled(isComingSoon)
  }

  /// "Zahlen: Zahlen 1–5 (Stufe 0,3)" and a way back to the start.
  private func difficultyRow(_ sign: KidsSignView) -> some View {
    let level = card.difficulty[sign.activity] ?? 0
    return HStack {
      Text("\(sign.title): \(card.difficultyLabel[sign.activity] ?? "") (Stufe \(level.formatted(.number.precision(.fractionLength(1...2)).locale(Locale(identifier: "de_DE")))))")
        .font(KidsFont.label)
      Spacer()
      Button("Zurücksetzen") {
        model.send("resetDifficulty") {
          $0.player = card.id
          $0.activity = sign.activity
        }
      }
      .buttonStyle(.bordered)
      .font(KidsFont.label)
      .accessibilityLabel("Schwierigkeit von \(card.name) in \(sign.title) zurücksetzen")
    }
  }

  private var limitBinding: Binding<Int> {
    Binding { @MainActor in
      card.limitMinutes
    } set: { @MainActor minutes in
      model.send("setDailyLimit") {
        $0.player = card.id
        $0.number = minutes
      }
    }
  }

  private var modeBinding: Binding<String> {
    Binding { @MainActor in
      card.numberChoiceMode
    } set: { @MainActor mode in
      model.send("setNumberChoiceMode") {
        $0.player = card.id
        $0.mode = mode
      }
    }
  }

  private func rename() {
    let name = newName.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !name.isEmpty else { return }
    model.send("renamePlayer") {
      $0.player = card.id
      $0.name = name
    }
    isRenaming = false
  }
}

/// "Heute gespielt" as a bar: full at the daily limit, in the server's band colour.
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

/// "Kind hinzufügen": a name and the button; the server checks the name and how many children there may be.
struct AddPlayerSection: View {
  let model: WaldabenteuerModel
  /// How many children there are: when it grows, the field starts empty again.
  let count: Int

  @State private var name = ""

  var body: some View {
    HStack(spacing: 16) {
      Text("Kind hinzufügen")
        .font(KidsFont.body.weight(.semibold))
      TextField("Name", text: $name)
        .textFieldStyle(.roundedBorder)
        .font(KidsFont.body)
        .onSubmit(add)
      Button("Hinzufügen", action: add)
        .buttonStyle(.borderedProminent)
        .tint(KidsPalette.woodland)
        .disabled(name.trimmingCharacters(in: .whitespaces).isEmpty)
    }
    .onChange(of: count) { before, after in
      if after > before { name = "" }
    }
  }

  private func add() {
    let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return }
    model.send("addPlayer") { $0.name = trimmed }
  }
}

// MARK: - Videos

/// "Genehmigte Videos": newest first (as the server lists them), each with an 80×45 thumbnail, its title and
/// a remove button that asks "Video entfernen?" first.
struct ApprovedVideosSection: View {
  let model: WaldabenteuerModel
  let videos: [KidsVideoView]

  @State private var pendingRemoval: KidsVideoView?

  var body: some View {
    VStack(alignment: .leading, spacing: 12) {
      Text(model.text("approvedVideos"))
        .font(KidsFont.smallTitle)
        .accessibilityAddTraits(.isHeader)
      if videos.isEmpty {
        Text(model.text("noVideos"))
          .font(KidsFont.body)
          .foregroundStyle(KidsPalette.woodMid)
      }
      ForEach(videos, id: \.id) { video in
        HStack(spacing: 16) {
          VideoThumbnail(video: video, size: CGSize(width: 80, height: 45), showsStill: model.isOnline)
          VStack(alignment: .leading, spacing: 2) {
            Text(video.title)
              .font(KidsFont.body)
              .lineLimit(2)
            Text(video.source == "upload" ? "Eigenes Video" : "YouTube")
              .font(KidsFont.label)
              .foregroundStyle(KidsPalette.woodMid)
          }
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
          .accessibilityLabel(model.text("removeVideo"))
        }
        .padding(.vertical, 4)
        Divider()
      }
    }
    .confirmationDialog(
      model.text("removeVideo"),
      isPresented: Binding(get: { @MainActor in pendingRemoval != nil }, set: { @MainActor presented in if !presented { pendingRemoval = nil } }),
      titleVisibility: .visible,
      presenting: pendingRemoval
    ) { video in
      Button("Entfernen", role: .destructive) {
        model.send("removeVideo") { $0.video = video.id }
      }
      Button(model.text("gateCancel"), role: .cancel) {}
    } message: { video in
      Text(video.title)
    }
  }
}

/// "+ Video hinzufügen": a YouTube link (typed or from the clipboard) and an optional title. The server
/// checks the link; a bad one comes back as "Ungültiger YouTube Link" (see ``ParentNotice``).
struct AddVideoSection: View {
  let model: WaldabenteuerModel
  /// How many videos there are: when it grows, the form starts empty again.
  let videoCount: Int

  @State private var link = ""
  @State private var title = ""

  var body: some View {
    VStack(alignment: .leading, spacing: 12) {
      Text(model.text("addVideo"))
        .font(KidsFont.smallTitle)
        .accessibilityAddTraits(.isHeader)
      TextField(model.text("pasteLink"), text: $link)
        .font(KidsFont.body)
        .textFieldStyle(.roundedBorder)
        .autocorrectionDisabled()
        #if os(iOS)
        .textInputAutocapitalization(.never)
        .keyboardType(.URL)
        #endif
        .onSubmit(add)
      TextField("Titel (optional)", text: $title)
        .font(KidsFont.body)
        .textFieldStyle(.roundedBorder)
        .onSubmit(add)
      HStack(spacing: 16) {
        Button(model.text("pasteFromClipboard"), systemImage: "doc.on.clipboard") {
          if let text = Self.clipboardText() { link = text.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        Button(model.text("add"), systemImage: "plus.circle.fill", action: add)
          .buttonStyle(.borderedProminent)
          .tint(KidsPalette.woodland)
          .disabled(link.trimmingCharacters(in: .whitespaces).isEmpty)
      }
      .font(KidsFont.body)
      .buttonStyle(.bordered)
      .tint(KidsPalette.woodDark)
    }
    .onChange(of: videoCount) { before, after in
      // A video was added: the form starts empty again (a refused link stays for correcting).
      if after > before {
        link = ""
        title = ""
      }
    }
  }

  private func add() {
    let trimmed = link.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return }
    let name = title.trimmingCharacters(in: .whitespacesAndNewlines)
    model.send("addVideo") {
      $0.link = trimmed
      $0.name = name
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
#endif
