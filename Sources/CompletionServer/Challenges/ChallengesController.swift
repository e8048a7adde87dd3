import Challenges
import CompletionAPI
import CompletionCore
import Fluent
import Foundation
import Imaging
import Vapor

/// Challenges over HTTP (seed 004): today's challenges, join and leave, photos, and completion — one
/// transaction through the ``CompletionRecorder`` (points, the daily streak, the count, the celebration)
/// that also writes the feed activity and copies it into followers' feeds.
struct ChallengesController: RouteCollection {
  func boot(routes: any RoutesBuilder) throws {
    routes.on(.getChallengesOverview, use: overview)
    routes.on(.getChallenge, use: show)
    routes.on(.joinChallenge, use: join)
    routes.on(.leaveChallenge, use: leave)
    routes.on(.completeChallenge, use: complete)
    routes.on(.buyStreakFreeze) { req in try await IdempotentCreate.run(req, self.buyFreeze) }
    routes.on(.uploadPhoto, body: .stream) { req in try await IdempotentCreate.run(req, streamed: true, self.uploadPhoto) }
    routes.on(.getPhoto, use: photo)
    routes.on(.deletePhoto, use: deletePhoto)
  }

  /// Most "earlier" challenges listed.
  static let earlierLimit = 30

  // MARK: Reads

  static func view(_ challenge: Challenge, today: CalendarDay, zone: TimeZone, participation: Participation?) -> ChallengeView {
    ChallengeView(
      id: challenge.id, type: challenge.type.rawValue, title: challenge.title, description: challenge.template.description,
      requirements: challenge.template.requirements, points: challenge.points, startsOn: challenge.start.description,
      endsOn: challenge.end.description, endsAt: challenge.endsAt(in: zone).timeIntervalSince1970, isOpen: challenge.isOpen(on: today),
      storyPrompts: challenge.type.storyPrompts, participation: participation?.view)
  }

  /// `GET /api/challenges?tz=`.
  @Sendable func overview(req: Request) async throws -> ChallengesOverview {
    let zone = req.context.timeZoneOrUTC
    let now = req.application.services.clock.now()
    let today = CalendarDay(now, in: zone)
    let store = SQLChallengesStore(req.db)
    let catalogue = try await store.catalogue()
    let offered = catalogue.challenges(on: today)
    let maxPhoto = req.application.serverOptions.maxPhotoSize
    guard let userID = req.currentSession?.userID else {
      return ChallengesOverview(
        today: today.description, challenges: offered.map { Self.view($0, today: today, zone: zone, participation: nil) }, earlier: [],
        stats: ChallengeStatsView(
          challengesCompleted: 0, totalPoints: 0, currentStreak: 0, longestStreak: 0,
          freezes: Streak.freezesView(Streak(), today: today, zone: zone, balance: 0)), maxPhotoBytes: maxPhoto,
        photoMaxSide: PhotoLimits.maxSide, storyLimit: ChallengeRules.storyLimit, commentLimit: ChallengeRules.commentLimit,
        photoTypes: PhotoLimits.mediaTypes, refusedPhotoCodes: PhotoLimits.refusalCodes, photoFormats: PhotoLimits.formatNames)
    }
    async let mine = store.participations(of: userID, in: offered.map(\.id))
    async let recent = store.recentParticipations(of: userID, limit: Self.earlierLimit + offered.count)
    async let stats = store.stats(of: userID, today: today, zone: zone)
    let joined = try await mine
    let offeredIDs = Set(offered.map(\.id))
    let earlier = try await recent.filter { !offeredIDs.contains($0.challengeID) }.prefix(Self.earlierLimit).compactMap { participation in
      (try? catalogue.challenge(participation.challengeID)).map { Self.view($0, today: today, zone: zone, participation: participation) }
    }
    return ChallengesOverview(
      today: today.description, challenges: offered.map { Self.view($0, today: today, zone: zone, participation: joined[$0.id]) },
      earlier: earlier, stats: try await stats, maxPhotoBytes: maxPhoto, photoMaxSide: PhotoLimits.maxSide, storyLimit: ChallengeRules.storyLimit,
      commentLimit: ChallengeRules.commentLimit, photoTypes: PhotoLimits.mediaTypes, refusedPhotoCodes: PhotoLimits.refusalCodes,
      photoFormats: PhotoLimits.formatNames)
  }

