import CompletionAPI
import Foundation

// Waldabenteuer (seed 001): the server holds the whole game; these send what was tapped and return the screen
// it computed with the effects to carry out. A move the rules refuse throws an ``APIError`` whose `body` is a
// `KidsRefusalBody` (the unchanged screen and the child's friendly line).
extension CompletionClient {
  /// The page (the "app") starts: the loading screen, then "Wer spielt heute?", or the game another tab is playing.
  /// `timeZone` (the `Time-Zone` header; a zone in the request's older `timeZone` field goes there too)
  /// decides when the family's day starts.
  public func kidsLaunch(_ request: KidsLaunchRequest = KidsLaunchRequest(), timeZone: String? = nil) async throws -> KidsResponse {
    var body = request
    body.timeZone = nil
    return try await send(.launchKids, body: .json(body), headers: Self.zone(timeZone ?? request.timeZone))
  }

  /// One tap, trace, heartbeat or parent command; an `eventID` seen before answers the first answer again.
  /// A heartbeat's `timeZone` goes as the `Time-Zone` header, as for ``kidsLaunch(_:timeZone:)``.
  public func kidsEvent(_ request: KidsEventRequest, timeZone: String? = nil) async throws -> KidsResponse {
    var body = request
    body.timeZone = nil
    return try await send(.sendKidsEvent, body: .json(body), headers: Self.zone(timeZone ?? request.timeZone))
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
