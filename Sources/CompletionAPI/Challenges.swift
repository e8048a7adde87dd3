import Challenges
import CompletionCore

/// A person's part in a challenge (the seed's `UserChallenge`).
public struct ParticipationView: Codable, Hashable, Sendable {
  /// "active", "completed", "left", or "revoked" (completed, then taken back by moderation).
  public let status: String
  /// 0…1: 1 exactly when completed (and standing).
  public let progress: Double
  /// Seconds since 1970.
  public let joinedAt: Double
  public let completedAt: Double?
  /// The feed activity of the completion.
  public let activityId: String?

  public init(status: String, progress: Double, joinedAt: Double, completedAt: Double?, activityId: String?) {
    self.status = status
    self.progress = progress
    self.joinedAt = joinedAt
    self.completedAt = completedAt
    self.activityId = activityId
  }
}

/// A challenge as the API shows it.
public struct ChallengeView: Codable, Hashable, Sendable {
  /// "daily.2026-11-23.perfect-pancakes".
  public let id: String
  /// "daily", "weekly", "monthly" or "special".
  public let type: String
  public let title: String
  public let description: String
  public let requirements: [String]
  public let points: Int
  /// First and last day it runs, "YYYY-MM-DD", in the person's calendar.
  public let startsOn: String
  public let endsOn: String
  /// When it ends (seconds since 1970): clients count down to it.
  public let endsAt: Double
  /// Whether it can still be joined and completed.
  public let isOpen: Bool
  /// The placeholders for "Share Your Story".
  public let storyPrompts: [String]
  /// Nil when the person never joined.
  public let participation: ParticipationView?

  public init(
    id: String, type: String, title: String, description: String, requirements: [String], points: Int, startsOn: String, endsOn: String,
    endsAt: Double, isOpen: Bool, storyPrompts: [String], participation: ParticipationView?
  ) {
    self.id = id
    self.type = type
    self.title = title
    self.description = description
    self.requirements = requirements
    self.points = points
    self.startsOn = startsOn
    self.endsOn = endsOn
    self.endsAt = endsAt
    self.isOpen = isOpen
    self.storyPrompts = storyPrompts
    self.participation = participation
  }
}

/// A person's challenge figures (the seed's user record: challengesCompleted, totalPoints, streaks).
public struct ChallengeStatsView: Codable, Hashable, Sendable {
  public let challengesCompleted: Int
  /// The person's points balance (every system pays into it).
  public let totalPoints: Int
  /// Days in a row with a completed daily, as it stands today.
  public let currentStreak: Int
  public let longestStreak: Int
  /// The streak freezes held, used and for sale: the person's own business, so only in their own figures
  /// (absent from the profile others see, whose days missed they have no need to know).
  public let freezes: StreakFreezesView?

  public init(challengesCompleted: Int, totalPoints: Int, currentStreak: Int, longestStreak: Int, freezes: StreakFreezesView?) {
    self.challengesCompleted = challengesCompleted
    self.totalPoints = totalPoints
    self.currentStreak = currentStreak
    self.longestStreak = longestStreak
    self.freezes = freezes
  }
}

/// A person's streak freezes as they stand today: each covers one missed day of the daily streak, is used
/// by itself on that day, and keeps the streak without lengthening it. Limit and price are the server's.
public struct StreakFreezesView: Codable, Hashable, Sendable {
  /// Freezes held now (those used on days missed before today are no longer held).
  public let held: Int
  /// The most one may hold at once.
  public let max: Int
  /// What one freeze costs, in points.
  public let price: Int
  /// The missed days of the current streak that freezes covered, "YYYY-MM-DD", oldest first.
  public let usedOn: [String]
  /// Why a freeze cannot be bought now, in words for people; nil when it can.
  public let unavailable: String?

  public init(held: Int, max: Int, price: Int, usedOn: [String], unavailable: String?) {
    self.held = held
    self.max = max
    self.price = price
    self.usedOn = usedOn
    self.unavailable = unavailable
  }
}

/// `POST /api/challenges/streak/freezes`: a freeze bought (or, for a retry, the purchase made before).
public struct StreakFreezePurchaseView: Codable, Hashable, Sendable {
  /// Points spent by this request (0 when it repeated a purchase made before).
  public let pointsSpent: Int
  /// The person's figures after the purchase, freezes included.
  public let stats: ChallengeStatsView
  /// A sentence for the person.
  public let message: String