  /// `GET /api/challenges/{id}?tz=`.
  @Sendable func show(req: Request) async throws -> ChallengeView {
    let zone = req.context.timeZoneOrUTC
    let today = CalendarDay(req.application.services.clock.now(), in: zone)
    let store = SQLChallengesStore(req.db)
    let challenge = try await store.catalogue().challenge(req.parameters.get("id"))
    var participation: Participation?
    if let userID = req.currentSession?.userID { participation = try await store.participation(of: userID, in: challenge.id) }
    return Self.view(challenge, today: today, zone: zone, participation: participation)
  }

  // MARK: Join and leave

  /// `POST /api/challenges/{id}/join?tz=`: joining is opt-in; joining again after leaving is allowed.
  @Sendable func join(req: Request) async throws -> ChallengeView {
    let user = try await req.userCreatingGuest()
    let (challenge, today, zone) = try await Self.challenge(req)
    let now = req.application.services.clock.now()
    let participation = try await Self.handle(.join(at: now), userID: try user.requireID(), in: challenge, today: today, at: now, on: req.db)
    return Self.view(challenge, today: today, zone: zone, participation: participation)
  }

  /// `POST /api/challenges/{id}/leave?tz=`: a completed challenge cannot be left.
  @Sendable func leave(req: Request) async throws -> ChallengeView {
    guard let userID = req.currentSession?.userID else { throw ChallengesError.challengeNotFound }
    let (challenge, today, zone) = try await Self.challenge(req)
    let now = req.application.services.clock.now()
    let participation = try await Self.handle(.leave(at: now), userID: userID, in: challenge, today: today, at: now, on: req.db)
    return Self.view(challenge, today: today, zone: zone, participation: participation)
  }

  /// The challenge named in the path, with the person's day and zone.
  static func challenge(_ req: Request) async throws -> (Challenge, CalendarDay, TimeZone) {
    let zone = req.context.timeZoneOrUTC
    let today = CalendarDay(req.application.services.clock.now(), in: zone)
    let challenge = try await SQLChallengesStore(req.db).catalogue().challenge(req.parameters.get("id"))
    return (challenge, today, zone)
  }

  /// Load → handle → save of a join or a leave: the save is a compare-and-set against what was loaded, so
  /// a request that lost a race to another is judged again on what that one saved.
  static func handle(
    _ command: Participation.Command, userID: UUID, in challenge: Challenge, today: CalendarDay, at now: Date, on db: any Database
  ) async throws -> Participation? {
    let store = SQLChallengesStore(db)
    for _ in 0..<GameRunner.attempts {
      let loaded = try await store.participation(of: userID, in: challenge.id)
      var participation = loaded
      _ = try Participation.handle(command, &participation, in: challenge, today: today)
      guard let changed = participation, participation != loaded else { return participation }
      if try await store.save(changed, of: userID, replacing: loaded, at: now) { return changed }
    }
    throw RunnerError.busy
  }

  // MARK: Complete

