import Challenges
import CompletionAPI
import CompletionCore
import FluentSQL
import Foundation
import Imaging
import Vapor

/// Challenges over HTTP (seed 004): today's challenges, join and leave, photos, and completion — one
/// transaction through the ``CompletionRecorder`` (points, the daily streak, the count, the celebration)
/// that also writes the feed activity and copies it into followers' feeds.
struct ChallengesController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    let challenges = routes.grouped("api", "challenges")
    challenges.get(use: overview)
    challenges.get(":id", use: show)
    challenges.post(":id", "join", use: join)
    challenges.post(":id", "leave", use: leave)
    challenges.post(":id", "complete", use: complete)
    routes.on(.POST, "api", "photos", body: .stream) { req in try await IdempotentCreate.run(req, streamed: true, self.uploadPhoto) }
    routes.get("api", "photos", ":id", use: photo)
  }

  /// Most "earlier" challenges listed.
  static let earlierLimit = 30

  // MARK: Reads

  /// The person's day and zone: `?tz=` or the `Time-Zone` header, else UTC.
  static func zone(_ req: Request) -> TimeZone {
    TimeZoneName.parse(req.query[String.self, at: "tz"] ?? req.headers.first(name: "Time-Zone")) ?? .gmt
  }

  static func view(_ challenge: Challenge, today: CalendarDay, zone: TimeZone, participation: ParticipationRow?) -> ChallengeView {
    ChallengeView(
      id: challenge.id, type: challenge.type.rawValue, title: challenge.title, description: challenge.template.description,
      requirements: challenge.template.requirements, points: challenge.points, startsOn: challenge.start.description,
      endsOn: challenge.end.description, endsAt: challenge.endsAt(in: zone).timeIntervalSince1970, isOpen: challenge.isOpen(on: today),
      storyPrompts: challenge.type.storyPrompts, participation: participation?.view)
  }

  /// A challenge from its id: any the catalogue could have offered (for one joined earlier), with its dates.
  static func challenge(_ raw: String?, catalogue: ChallengeCatalogue) throws -> Challenge {
    guard let raw, let id = ChallengeID(raw), let template = catalogue.template(id.slug), template.type == id.type else {
      throw ChallengesError.challengeNotFound
    }
    guard let offered = catalogue.challenges(on: id.start).first(where: { $0.id == id.description }) else { throw ChallengesError.challengeNotFound }
    return offered
  }

  /// `GET /api/challenges?tz=`.
  @Sendable func overview(req: Request) async throws -> ChallengesOverview {
    let zone = Self.zone(req)
    let now = req.application.services.clock.now()
    let today = CalendarDay(now, in: zone)
    let db = ChallengeStore.sql(req.db)
    let catalogue = try await ChallengeStore.catalogue(on: db)
    let offered = catalogue.challenges(on: today)
    let maxPhoto = req.application.serverOptions.maxPhotoSize
    guard let userID = req.currentSession?.userID else {
      return ChallengesOverview(
        today: today.description, challenges: offered.map { Self.view($0, today: today, zone: zone, participation: nil) }, earlier: [],
        stats: ChallengeStatsView(challengesCompleted: 0, totalPoints: 0, currentStreak: 0, longestStreak: 0), maxPhotoBytes: maxPhoto,
        photoMaxSide: PhotoLimits.maxSide, storyLimit: ChallengeRules.storyLimit, commentLimit: ChallengeRules.commentLimit)
    }
    async let mine = ChallengeStore.participations(userID, ids: offered.map(\.id), on: db)
    async let recent = ChallengeStore.recentParticipations(userID, limit: Self.earlierLimit + offered.count, on: db)
    async let stats = ChallengeStore.stats(userID, today: today, zone: zone, on: db)
    let joined = try await mine
    let offeredIDs = Set(offered.map(\.id))
    let earlier = try await recent.filter { !offeredIDs.contains($0.challenge_id) }.prefix(Self.earlierLimit).compactMap { row in
      (try? Self.challenge(row.challenge_id, catalogue: catalogue)).map { Self.view($0, today: today, zone: zone, participation: row) }
    }
    return ChallengesOverview(
      today: today.description, challenges: offered.map { Self.view($0, today: today, zone: zone, participation: joined[$0.id]) },
      earlier: earlier, stats: try await stats, maxPhotoBytes: maxPhoto, photoMaxSide: PhotoLimits.maxSide, storyLimit: ChallengeRules.storyLimit,
      commentLimit: ChallengeRules.commentLimit)
  }

  /// `GET /api/challenges/{id}?tz=`.
  @Sendable func show(req: Request) async throws -> ChallengeView {
    let zone = Self.zone(req)
    let today = CalendarDay(req.application.services.clock.now(), in: zone)
    let db = ChallengeStore.sql(req.db)
    let challenge = try Self.challenge(req.parameters.get("id"), catalogue: try await ChallengeStore.catalogue(on: db))
    let participation = try await req.currentSession.asyncMap { try await ChallengeStore.participation($0.userID, challenge: challenge.id, on: db) } ?? nil
    return Self.view(challenge, today: today, zone: zone, participation: participation)
  }

  // MARK: Join and leave

  /// `POST /api/challenges/{id}/join?tz=`: joining is opt-in; joining again after leaving is allowed.
  @Sendable func join(req: Request) async throws -> ChallengeView {
    let user = try await req.userCreatingGuest()
    let (challenge, today, zone) = try await Self.openChallenge(req)
    let now = req.application.services.clock.now()
    let row = try await ChallengeStore.join(try user.requireID(), challenge: challenge.id, at: now, on: ChallengeStore.sql(req.db))
    return Self.view(challenge, today: today, zone: zone, participation: row)
  }

  /// `POST /api/challenges/{id}/leave?tz=`: a completed challenge cannot be left.
  @Sendable func leave(req: Request) async throws -> ChallengeView {
    guard let userID = req.currentSession?.userID else { throw ChallengesError.challengeNotFound }
    let zone = Self.zone(req)
    let now = req.application.services.clock.now()
    let today = CalendarDay(now, in: zone)
    let db = ChallengeStore.sql(req.db)
    let challenge = try Self.challenge(req.parameters.get("id"), catalogue: try await ChallengeStore.catalogue(on: db))
    try await db.raw(
      """
      UPDATE challenge_participations SET status = 'left', progress = 0, updated_at = \(bind: now)
      WHERE user_id = \(bind: userID) AND challenge_id = \(bind: challenge.id) AND status = 'active'
      """
    ).run()
    let row = try await ChallengeStore.participation(userID, challenge: challenge.id, on: db)
    if row?.status == ParticipationStatus.completed.rawValue || row?.status == ParticipationStatus.revoked.rawValue {
      throw ChallengesError.alreadyCompleted
    }
    return Self.view(challenge, today: today, zone: zone, participation: row)
  }

  /// The challenge named in the path, if it is open on the person's today.
  static func openChallenge(_ req: Request) async throws -> (Challenge, CalendarDay, TimeZone) {
    let zone = Self.zone(req)
    let today = CalendarDay(req.application.services.clock.now(), in: zone)
    let challenge = try Self.challenge(req.parameters.get("id"), catalogue: try await ChallengeStore.catalogue(on: ChallengeStore.sql(req.db)))
    guard challenge.isOpen(on: today) else { throw challenge.start > today ? ChallengesError.challengeNotStarted : ChallengesError.challengeClosed }
    return (challenge, today, zone)
  }

  // MARK: Complete

  /// `POST /api/challenges/{id}/complete?tz=&preference=` `{photoId, story}`: completes at once (trust-based),
  /// pays the type's points, counts the daily streak, shares to followers — exactly once per person and
  /// challenge, however often the request is retried or sent twice at the same moment.
  @Sendable func complete(req: Request) async throws -> Response {
    let user = try await req.requireUser()
    let userID = try user.requireID()
    // A guest cannot be followed yet: the overlay says how to share instead.
    let message = user.isGuest ? ChallengeCompletion.guestMessage : ChallengeCompletion.sharedMessage
    let body = try req.decodeJSON(CompleteChallengeRequest.self)
    let (challenge, today, zone) = try await Self.openChallenge(req)
    let preference = try MotionController.preference(req)
    let services = req.application.services
    let db = ChallengeStore.sql(req.db)
    guard let photoID = UUID(uuidString: body.photoId) else { throw ChallengesError.photoNotFound }
    guard try await ChallengeStore.photoOwner(photoID, on: db) == userID else { throw ChallengesError.photoNotFound }
    let story = try Self.text(body.story, field: "story", limit: ChallengeRules.storyLimit)
    let idempotency = try IdempotencyKey.header(of: req).map {
      try IdempotencyKey(userID: userID, namespace: "challenges:", key: $0, scope: "\(req.method) \(req.url.path)", body: req)
    }
    let fanOutLimit = req.application.serverOptions.fanOutLimit
    let announced = AfterCommit<FeedNotice>()
    let stored = try await services.runner.run(game: Self.runnerKey(userID, challenge.id), on: req.db, idempotency: idempotency) { now, _ in
      .save { db in
        let (view, notice) = try await Self.record(
          challenge, userID: userID, photoID: photoID, story: story, preference: preference, today: today, zone: zone, at: now,
          fanOutLimit: fanOutLimit, message: message, services: services, on: db)
        if let notice { announced.set(notice) }
        return try StoredResponse(view)
      }
    }
    if let notice = announced.value, !stored.replayed { services.feedLive.committed(notice) }
    return stored.response
  }

  /// Completes `challenge` for `userID` inside the caller's transaction: claims the participation (only
  /// the first request finds it not yet completed), records the completion through the pipeline, writes
  /// the activity with its fan-out, and announces it. A completion made before answers as things stand.
  static func record(
    _ challenge: Challenge, userID: UUID, photoID: UUID, story: String?, preference: MotionPreference, today: CalendarDay, zone: TimeZone,
    at now: Date, fanOutLimit: Int, message: String = ChallengeCompletion.sharedMessage, services: AppServices, on db: any Database
  ) async throws -> (ChallengeCompletionView, FeedNotice?) {
    let sql = ChallengeStore.sql(db)
    let activityID = UUID()
    let claimed = try await sql.raw(
      """
      INSERT INTO challenge_participations (id, user_id, challenge_id, status, progress, joined_at, completed_at, activity_id, updated_at)
      VALUES (\(bind: UUID()), \(bind: userID), \(bind: challenge.id), 'completed', 1, \(bind: now), \(bind: now), \(bind: activityID), \(bind: now))
      ON CONFLICT (user_id, challenge_id) DO UPDATE SET status = 'completed', progress = 1, completed_at = excluded.completed_at,
        activity_id = excluded.activity_id, updated_at = excluded.updated_at
      WHERE challenge_participations.status NOT IN ('completed', 'revoked')
      RETURNING challenge_id
      """
    ).first()
    guard claimed != nil else {
      return (try await repeatAnswer(challenge, userID: userID, today: today, zone: zone, message: message, on: sql), nil)
    }
    let completion = ChallengeCompletion.completion(of: challenge, account: userID.uuidString, at: now, timeZone: zone.identifier)
    let recorded = try await CompletionRecorder.record(completion, rules: ChallengeCompletion.rules, preference: preference, on: db)
    let points = recorded.payments.reduce(0) { sum, outcome in
      if case .recorded(let entry, _) = outcome { return sum + entry.amount }
      return sum
    }
    _ = try await ChallengeStore.insert(
      activity: activityID, author: userID, type: FeedActivityType.challengeCompleted, at: ChallengeStore.micros(now),
      title: ChallengeCompletion.activityTitle(challenge.title), subtitle: ChallengeCompletion.activitySubtitle(points: challenge.points),
      photo: photoID, story: story, challenge: challenge, points: challenge.points, completionKey: completion.key, fanOutLimit: fanOutLimit,
      on: sql)
    let notice = FeedNotice(kind: .added, activity: activityID)
    try await services.feedLive.announce(notice, on: sql)
    guard let activity = try await ChallengeStore.activity(activityID, on: sql) else { throw ChallengesError.activityNotFound }
    let participation = ParticipationRow(
      challenge_id: challenge.id, status: ParticipationStatus.completed.rawValue, progress: 1, joined_at: now, completed_at: now,
      activity_id: activityID)
    let stats = ChallengeStatsView(
      challengesCompleted: recorded.stats.completed,
      totalPoints: try await SQLLedgerStore.balance(userID: userID, currency: ChallengeCompletion.currency, on: sql),
      currentStreak: recorded.streak?.current(on: today, in: zone) ?? 0, longestStreak: recorded.streak?.longest ?? 0)
    let view = ChallengeCompletionView(
      challenge: Self.view(challenge, today: today, zone: zone, participation: participation), isFirst: recorded.isFirst,
      pointsAwarded: points, stats: stats, celebration: recorded.choreography.map { ChoreographyPayload($0, preference: preference) },
      dismissAfter: ChallengeCompletion.dismissAfterSeconds, headline: ChallengeCompletion.headline,
      message: message, activity: activity.view(for: userID, congratulated: false))
    return (view, notice)
  }

  /// The answer to a completion that was made before (a second request at the same moment, or a retry
  /// without a key): things as they stand, nothing paid, no celebration.
  static func repeatAnswer(
    _ challenge: Challenge, userID: UUID, today: CalendarDay, zone: TimeZone, message: String, on db: any SQLDatabase
  ) async throws -> ChallengeCompletionView {
    guard let participation = try await ChallengeStore.participation(userID, challenge: challenge.id, on: db),
      let activityID = participation.activity_id, let activity = try await ChallengeStore.activity(activityID, on: db)
    else { throw ChallengesError.challengeNotFound }
    let congratulated = try await ChallengeStore.congratulated(userID, among: [activityID], on: db).contains(activityID)
    return ChallengeCompletionView(
      challenge: view(challenge, today: today, zone: zone, participation: participation), isFirst: false, pointsAwarded: 0,
      stats: try await ChallengeStore.stats(userID, today: today, zone: zone, on: db), celebration: nil,
      dismissAfter: ChallengeCompletion.dismissAfterSeconds, headline: ChallengeCompletion.headline, message: message,
      activity: activity.view(for: userID, congratulated: congratulated))
  }

  /// One queue per person and challenge (a stable UUID made from both).
  static func runnerKey(_ userID: UUID, _ challenge: String) -> UUID {
    let high = SeededRandom.fnv1a(userID.uuidString + "|" + challenge)
    let low = SeededRandom.fnv1a(challenge + "|" + userID.uuidString)
    let bytes = withUnsafeBytes(of: (high.bigEndian, low.bigEndian)) { Array($0) }
    return UUID(uuid: (
      bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
      bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
    ))
  }

  /// Optional text, trimmed, control characters (but line breaks) turned into spaces, at most `limit`.
  static func text(_ raw: String?, field: String, limit: Int) throws -> String? {
    guard let raw else { return nil }
    let cleaned = String(
      String.UnicodeScalarView(
        raw.unicodeScalars.map { $0.properties.generalCategory == .control && $0 != "\n" ? " " : $0 })
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    // Characters as a person counts them (the page's counter counts the same way), after trimming.
    guard cleaned.count <= limit else { throw ChallengesError.tooLong(field: field, limit: limit) }
    return cleaned.isEmpty ? nil : cleaned
  }

  // MARK: Photos

  /// `POST /api/photos`: the image's bytes. Checked by its bytes (JPEG, PNG or WebP, decoded whole),
  /// turned upright, re-encoded at a bounded size with a thumbnail — which leaves location and camera
  /// metadata behind — and stored. Work off the event loop.
  @Sendable func uploadPhoto(req: Request) async throws -> Response {
    let user = try await req.userCreatingGuest()
    _ = try await UploadQuota.bytesLeft(for: try user.requireID(), req: req)
    let limit = req.application.serverOptions.maxPhotoSize
    if let declared = req.headers.first(name: .contentLength).flatMap(Int.init), declared > limit { throw ChallengesError.photoTooLarge(limit: limit) }
    var buffer = ByteBuffer()
    var refusal = BodyRefusal()
    for try await chunk in req.body {
      if refusal.discard(chunk) { continue } else if refusal.gaveUp { break }
      var chunk = chunk
      guard buffer.readableBytes + chunk.readableBytes <= limit else {
        refusal.refuse(ChallengesError.photoTooLarge(limit: limit))
        buffer.clear()
        continue
      }
      buffer.writeBuffer(&chunk)
    }
    try refusal.rethrow()
    let bytes = Array(buffer.readableBytesView)
    guard !bytes.isEmpty else { throw ChallengesError.photoRequired }
    let processed: ProcessedPhoto = try await req.application.threadPool.runIfActive {
      do throws(ImagingError) {
        return try PhotoProcessor.process(bytes, maxPixels: PhotoLimits.maxPixels, maxSide: PhotoLimits.maxSide, thumbnailSide: PhotoLimits.thumbnailSide)
      } catch {
        switch error {
        case .unsupportedFormat: throw ChallengesError.photoUnsupported
        case .undecodable: throw ChallengesError.photoUnreadable
        case .tooLarge: throw ChallengesError.photoTooManyPixels
        }
      }
    }
    let id = UUID()
    let now = req.application.services.clock.now()
    let userID = try user.requireID()
    // Stored in the account's upload turn, after a last check of the quota: photos sent at once cannot pass it together.
    try await req.application.services.uploads.settle(nil, userID: userID, actual: processed.full.count + processed.thumbnail.count, req: req) {
      try await ChallengeStore.sql(req.db).raw(
        """
        INSERT INTO challenge_photos (id, user_id, full_jpeg, thumbnail_jpeg, width, height, created_at)
        VALUES (\(bind: id), \(bind: userID), \(bind: Data(processed.full)), \(bind: Data(processed.thumbnail)),
          \(bind: processed.fullWidth), \(bind: processed.fullHeight), \(bind: now))
        """
      ).run()
    }
    let view = PhotoView(
      id: id.uuidString, width: processed.fullWidth, height: processed.fullHeight, url: "/api/photos/\(id.uuidString)",
      thumbnailUrl: "/api/photos/\(id.uuidString)?size=thumbnail")
    return try await view.encodeResponse(status: .created, for: req)
  }

  /// `GET /api/photos/{id}?size=thumbnail`: for its owner, and for whoever may see a post showing it.
  @Sendable func photo(req: Request) async throws -> Response {
    guard let raw = req.parameters.get("id"), let id = UUID(uuidString: raw) else { throw ChallengesError.photoNotFound }
    let db = ChallengeStore.sql(req.db)
    let viewer = req.currentSession?.userID
    guard let owner = try await ChallengeStore.photoOwner(id, on: db) else { throw ChallengesError.photoNotFound }
    if owner != viewer {
      struct Row: Decodable { let id: UUID }
      let posts = try await db.raw("SELECT id FROM activities WHERE photo_id = \(bind: id) AND status = 'visible'").all(decoding: Row.self)
      var allowed = false
      for post in posts where !allowed {
        if let activity = try await ChallengeStore.activity(post.id, on: db) { allowed = try await ChallengeStore.canSee(activity, viewer: viewer, on: db) }
      }
      guard allowed else { throw ChallengesError.photoNotFound }
    }
    return try await Self.photoResponse(id, thumbnail: req.query[String.self, at: "size"] == "thumbnail", on: db)
  }

  /// The stored JPEG, never sniffed as anything else, cached privately.
  static func photoResponse(_ id: UUID, thumbnail: Bool, on db: any SQLDatabase) async throws -> Response {
    struct Row: Decodable { let bytes: Data }
    guard
      let row = try await db.raw("SELECT \(unsafeRaw: thumbnail ? "thumbnail_jpeg" : "full_jpeg") AS bytes FROM challenge_photos WHERE id = \(bind: id)")
        .first(decoding: Row.self)
    else { throw ChallengesError.photoNotFound }
    var headers = HTTPHeaders()
    headers.contentType = .jpeg
    UploadedFileHeaders.apply(to: &headers, fileName: thumbnail ? "photo-thumbnail.jpg" : "photo.jpg", inline: true)
    headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=86400")
    return Response(status: .ok, headers: headers, body: .init(data: row.bytes))
  }
}

/// The bounds a stored photo is kept within.
enum PhotoLimits {
  /// Decoded pixels refused beyond this (a small file can claim a huge image).
  static let maxPixels = 50_000_000
  static let maxSide = 2048
  static let thumbnailSide = 640
}
