#if canImport(SwiftUI)
import CompletionAPI
import CompletionClient
import Foundation
import SwiftUI

/// "Wähle ein Video!": the videos a parent approved (`view.videos`), in a 2×3 grid of 200×112 thumbnails with
/// titles of up to two lines (it scrolls after six), and "Du hast [X] Minuten Zeit!" (`view.paidMinutes`).
/// "Zurück" gives the coins back. With no approved videos: "Noch keine Videos da" / "Frag bitte Mama oder Papa".
public struct VideoSelectionView: View {
  let model: WaldabenteuerModel

  /// Columns of the grid.
  static let columns = 3
  /// Rows shown before it scrolls.
  static let visibleRows = 2
  /// Thumbnail size.
  static let thumbnail = CGSize(width: 200, height: 112)

  /// The video selection for `model`.
  public init(model: WaldabenteuerModel) {
    self.model = model
  }

  /// The title, the minutes paid for, and the videos (or the empty state).
  public var body: some View {
    let videos = model.view?.videos ?? []
    ZStack {
      ForestBackground()
      VStack(spacing: 20) {
        HStack(alignment: .top) {
          BackButton(model: model)
          Spacer()
          VStack(spacing: 6) {
            Text(model.text("videoSelectionTitle"))
              .font(KidsFont.title)
              .accessibilityAddTraits(.isHeader)
            if let minutes = model.view?.paidMinutes {
              Text(model.text("videoTimeAvailable", "\(minutes)"))
                .font(KidsFont.body)
            }
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

  private func grid(_ videos: [KidsVideoView]) -> some View {
    let rowHeight = Self.thumbnail.height + 90
    return ScrollView {
      LazyVGrid(
        columns: Array(repeating: GridItem(.fixed(Self.thumbnail.width + 40), spacing: 36), count: Self.columns),
        spacing: 28
      ) {
        ForEach(videos, id: \.id) { video in
          // Offline, a YouTube video is faded but still tappable: the server answers with Bennie's line.
          VideoTile(video: video, isReachable: model.isOnline || !video.needsInternet, offlineLine: model.catalog?.lines["noInternet"]) {
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
      LemmingView(size: 96)
      Text(model.text("noVideos"))
        .font(KidsFont.smallTitle)
      Text(model.text("askParent"))
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
  let video: KidsVideoView
  /// False for a YouTube video while offline: shown faded, with the catalog's "no internet" words.
  let isReachable: Bool
  let offlineLine: String?
  let action: @MainActor () -> Void

  var body: some View {
    Button(action: action) {
      VStack(spacing: 10) {
        VideoThumbnail(video: video, size: VideoSelectionView.thumbnail, showsStill: isReachable)
        Text(video.title)
          .font(KidsFont.label)
          .foregroundStyle(KidsPalette.ink)
          .multilineTextAlignment(.center)
          .lineLimit(2, reservesSpace: true)
          .frame(width: VideoSelectionView.thumbnail.width)
        if !isReachable, let offlineLine {
          Text(offlineLine)
            .font(KidsFont.label)
            .foregroundStyle(KidsPalette.woodDark)
            .multilineTextAlignment(.center)
            .frame(width: VideoSelectionView.thumbnail.width)
        }
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

/// A video's still: YouTube's thumbnail, or (uploads, offline, or while it loads) a calm drawn frame.
struct VideoThumbnail: View {
  let video: KidsVideoView
  let size: CGSize
  var showsStill = true

  var body: some View {
    ZStack {
      RoundedRectangle(cornerRadius: 10, style: .continuous)
        .fill(KidsPalette.sky)
      Image(systemName: video.source == "upload" ? "film" : "play.rectangle")
        .font(.system(size: size.height * 0.35))
        .foregroundStyle(KidsPalette.woodMid)
      if showsStill, video.source != "upload", let address = video.thumbnailURL, let url = URL(string: address) {
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
#endif