  /// `POST /api/challenges/{id}/complete?tz=&preference=` `{photoId, story, publicLink}`: completes at once (trust-based),
  /// pays the type's points, counts the daily streak, shares to followers — exactly once per person and
  /// challenge, however often the request is retried or sent twice at the same moment.
  @Sendable func complete(req: Request) async throws -> Response {
    let user = try await req.requireUser()
    let userID = try user.requireID()
    // A guest cannot be followed yet: the overlay says how to share instead.
    let message = user.isGuest ? ChallengeCompletion.guestMessage : ChallengeCompletion.sharedMessage
    let body = try req.decodeJSON(CompleteChallengeRequest.self)
    let (challenge, today, zone) = try await Self.challenge(req)
    try challenge.requireOpen(on: today)
    let context = req.context
    let preference = try context.motionPreference()
    let services = req.application.services
    guard let photoID = UUID(uuidString: body.photoId) else { throw ChallengesError.photoNotFound }
    guard try await SQLChallengesStore(req.db).photoOwner(photoID) == userID else { throw ChallengesError.photoNotFound }
    let story = try ChallengeText.clean(body.story, field: "story", limit: ChallengeRules.storyLimit)
    let idempotency = try context.idempotencyKey.map {
      try IdempotencyKey(userID: userID, namespace: "challenges:", key: $0, scope: "\(req.method) \(req.url.path)", body: req)
    }
    let fanOutLimit = req.application.serverOptions.fanOutLimit
    let stored = try await services.runner.run(game: Self.runnerKey(userID, challenge.id), on: req.db, idempotency: idempotency) { now, _ in
      .decideInWrite { db -> GameRunner.Decided<StoredResponse>? in
        let (view, notice) = try await Self.record(
          challenge, userID: userID, photoID: photoID, story: story, publicLink: body.publicLink ?? false, preference: preference,
          today: today, zone: zone, at: now, fanOutLimit: fanOutLimit, message: message, services: services, on: db)
        // Once committed (never for a replay): the post to open pages, and the outbox, where it may wait for its followers' feeds.
        var announce: (@Sendable () -> Void)?
        if let notice {
          announce = {
            services.feedLive.committed(notice)
            services.feedFanOut.nudge()
          }
        }
        return GameRunner.Decided(saved: try StoredResponse(view), committed: announce)
      }
    }
    return stored.response
  }

  /// Completes `challenge` for `userID` inside the caller's transaction: loads the participation, runs the
  /// rules, and saves it by compare-and-set (only the first request finds it not yet completed); records
  /// the completion through the pipeline, writes the post with its fan-out, and announces it. A completion
  /// made before answers as things stand. Values in, values out: a transaction run again runs it again.
  static func record(
    _ challenge: Challenge, userID: UUID, photoID: UUID, story: String?, publicLink: Bool = false, preference: MotionPreference,
    today: CalendarDay, zone: TimeZone,
    at now: Date, fanOutLimit: Int, message: String = ChallengeCompletion.sharedMessage, services: AppServices, on db: any Database
  ) async throws -> (ChallengeCompletionView, FeedNotice?) {
    let store = SQLChallengesStore(db)
    var claimed: (participation: Participation, points: Int, post: UUID)?
    for _ in 0..<GameRunner.attempts where claimed == nil {
      let loaded = try await store.participation(of: userID, in: challenge.id)
      var participation = loaded
      let effects = try Participation.handle(.complete(post: UUID(), at: now), &participation, in: challenge, today: today)
      // Completed before (a second request at the same moment, or a retry): answer as things stand.
      guard case .completed(let points, _, let postID)? = effects.first, let completed = participation else {
        return (try await repeatAnswer(challenge, userID: userID, today: today, zone: zone, message: message, on: store), nil)
      }
      // Lost a race (a join or a completion saved first): judge again on what that one saved.
      if try await store.save(completed, of: userID, replacing: loaded, at: now) { claimed = (completed, points, postID) }
    }
    guard let claimed else { throw RunnerError.busy }
    let (completed, points, postID) = (claimed.participation, claimed.points, claimed.post)
    // The photo now belongs to the post (it stops counting against the quota); one deleted or cleaned up since the
    // request looked undoes the whole completion, so no post shows a photo that is gone.
    guard try await store.markPosted(photoID, of: userID) else { throw ChallengesError.photoNotFound }
    let completion = ChallengeCompletion.completion(of: challenge, account: userID.uuidString, at: now, timeZone: zone.identifier)
    let recorded = try await CompletionRecorder.record(completion, rules: ChallengeCompletion.rules, preference: preference, on: db)
    let paid = recorded.payments.reduce(0) { sum, outcome in
      if case .recorded(let entry, _) = outcome { return sum + entry.amount }
      return sum
    }
    guard let author = try await store.person(userID) else { throw ChallengesError.challengeNotFound }
    let delivery = FanOut.decide(recipient: nil, followers: try await store.followCounts(of: userID).followers, limit: fanOutLimit)
    let post = Post(
      id: postID, author: author, kind: .challengeCompleted, at: Micros.of(now), title: ChallengeCompletion.activityTitle(challenge.title),
      subtitle: ChallengeCompletion.activitySubtitle(points: points), photo: photoID, story: story,
      challenge: Post.ChallengeInfo(id: challenge.id, title: challenge.title, type: challenge.type.rawValue), points: points,
      completionKey: completion.key, fannedOut: delivery.isCopied, publicLink: publicLink)
    try await store.add(post, delivery: delivery)
    let notice = FeedNotice(kind: .added, activity: postID)
    try await services.feedLive.announce(notice, on: store)
    let balance = try await store.points(of: userID)
    let stats = ChallengeStatsView(
      challengesCompleted: recorded.stats.completed, totalPoints: balance,
      currentStreak: recorded.streak?.current(on: today, in: zone) ?? 0, longestStreak: recorded.streak?.longest ?? 0,
      freezes: Streak.freezesView(recorded.streak ?? Streak(), today: today, zone: zone, balance: balance))
    let view = ChallengeCompletionView(
      challenge: Self.view(challenge, today: today, zone: zone, participation: completed), isFirst: recorded.isFirst,
      pointsAwarded: paid, stats: stats, celebration: recorded.choreography.map { ChoreographyPayload($0, preference: preference) },
      dismissAfter: ChallengeCompletion.dismissAfterSeconds, headline: ChallengeCompletion.headline,
      message: message, activity: post.view(for: userID, congratulated: false))
    return (view, notice)
  }

