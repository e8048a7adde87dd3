import CompletionAPI
import CompletionCore
import Foundation

// Cryptogram (seed 000): the server holds the board and runs every move through the rules; these send the
// move and return the board it computed, with the celebration when the move solved the puzzle.
extension CompletionClient {
  /// Starts a puzzle: today's daily (resumed if begun) or a random one; `timeZone` decides which day is today
  /// (sent as the `Time-Zone` header; a zone set in the request's older `timeZone` field goes there too).
  public func newCryptogram(_ request: NewCryptogramGameRequest, timeZone: String? = nil) async throws -> CryptogramGameView {
    let body = NewCryptogramGameRequest(mode: request.mode, length: request.length, date: request.date)
    return try await send(.createCryptogramGame, body: .json(body), headers: Self.zone(timeZone ?? request.timeZone))
  }

  /// The person's unfinished puzzle, if any (what a reload opens).
  public func currentCryptogram() async throws -> CurrentCryptogramResponse {
    try await send(.getCurrentCryptogram)
  }

  /// One puzzle of the person's, as it stands.
  public func cryptogram(_ id: String) async throws -> CryptogramGameView {
    try await send(.getCryptogramGame, id)
  }

  /// Puts `letter` in `cell`; a right letter fills every cell with the same cipher letter.
  /// `preference` adapts the celebration a solving move returns to the person's motion setting.
  public func guess(_ id: String, cell: Int, letter: Character, preference: MotionPreference? = nil) async throws -> CryptogramMoveResponse {
    try await send(
      .guessCryptogramLetter, id, query: [("preference", preference?.rawValue)],
      body: .json(CryptogramGuessRequest(cell: cell, letter: String(letter))))
  }

  /// Reveals `cell` (the first empty one when nil) and counts a hint.
  public func hint(_ id: String, cell: Int? = nil, preference: MotionPreference? = nil) async throws -> CryptogramMoveResponse {
    try await send(.hintCryptogram, id, query: [("preference", preference?.rawValue)], body: .json(CryptogramHintRequest(cell: cell)))
  }

  /// Stops the clock.
  public func pauseCryptogram(_ id: String) async throws -> CryptogramMoveResponse {
    try await send(.pauseCryptogram, id)
  }

  /// Starts the clock again.
  public func resumeCryptogram(_ id: String) async throws -> CryptogramMoveResponse {
    try await send(.resumeCryptogram, id)
  }

  /// After failing: plays on without a mistake limit.
  public func continueCryptogram(_ id: String) async throws -> CryptogramMoveResponse {
    try await send(.continueCryptogram, id)
  }

  /// Starts the same puzzle again as a new attempt.
  public func restartCryptogram(_ id: String) async throws -> CryptogramMoveResponse {
    try await send(.restartCryptogram, id)
  }

  /// Gives the puzzle up (it counts as played, not solved).
  public func abandonCryptogram(_ id: String) async throws -> CryptogramMoveResponse {
    try await send(.abandonCryptogram, id)
  }

  /// The person's numbers: played, solved, streaks, history and the calendar, in `timeZone`'s days.
  public func cryptogramStats(timeZone: String? = nil) async throws -> CryptogramStatsView {
    try await send(.getCryptogramStats, headers: Self.zone(timeZone))
  }

  /// What sharing a solved puzzle sends (spoiler-free text and a link).
  public func shareCryptogram(_ id: String) async throws -> CryptogramShareView {
    try await send(.shareCryptogram, id)
  }

  /// The solved puzzle's share card (PNG).
  public func cryptogramCard(_ id: String) async throws -> DownloadedFile {
    try await download(.getCryptogramCard, id)
  }

  /// Today's daily (solved or not, the streak, seconds to the next) and `month`'s dailies ("2026-11"; this
  /// month when nil), each with how the person's attempts went.
  public func cryptogramDailies(month: String? = nil, timeZone: String? = nil) async throws -> CryptogramDailiesView {
    try await send(.getCryptogramDailies, query: [("month", month)], headers: Self.zone(timeZone))
  }

  /// A daily's link-preview picture (PNG): its day and an invitation, no letter of the quote.
  public func cryptogramDailyCard(date: String) async throws -> DownloadedFile {
    try await download(.getCryptogramDailyCard, date)
  }

  /// Starts making a solved puzzle's share video in the background (or finds it made).
  public func startCryptogramVideo(_ id: String) async throws -> ShareVideoView {
    try await send(.startCryptogramVideo, id)
  }

  /// Where a solved puzzle's share video stands, with its progress.
  public func cryptogramVideoStatus(_ id: String) async throws -> ShareVideoView {
    try await send(.getCryptogramVideoStatus, id)
  }

  /// A solved puzzle's finished share video (MP4).
  public func cryptogramVideo(_ id: String) async throws -> DownloadedFile {
    try await download(.getCryptogramVideo, id)
  }
}
