import CompletionAPI
import CompletionCore
import Fluent
import Foundation
import KidsGame
import StreamingJSON
import Vapor

/// Waldabenteuer over HTTP. The server holds the whole game (`KidsGame.GameMachine`, one per account):
/// the client sends what was tapped and draws the screen it gets back. Every event runs through the
/// ``GameRunner`` (versioned save); a won level is recorded by the ``CompletionRecorder`` and every other
/// coin change goes into the ledger, in the same transaction as the game.
struct KidsController: RouteCollection {
  /// How much play time one heartbeat can add at most: a tab that slept does not count as playing.
  static let maxHeartbeatGap: TimeInterval = KidsClientTiming.maxHeartbeatGap

  func boot(routes: any RoutesBuilder) throws {
    routes.on(.getKidsText, use: text)
    routes.on(.getKidsState, use: state)
    routes.on(.launchKids, use: launch)
    routes.on(.sendKidsEvent, use: event)
    routes.on(.uploadKidsVideo, body: .stream) { req in try await IdempotentCreate.run(req, streamed: true, self.upload) }
    routes.on(.getKidsVideoFile, use: videoFile)
  }

  // MARK: Routes

  /// `GET /api/kids/text`: the German screen words and coin numbers, from Swift.
  @Sendable func text(req: Request) async throws -> KidsTextCatalog {
    KidsTextCatalog(
      screen: Dictionary(uniqueKeysWithValues: ScreenText.allCases.map { ("\($0)", $0.rawValue) }),
      coinsPerChest: CoinRules.perChest, milestoneStep: CoinRules.milestoneStep,
      tiers: Dictionary(
        uniqueKeysWithValues: VideoTier.allCases.map { ($0.rawValue, ["cost": $0.cost, "minutes": $0.minutes, "bonus": $0.bonusMinutes]) }),
      timing: KidsTimingView(
        heartbeatSeconds: KidsClientTiming.heartbeatSeconds, videoTickSeconds: KidsClientTiming.videoTickSeconds,
        loadingTickSeconds: KidsClientTiming.loadingTickSeconds),
      motion: Dictionary(uniqueKeysWithValues: KidsChoreography.all.map { ($0.name, ChoreographyPayload($0, preference: .full)) }),
      lines: Self.pageLines, maxTracePoints: NumberChoiceRound.maxPointsPerStroke, videoTypes: Self.videoFormats.map { "video/\($0.subtype)" })
  }

  /// `GET /api/kids/state`: the screen as it is.
  @Sendable func state(req: Request) async throws -> Response {
    let userID = try await req.userOrVisitor().requireID()
    let now = req.application.services.clock.now()
    let machine = try await KidsGameRecord.load(userID, on: req.db).flatMap(Self.machine(from:)) ?? GameMachine(seed: 0)
    return try Self.respond(KidsResponse(view: view(machine, req, at: now), effects: []), status: .ok)
  }

  /// `POST /api/kids/launch {timeZone}`: the page (the "app") starts. Every launch shows the loading screen
  /// and then "Wer spielt heute?" (``GameMachine/launch(from:seed:at:)``); the recovery rules decide which
  /// screen the child who was playing comes back to, and a video's clock stands still until then.
  @Sendable func launch(req: Request) async throws -> Response {
    let body = req.body.data == nil ? KidsLaunchRequest() : try req.decodeJSON(KidsLaunchRequest.self)
    let zone = try req.context.timeZone(body: body.timeZone, invalid: KidsError.invalidTimeZone)
    let tab = try Self.tab(body.tab)
    let userID = try await req.userIDCreatingGuest()
    return try await run(req, userID: userID, event: nil) { machine, record, now, logger in
      if Self.joinsGameInPlay(record, tab: tab, reload: body.reload ?? false, at: now) {
        // Another tab of this family was in play a moment ago: this one shows the same game rather than
        // relaunching it (which would pull the child in the other tab out of their level). A reload, or a
        // launch once the other tab has been quiet longer than a heartbeat gap, starts the seed's flow.
        record.activeTab = tab
        record.lastHeartbeatAt = now
        let effects = Self.rollDay(&machine, &record, zone: zone, at: now)
        // The other tab went to the background when this one opened; this one is in front.
        let resumed = machine.state == .videoPlaying ? machine.handle(.appForegrounded(at: now)) : []
        return (effects + resumed).filter { $0.refusal == nil }
      }
      record.activeTab = tab
      let saved = record.snapshot.isEmpty ? nil : Data(record.snapshot.utf8)
      let (launched, note) = GameMachine.launch(from: saved, seed: .random(in: .min ... .max), at: now)
      if note.outcome != .restored, note.outcome != .freshStart {
        logger.notice("waldabenteuer recovery: \(note.outcome.rawValue) from \(note.savedState?.name ?? "nothing") to \(note.restoredState.name) \(note.problems)")
      }
      machine = launched
      let effects = Self.rollDay(&machine, &record, zone: zone, at: now)
      record.lastHeartbeatAt = now
      return effects.filter { $0.refusal == nil }
    }
  }

