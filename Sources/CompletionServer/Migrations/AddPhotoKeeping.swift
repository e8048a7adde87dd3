import Fluent
import FluentSQL

/// Which photos are in a post (`challenge_photos.posted`), and what each account keeps uploaded but not posted, as a
/// kept counter (`upload_usage`), so the upload quota is read instead of recounted on every upload. Existing photos
/// that a post shows are marked posted; the counters start from the photos that are not.
struct AddPhotoKeeping: AsyncMigration {
  static let usage = "upload_usage"

  func prepare(on database: any Database) async throws {
    try await database.schema(ChallengeTables.photos).field("posted", .bool, .required, .sql(.default(false))).update()
    try await database.schema(Self.usage)
      .field("user_id", .uuid, .identifier(auto: false), .references(User.schema, .id, onDelete: .cascade))
      .field("files", .int64, .required)
      .field("bytes", .int64, .required)
      .create()
    let sql = database.sql
    try await sql.raw(
      "UPDATE challenge_photos SET posted = \(bind: true) WHERE id IN (SELECT photo_id FROM activities WHERE photo_id IS NOT NULL)"
    ).run()
    try await sql.raw(
      """
      INSERT INTO upload_usage (user_id, files, bytes)
      SELECT user_id, COUNT(*), SUM(LENGTH(full_jpeg) + LENGTH(thumbnail_jpeg)) FROM challenge_photos WHERE posted = \(bind: false) GROUP BY user_id
      """
    ).run()
    // The clean-up's look-ups: posts showing a photo, and unposted photos by age.
    try await sql.create(index: "activities_by_photo").on(ChallengeTables.activities).column("photo_id").run()
    try await sql.create(index: "photos_by_posted").on(ChallengeTables.photos).column("posted").column("created_at").run()
  }

  func revert(on database: any Database) async throws {
    try await database.schema(Self.usage).delete()
    let sql = database.sql
    try await sql.drop(index: "activities_by_photo").run()
    try await sql.drop(index: "photos_by_posted").run()
    // Written out: Fluent's SQLite schema builder leaves a dropped column in place (SQLite has had DROP COLUMN since 3.35).
    try await sql.raw("ALTER TABLE challenge_photos DROP COLUMN posted").run()
  }
}