  public init(pointsSpent: Int, stats: ChallengeStatsView, message: String) {
    self.pointsSpent = pointsSpent
    self.stats = stats
    self.message = message
  }
}

/// `GET /api/challenges`: today's challenges, the ones the person joined, and their figures.
public struct ChallengesOverview: Codable, Hashable, Sendable {
  /// The person's day, "YYYY-MM-DD".
  public let today: String
  /// Today's challenges: dailies, the weekly, the monthly, specials.
  public let challenges: [ChallengeView]
  /// Challenges the person joined that are not among today's (older ones, newest first).
  public let earlier: [ChallengeView]
  public let stats: ChallengeStatsView
  /// The largest photo the server takes, in bytes (a completion needs one: for sharing, not verification).
  public let maxPhotoBytes: Int
  /// The longest side a stored photo keeps: a client may shrink a photo to it before uploading.
  public let photoMaxSide: Int
  /// The most characters in a story and in a comment.
  public let storyLimit: Int
  public let commentLimit: Int
  /// Every challenge type in the order a page groups them, with its label and points.
  public let types: [ChallengeTypeView]
  /// The media types a photo may have (`image/jpeg`, …): anything else is refused as `photo_unsupported`.
  public let photoTypes: [String]
  /// The error codes that refuse the photo itself: another photo is needed, a retry of this one is not.
  public let refusedPhotoCodes: [String]
  /// The photo formats' names for people ("JPEG", …), in the order of `photoTypes` (nil from servers before they were sent).
  public let photoFormats: [String]?

  public init(
    today: String, challenges: [ChallengeView], earlier: [ChallengeView], stats: ChallengeStatsView, maxPhotoBytes: Int, photoMaxSide: Int,
    storyLimit: Int, commentLimit: Int, types: [ChallengeTypeView] = ChallengeTypeView.all, photoTypes: [String], refusedPhotoCodes: [String],
    photoFormats: [String]? = nil
  ) {
    self.today = today
    self.challenges = challenges
    self.earlier = earlier
    self.stats = stats
    self.maxPhotoBytes = maxPhotoBytes
    self.photoMaxSide = photoMaxSide
    self.storyLimit = storyLimit
    self.commentLimit = commentLimit
    self.types = types
    self.photoTypes = photoTypes
    self.refusedPhotoCodes = refusedPhotoCodes
    self.photoFormats = photoFormats
  }
}

/// A challenge type as a page lists it: "daily", "Daily", 100 points.
public struct ChallengeTypeView: Codable, Hashable, Sendable {
  public let type: String
  public let label: String
  public let points: Int

  public init(type: String, label: String, points: Int) {
    self.type = type
    self.label = label
    self.points = points
  }

  /// Every type, daily first.
  public static let all = ChallengeType.allCases.map { ChallengeTypeView(type: $0.rawValue, label: $0.displayName, points: $0.points) }
}

/// `POST /api/photos` (the image's bytes as the body): the stored photo.
public struct PhotoView: Codable, Hashable, Sendable {
  public let id: String
  public let width: Int
  public let height: Int
  public let url: String
  public let thumbnailUrl: String

  public init(id: String, width: Int, height: Int, url: String, thumbnailUrl: String) {
    self.id = id
    self.width = width
    self.height = height
    self.url = url
    self.thumbnailUrl = thumbnailUrl
  }
}

/// `POST /api/challenges/{id}/complete`.
public struct CompleteChallengeRequest: Codable, Hashable, Sendable {
  /// A photo uploaded with `POST /api/photos` (required).
  public let photoId: String
  /// "Share Your Story" (optional, at most 500 characters).
  public let story: String?
  /// Whether anyone with the link may see the post at `/s/{id}` (absent: off, until its author turns it on).
  public let publicLink: Bool?

  public init(photoId: String, story: String? = nil, publicLink: Bool? = nil) {
    self.photoId = photoId
    self.story = story
    self.publicLink = publicLink
  }
}