  /// `POST /api/kids/events`: one tap, trace or parent change.
  @Sendable func event(req: Request) async throws -> Response {
    let body = try req.decodeJSON(KidsEventRequest.self)
    // As documented: 1–64 visible ASCII characters (no space, no control character).
    if let id = body.eventID, id.isEmpty || id.unicodeScalars.count > 64 || !id.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) {
      throw KidsError.invalidField("eventID", "use a UUID")
    }
    let userID = try await req.userIDCreatingGuest()
    if body.type == "heartbeat" {
      let zone = try req.context.timeZone(body: body.timeZone, invalid: KidsError.invalidTimeZone)
      let tab = try Self.tab(body.tab)
      return try await run(req, userID: userID, event: body) { machine, record, now, _ in
        if let tab { record.activeTab = tab }
        return Self.heartbeat(&machine, &record, zone: zone, at: now)
      }
    }
    let event = try KidsPresenter.event(from: body, at: req.application.services.clock.now())
    // A tab that goes out of sight (hidden, closed) is no longer the one in play: the next page opened is a
    // launch, never a join.
    let hiddenTab = try body.type == "appBackgrounded" ? Self.tab(body.tab) : nil
    let response = try await run(req, userID: userID, event: body) { machine, record, now, _ in
      if let hiddenTab, record.activeTab == hiddenTab { record.activeTab = nil }
      // The event's own time is taken when it is applied (after any queued event of the same family).
      return machine.handle(Self.retimed(event, at: now))
    }
    // The file goes only once its removal is committed (an attempt may be judged again, or lose its save).
    if case .parent(.removeVideo(let id)) = event, response.status == .ok {
      Self.deleteUpload(id, of: userID, in: req.application.serverOptions)
    }
    return response
  }

  /// `POST /api/kids/videos?title=…`: a parent uploads a video file (the raw body, `Content-Type: video/…`).
  /// Only from the parent area; the file plays offline.
  @Sendable func upload(req: Request) async throws -> Response {
    // Exactly one plain `video/…` type: parameters or a list (`video/mp4, text/html`) are refused, so what is
    // served back is exactly what was checked.
    let declared = req.headers[.contentType]
    guard declared.count == 1, let raw = declared.first?.trimmingCharacters(in: .whitespaces).lowercased(),
      raw.hasPrefix("video/"), !raw.contains(";"), !raw.contains(","), let ext = Self.videoExtensions[String(raw.dropFirst(6))]
    else {
      let named = declared.joined(separator: ", ")
      throw KidsError.unsupportedVideoType(named.isEmpty ? "no content type" : named)
    }
    let subType = String(raw.dropFirst(6))
    let userID = try await req.userIDCreatingGuest()
    // Checked before the body is read, so a child's tap can never fill the disk.
    guard let record = try await KidsGameRecord.load(userID, on: req.db), let machine = Self.machine(from: record),
      machine.state == .parentDashboard
    else { throw KidsError.refused(.parentGateRequired) }
    let options = req.application.serverOptions
    _ = try await UploadQuota.bytesLeft(for: userID, req: req)
    // A declared length says it all before a byte is read (and the server then skips the body on its own).
    let length = req.headers.first(name: .contentLength).flatMap(Int.init)
    if let length, length > options.maxUploadSize { throw KidsError.uploadTooLarge(options.maxUploadSize) }
    // Held against the quota before a byte is written, so uploads running at once cannot pass it together.
    let uploads = req.application.services.uploads
    let hold = try await uploads.reserve(userID: userID, bytes: length, limit: options.maxUploadSize, req: req)
    let id = "\(GameMachine.uploadIDPrefix)\(UUID().uuidString.lowercased()).\(ext)"
    let folder = Self.uploadFolder(of: userID, in: options)
    let file = folder.appendingPathComponent(id)
    // Written under a temporary name, so a crash mid-upload leaves only a file the start-up sweep removes.
    let partial = folder.appendingPathComponent(UploadLedger.partialPrefix + id)
    let size: Int
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      size = try await Self.receive(
        req.bodyChunks(), into: partial, subType: subType, limit: options.maxUploadSize, quotaLeft: hold.bytes,
        quota: UploadQuotaError(options), threadPool: req.application.threadPool)
    } catch {
      await uploads.release(hold, on: req.db)
      try? FileManager.default.removeItem(at: partial)
      throw error
    }
    let title = req.query[String.self, at: "title"] ?? ""
    do {
      return try await uploads.settle(hold, userID: userID, actual: size, req: req) {
        try FileManager.default.moveItem(at: partial, to: file)
        let response = try await self.run(req, userID: userID, event: nil) { machine, _, now, _ in
          machine.handle(.parent(.addUploadedVideo(id: id, title: title, at: now)))
        }
        if response.status != .ok { try? FileManager.default.removeItem(at: file) }
        return response
      }
    } catch {
      try? FileManager.default.removeItem(at: partial)
      try? FileManager.default.removeItem(at: file)
      throw error
    }
  }

  /// `GET /api/kids/videos/{id}/file`: an uploaded video, only for its own family (Range requests work).
  @Sendable func videoFile(req: Request) async throws -> Response {
    guard let userID = req.currentSession?.userID, let id = req.parameters.get("id") else { throw KidsError.videoNotFound }
    guard let record = try await KidsGameRecord.load(userID, on: req.db), let machine = Self.machine(from: record),
      machine.data.settings.parentSettings.approvedVideos.contains(where: { $0.id == id && $0.source == .upload })
    else { throw KidsError.videoNotFound }
    let file = Self.uploadFolder(of: userID, in: req.application.serverOptions).appendingPathComponent(id)
    guard FileManager.default.fileExists(atPath: file.path) else { throw KidsError.videoNotFound }
    let ext = file.pathExtension
    let subType = Self.videoExtensions.first { $0.value == ext }?.key ?? "mp4"
    let response = try await req.fileio.asyncStreamFile(at: file.path, mediaType: HTTPMediaType(type: "video", subType: subType))
    UploadedFileHeaders.apply(to: &response.headers, fileName: "video.\(ext)", inline: false)
    return response
  }

  // MARK: Running an event

  /// Runs one step of the family's game through the runner: loads the game (a first visit starts one),
  /// lets `step` change it, and saves it on the version it read, with its coin changes, in one
  /// transaction. A step the rules refuse changes nothing and answers 4xx with the unchanged screen and
  /// the child's friendly line. With an event id, the first committed answer is replayed to retries.
  func run(
    _ req: Request, userID: UUID, event: KidsEventRequest?,
    _ step: @escaping @Sendable (inout GameMachine, inout KidsGameRecord, Date, Logger) throws -> [GameEffect]
  ) async throws -> Response {
    let services = req.application.services
    let db = req.db
    let logger = req.logger
    let maxUpload = services.options.maxUploadSize
    // The fingerprint is made from the decoded event: the same event is the same request in any key order.
    let idempotency = try event.flatMap { event in
      try event.eventID.map { try IdempotencyKey(userID: userID, namespace: "kids:", key: $0, scope: "POST \(req.url.path)", request: event, body: req) }
    }
    let stored = try await services.runner.run(game: userID, on: db, idempotency: idempotency, remembers: true) { now, mayUseRemembered in
      // The family's game as this process last loaded or saved it, else as stored (see DecodedStateCache).
      let remembered = mayUseRemembered ? services.kidsGames.remembered(userID) : nil
      let stored: KidsGameRecord?
      if let remembered { stored = remembered.record } else { stored = try await KidsGameRecord.load(userID, on: db) }
      var record = stored ?? KidsGameRecord(
        userID: userID, snapshot: "", version: 0, recentEventIDs: "[]", playDay: nil, timeZone: nil, lastHeartbeatAt: nil,
        updatedAt: now)
      var machine =
        remembered?.value
        ?? stored.flatMap { stored in try? services.kidsGames.loaded(stored, text: stored.snapshot, for: userID, decode: Self.readMachine) }
        ?? Self.newOrRecovered(record, logger: logger)
      let before = (machine, record)
      let effects: [GameEffect]
      do {
        effects = try step(&machine, &record, now, logger)
      } catch {
        if remembered != nil { return .recheck }
        throw error
      }
      // An answer that saves nothing has no version check: one judged on a remembered game is judged again.
      let savesNothing =
        effects.first?.refusal != nil
        || (stored != nil && machine == before.0 && record.playDay == before.1.playDay
          && record.lastHeartbeatAt == before.1.lastHeartbeatAt && record.timeZone == before.1.timeZone
          && record.activeTab == before.1.activeTab)
      if savesNothing, remembered != nil { return .recheck }
      if let refusal = effects.first?.refusal {
        logger.notice("waldabenteuer \(refusal)")
        let error = KidsError.refused(refusal.reason)
        let body = KidsRefusalBody(
          code: error.code, message: error.message,
          view: KidsPresenter.view(of: before.0, at: now, maxUploadBytes: maxUpload), effects: KidsPresenter.effects(effects))
        return .respond(try StoredResponse(body, status: error.status))
      }
      let response = try StoredResponse(
        KidsResponse(view: KidsPresenter.view(of: machine, at: now, maxUploadBytes: maxUpload), effects: KidsPresenter.effects(effects)))
      if savesNothing { return .respond(response) }  // nothing to save (an idle tick with no prompt due)
      let expected = record.version
      record.snapshot = try Self.stored(machine)
      record.version += 1
      record.updatedAt = now
      let coins = effects.compactMap { effect -> CoinChange? in
        if case .coinsChanged(let change) = effect { return change }
        return nil
      }
      let zone = record.timeZone ?? TimeZone.gmt.identifier
      let toSave = record
      let saved = machine
      return .save(
        commit: { db in
          let written =
            stored == nil ? try await KidsGameRecord.insert(toSave, on: db) : try await toSave.save(expectedVersion: expected, on: db)
          guard written else { return nil }
          try await Self.record(coins, userID: userID, timeZone: zone, at: now, on: db)
          for case .transition(let from, let to) in effects { logger.info("waldabenteuer \(from.name) → \(to.name)") }
          return response
        },
        committed: { services.kidsGames.committed(toSave, text: toSave.snapshot, value: saved, for: userID, decodedBy: Self.readMachine) })
    }
    guard stored.replayed else { return stored.response }
    // A retry gets the first answer, marked as a replay.
    guard let first = try? JSONDecoder().decode(KidsResponse.self, from: stored.body) else { return stored.response }
    return try StoredResponse(KidsResponse(view: first.view, effects: first.effects, replayed: true)).response
  }

  /// Carries the machine's coin changes into the ledger: a won level is a completion (the recorder pays
  /// it), a redemption, refund or reset is a ledger entry of its own. The machine refuses what it cannot
  /// afford, so the ledger refusing anything means they disagree: the transaction is rolled back.
  static func record(_ coins: [CoinChange], userID: UUID, timeZone: String, at now: Date, on db: any Database) async throws {
    let ledger = SQLLedgerStore(db)
    for change in coins {
      if change.reason == .earned {
        let completion = KidsCompletion.completion(of: change, account: userID.uuidString, timeZone: timeZone, at: now)
        _ = try await CompletionRecorder.record(completion, rules: KidsCompletion.rules, preference: .full, on: db)
      } else {
        let entry = KidsCompletion.ledgerEntry(for: change, account: userID.uuidString, at: now)
        _ = try await ledger.recordAllowed(entry)
      }
    }
  }

  // MARK: Helpers

  /// The text a family's game is saved as: the core's snapshot, written by the streaming encoder with
  /// Foundation's own date numbers, so rows written by `GameMachine.encoded()` and by this read back alike.
  static func stored(_ machine: GameMachine) throws -> String {
    String(decoding: try StreamingJSONEncoder(dates: .secondsSinceReferenceDate).encode(machine.snapshot()), as: UTF8.self)
  }

  /// The saved game as it was left (no recovery rules: a request is not a relaunch).
  static func machine(from record: KidsGameRecord) -> GameMachine? {
    try? readMachine(record.snapshot)
  }

  /// The game saved as `snapshot`, or the decoder's error.
  static func readMachine(_ snapshot: String) throws -> GameMachine {
    guard let machine = GameMachine(resuming: try JSONDecoder().decode(GameSnapshot.self, from: Data(snapshot.utf8))) else {
      throw UnresumableSnapshot()
    }
    return machine
  }

  /// A snapshot that decodes but does not describe a game that can go on.
  struct UnresumableSnapshot: Error {}

  /// A new game, or, for a saved game that no longer reads, whatever the recovery rules can save of it.
  private static func newOrRecovered(_ record: KidsGameRecord, logger: Logger) -> GameMachine {
    let seed = UInt64.random(in: .min ... .max)
    guard !record.snapshot.isEmpty else { return GameMachine(seed: seed) }
    let (machine, note) = GameMachine.restore(from: Data(record.snapshot.utf8), seed: seed)
    logger.warning("waldabenteuer: saved game did not read back; recovered as \(note.outcome.rawValue) \(note.problems)")
    return machine
  }

  private func view(_ machine: GameMachine, _ req: Request, at now: Date) -> KidsView {
    KidsPresenter.view(of: machine, at: now, maxUploadBytes: req.application.serverOptions.maxUploadSize)
  }

  /// Counts play time since the last heartbeat (at most ``maxHeartbeatGap``) for the child playing, starts
  /// a new day's count after midnight in the family's time zone, and checks a running video clock.
  static func heartbeat(_ machine: inout GameMachine, _ record: inout KidsGameRecord, zone: TimeZone, at now: Date) -> [GameEffect] {
    var effects = rollDay(&machine, &record, zone: zone, at: now)
    if let last = record.lastHeartbeatAt, let player = machine.activePlayer, countsAsPlay(machine.state) {
      let gap = min(max(0, now.timeIntervalSince(last)), maxHeartbeatGap)
      effects += machine.handle(.playTimeUpdated(minutesToday: (player.totalPlayTimeToday + gap) / 60, at: now))
    }
    if machine.state == .videoPlaying { effects += machine.handle(.videoTick(at: now)) }
    record.lastHeartbeatAt = now
    return effects.filter { $0.refusal == nil }
  }

  /// Whether a launch from `tab` joins the game another tab is playing: not a reload, from a different tab
  /// that is still in front (a hidden or closed tab gives up its place with `appBackgrounded`), and that tab
  /// was seen within a heartbeat gap (a visible page beats every ``KidsClientTiming/heartbeatSeconds``).
  static func joinsGameInPlay(_ record: KidsGameRecord, tab: String?, reload: Bool, at now: Date) -> Bool {
    guard !reload, let tab, let active = record.activeTab, active != tab, let last = record.lastHeartbeatAt,
      !record.snapshot.isEmpty
    else { return false }
    return now.timeIntervalSince(last) <= maxHeartbeatGap
  }

  /// A tab id as the page sent it: nil, or 1…64 characters.
  static func tab(_ value: String?) throws(KidsError) -> String? {
    guard let value else { return nil }
    guard (1...64).contains(value.unicodeScalars.count) else { throw KidsError.invalidField("tab", "use the page's tab id (1 to 64 characters)") }
    return value
  }

  /// Starts a new day's play-time count when the family's date changed.
  static func rollDay(_ machine: inout GameMachine, _ record: inout KidsGameRecord, zone: TimeZone, at now: Date) -> [GameEffect] {
    record.timeZone = zone.identifier
    let today = CalendarDay(now, in: zone).description
    guard record.playDay != today else { return [] }
    let isFirst = record.playDay == nil
    record.playDay = today
    return isFirst ? [] : machine.handle(.dayChanged)
  }

  /// Screens where time counts as play time (not loading, choosing a child, or the parent area).
  static func countsAsPlay(_ state: GameState) -> Bool {
    switch state {
    case .loading, .playerSelection, .parentGate, .parentDashboard: false
    default: true
    }
  }

  /// `event` with its time set to `now`.
  static func retimed(_ event: GameEvent, at now: Date) -> GameEvent {
    switch event {
    case .rollDie: .rollDie(at: now)
    case .tapNumber(let number, _): .tapNumber(number, at: now)
    case .traceStroke(let points, _): .traceStroke(points, at: now)
    case .paintCell(let cell, let colour, _): .paintCell(cell, colour, at: now)
    case .traceLabyrinth(let points, _): .traceLabyrinth(points, at: now)
    case .eraseCell(let cell, _): .eraseCell(cell, at: now)
    case .selectPlayer(let id, _): .selectPlayer(id, at: now)
    case .chooseVideo(let id, let online, _): .chooseVideo(id: id, online: online, at: now)
    case .resumeUnwatchedVideo(let online, _): .resumeUnwatchedVideo(online: online, at: now)
    case .videoTick: .videoTick(at: now)
    case .appBackgrounded: .appBackgrounded(at: now)
    case .appForegrounded: .appForegrounded(at: now)
    case .parent(.addVideo(let link, let title, _)): .parent(.addVideo(link: link, title: title, at: now))
    default: event
    }
  }

  static func respond(_ body: some Encodable, status: HTTPResponseStatus) throws -> Response {
    try StoredResponse(body, status: status).response
  }

  // MARK: Uploads

  /// Video types a browser plays: MIME subtype, the file extension they are stored under, the name a parent reads.
  static let videoFormats: [(subtype: String, ext: String, name: String)] = [
    ("mp4", "mp4", "MP4"), ("webm", "webm", "WebM"), ("ogg", "ogv", "Ogg"), ("quicktime", "mov", "QuickTime"),
  ]
  /// The stored file's extension by MIME subtype.
  static let videoExtensions = Dictionary(uniqueKeysWithValues: videoFormats.map { ($0.subtype, $0.ext) })

  /// Lines the page shows by itself, in German, with the rules they name filled in from Swift: no internet, and the
  /// parent area's refusals that carry a limit (a name's length, how many children, which video formats).
  static let pageLines: [String: String] = {
    let numbers = ["null", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf"]
    let players = GameMachine.maxPlayers < numbers.count ? numbers[GameMachine.maxPlayers] : String(GameMachine.maxPlayers)
    let names = videoFormats.map(\.name)
    let formats = names.dropLast().joined(separator: ", ") + " oder " + (names.last ?? "")
    return [
      "noInternet": Narration.lines(for: .noInternet).map(\.text).joined(separator: " "),
      "invalidName": "Bitte gib einen Namen mit 1 bis \(GameMachine.maxNameLength) Zeichen ein.",
      "tooManyPlayers": "Es können höchstens \(players) Kinder mitspielen.",
      "unsupportedVideoType": "Bitte wähle ein Video im Format \(formats).",
      "videoFormats": formats,
    ]
  }()

  static func uploadFolder(of userID: UUID, in options: ServerOptions) -> URL {
    options.uploadsDirectory.appendingPathComponent("kids", isDirectory: true)
      .appendingPathComponent(userID.uuidString.lowercased(), isDirectory: true)
  }

  static func deleteUpload(_ id: String, of userID: UUID, in options: ServerOptions) {
    guard id.hasPrefix(GameMachine.uploadIDPrefix), !id.contains("/") else { return }
    try? FileManager.default.removeItem(at: uploadFolder(of: userID, in: options).appendingPathComponent(id))
  }

  /// Streams the request body into `file`, refusing more than `limit` bytes (or than the account's quota has
  /// left), and a file whose first bytes are not a `subType` video; returns the bytes written.
  static func receive(
    _ body: RequestBodyChunks, into file: URL, subType: String, limit: Int, quotaLeft: Int, quota: UploadQuotaError, threadPool: NIOThreadPool
  ) async throws -> Int {
    guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw KidsError.emptyUpload }
    let handle = try FileHandle(forWritingTo: file)
    defer { try? handle.close() }
    var total = 0
    // The first bytes are held back until they show what the file is.
    var head: [UInt8]? = []
    func check(_ bytes: [UInt8]) throws {
      guard let container = VideoContainer.detect(bytes), container.matches(subType: subType) else { throw KidsError.notAVideo }
    }
    var refusal = BodyRefusal()
    for try await chunk in body {
      if refusal.discard(chunk) { continue } else if refusal.gaveUp { break }
      do {
        total += chunk.readableBytes
        guard total <= limit else { throw KidsError.uploadTooLarge(limit) }
        guard total <= quotaLeft else { throw quota }
        var data = Data(buffer: chunk)
        if var held = head {
          held += data
          guard held.count >= VideoContainer.headLength else {
            head = held
            continue
          }
          try check(Array(held.prefix(VideoContainer.headLength)))
          data = Data(held)
          head = nil
        }
        // Disk writes run on the thread pool, never on the event loop.
        try await threadPool.runIfActive { [data] in try handle.write(contentsOf: data) }
      } catch {
        refusal.refuse(error)
      }
    }
    try refusal.rethrow()
    guard total > 0 else { throw KidsError.emptyUpload }
    if let held = head {
      try check(held)
      try await threadPool.runIfActive { try handle.write(contentsOf: held) }
    }
    return total
  }
}
