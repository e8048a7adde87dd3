import CompletionAPI
import Foundation

// Waldabenteuer (seed 001): the server holds the whole game; these send what was tapped and return the screen
// it computed with the effects to carry out. A move the rules refuse throws an ``APIError`` whose `body` is a
// `KidsRefusalBody` (the unchanged screen and the child's friendly line).
extension CompletionClient {
  /// The page (the "app") starts: the loading screen, then "Wer spielt heute?", or the game another tab is playing.
  public func kidsLaunch(_ request: KidsLaunchRequest = KidsLaunchRequest()) async throws -> KidsResponse {
    try await send(.launchKids, body: .json(request))
  }

  /// One tap, trace, heartbeat or parent command; an `eventID` seen before answers the first answer again.
  public func kidsEvent(_ request: KidsEventRequest) async throws -> KidsResponse {
    try await send(.sendKidsEvent, body: .json(request))
  }

  /// The screen as it is, changing nothing.
  public func kidsState() async throws -> KidsResponse {
    try await send(.getKidsState)
  }

  /// The German screen words, coin numbers, client timings and choreographies the game's screens use.
  public func kidsText() async throws -> KidsTextCatalog {
    try await send(.getKidsText)
  }

  /// Uploads a video from the parent area (`contentType` one plain `video/…` type: mp4, webm, ogg, quicktime).
  public func uploadKidsVideo(_ data: Data, contentType: String, title: String? = nil) async throws -> KidsResponse {
    try await send(.uploadKidsVideo, query: [("title", title)], body: .bytes(data, contentType: contentType))
  }

  /// An uploaded video of the family, whole or the part `range` names (an HTTP `Range` value such as `bytes=0-1023`).
  public func kidsVideoFile(_ id: String, range: String? = nil) async throws -> DownloadedFile {
    try await download(.getKidsVideoFile, id, headers: range.map { [("Range", $0)] } ?? [])
  }
}
