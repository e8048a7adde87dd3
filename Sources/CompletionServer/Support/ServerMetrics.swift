import Foundation
import Prometheus
import Synchronization
import Vapor

/// What `/metrics` reports, in Prometheus's text format: requests and their latency per route, requests in
/// flight, database writes in flight and group commits, ledger entries committed, and open live streams.
/// One registry per application (tests run many side by side), filled as things happen, never recounted.
final class ServerMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  private let inFlight: Gauge
  private let writesInFlight: Gauge
  private let groupCommits: Counter
  private let groupCommitWrites: Counter
  /// The group commit totals already added to the counters (the writer keeps running totals; a scrape adds
  /// what is new since the last).
  private let groupCommitsReported = Mutex<(groups: Int, writes: Int)>((0, 0))

  /// Latency buckets, from a cached read to a slow upload.
  static let buckets: [Duration] = [
    .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
    .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
  ]

  init() {
    inFlight = registry.makeGauge(
      descriptor: .init(namespace: "completionkit", metricName: "http_requests_in_flight", unitName: "", helpText: "Requests being answered now."))
    writesInFlight = registry.makeGauge(
      descriptor: .init(
        namespace: "completionkit", metricName: "db_write_transactions_in_flight", unitName: "",
        helpText: "Write transactions open or waiting for their group's commit now (database pool use by writes)."))
    groupCommits = registry.makeCounter(
      descriptor: .init(namespace: "completionkit", metricName: "db_group_commits", unitName: "total", helpText: "SQLite group commits so far."))
    groupCommitWrites = registry.makeCounter(
      descriptor: .init(
        namespace: "completionkit", metricName: "db_group_commit_writes", unitName: "total", helpText: "Writes carried by SQLite group commits so far."))
  }

  /// A request is being answered.
  func requestStarted() { inFlight.increment() }

  /// One route's series for one method and status.
  private struct SeriesKey: Hashable {
    /// The matched route (nil: no route matched).
    let route: ObjectIdentifier?
    let method: String
    let status: UInt
  }

  /// The series of each route, looked up in the registry once (where names and labels are built and checked)
  /// and kept, so answering a request costs a dictionary look-up here and no string work.
  private let series = Mutex<[SeriesKey: (requests: Counter, duration: DurationHistogram)]>([:])

  private static var requestsDescriptor: MetricNameDescriptor {
    .init(namespace: "completionkit", metricName: "http_requests", unitName: "total", helpText: "Requests answered, by route and status.")
  }
  private static var durationDescriptor: MetricNameDescriptor {
    .init(namespace: "completionkit", metricName: "http_request_duration", unitName: "seconds", helpText: "Time to answer a request, by route.")
  }

  /// A request was answered: counted and timed under its route's pattern (`/api/tasks/:id`), so ids do not
  /// make a series each.
  func requestFinished(_ request: Request, status: UInt, duration: Duration) {
    inFlight.decrement()
    let method = request.method.rawValue
    let key = SeriesKey(route: request.route.map(ObjectIdentifier.init), method: method, status: status)
    let found = series.withLock { $0[key] } ?? makeSeries(key, pattern: Self.pattern(of: request.route))
    found.requests.increment()
    found.duration.record(duration)
  }

  private func makeSeries(_ key: SeriesKey, pattern: String) -> (requests: Counter, duration: DurationHistogram) {
    let made = (
      requests: registry.makeCounter(
        descriptor: Self.requestsDescriptor, labels: [("method", key.method), ("route", pattern), ("status", String(key.status))]),
      duration: registry.makeDurationHistogram(
        descriptor: Self.durationDescriptor, labels: [("method", key.method), ("route", pattern)], buckets: Self.buckets)
    )
    series.withLock { $0[key] = made }
    return made
  }

  /// A route's pattern (`/api/tasks/:id`), or a fixed name for requests no route matched (static files, 404s).
  static func pattern(of route: Route?) -> String {
    guard let route else { return "unmatched" }
    return "/" + route.path.map(\.description).joined(separator: "/")
  }

  /// A write transaction began (`+1`) or ended (`-1`).
  func writeTransaction(_ change: Double) { writesInFlight.increment(by: change) }

  /// Ledger entries of a transaction that committed.
  func ledgerCommitted(_ tally: LedgerTally.Counts) {
    for (key, value) in tally {
      let (entries, amount) = value
      let labels = [("currency", key.currency), ("kind", key.spend ? "spend" : "pay")]
      registry.makeCounter(
        descriptor: .init(namespace: "completionkit", metricName: "ledger_entries", unitName: "total", helpText: "Ledger entries committed."),
        labels: labels
      ).increment(by: Int64(entries))
      registry.makeCounter(
        descriptor: .init(
          namespace: "completionkit", metricName: "ledger_amount", unitName: "total", helpText: "Points or coins moved by committed ledger entries."),
        labels: labels
      ).increment(by: Int64(amount))
    }
  }

  /// The gauge of open live streams of one kind (`projects`, `feed`).
  func liveStreams(_ kind: String) -> Gauge {
    registry.makeGauge(
      descriptor: .init(namespace: "completionkit", metricName: "live_streams", unitName: "", helpText: "Server-sent event streams open now."),
      labels: [("stream", kind)])
  }

  /// A connection the server closed before answering a request, by why: `head_timeout` (its request's head did
  /// not arrive in time), `bad_request` (answered 400: the parser refused it), `unreadable` (past the parser's
  /// size limits, closed without an answer).
  func connectionClosed(_ reason: String) {
    registry.makeCounter(
      descriptor: .init(
        namespace: "completionkit", metricName: "http_connections_refused", unitName: "total",
        helpText: "Connections closed before a request was answered: a head too slow, or a request HTTP could not read."),
      labels: [("reason", reason)]
    ).increment()
  }

  /// The text a scrape gets.
  func exposition(groupCommitStats: (groups: Int, writes: Int)?) -> [UInt8] {
    if let stats = groupCommitStats {
      let added = groupCommitsReported.withLock { reported in
        let added = (groups: max(0, stats.groups - reported.groups), writes: max(0, stats.writes - reported.writes))
        reported = (max(reported.groups, stats.groups), max(reported.writes, stats.writes))
        return added
      }
      groupCommits.increment(by: Int64(added.groups))
      groupCommitWrites.increment(by: Int64(added.writes))
    }
    return registry.emitToBuffer()
  }
}

