import CompletionAPI
import CompletionClient
import Foundation
import Synchronization
import Testing
import Vapor

@testable import CompletionServer

/// The time zone has one documented spelling, the `Time-Zone` header; the spellings older clients send
/// (`?timeZone=`, `?tz=`, a body's `timeZone`) keep working, and the header wins when both come.
@Suite("Time zone: the Time-Zone header, and every older spelling")
struct TimeZoneSpellingTests {
  /// Kiritimati (UTC+14) and Pago Pago (UTC−11) are 25 hours apart: at any instant their days differ.
  static let ahead = "Pacific/Kiritimati"
  static let behind = "Pacific/Pago_Pago"

  @Test("Today's tasks: the header, ?timeZone= and ?tz= each name the zone; the header wins over the query")
  func queryAndHeader() async throws {
    try await withTestApp { client in
      func today(_ path: String, headers: HTTPHeaders = [:]) async throws -> TodayResponse {
        let response = try await client.send(.GET, path, headers: headers)
        #expect(response.status == .ok, "\(path)")
        return try client.decode(TodayResponse.self, from: response)
      }
      let header = try await today("/api/tasks/today", headers: ["Time-Zone": Self.ahead])
      let query = try await today("/api/tasks/today?timeZone=\(Self.ahead)")
      let short = try await today("/api/tasks/today?tz=\(Self.ahead)")
      let both = try await today("/api/tasks/today?tz=\(Self.ahead)", headers: ["Time-Zone": Self.behind])
      let none = try await today("/api/tasks/today")
      #expect(header.timeZone == Self.ahead && query.timeZone == Self.ahead && short.timeZone == Self.ahead)
      #expect(both.timeZone == Self.behind && both.today != header.today)
      #expect(none.timeZone == "GMT")
    }
  }

  @Test("A new daily puzzle: the body's timeZone still works, the header names the day, and wins over the body")
  func bodyAndHeader() async throws {
    try await withTestApp { client in
      func dailyDate(body: String?, header: String?) async throws -> String? {
        let person = client.stranger()
        let response = try await person.send(
          .POST, "/api/cryptogram/games", json: NewCryptogramGameRequest(mode: "daily", timeZone: body),
          headers: header.map { ["Time-Zone": $0] } ?? [:])
        #expect(response.status == .ok)
        return try person.decode(CryptogramGameView.self, from: response).date
      }
      let aheadDay = try await dailyDate(body: Self.ahead, header: nil)
      let behindDay = try await dailyDate(body: Self.behind, header: nil)
      #expect(aheadDay != nil && aheadDay != behindDay)
      let headerDay = try await dailyDate(body: nil, header: Self.ahead)
      let bothDay = try await dailyDate(body: Self.ahead, header: Self.behind)
      #expect(headerDay == aheadDay && bothDay == behindDay)
    }
  }

  @Test("An empty Time-Zone header counts as not sent: the body's zone is read, and a wrong one refused")
  func emptyHeaderIsAbsent() async throws {
    try await withTestApp { client in
      let refused = try await client.send(
        .POST, "/api/kids/launch", json: KidsLaunchRequest(timeZone: "Mars/Olympus"), headers: ["Time-Zone": ""])
      #expect(refused.status == .badRequest)
      let code = try client.decode(APIErrorBody.self, from: refused).code
      #expect(code == "invalid_time_zone")
      let launched = try await client.send(.POST, "/api/kids/launch", json: KidsLaunchRequest(timeZone: Self.ahead), headers: ["Time-Zone": ""])
      #expect(launched.status == .ok)
    }
  }

  @Test("Challenges read ?tz= and the header alike (an unknown name counts as UTC there)")
  func challenges() async throws {
    try await withTestApp { client in
      func today(_ path: String, headers: HTTPHeaders = [:]) async throws -> String {
        try client.decode(ChallengesOverview.self, from: try await client.send(.GET, path, headers: headers)).today
      }
      let ahead = try await today("/api/challenges", headers: ["Time-Zone": Self.ahead])
      let query = try await today("/api/challenges?tz=\(Self.ahead)")
      let behind = try await today("/api/challenges", headers: ["Time-Zone": Self.behind])
      let unknown = try await today("/api/challenges", headers: ["Time-Zone": "Mars/Olympus"])
      let utc = try await today("/api/challenges")
      #expect(query == ahead && behind != ahead && unknown == utc)
    }
  }

