import CompletionCore
import Fluent
import FluentSQL
import Foundation

/// Table names of the completion pipeline.
enum CompletionRecord { static let schema = "completions" }
enum StreakRecord { static let schema = "streaks" }
enum CompletionStatsRecord { static let schema = "completion_stats" }
enum CompletionProfileRecord { static let schema = "completion_profiles" }

/// What recording a completion did.
struct RecordedCompletion: Sendable {
  /// False when this completion had been recorded before (a retry): nothing was paid or counted again.
  let isFirst: Bool
  /// The ledger's answer to each payment the reward policy asked for.
  let payments: [LedgerOutcome]
  /// The streak after this completion, when the domain keeps one.
  let streak: Streak?
  /// The domain's running totals after this completion.
  let stats: CompletionTotals
  /// Whether and how to celebrate.
  let celebration: CelebrationPolicy.Decision

  /// The choreography to play, if any.
  var choreography: Choreography? {
    if case .celebrate(let choreography) = celebration { return choreography }
    return nil
  }
}

/// One person's totals in one domain.
struct CompletionTotals: Hashable, Sendable, Decodable {
  let completed: Int
  let timed: Int
  let totalSeconds: Double
  let bestSeconds: Double?

  static let zero = CompletionTotals(completed: 0, timed: 0, totalSeconds: 0, bestSeconds: nil)

  enum CodingKeys: String, CodingKey {
    case completed, timed
    case totalSeconds = "total_seconds"
    case bestSeconds = "best_seconds"
  }
}

/// A payment the ledger refused although the game's rules allowed it: the rules and the ledger disagree,
/// so nothing of the request is recorded (its transaction rolls back).
struct RewardRefused: Error, CustomStringConvertible {
  let outcome: LedgerOutcome
  var description: String { "the ledger refused a reward: \(outcome)" }
}

extension LedgerStore {
  /// Records a payment the caller's rules already allow: recorded, or a retry's duplicate; any refusal
  /// throws ``RewardRefused``.
  func recordAllowed(_ entry: LedgerEntry) async throws -> LedgerOutcome {
    let outcome = try await record(entry)
    switch outcome {
    case .recorded, .duplicate: return outcome
    case .conflict, .insufficientFunds, .missingKey: throw RewardRefused(outcome: outcome)
    }
  }
}

