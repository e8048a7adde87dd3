import Fluent
import SQLKit

/// The feed outbox: posts of accounts with more followers than a completion copies at once, waiting to be
/// copied into their followers' feeds a batch at a time (`FeedFanOut`), with the place the copying has reached.
/// Until a post leaves it, its followers merge it in on read, like a very big account's post.
struct CreateFeedOutbox: AsyncMigration {
  func prepare(on database: any Database) async throws {
    try await database.schema(ChallengeTables.outbox)
      .field("activity_id", .uuid, .identifier(auto: false), .references(ChallengeTables.activities, .id, onDelete: .cascade))
      .field("author_id", .uuid, .required)
      .field("at_micros", .int64, .required)
      // The last follower copied, in the order of `follows_by_followee` (follow time, follower); none yet at first.
      .field("after_at", .int64)
      .field("after_follower", .uuid)
      // How many followers were copied: the compare-and-set that keeps two processes from copying one batch twice.
      .field("copied", .int, .required)
      .create()
    // Merging on read looks only at posts not copied: without this, each followed account's every post is read.
    try await database.sql.raw(
      "CREATE INDEX activities_merged_on_read ON activities (user_id, at_micros) WHERE fanned_out = false"
    ).run()
    try await database.sql.create(index: "feed_outbox_by_time").on(ChallengeTables.outbox).column("at_micros").run()
  }

  func revert(on database: any Database) async throws {
    try await database.sql.raw("DROP INDEX activities_merged_on_read").run()
    try await database.schema(ChallengeTables.outbox).delete()
  }
}
