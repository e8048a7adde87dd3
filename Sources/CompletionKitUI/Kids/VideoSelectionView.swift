#if canImport(SwiftUI)
import SwiftUI
import KidsGame

/// "Wähle ein Video!": only the videos a parent approved, in a 2×3 grid of 200×112 thumbnails with titles of
/// up to two lines (it scrolls after six), and "Du hast [X] Minuten Zeit!". "Zurück" gives the coins back.
/// With no approved videos: "Noch keine Videos da" / "Frag bitte Mama oder Papa".
public struct VideoSelectionView: View {
  let model: KidsGameModel

  /// Columns of the grid.
  static let columns = 3
  /// Rows shown before it scrolls.
  static let visibleRows = 2
  /// Thumbnail size.
  static let thumbnail = CGSize(width: 200, height: 112)

  /// The video selection for `model`.
  public init(model: KidsGameModel) {
    self.model = model
  }

  public var body: some View {
    let videos = model.machine.data.settings.parentSettings.approvedVideos
    let minutes = model.machine.navigation.redemption?.minutes ?? 0
    ZStack {
      ForestBackground()
      VStack(spacing: 20) {
        HStack(alignment: .top) {
          BackButton(model: model)
          Spacer()
          VStack(spacing: 6) {
            Text(ScreenText.videoSelectionTitle.text())
              .font(KidsFont.title)
              .accessibilityAddTraits(.isHeader)
            Text(ScreenText.videoTimeAvailable.text(LineValues(x: minutes)))
              .font(KidsFont.body)
          }
          .foregroundStyle(KidsPalette.woodDark)
          .padding(.horizontal, 36)
          .padding(.vertical, 12)
          .background { WoodSurface() }
          Spacer()
          // Balances the back button so the title stays centred.
          Color.clear.frame(width: KidsMetrics.minTouch, height: KidsMetrics.minTouch)
        }
        if videos.isEmpty {
          emptyState
        } else {
          grid(videos)
        }
      }
      .padding(KidsMetrics.screenPadding)
    }
  }

  private func grid(_ videos: [ApprovedVideo]) -> some View {
    let rowHeight = Self.thumbnail.height + 90
    return ScrollView {
      LazyVGrid(
        columns: Array(repeating: GridItem(.fixed(Self.thumbnail.width + 40), spacing: 36), count: Self.columns),
        spacing: 28
      ) {
        ForEach(videos) { video in
          VideoTile(video: video, isReachable: model.isOnline || !video.needsInternet) {
            model.chooseVideo(video.id)
          }
        }
      }
      .padding(.vertical, 12)
    }
    .frame(maxHeight: rowHeight * CGFloat(Self.visibleRows) + 28 + 24)
    .scrollIndicators(.visible)
  }

  private var emptyState: some View {
    VStack(spacing: 16) {
      Spacer()
      Image(systemName: "film.stack")
        .font(.system(size: 64))
        .foregroundStyle(KidsPalette.woodMid)
        .accessibilityHidden(true)
      Text(ScreenText.noVideos.text())
        .font(KidsFont.smallTitle)
      Text(ScreenText.askParent.text())
        .font(KidsFont.body)
      Spacer()
    }
    .foregroundStyle(KidsPalette.woodDark)
    .padding(40)
    .frame(maxWidth: 640)
    .background(KidsPalette.cream.opacity(0.9), in: .rect(cornerRadius: KidsMetrics.cornerRadius, style: .continuous))
    .accessibilityElement(children: .combine)
  }
}

/// One approved video: its thumbnail (YouTube's still, or a drawn frame for an upload) and its title.
struct VideoTile: View {
  let video: ApprovedVideo
  /// False for a YouTube video while offline: shown faded, still tappable so Bennie can explain.
  let isReachable: Bool
  let action: () -> Void

  var body: some View {
    Button(action: action) {
      VStack(spacing: 10) {
        VideoThumbnail(video: video, size: VideoSelectionView.thumbnail)
        Text(video.title)
          .font(KidsFont.label)
          .foregroundStyle(KidsPalette.ink)
          .multilineTextAlignment(.center)
          .lineLimit(2, reservesSpace: true)
          .frame(width: VideoSelectionView.thumbnail.width)
      }
      .padding(12)
      .background(KidsPalette.cream, in: .rect(cornerRadius: 18, style: .continuous))
      .overlay {
        RoundedRectangle(cornerRadius: 18, style: .continuous)
          .strokeBorder(KidsPalette.woodMid, lineWidth: 3)
      }
      .opacity(isReachable ? 1 : 0.6)
    }
    .buttonStyle(.kidsPress)
    .accessibilityElement(children: .combine)
  }
}

/// A video's still: YouTube's thumbnail, or (uploads, or while it loads) a calm drawn frame.
struct VideoThumbnail: View {
  let video: ApprovedVideo
  let size: CGSize

  var body: some View {
    ZStack {
      RoundedRectangle(cornerRadius: 10, style: .continuous)
        .fill(KidsPalette.sky)
      Image(systemName: video.source == .upload ? "film" : "play.rectangle")
        .font(.system(size: size.height * 0.35))
        .foregroundStyle(KidsPalette.woodMid)
      if let address = video.thumbnailURL, let url = URL(string: address) {
        AsyncImage(url: url) { phase in
          if let image = phase.image {
            image
              .resizable()
              .scaledToFill()
          }
        }
      }
    }
    .frame(width: size.width, height: size.height)
    .clipShape(.rect(cornerRadius: 10, style: .continuous))
    .accessibilityHidden(true)
  }
}

#Preview("Video selection, empty") {
  VideoSelectionView(model: .previewHome(coins: 12, then: [.tapChest, .redeem(.fiveMinutes, online: true)]))
    .frame(width: KidsMetrics.designSize.width, height: KidsMetrics.designSize.height)
}
#endif