/// Records a completion — the one place that does. Inside the caller's transaction (which also saves the
/// domain's state) it writes the completion row, pays the reward policy's entries into the ledger with
/// their balances, counts the streak, adds to the domain's totals, and decides the celebration. A
/// completion whose key was recorded before pays and counts nothing again.
enum CompletionRecorder {
  /// Records `completion` under `rules`. Call it with the transaction's database.
  ///
  /// Every statement is a round trip to the database, so the recorder makes few: one read of what it needs
  /// (totals, streak, celebration settings), the completion row (which already says whether it was
  /// celebrated), the ledger entry and its balance, the streak and the totals.
  static func record(
    _ completion: Completion, rules: CompletionRules, preference: MotionPreference, on database: any Database
  ) async throws -> RecordedCompletion {
    let db = database.sql
    guard let userID = UUID(uuidString: completion.account) else { throw SQLLedgerStore.InvalidAccount(account: completion.account) }
    let known = try await state(of: userID, domain: completion.domain, streak: rules.streak?.name, on: db)
    let policy = rules.celebration

    // Counted by completions, the celebration is known before anything is written (this one makes it
    // completed + 1), so the completion row carries it; counted by a balance it waits for the payment.
    // (Two completions of one person committing at the same instant may both see the same count: the
    // totals stay exact, only which of the two celebrates a milestone can differ.)
    var decision: CelebrationPolicy.Decision?
    if case .completions = policy.counting {
      decision = policy.decide(
        .init(
          count: known.completed + 1, optedOut: known.optedOut, preference: preference, lastCelebratedAt: known.lastCelebratedAt,
          now: completion.completedAt))
    }
    let inserted = try await insertCompletion(
      UUID(), completion.key, userID, completion.domain, completion.subject, completion.member, completion.kind, completion.completedAt,
      completion.timeZone, completion.scheduledDay?.description, completion.stats.seconds, completion.stats.mistakes,
      completion.stats.hints, decision?.isCelebration ?? false, on: db
    ).first()
    guard inserted != nil else {
      // Recorded before (a retry): nothing is paid or counted again; the celebration is replayed as decided.
      let replay = policy.decide(
        .init(count: known.completed, optedOut: known.optedOut, preference: preference, lastCelebratedAt: nil, now: completion.completedAt))
      return RecordedCompletion(
        isFirst: false, payments: [], streak: known.streak, stats: CompletionTotals(completed: known.completed, timed: 0, totalSeconds: 0, bestSeconds: nil),
        celebration: decision == nil ? .notAMilestone : replay)
    }

    let ledger = SQLLedgerStore(database)
    var payments: [LedgerOutcome] = []
    for entry in rules.reward.entries(for: completion) {
      payments.append(try await ledger.recordAllowed(entry))
    }

    var streak = known.streak
    if let rule = rules.streak, let day = rule.day(of: completion) {
      // Saved by compare-and-set: a freeze bought (or another completion counted) at the same moment by
      // another server process is never overwritten; the day is counted again on what that one saved.
      var stored = known.storedStreak
      var saved: Streak?
      for _ in 0..<GameRunner.attempts where saved == nil {
        var counted = stored ?? Streak()
        if counted.record(day, in: completion.zone, rule: rule) == .alreadyCounted {
          saved = counted
        } else if try await saveStreak(counted, replacing: stored, userID: userID, name: rule.name, on: db) {
          saved = counted
        } else {
          stored = try await loadStoredStreak(userID: userID, name: rule.name, on: db)
        }
      }
      guard let saved else { throw RunnerError.busy }
      streak = saved
    }

    let totals = try await addToTotals(completion, userID: userID, on: db)

    if decision == nil {
      let balance = payments.first.flatMap { outcome -> Int? in
        if case .recorded(_, let balance) = outcome { return balance }
        return nil
      } ?? 0
      let decided = policy.decide(
        .init(count: balance, optedOut: known.optedOut, preference: preference, lastCelebratedAt: known.lastCelebratedAt, now: completion.completedAt))
      if decided.isCelebration {
        try await db.update(CompletionRecord.schema).set("celebrated", to: SQLBind(true)).where("key", .equal, SQLBind(completion.key)).run()
      }
      decision = decided
    }
    let celebration = decision ?? .notAMilestone
    // The time of the last celebration only matters to a policy that joins celebrations close together.
    if celebration.isCelebration, policy.coalescingWindow > 0 {
      try await db.raw(
        """
        INSERT INTO completion_profiles (user_id, celebration_opt_outs, last_celebrated_at) VALUES (\(bind: userID), '', \(bind: completion.completedAt))
        ON CONFLICT (user_id) DO UPDATE SET last_celebrated_at = excluded.last_celebrated_at
        """
      ).run()
    }
    return RecordedCompletion(isFirst: true, payments: payments, streak: streak, stats: totals, celebration: celebration)
  }

  private static let insertCompletion = FixedSQL(
    """
    INSERT INTO completions (id, key, user_id, domain, subject, member, kind, completed_at, time_zone, scheduled_day, seconds, mistakes,
    hints, celebrated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (key) DO NOTHING RETURNING id
    """)