  @Test("An unknown zone in the header is refused where a day is recorded or shown, as the query's was")
  func unknownZoneInTheHeader() async throws {
    try await withTestApp { client in
      for path in ["/api/cryptogram/stats", "/api/cryptogram/dailies", "/api/tasks/today"] {
        let response = try await client.send(.GET, path, headers: ["Time-Zone": "Mars/Olympus"])
        #expect(response.status == .badRequest, "\(path)")
        let code = try client.decode(APIErrorBody.self, from: response).code
        #expect(code == "invalid_time_zone", "\(path)")
      }
    }
  }

  // MARK: What our own clients send

  /// One request as the server received it: its method and path, its query's names, its `Time-Zone` header
  /// and, for a JSON body, the body's top-level names.
  struct Received: Sendable {
    let route: String
    let queryNames: [String]
    let timeZoneHeader: String?
    let bodyNames: [String]
  }

  /// Writes down every request the server receives, before it is answered.
  final class RequestLog: AsyncMiddleware {
    let received = Mutex<[Received]>([])

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
      var bodyNames: [String] = []
      if request.headers.contentType == .json, let buffer = try await request.body.collect(max: 1 << 20).get(),
        let object = try? JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any]
      {
        bodyNames = Array(object.keys)
      }
      let names = (request.url.query ?? "").split(separator: "&").map { String($0.split(separator: "=", maxSplits: 1).first ?? "") }
      let entry = Received(
        route: "\(request.method.rawValue) \(request.url.path)", queryNames: names,
        timeZoneHeader: request.headers.first(name: "Time-Zone"), bodyNames: bodyNames)
      received.withLock { $0.append(entry) }
      return try await next.respond(to: request)
    }
  }

  /// The spellings older clients send, which our own clients no longer do.
  static let olderNames: Set = ["tz", "timeZone"]

  @Test("The Swift client and its models name the zone only in the Time-Zone header: no ?tz=, ?timeZone= or body timeZone")
  func swiftClientSendsTheHeaderOnly() async throws {
    let log = RequestLog()
    try await withTestApp(middleware: [log]) { test, _ in try await Self.driveTheClient(test) }
    let received = log.received.withLock { $0 }
    #expect(received.count >= 20)
    for request in received {
      #expect(Self.olderNames.isDisjoint(with: request.queryNames), "\(request.route) names the zone in its query: \(request.queryNames)")
      #expect(Self.olderNames.isDisjoint(with: request.bodyNames), "\(request.route) names the zone in its body: \(request.bodyNames)")
    }
    // Each request that needs the person's day says it in the header.
    let zoned = [
      "POST /api/cryptogram/games", "POST /api/kids/launch", "POST /api/kids/events", "GET /api/challenges", "POST /api/challenges/streak/freezes",
      "GET /api/tasks/today", "GET /api/tasks/upcoming", "GET /api/tasks/search", "POST /api/tasks/undo", "POST /api/tasks/batch",
      "GET /api/cryptogram/stats", "GET /api/cryptogram/dailies",
    ]
    for route in zoned {
      let sent = received.filter { $0.route == route }
      #expect(!sent.isEmpty, "nothing sent to \(route)")
      for request in sent where route != "POST /api/kids/events" || request.bodyNames.contains("tab") {
        #expect(request.timeZoneHeader == Self.ahead, "\(route) without the Time-Zone header")
      }
    }
    let heartbeats = received.filter { $0.route == "POST /api/kids/events" && $0.bodyNames.contains("tab") }
    #expect(!heartbeats.isEmpty, "the kids' model sent no heartbeat")
    let taskChanges = received.filter { $0.route.hasPrefix("PATCH /api/tasks/") }
    #expect(!taskChanges.isEmpty && taskChanges.allSatisfy { $0.timeZoneHeader == Self.ahead })
  }

  /// The models and the client's methods that take a zone, each with Kiritimati's, through a real server.
  @MainActor static func driveTheClient(_ test: TestClient) async throws {
    let zone = TimeZone(identifier: ahead)!
    let clock = ManualModelClock()
    let api = CompletionClient(server: test.base)
    let cryptogram = CryptogramModel(client: api, clock: clock, timeZone: zone)
    await cryptogram.start(.daily).value
    let modelsDaily = try #require(cryptogram.game?.date)
    await cryptogram.start(.random(nil)).value
    #expect(cryptogram.problem == nil)
    // A caller that still fills the request's older field has it sent as the header.
    let daily = try await api.newCryptogram(NewCryptogramGameRequest(mode: "daily", timeZone: ahead))
    #expect(daily.date == modelsDaily)

    let kids = WaldabenteuerModel(client: api, clock: clock, timeZone: zone)
    await kids.start().value
    clock.advance(by: try #require(kids.catalog?.timing.heartbeatSeconds))
    await kids.settled()
    var beat = KidsEventRequest(type: "heartbeat")
    beat.timeZone = ahead
    beat.tab = "older-caller"
    _ = try await api.kidsEvent(beat)
    kids.stop()

    let challenges = ChallengesModel(client: api, clock: clock, timeZone: zone)
    await challenges.load()
    #expect(challenges.problem == nil)
    await challenges.buyStreakFreeze()  // refused (no points yet), but sent
    if let open = challenges.challenges.first { await challenges.join(open.id) }

    let projects = ProjectsModel(client: api, clock: clock, timeZone: zone)
    await projects.load()
    await projects.addTask("Water the plants")
    let task = try #require(projects.tasks.first)
    await projects.setCompleted(task.id, true)
    await projects.undo()
    _ = try await api.setTasksDone([task.id], true, timeZone: ahead)
    let today = try await api.tasksToday(timeZone: ahead)
    #expect(today.timeZone == ahead, "the server read the header")
    _ = try await api.tasksUpcoming(timeZone: ahead)
    _ = try await api.searchTasks("plants", timeZone: ahead)
    _ = try await api.cryptogramStats(timeZone: ahead)
    _ = try await api.cryptogramDailies(timeZone: ahead)
  }

  @Test("No page sends an older spelling of the zone: the fetch wrapper's Time-Zone header is the one way")
  func pagesSendTheHeaderOnly() throws {
    let folder = ServerOptions.defaultPublicDirectory().appendingPathComponent("js", isDirectory: true)
    let walker = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
    var scripts: [(name: String, text: String)] = []
    for case let url as URL in walker where url.pathExtension == "js" {
      scripts.append((String(url.path.dropFirst(folder.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
    }
    #expect(scripts.count > 30)
    // `?tz=`, `&timeZone=`, `{ timeZone }` or `timeZone:` in a body or query object, `.set("tz", …)`,
    // `body.timeZone = …` (import and export lists aside, which only name functions).
    let older = [
      #"[?&](tz|timeZone)="#, #"[{,]\s*timeZone\s*[,:}]"#, #"["'`](tz|timeZone)["'`]"#, #"\.timeZone\s*=(?!=)"#,
      #"URLSearchParams\(\s*\{[^}]*\b(tz|timeZone)\b"#,
    ]
    let lists = try NSRegularExpression(pattern: #"^\s*(import|export)\s*\{[^}]*\}"#, options: [.anchorsMatchLines])
    for (name, text) in scripts {
      let code = lists.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
      for pattern in older {
        let found = ClientRuleCopyTests.matches(pattern, in: code)
        #expect(found.isEmpty, "\(name) sends an older spelling of the time zone: \(found.first ?? "")")
      }
      // Every call to the API takes its headers from the library (so the Time-Zone header goes with it).
      if name != "lib/api.js" {
        #expect(!code.contains("X-CompletionKit") && !code.contains("Time-Zone"), "\(name) names the API's headers itself: use api() or apiHeaders()")
      }
    }
    // What the patterns find, and what they leave alone.
    let samples = [
      "api(`/api/challenges?tz=${enc(zone)}`)", "const body = { mode, timeZone };", "send(\"heartbeat\", { timeZone: zone, tab })",
      "query.set(\"timeZone\", zone)", "payload.timeZone = zone;", "new URLSearchParams({ timeZone: zone() })",
    ]
    for sample in samples {
      #expect(older.contains { !ClientRuleCopyTests.matches($0, in: sample).isEmpty }, "\(sample)")
    }
    #expect(older.allSatisfy { ClientRuleCopyTests.matches($0, in: "return Intl.DateTimeFormat().resolvedOptions().timeZone || \"UTC\";").isEmpty })
    let library = try String(contentsOf: folder.appendingPathComponent("lib/api.js"), encoding: .utf8)
    #expect(library.contains(#""Time-Zone": timeZone()"#), "the fetch wrapper sends the Time-Zone header")
  }
}
