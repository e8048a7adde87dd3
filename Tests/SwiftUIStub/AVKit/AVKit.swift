// NOT AVKit: its SwiftUI player (`VideoPlayer`, from AVKit's SwiftUI overlay), with Apple's signatures and
// no behaviour (see ../README.md).

@_exported import AVFoundation
import SwiftUI

/// A view that plays `player`'s content with the system's controls.
public struct VideoPlayer<VideoOverlay: View> {
  public init(player: AVPlayer?, @ViewBuilder videoOverlay: () -> VideoOverlay) { fatalError() }
}
extension VideoPlayer where VideoOverlay == EmptyView {
  public init(player: AVPlayer?) { fatalError() }
}
extension VideoPlayer: View {
  public var body: Never { fatalError() }
}