  /// Takes back the completion recorded under `key` (a moderator found it untrue): it stays in
  /// `completions`, marked revoked; each payment it made is paid back by a negative ledger entry keyed to
  /// it ("<payment key>#revoke", so a repeat pays back nothing more); the domain's count drops by one;
  /// and the streak is counted again from the completions that remain. Returns false when there was no
  /// such completion or it was revoked before. Call it inside a transaction.
  @discardableResult
  static func revoke(key: String, rules: CompletionRules, reason: String, at now: Date, on database: any Database) async throws -> Bool {
    let db = database.sql
    struct Row: Decodable {
      let user_id: UUID
      let domain: String
      let subject: String
      let member: String?
      let kind: String
      let completed_at: Date
      let time_zone: String
      let scheduled_day: String?
    }
    guard
      let row = try await db.raw(
        """
        UPDATE completions SET revoked_at = \(bind: now) WHERE key = \(bind: key) AND revoked_at IS NULL
        RETURNING user_id, domain, subject, member, kind, completed_at, time_zone, scheduled_day
        """
      ).first(decoding: Row.self)
    else { return false }
    let completion = Completion(
      domain: row.domain, subject: row.subject, account: row.user_id.uuidString, member: row.member, kind: row.kind,
      completedAt: row.completed_at, timeZone: row.time_zone, scheduledDay: row.scheduled_day.flatMap(CalendarDay.init))
    let ledger = SQLLedgerStore(database)
    for entry in rules.reward.entries(for: completion) {
      let payback = LedgerEntry(
        key: entry.key + "#revoke", account: entry.account, currency: entry.currency, amount: -entry.amount, reason: reason, recordedAt: now)
      _ = try await ledger.recordAllowed(payback)
    }
    try await db.raw(
      """
      UPDATE completion_stats SET completed = completed - 1
      WHERE user_id = \(bind: row.user_id) AND domain = \(bind: row.domain) AND completed > 0
      """
    ).run()
    if let rule = rules.streak {
      try await save(try await recount(rule, userID: row.user_id, domain: row.domain, on: db), userID: row.user_id, name: rule.name, on: db)
    }
    return true
  }

  /// The streak `rule` counts from the person's completions in `domain` that stand (not revoked) and the
  /// freezes they bought, in order. (A purchase the new history would put over the limit is not held: its
  /// points stay spent, as they were for the freeze it was.)
  static func recount(_ rule: StreakRule, userID: UUID, domain: String, on db: any SQLDatabase) async throws -> Streak {
    struct Row: Decodable {
      let subject: String
      let kind: String
      let completed_at: Date
      let time_zone: String
      let scheduled_day: String?
    }
    let rows = try await db.raw(
      """
      SELECT subject, kind, completed_at, time_zone, scheduled_day FROM completions
      WHERE user_id = \(bind: userID) AND domain = \(bind: domain) AND revoked_at IS NULL ORDER BY completed_at
      """
    ).all(decoding: Row.self)
    struct Purchase: Decodable {
      let bought_at: Date
      let time_zone: String
    }
    let purchases = try await db.raw(
      """
      SELECT bought_at, time_zone FROM streak_freezes WHERE user_id = \(bind: userID) AND name = \(bind: rule.name) ORDER BY bought_at
      """
    ).all(decoding: Purchase.self)
    var streak = Streak()
    var bought = purchases[...]
    func buy(until time: Date) {
      while let purchase = bought.first, purchase.bought_at <= time {
        bought.removeFirst()
        let zone = TimeZone(identifier: purchase.time_zone) ?? .gmt
        try? streak.addFreeze(on: CalendarDay(purchase.bought_at, in: zone, dayStartHour: rule.dayStartHour), in: zone, rule: rule)
      }
    }
    for row in rows {
      buy(until: row.completed_at)
      let completion = Completion(
        domain: domain, subject: row.subject, account: userID.uuidString, kind: row.kind, completedAt: row.completed_at,
        timeZone: row.time_zone, scheduledDay: row.scheduled_day.flatMap(CalendarDay.init))
      if let day = rule.day(of: completion) { streak.record(day, in: completion.zone, rule: rule) }
    }
    buy(until: .distantFuture)
    return streak
  }

  /// What the recorder needs to know before writing, in one statement.
  private struct KnownState: Sendable {
    var completed: Int
    var optedOut: Set<String>
    var lastCelebratedAt: Date?
    var streak: Streak?
    /// The streak as stored (nil: no row yet).
    var storedStreak: Streak?
  }

  private static func state(of userID: UUID, domain: String, streak name: String?, on db: any SQLDatabase) async throws -> KnownState {
    struct Row: Decodable {
      let completed: Int?
      let opt_outs: String?
      let last_celebrated_at: Date?
      let current: Int?
      let longest: Int?
      let last_day: String?
      let last_zone: String?
      let freezes: Int?
      let frozen_days: String?
    }
    let row = try await stateSQL(userID, domain, userID, userID, name ?? "", on: db).first(decoding: Row.self)
    let streak = row?.current.map {
      storedStreak(
        current: $0, longest: row?.longest ?? $0, lastDay: row?.last_day, lastZone: row?.last_zone, freezes: row?.freezes ?? 0,
        frozenDays: row?.frozen_days)
    }
    return KnownState(
      completed: row?.completed ?? 0, optedOut: optOuts(from: row?.opt_outs), lastCelebratedAt: row?.last_celebrated_at,
      streak: name == nil ? nil : (streak ?? Streak()), storedStreak: streak)
  }