/// Ledger entries recorded inside one write transaction, reported to ``ServerMetrics`` only if it commits
/// (a lost version check or a failed group leaves no trace in the figures either).
final class LedgerTally: Sendable {
  /// Entries and total amount by (currency, is a spend).
  typealias Counts = [Key: (entries: Int, amount: Int)]

  struct Key: Hashable, Sendable {
    let currency: String
    let spend: Bool
  }

  /// The tally of the write transaction the current task is running, if any.
  @TaskLocal static var current: LedgerTally?

  private let counts = Mutex<Counts>([:])

  func add(currency: String, amount: Int) {
    counts.withLock { counts in
      let key = Key(currency: currency, spend: amount < 0)
      let old = counts[key] ?? (0, 0)
      counts[key] = (old.entries + 1, old.amount + abs(amount))
    }
  }

  var all: Counts { counts.withLock { $0 } }

  /// Forgets what was counted (the writes run again).
  func reset() {
    counts.withLock { $0 = [:] }
  }
}

/// Counts and times every request for ``ServerMetrics``.
struct MetricsMiddleware: AsyncMiddleware {
  func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
    let metrics = request.application.services.metrics
    let clock = ContinuousClock()
    let start = clock.now
    metrics.requestStarted()
    do {
      let response = try await next.respond(to: request)
      metrics.requestFinished(request, status: response.status.code, duration: clock.now - start)
      return response
    } catch {
      // Errors become responses in the middleware inside this one; a thrown one here is a 500.
      metrics.requestFinished(request, status: 500, duration: clock.now - start)
      throw error
    }
  }
}
