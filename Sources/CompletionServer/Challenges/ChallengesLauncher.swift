import Challenges
import CompletionCore
import Fluent
import Foundation
import Vapor

extension Launcher {
  /// Reads challenges from a JSON file and adds them to the catalogue. The whole file is checked first
  /// (against the rules and the catalogue as it is): a file with any bad row changes nothing, and the
  /// error lists every bad row. Returns a one-line report.
  public static func importChallenges(options: ServerOptions, path: String, logLevel: String) async throws -> String {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw LauncherError("Cannot read \(path): \(error.localizedDescription)")
    }
    return try await withApplication(options: options, logLevel: logLevel) { app in
      let catalogue = try await SQLChallengesStore(app.db).catalogue()
      let templates: [ChallengeTemplate]
      do throws(ChallengeImport.FileError) {
        templates = try ChallengeImport.parse(data, existing: catalogue)
      } catch {
        throw LauncherError(error.description)
      }
      let now = app.services.clock.now()
      // One transaction: all or none.
      try await app.db.transaction { try await SQLChallengesStore($0).addTemplates(templates, at: now) }
      let counts = Dictionary(grouping: templates, by: \.type).map { "\($0.value.count) \($0.key.rawValue)" }.sorted()
      return "Imported \(templates.count) challenge\(templates.count == 1 ? "" : "s") (\(counts.joined(separator: ", ")))."
    }
  }

  /// `completionkit moderation list`: the completions waiting for review, with their reports.
  public static func moderationList(options: ServerOptions, all: Bool, logLevel: String) async throws -> [String] {
    try await withApplication(options: options, logLevel: logLevel) { app in
      let items = try await ChallengesModeration.list(all: all, on: app.db)
      guard !items.isEmpty else { return [all ? "No completion has been reported." : "Nothing is waiting for review."] }
      var lines: [String] = []
      for item in items {
        lines.append("\(item.id.uuidString)  \(item.status)  \(item.reports) report\(item.reports == 1 ? "" : "s")  \(item.author): \(item.title)")
        for reason in item.reasons { lines.append("    “\(reason)”") }
        for step in try await ChallengesModeration.trail(item.id, on: app.db) { lines.append("    \(step)") }
      }
      return lines
    }
  }

  /// `completionkit moderation keep|revoke ID`.
  public static func moderationReview(
    options: ServerOptions, id: String, decision: ChallengesModeration.Decision, note: String, logLevel: String
  ) async throws -> String {
    guard let uuid = UUID(uuidString: id) else { throw LauncherError("“\(id)” is not a completion id: copy one from `completionkit moderation list`.") }
    return try await withApplication(options: options, logLevel: logLevel) { app in
      do {
        try await ChallengesModeration.review(uuid, decision: decision, operator: "operator", note: note, app: app)
      } catch let refused as ChallengesModeration.Refused {
        throw LauncherError(refused.description)
      }
      return decision == .keep
        ? "Kept \(uuid.uuidString): it shows in feeds again."
        : "Revoked \(uuid.uuidString): hidden for good, its points paid back and the streak counted again."
    }
  }

  /// `completionkit demo challenges --users N --follows M`: N people (usernames demo1…demoN, password
  /// "demo-password") each following M others, with two weeks of completions, congratulations and comments,
  /// for benchmarks and for a look around. Written in large batches; refuses to run twice on one database.
  public static func demoChallenges(options: ServerOptions, users: Int, follows: Int, logLevel: String) async throws -> String {
    guard users >= 2 else { throw LauncherError("--users must be at least 2.") }
    guard (0..<users).contains(follows) else { throw LauncherError("--follows must be from 0 to \(users - 1).") }
    return try await withApplication(options: options, logLevel: logLevel) { app in
      try await ChallengesDemo.fill(app: app, users: users, follows: follows)
    }
  }
}

extension Application {
  /// Demo data for Challenges in this app's database (see `completionkit demo challenges`).
  public func fillChallengesDemo(users: Int, follows: Int) async throws -> String {
    try await ChallengesDemo.fill(app: self, users: users, follows: follows)
  }

  /// Gives `username` `count` more followers (new silent people): a very big account, for benchmarks.
  public func addDemoFollowers(of username: String, count: Int) async throws {
    try await ChallengesDemo.addFollowers(app: self, of: username, count: count)
  }
}