  /// The answer to a completion that was made before (a second request at the same moment, or a retry
  /// without a key): things as they stand, nothing paid, no celebration.
  static func repeatAnswer(
    _ challenge: Challenge, userID: UUID, today: CalendarDay, zone: TimeZone, message: String, on store: SQLChallengesStore
  ) async throws -> ChallengeCompletionView {
    guard let participation = try await store.participation(of: userID, in: challenge.id),
      let postID = participation.post, let post = try await store.post(postID)
    else { throw ChallengesError.challengeNotFound }
    let congratulated = try await store.congratulated(by: userID, among: [postID]).contains(postID)
    return ChallengeCompletionView(
      challenge: view(challenge, today: today, zone: zone, participation: participation), isFirst: false, pointsAwarded: 0,
      stats: try await store.stats(of: userID, today: today, zone: zone), celebration: nil,
      dismissAfter: ChallengeCompletion.dismissAfterSeconds, headline: ChallengeCompletion.headline, message: message,
      activity: post.view(for: userID, congratulated: congratulated))
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

  // MARK: Streak freezes

  /// `POST /api/challenges/streak/freezes?tz=`: buys one freeze of the daily streak with points, at most
  /// once per `Idempotency-Key` (a retry answers as the purchase left things and spends nothing again).
  @Sendable func buyFreeze(req: Request) async throws -> Response {
    let user = try await req.requireUser()
    let userID = try user.requireID()
    let zone = req.context.timeZoneOrUTC
    let services = req.application.services
    let now = services.clock.now()
    let today = CalendarDay(now, in: zone)
    let key = req.context.idempotencyKey ?? UUID().uuidString
    let spent = try await services.runner.write(on: req.db) { db -> Int? in
      try await StreakFreezes.buy(
        rule: ChallengeCompletion.streak, price: ChallengeCompletion.freezePrice, currency: ChallengeCompletion.currency, userID: userID,
        key: key, today: today, zone: zone, at: now, on: db)
    } ?? 0
    let stats = try await SQLChallengesStore(req.db).stats(of: userID, today: today, zone: zone)
    let message = spent > 0
      ? "Streak freeze bought: your streak is safe for one missed day."
      : "You bought this streak freeze already; nothing more was spent."
    return try await StreakFreezePurchaseView(pointsSpent: spent, stats: stats, message: message).encodeResponse(status: .created, for: req)
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
    for try await chunk in req.bodyChunks() {
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
    // The photo and its count are written in one transaction: kept together or not at all.
    let services = req.application.services
    let photo = StoredPhoto(
      id: id, owner: userID, full: Data(processed.full), thumbnail: Data(processed.thumbnail), width: processed.fullWidth,
      height: processed.fullHeight, createdAt: now)
    try await services.uploads.settle(nil, userID: userID, actual: processed.full.count + processed.thumbnail.count, req: req) {
      _ = try await services.runner.write(on: req.db) { db -> Bool? in
        try await SQLChallengesStore(db).add(photo)
        return true
      }
    }
    let view = PhotoView(
      id: id.uuidString, width: processed.fullWidth, height: processed.fullHeight, url: "/api/photos/\(id.uuidString)",
      thumbnailUrl: "/api/photos/\(id.uuidString)?size=thumbnail")
    return try await view.encodeResponse(status: .created, for: req)
  }

  /// `GET /api/photos/{id}?size=thumbnail`: for its owner, and for whoever may see a post showing it.
  @Sendable func photo(req: Request) async throws -> Response {
    guard let raw = req.parameters.get("id"), let id = UUID(uuidString: raw) else { throw ChallengesError.photoNotFound }
    let store = SQLChallengesStore(req.db)
    let viewer = req.currentSession?.userID
    guard let owner = try await store.photoOwner(id) else { throw ChallengesError.photoNotFound }
    if owner != viewer {
      var allowed = false
      for post in try await store.visiblePosts(showing: id) where !allowed { allowed = try await store.isVisible(post, to: viewer) }
      guard allowed else { throw ChallengesError.photoNotFound }
    }
    let thumbnail = req.query[String.self, at: "size"] == "thumbnail"
    guard let jpeg = try await store.photoJPEG(id, thumbnail: thumbnail) else { throw ChallengesError.photoNotFound }
    return Self.photoResponse(jpeg, thumbnail: thumbnail)
  }

  /// `DELETE /api/photos/{id}`: the owner takes back a photo no post shows (picked, then not used); it stops counting
  /// against the quota at once. Another person's photo, or one that does not exist, is not found (nothing says whose
  /// it is); one a post shows is `photo_in_use` (it goes when its post does).
  @Sendable func deletePhoto(req: Request) async throws -> HTTPStatus {
    guard let userID = req.currentSession?.userID, let raw = req.parameters.get("id"), let id = UUID(uuidString: raw) else {
      throw ChallengesError.photoNotFound
    }
    let removal = try await req.application.services.runner.write(on: req.db) { db -> SQLChallengesStore.PhotoRemoval? in
      try await SQLChallengesStore(db).removeUnposted(id, of: userID)
    }
    switch removal {
    case .removed: return .noContent
    case .inUse: throw ChallengesError.photoInUse
    case .notFound, nil: throw ChallengesError.photoNotFound
    }
  }

  /// The stored JPEG, never sniffed as anything else, cached privately.
  static func photoResponse(_ jpeg: Data, thumbnail: Bool) -> Response {
    var headers = HTTPHeaders()
    headers.contentType = .jpeg
    UploadedFileHeaders.apply(to: &headers, fileName: thumbnail ? "photo-thumbnail.jpg" : "photo.jpg", inline: true)
    headers.replaceOrAdd(name: .cacheControl, value: "private, max-age=86400")
    return Response(status: .ok, headers: headers, body: .init(data: jpeg))
  }
}

/// The bounds a stored photo is kept within.
enum PhotoLimits {
  /// Decoded pixels refused beyond this (a small file can claim a huge image).
  static let maxPixels = 50_000_000
  static let maxSide = 2048
  static let thumbnailSide = 640
  /// The media types the photo check decodes.
  static let mediaTypes = ImageFormat.allCases.map(\.mimeType)
  /// Their names for people, in the same order.
  static let formatNames = ImageFormat.allCases.map(\.name)
  /// The names as words: "JPEG, PNG or WebP".
  static let formatWords = formatNames.count > 1
    ? formatNames.dropLast().joined(separator: ", ") + " or " + formatNames[formatNames.count - 1] : formatNames.joined()
  /// The refusals of a photo itself (too large, not an image we decode, damaged, too many pixels).
  static let refusalCodes = [
    ChallengesError.photoTooLarge(limit: 0), .photoUnsupported, .photoUnreadable, .photoTooManyPixels,
  ].map(\.code)
}