/// The answer to a completion: everything the celebration shows, as the server computed it.
public struct ChallengeCompletionView: Codable, Hashable, Sendable {
  public let challenge: ChallengeView
  /// False when this answers a repeat of a completion already made (nothing was paid again).
  public let isFirst: Bool
  /// The points this completion paid (0 on a repeat).
  public let pointsAwarded: Int
  public let stats: ChallengeStatsView
  /// The overlay to play, adapted to the motion preference; nil when turned off.
  public let celebration: ChoreographyPayload?
  /// The overlay dismisses itself this many seconds after it appears.
  public let dismissAfter: Double
  /// "Challenge Complete! 🎉".
  public let headline: String
  /// "Your achievement has been shared with your followers!".
  public let message: String
  /// The feed activity made of it.
  public let activity: FeedItemView

  public init(
    challenge: ChallengeView, isFirst: Bool, pointsAwarded: Int, stats: ChallengeStatsView, celebration: ChoreographyPayload?,
    dismissAfter: Double, headline: String, message: String, activity: FeedItemView
  ) {
    self.challenge = challenge
    self.isFirst = isFirst
    self.pointsAwarded = pointsAwarded
    self.stats = stats
    self.celebration = celebration
    self.dismissAfter = dismissAfter
    self.headline = headline
    self.message = message
    self.activity = activity
  }
}

/// Someone, as lists and feed cards show them.
public struct PersonView: Codable, Hashable, Sendable {
  public let id: String
  /// Nil for a guest (who cannot be followed until they save their account).
  public let username: String?
  public let displayName: String
  /// The first letter for the avatar circle.
  public let initial: String

  public init(id: String, username: String?, displayName: String) {
    self.id = id
    self.username = username
    self.displayName = displayName
    initial = displayName.first.map { String($0).uppercased() } ?? "?"
  }
}

/// `GET /api/social/me` and `GET /api/social/people/{username}`.
public struct ProfileView: Codable, Hashable, Sendable {
  public let person: PersonView
  public let followers: Int
  public let following: Int
  public let stats: ChallengeStatsView
  /// Whether the asking person follows them (false on one's own profile).
  public let isFollowing: Bool
  public let isMe: Bool

  public init(person: PersonView, followers: Int, following: Int, stats: ChallengeStatsView, isFollowing: Bool, isMe: Bool) {
    self.person = person
    self.followers = followers
    self.following = following
    self.stats = stats
    self.isFollowing = isFollowing
    self.isMe = isMe
  }
}

/// `POST /api/social/follow`.
public struct FollowRequest: Codable, Hashable, Sendable {
  public let username: String

  public init(username: String) { self.username = username }
}

/// `GET /api/social/followers` and `/following`: a page of people, newest first.
public struct PeoplePage: Codable, Hashable, Sendable {
  public let people: [PersonView]
  public let total: Int
  /// Pass as `cursor` for the next page; nil on the last.
  public let next: String?

  public init(people: [PersonView], total: Int, next: String?) {
    self.people = people
    self.total = total
    self.next = next
  }
}

/// One card of the feed.
public struct FeedItemView: Codable, Hashable, Sendable {
  public let id: String
  /// "challenge_completed" or "follow".
  public let type: String
  public let actor: PersonView
  /// Seconds since 1970.
  public let createdAt: Double
  /// "Completed Perfect Pancakes! 🎉", or "Ada started following you".
  public let title: String
  /// "100 points earned".
  public let subtitle: String
  public let photoUrl: String?
  public let thumbnailUrl: String?
  public let story: String?
  public let challengeId: String?
  public let challengeTitle: String?
  public let challengeType: String?
  public let points: Int?
  public let congrats: Int
  /// Whether the asking person congratulated.
  public let congratulated: Bool
  public let comments: Int
  /// Whether the asking person made it (they may switch its public link and may not report it).
  public let isMine: Bool
  /// Whether anyone with the link may see it, at `shareUrl`.
  public let publicLink: Bool
  /// "/s/{id}": the public page (works only while `publicLink` is on).
  public let shareUrl: String?
  /// The server-made share card (PNG, 4:5).
  public let cardUrl: String?
  /// "visible", "pending_review" or "revoked" (people other than its owner only ever see visible ones).
  public let status: String
  /// What sharing it says, in the asking person's voice; nil for a notice or a post that cannot be shared.
  public let share: ShareTextView?

