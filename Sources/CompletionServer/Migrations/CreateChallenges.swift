import Fluent
import FluentSQL

/// Challenges (seed 004): imported catalogue entries, people's participation, photos, follows with kept
/// counts, activities with kept congrats/comment/report counts, per-person feeds (fan-out on write,
/// trimmed to a cap in the background), congrats, comments, reports, the moderation trail and rendered share cards. A revoked
/// completion stays in `completions`, marked, so the streak can be counted again without it.
struct CreateChallenges: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(CompletionRecord.schema).field("revoked_at", .datetime).update()

    try await database.schema(ChallengeTables.templates)
      .field("slug", .string, .identifier(auto: false))
      .field("type", .string, .required)
      .field("title", .string, .required)
      .field("description", .string, .required)
      .field("requirements", .string, .required)
      .field("date", .string)
      .field("days", .int)
      .field("created_at", .datetime, .required)
      .create()
    try await database.schema(ChallengeTables.participations)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("challenge_id", .string, .required)
      .field("status", .string, .required)
      .field("progress", .double, .required)
      .field("joined_at", .datetime, .required)
      .field("completed_at", .datetime)
      .field("activity_id", .uuid)
      .field("updated_at", .datetime, .required)
      .unique(on: "user_id", "challenge_id")
      .create()
    try await database.schema(ChallengeTables.photos)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("full_jpeg", .data, .required)
      .field("thumbnail_jpeg", .data, .required)
      .field("width", .int, .required)
      .field("height", .int, .required)
      .field("created_at", .datetime, .required)
      .create()
    try await database.schema(ChallengeTables.profiles)
      .field("user_id", .uuid, .identifier(auto: false), .references(User.schema, .id, onDelete: .cascade))
      .field("followers", .int, .required)
      .field("following", .int, .required)
      .create()
    try await database.schema(ChallengeTables.follows)
      .field("follower_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("followee_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("at_micros", .int64, .required)
      .unique(on: "follower_id", "followee_id")
      .create()
    try await database.schema(ChallengeTables.activities)
      .id()
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("type", .string, .required)
      .field("at_micros", .int64, .required)
      .field("title", .string, .required)
      .field("subtitle", .string, .required)
      .field("photo_id", .uuid)
      .field("story", .string)
      .field("challenge_id", .string)
      .field("challenge_title", .string)
      .field("challenge_type", .string)
      .field("points", .int)
      .field("completion_key", .string)
      .field("recipient_id", .uuid)
      .field("fanned_out", .bool, .required)
      .field("status", .string, .required)
      .field("reports", .int, .required)
      .field("kept", .bool, .required)
      .field("congrats", .int, .required)
      .field("comments", .int, .required)
      .field("public_link", .bool, .required)
      .create()
    try await database.schema(ChallengeTables.feed)
      .field("owner_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("activity_id", .uuid, .required, .references(ChallengeTables.activities, .id, onDelete: .cascade))
      .field("at_micros", .int64, .required)
      .field("type", .string, .required)
      // The one index a feed needs (below): an entry is written for each follower, so no other.
      .create()
    try await database.schema(ChallengeTables.congrats)
      .field("activity_id", .uuid, .required, .references(ChallengeTables.activities, .id, onDelete: .cascade))
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("at_micros", .int64, .required)
      .unique(on: "activity_id", "user_id")
      .create()
    try await database.schema(ChallengeTables.comments)
      .id()
      .field("activity_id", .uuid, .required, .references(ChallengeTables.activities, .id, onDelete: .cascade))
      .field("user_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("body", .string, .required)
      .field("at_micros", .int64, .required)
      .create()
    try await database.schema(ChallengeTables.reports)
      .field("activity_id", .uuid, .required, .references(ChallengeTables.activities, .id, onDelete: .cascade))
      .field("reporter_id", .uuid, .required, .references(User.schema, .id, onDelete: .cascade))
      .field("reason", .string, .required)
      .field("at_micros", .int64, .required)
      .unique(on: "activity_id", "reporter_id")
      .create()
    try await database.schema(ChallengeTables.moderation)
      .id()
      .field("activity_id", .uuid, .required, .references(ChallengeTables.activities, .id, onDelete: .cascade))
      .field("action", .string, .required)
      .field("actor", .string, .required)
      .field("note", .string, .required)
      .field("at_micros", .int64, .required)
      .create()
    try await database.schema(ChallengeTables.cards)
      .field("activity_id", .uuid, .identifier(auto: false), .references(ChallengeTables.activities, .id, onDelete: .cascade))
      .field("png", .data, .required)
      .create()
    let sql = database.sql
    // Covers the fan-out's `SELECT follower_id … WHERE followee_id = ?` and the followers list: no table reads.
    try await sql.create(index: "follows_by_followee").on(ChallengeTables.follows).column("followee_id").column("at_micros").column("follower_id").run()
    try await sql.create(index: "follows_by_follower").on(ChallengeTables.follows).column("follower_id").column("at_micros").run()
    try await sql.create(index: "activities_by_user").on(ChallengeTables.activities).column("user_id").column("at_micros").run()
    try await sql.create(index: "activities_by_status").on(ChallengeTables.activities).column("status").run()
    // Owner and time only: every completion writes one entry a follower, and a short key halves that cost
    // (the activity's id, a 36-character text on SQLite, breaks ties among the few entries of one instant).
    try await sql.create(index: "feed_by_owner").on(ChallengeTables.feed).column("owner_id").column("at_micros").run()
    try await sql.create(index: "comments_by_activity").on(ChallengeTables.comments).column("activity_id").column("at_micros").run()
    try await sql.create(index: "participations_by_user").on(ChallengeTables.participations).column("user_id").column("joined_at").run()
    try await sql.create(index: "completions_by_streak").on(CompletionRecord.schema).column("user_id").column("domain").column("completed_at").run()
  }

  func revert(on database: any Database) async throws {
    for table in [
      ChallengeTables.cards, ChallengeTables.moderation, ChallengeTables.reports, ChallengeTables.comments, ChallengeTables.congrats,
      ChallengeTables.feed, ChallengeTables.activities, ChallengeTables.follows, ChallengeTables.profiles,
      ChallengeTables.photos, ChallengeTables.participations, ChallengeTables.templates,
    ] {
      try await database.schema(table).delete()
    }
    try await database.schema(CompletionRecord.schema).deleteField("revoked_at").update()
  }
}

/// Table names of the Challenges system.
enum ChallengeTables {
  static let templates = "challenge_templates"
  static let participations = "challenge_participations"
  static let photos = "challenge_photos"
  static let profiles = "social_profiles"
  static let follows = "follows"
  static let activities = "activities"
  static let feed = "feed_entries"
  static let congrats = "congrats"
  static let comments = "comments"
  static let reports = "reports"
  static let moderation = "moderation_events"
  static let cards = "share_cards"
  static let outbox = "feed_outbox"
}