  private static let stateSQL = FixedSQL(
    """
    SELECT
      (SELECT completed FROM completion_stats WHERE user_id = ? AND domain = ?) AS completed,
      p.celebration_opt_outs AS opt_outs, p.last_celebrated_at AS last_celebrated_at,
      s.current AS current, s.longest AS longest, s.last_day AS last_day, s.last_zone AS last_zone, s.freezes AS freezes,
      s.frozen_days AS frozen_days
    FROM (SELECT 1 AS one) AS base
    LEFT JOIN completion_profiles p ON p.user_id = ?
    LEFT JOIN streaks s ON s.user_id = ? AND s.name = ?
    """)

  // MARK: Streaks

  /// The person's streak `name` as stored (an empty one before the first day).
  static func loadStreak(userID: UUID, name: String, on db: any SQLDatabase) async throws -> Streak {
    try await loadStoredStreak(userID: userID, name: name, on: db) ?? Streak()
  }

  /// The person's streak `name` as stored, nil when it has no row yet.
  static func loadStoredStreak(userID: UUID, name: String, on db: any SQLDatabase) async throws -> Streak? {
    struct Row: Decodable {
      let current: Int
      let longest: Int
      let last_day: String?
      let last_zone: String?
      let freezes: Int
      let frozen_days: String?
    }
    let row = try await db.select().columns("current", "longest", "last_day", "last_zone", "freezes", "frozen_days").from(StreakRecord.schema)
      .where("user_id", .equal, SQLBind(userID)).where("name", .equal, SQLBind(name))
      .first(decoding: Row.self)
    guard let row else { return nil }
    return storedStreak(
      current: row.current, longest: row.longest, lastDay: row.last_day, lastZone: row.last_zone, freezes: row.freezes, frozenDays: row.frozen_days)
  }

  /// A streak from the columns of its `streaks` row (covered days are stored as "YYYY-MM-DD" joined by commas).
  private static func storedStreak(current: Int, longest: Int, lastDay: String?, lastZone: String?, freezes: Int, frozenDays: String?) -> Streak {
    Streak(
      current: current, longest: longest, lastDay: lastDay.flatMap(CalendarDay.init), lastZone: lastZone, freezes: freezes,
      frozenDays: (frozenDays ?? "").split(separator: ",").compactMap { CalendarDay(String($0)) })
  }

  private static func frozenText(_ streak: Streak) -> String { streak.frozenDays.map(\.description).joined(separator: ",") }

  private static func save(_ streak: Streak, userID: UUID, name: String, on db: any SQLDatabase) async throws {
    try await saveStreakSQL(
      userID, name, streak.current, streak.longest, streak.lastDay?.description, streak.lastZone, streak.freezes, frozenText(streak), on: db
    ).run()
  }

  private static let saveStreakSQL = FixedSQL(
    """
    INSERT INTO streaks (user_id, name, current, longest, last_day, last_zone, freezes, frozen_days) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (user_id, name) DO UPDATE SET current = excluded.current, longest = excluded.longest,
      last_day = excluded.last_day, last_zone = excluded.last_zone, freezes = excluded.freezes, frozen_days = excluded.frozen_days
    """)

  /// Saves `streak` only if the stored one is still `old` (nil: there was no row): false when another
  /// transaction changed it first (on PostgreSQL the row lock makes the second wait and then miss).
  static func saveStreak(_ streak: Streak, replacing old: Streak?, userID: UUID, name: String, on db: any SQLDatabase) async throws -> Bool {
    let frozen = frozenText(streak)
    guard let old else {
      return try await insertStreakSQL(
        userID, name, streak.current, streak.longest, streak.lastDay?.description, streak.lastZone, streak.freezes, frozen, on: db
      ).first() != nil
    }
    return try await replaceStreakSQL(
      streak.current, streak.longest, streak.lastDay?.description, streak.lastZone, streak.freezes, frozen,
      userID, name, old.current, old.longest, old.lastDay?.description ?? "", old.lastZone ?? "", old.freezes, frozenText(old), on: db
    ).first() != nil
  }