  public init(
    id: String, type: String, actor: PersonView, createdAt: Double, title: String, subtitle: String, photoUrl: String?, thumbnailUrl: String?,
    story: String?, challengeId: String?, challengeTitle: String?, challengeType: String?, points: Int?, congrats: Int, congratulated: Bool,
    comments: Int, isMine: Bool, publicLink: Bool, shareUrl: String?, cardUrl: String?, status: String, share: ShareTextView? = nil
  ) {
    self.id = id
    self.type = type
    self.actor = actor
    self.createdAt = createdAt
    self.title = title
    self.subtitle = subtitle
    self.photoUrl = photoUrl
    self.thumbnailUrl = thumbnailUrl
    self.story = story
    self.challengeId = challengeId
    self.challengeTitle = challengeTitle
    self.challengeType = challengeType
    self.points = points
    self.congrats = congrats
    self.congratulated = congratulated
    self.comments = comments
    self.isMine = isMine
    self.publicLink = publicLink
    self.shareUrl = shareUrl
    self.cardUrl = cardUrl
    self.status = status
    self.share = share
  }
}

/// The share text of a completion (composed by the `Challenges` core): render it, never rebuild it.
public struct ShareTextView: Codable, Hashable, Sendable {
  /// "🎉 I just completed the Perfect Pancakes challenge on CompletionKit!".
  public let headline: String
  /// "#PerfectPancakesChallenge", "#CookingChallenge", …
  public let hashtags: [String]
  /// Headline, story and hashtags, a blank line apart: what "Copy caption" copies (add the link when it is on).
  public let caption: String

  public init(headline: String, hashtags: [String], caption: String) {
    self.headline = headline
    self.hashtags = hashtags
    self.caption = caption
  }
}

/// `GET /api/feed?filter=all|challenges|social&cursor=…&limit=…`: newest first.
public struct FeedPage: Codable, Hashable, Sendable {
  public let items: [FeedItemView]
  /// Pass as `cursor` for the next (older) page; nil on the last.
  public let next: String?

  public init(items: [FeedItemView], next: String?) {
    self.items = items
    self.next = next
  }
}

/// `POST`/`DELETE /api/activities/{id}/congrats`.
public struct CongratsView: Codable, Hashable, Sendable {
  public let congrats: Int
  public let congratulated: Bool

  public init(congrats: Int, congratulated: Bool) {
    self.congrats = congrats
    self.congratulated = congratulated
  }
}

/// `POST /api/activities/{id}/comments`.
public struct CommentRequest: Codable, Hashable, Sendable {
  public let body: String

  public init(body: String) { self.body = body }
}

/// A comment under a feed card.
public struct CommentView: Codable, Hashable, Sendable {
  public let id: String
  public let author: PersonView
  public let body: String
  public let createdAt: Double
  public let isMine: Bool

  public init(id: String, author: PersonView, body: String, createdAt: Double, isMine: Bool) {
    self.id = id
    self.author = author
    self.body = body
    self.createdAt = createdAt
    self.isMine = isMine
  }
}

/// `GET /api/activities/{id}/comments`: oldest first, as a thread reads.
public struct CommentPage: Codable, Hashable, Sendable {
  public let comments: [CommentView]
  public let total: Int
  public let next: String?

  public init(comments: [CommentView], total: Int, next: String?) {
    self.comments = comments
    self.total = total
    self.next = next
  }
}

/// `PATCH /api/activities/{id}`: the owner's settings of a completion.
public struct ActivitySettingsRequest: Codable, Hashable, Sendable {
  public let publicLink: Bool?

  public init(publicLink: Bool?) { self.publicLink = publicLink }
}

/// `POST /api/activities/{id}/report`.
public struct ReportRequest: Codable, Hashable, Sendable {
  /// Why (optional, at most 300 characters).
  public let reason: String?

  public init(reason: String? = nil) { self.reason = reason }
}

/// A completion waiting for (or past) review, as the operator's list shows it.
public struct ModerationItemView: Codable, Hashable, Sendable {
  public let activity: FeedItemView
  public let reports: Int
  public let reasons: [String]

  public init(activity: FeedItemView, reports: Int, reasons: [String]) {
    self.activity = activity
    self.reports = reports
    self.reasons = reasons
  }
}

/// The answer to `POST /api/activities/{id}/report`: `{"reported": true}`.
public struct ReportResponse: Codable, Hashable, Sendable {
  /// Always true: a repeated report answers the same.
  public let reported: Bool

  public init(reported: Bool = true) { self.reported = reported }
}
