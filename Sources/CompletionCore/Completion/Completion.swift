import Foundation

/// Something a person finished: a puzzle solved, a level won, a challenge done, a project at 100 %.
///
/// The value every domain hands to the completion pipeline (reward → streak → celebration → share).
/// Its ``key`` names the real-world event, so recording it twice is recognised as the same completion.
public struct Completion: Hashable, Sendable, Codable {
  /// How the finish went, where the domain measures it.
  public struct Stats: Hashable, Sendable, Codable {
    /// Seconds of play, when timed.
    public var seconds: Double?
    public var mistakes: Int?
    public var hints: Int?

    public init(seconds: Double? = nil, mistakes: Int? = nil, hints: Int? = nil) {
      self.seconds = seconds
      self.mistakes = mistakes
      self.hints = hints
    }
  }

  /// The system it happened in: "cryptogram", "waldabenteuer", "projects", "challenges".
  public let domain: String
  /// What finished, unique within the domain for this person (a game id, "alexander:level:17").
  public let subject: String
  /// Who finished it (the account's id).
  public let account: String
  /// Which member of the account, when an account is shared (a child of a family); nil otherwise.
  public let member: String?
  /// A domain's sort of completion ("daily", "random", "weekly"…); rewards and opt-outs may depend on it.
  public let kind: String
  /// When it finished.
  public let completedAt: Date
  /// The person's time zone at that moment (an identifier such as "Europe/Berlin").
  public let timeZone: String
  /// The day the thing was meant for, when it has one (a daily puzzle's date); a streak counts it only
  /// when it is finished on that day.
  public let scheduledDay: CalendarDay?
  public let stats: Stats

  public init(
    domain: String, subject: String, account: String, member: String? = nil, kind: String = "", completedAt: Date, timeZone: String,
    scheduledDay: CalendarDay? = nil, stats: Stats = Stats()
  ) {
    self.domain = domain
    self.subject = subject
    self.account = account
    self.member = member
    self.kind = kind
    self.completedAt = completedAt
    self.timeZone = timeZone
    self.scheduledDay = scheduledDay
    self.stats = stats
  }

  /// Names this completion for idempotency: the same finish recorded again carries the same key.
  public var key: String { "\(domain):\(account):\(subject)" }

  /// The zone named by ``timeZone`` (UTC if the name is unknown).
  public var zone: TimeZone { TimeZone(identifier: timeZone) ?? .gmt }
}