  private static let insertStreakSQL = FixedSQL(
    """
    INSERT INTO streaks (user_id, name, current, longest, last_day, last_zone, freezes, frozen_days) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (user_id, name) DO NOTHING RETURNING current
    """)

  private static let replaceStreakSQL = FixedSQL(
    """
    UPDATE streaks SET current = ?, longest = ?, last_day = ?, last_zone = ?, freezes = ?, frozen_days = ?
    WHERE user_id = ? AND name = ? AND current = ? AND longest = ? AND COALESCE(last_day, '') = ? AND COALESCE(last_zone, '') = ?
      AND freezes = ? AND COALESCE(frozen_days, '') = ?
    RETURNING current
    """)

  // MARK: Totals

  /// The person's totals in `domain`.
  static func totals(userID: UUID, domain: String, on db: any SQLDatabase) async throws -> CompletionTotals {
    try await db.select().columns("completed", "timed", "total_seconds", "best_seconds").from(CompletionStatsRecord.schema)
      .where("user_id", .equal, SQLBind(userID)).where("domain", .equal, SQLBind(domain))
      .first(decoding: CompletionTotals.self) ?? .zero
  }

  /// Adds one completion by increment (never a recount), so concurrent completions never lose a count.
  private static func addToTotals(_ completion: Completion, userID: UUID, on db: any SQLDatabase) async throws -> CompletionTotals {
    let seconds = completion.stats.seconds
    let timed = seconds == nil ? 0 : 1
    let row = try await addToTotalsSQL(userID, completion.domain, timed, seconds ?? 0, seconds, on: db)
      .first(decoding: CompletionTotals.self)
    return row ?? .zero
  }

  private static let addToTotalsSQL = FixedSQL(
    """
    INSERT INTO completion_stats (user_id, domain, completed, timed, total_seconds, best_seconds) VALUES (?, ?, 1, ?, ?, ?)
    ON CONFLICT (user_id, domain) DO UPDATE SET
      completed = completion_stats.completed + 1,
      timed = completion_stats.timed + excluded.timed,
      total_seconds = completion_stats.total_seconds + excluded.total_seconds,
      best_seconds = CASE
        WHEN excluded.best_seconds IS NULL THEN completion_stats.best_seconds
        WHEN completion_stats.best_seconds IS NULL OR excluded.best_seconds < completion_stats.best_seconds THEN excluded.best_seconds
        ELSE completion_stats.best_seconds END
    RETURNING completed, timed, total_seconds, best_seconds
    """)

  // MARK: Celebration settings

  /// A person's celebration settings.
  struct Profile: Sendable {
    var optedOut: Set<String>
    var lastCelebratedAt: Date?
  }

  static func profile(userID: UUID, on db: any SQLDatabase) async throws -> Profile {
    struct Row: Decodable {
      let celebration_opt_outs: String
      let last_celebrated_at: Date?
    }
    let row = try await db.select().columns("celebration_opt_outs", "last_celebrated_at").from(CompletionProfileRecord.schema)
      .where("user_id", .equal, SQLBind(userID)).first(decoding: Row.self)
    return Profile(optedOut: optOuts(from: row?.celebration_opt_outs), lastCelebratedAt: row?.last_celebrated_at)
  }

  /// The opted-out kinds as stored: names joined by commas.
  private static func optOuts(from text: String?) -> Set<String> {
    Set(text?.split(separator: ",").map(String.init) ?? [])
  }

  /// Turns celebrations of `kinds` off (and every other kind on).
  static func setOptOuts(_ kinds: Set<String>, userID: UUID, on db: any SQLDatabase) async throws {
    let text = kinds.sorted().joined(separator: ",")
    try await db.raw(
      """
      INSERT INTO completion_profiles (user_id, celebration_opt_outs, last_celebrated_at) VALUES (\(bind: userID), \(bind: text), NULL)
      ON CONFLICT (user_id) DO UPDATE SET celebration_opt_outs = excluded.celebration_opt_outs
      """
    ).run()
  }
}
