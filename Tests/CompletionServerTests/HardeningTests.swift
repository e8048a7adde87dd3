import CompletionAPI
import FluentSQL
import Foundation
import Testing
import Vapor

@testable import CompletionServer

@Suite("Hardening: guests, cross-site requests")
struct HardeningTests {
  @Test("New guests are limited per client address: 429 too_many_guests with Retry-After; reads and known guests carry on")
  func guestLimit() async throws {
    var options = TestDatabase.options
    options.guestsPerAddressPerHour = 3
    try await withTestApp(options: options) { client, app in
      app.services.clock.freeze()  // the refill is counted in the app's time: exact however slow the machine
      var guests: [TestClient] = []
      for _ in 0..<3 {
        let visitor = client.stranger()
        try await visitor.becomeGuest()
        guests.append(visitor)
      }
      let fourth = client.stranger()
      let refused = try await fourth.send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: [], kinds: []))
      #expect(refused.status == .tooManyRequests)
      #expect(try fourth.decode(APIErrorBody.self, from: refused).code == "too_many_guests")
      // An even refill over the hour: one more guest in 20 minutes.
      #expect(refused.headers.first(name: "Retry-After").flatMap(Int.init) == 1200)
      #expect(fourth.sessionCookie == nil)
      // Reading is still fine for the visitor, and the guests already made keep writing.
      #expect(try await fourth.send(.GET, "/api/cryptogram/stats").status == .ok)
      #expect(try await guests[0].send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: [], kinds: [])).status == .ok)
      // Signing in is not a new guest either.
      let name = uniqueUsername("limit")
      #expect(try await guests[1].send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse")).status == .created)
      let login = try await fourth.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"))
      #expect(login.status == .ok)
      // Twenty minutes on, one more guest may come.
      app.services.clock.advance(by: 1200)
      #expect(try await client.stranger().send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: [], kinds: [])).status == .ok)
      #expect(try await client.stranger().send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: [], kinds: [])).status == .tooManyRequests)
    }
  }

  @Test("Behind a trusted proxy, the limits count the address the proxy forwarded, not the proxy's; otherwise the header is ignored")
  func forwardedAddresses() async throws {
    for trusted in [true, false] {
      var options = TestDatabase.options
      options.guestsPerAddressPerHour = 1
      options.trustProxy = trusted
      try await withTestApp(options: options) { client in
        func write(_ address: String) async throws -> HTTPResponseStatus {
          try await client.stranger().send(
            .PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: [], kinds: []),
            headers: ["X-Forwarded-For": "203.0.113.9, \(address)"]
          ).status
        }
        let first = try await write("198.51.100.1")
        #expect(first == .ok)
        // Another visitor behind the same proxy: a guest of their own when the proxy is trusted.
        let second = try await write("198.51.100.2")
        #expect(second == (trusted ? .ok : .tooManyRequests))
        let third = try await write("198.51.100.2")
        #expect(third == .tooManyRequests)
      }
    }
  }

  @Test("Pruning removes old guests that saved nothing, with their sessions; keeps new guests, guests with things, and saved accounts")
  func pruning() async throws {
    try await withTestApp { client, app in
      // A guest who kept nothing (say, made a project and deleted it): made as the first write makes one.
      let idleID = UUID()
      try await User(id: idleID, displayName: "Guest idle", isGuest: true).create(on: app.db)
      let idleSecret = try await Sessions.issue(for: idleID, kind: .cookie, at: app.services.clock.now(), on: app.db)
      let idle = client.stranger()
      idle.sessionCookie = idleSecret
      #expect(try idle.decode(UserResponse.self, from: try await idle.send(.GET, "/api/me")).id == idleID.uuidString)

      let lister = client.stranger()
      #expect(try await lister.send(.POST, "/api/projects", json: ProjectRequest(name: "Garden")).status == .created)
      let named = client.stranger()
      #expect(try await named.send(.POST, "/api/account/register", json: RegisterRequest(username: uniqueUsername("keep"), password: "correct horse")).status == .created)
      let chooser = client.stranger()
      let chooserMe = try await chooser.becomeGuest()  // a celebration setting: something saved

      // Not old enough yet: the idle guest stays.
      _ = try await GuestPruning.prune(idle: 30 * 86_400, now: app.services.clock.now(), app: app)
      #expect(try await User.find(idleID, on: app.db) != nil)

      // A month on for these four. (Not by moving the clock: on a PostgreSQL shared with tests running alongside,
      // their fresh guests must stay fresh, or they would be pruned from under them.)
      var ids = [idleID, try #require(UUID(uuidString: chooserMe.id))]
      for person in [lister, named] {
        ids.append(try #require(UUID(uuidString: try person.decode(UserResponse.self, from: try await person.send(.GET, "/api/me")).id)))
      }
      let sql = try #require(app.db as? any SQLDatabase)
      try await sql.update(User.schema).set("created_at", to: SQLBind(app.services.clock.now().addingTimeInterval(-31 * 86_400)))
        .where("id", .in, SQLBind.group(ids)).run()
      let removed = try await GuestPruning.prune(idle: 30 * 86_400, now: app.services.clock.now(), app: app)
      #expect(removed >= 1)
      if case .sqliteMemory = app.serverOptions.database { #expect(removed == 1) }

      // The idle guest is gone with its sessions: its cookie signs nobody in.
      #expect(try await User.find(idleID, on: app.db) == nil)
      #expect(try await AuthToken.query(on: app.db).filter(\.$user.$id == idleID).count() == 0)
      #expect(try idle.decode(UserResponse.self, from: try await idle.send(.GET, "/api/me")).id.isEmpty)
      // Everyone else is as they were.
      #expect(try lister.decode(ProjectsOverview.self, from: try await lister.send(.GET, "/api/projects")).projects.map(\.name) == ["Garden"])
      #expect(try named.decode(UserResponse.self, from: try await named.send(.GET, "/api/me")).isGuest == false)
      #expect(try chooser.decode(UserResponse.self, from: try await chooser.send(.GET, "/api/me")).id == chooserMe.id)
    }
  }

  @Test("Every table that references a person is either a belonging that keeps a guest or named bookkeeping")
  func pruningKnowsEveryTable() async throws {
    try await withTestApp { _, app in
      guard case .sqliteMemory = app.serverOptions.database, let sql = app.db as? any SQLDatabase else { return }
      struct Table: Decodable { let name: String }
      struct Reference: Decodable {
        let table: String
        let from: String
      }
      var found: Set<String> = []
      for table in try await sql.raw("SELECT name FROM sqlite_master WHERE type = 'table'").all(decoding: Table.self) {
        for reference in try await sql.raw("SELECT \"table\", \"from\" FROM pragma_foreign_key_list(\(bind: table.name))").all(decoding: Reference.self)
        where reference.table == User.schema {
          found.insert("\(table.name).\(reference.from)")
        }
      }
      let known = Set(GuestPruning.belongings.map { "\($0.table).\($0.column)" })
        .union(GuestPruning.bookkeepingTables.map { "\($0).user_id" })
      #expect(found == known)
    }
  }

  @Test("What the API fuzzer found: 405s with the right Allow, empty idempotency keys, NUL characters dropped, checked parameters for visitors")
  func fuzzerFindings() async throws {
    try await withTestApp { client in
      // A path whose routes take other methods answers 405 with exactly those, a parameter segment included.
      let put = try await client.send(.PUT, "/api/photos/abc", json: ["a": 1])
      let allowed = Set((put.headers.first(name: .allow) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
      #expect(put.status == .methodNotAllowed && allowed == ["GET", "DELETE"], "\(put.headers)")
      let patch = try await client.send(.PATCH, "/api/tasks", json: ["a": 1])
      #expect(patch.status == .methodNotAllowed && patch.headers.first(name: .allow) == "POST")
      // Without the site's header, a method no route takes is still a 405, not a 403.
      let form = try await client.send(.PUT, "/api/motion", raw: "a=1", contentType: "application/x-www-form-urlencoded", siteHeader: false)
      #expect(form.status == .methodNotAllowed)

      // An empty Idempotency-Key is refused, not shared by every request that sends one.
      let garden = try await ProjectsAPITests.project(client, "Garden")
      let task = try #require(try await ProjectsAPITests.task(client, "Dig", in: garden).task)
      let empty = try await ProjectsAPITests.toggle(client, task.id, true, headers: ["Idempotency-Key": ""])
      #expect(empty.status == .badRequest)
      #expect(try client.decode(APIErrorBody.self, from: empty).code == "invalid_idempotency_key")

      // A NUL character would cut the text short: it is dropped. A backslash followed by "u0000" is just text.
      let nul = try await client.send(.POST, "/api/projects", raw: #"{"name":"\u0000Gar\u0000den","notes":"x\u0000y"}"#)
      #expect(nul.status == .created)
      let stored = try client.decode(ProjectView.self, from: nul)
      #expect(stored.name == "Garden" && stored.notes == "xy")
      let text = try await client.send(.POST, "/api/projects", raw: #"{"name":"C:\\u0000 drive"}"#)
      #expect(text.status == .created)
      #expect(try client.decode(ProjectView.self, from: text).name == #"C:\u0000 drive"#)
      // An imported file is cleaned as typed text is: one-line, trimmed titles and names.
      let file = ProjectsExport(
        inbox: [.init(title: "  Buy\tseeds  ", notes: "", priority: "none", dueDate: nil, completed: false)],
        projects: [.init(name: "  Shed ", color: "blue", notes: "", tasks: [])])
      #expect(try await client.send(.POST, "/api/projects/import", json: file).status == .ok)
      let export = try client.decode(ProjectsExport.self, from: try await client.send(.GET, "/api/projects/export"))
      #expect(export.inbox.map(\.title).contains("Buy seeds") && export.projects.map(\.name).contains("Shed"))

      // A visitor's reads check their parameters too.
      let visitor = client.stranger()
      #expect(try await visitor.send(.GET, "/api/feed?limit=51").status == .badRequest)
      #expect(try await visitor.send(.GET, "/api/social/followers?cursor=%C2%84").status == .badRequest)
    }
  }

  @Test("A change without JSON or the site's header is refused 403 request_header_required, whatever the form sends")
  func crossSiteForms() async throws {
    try await withTestApp { client in
      let name = uniqueUsername("csrf")
      #expect(try await client.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse")).status == .created)
      // A cross-site form can send no body, a url-encoded one, multipart or text/plain, and never a custom header.
      let forms: [(raw: String?, type: String?)] = [
        (nil, nil), ("optedOut=cryptogram", "application/x-www-form-urlencoded"),
        ("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nb\r\n--x--", "multipart/form-data; boundary=x"),
        ("{\"optedOut\":[]}", "text/plain;charset=UTF-8"),
      ]
      for form in forms {
        for (method, path) in [(HTTPMethod.POST, "/api/account/logout"), (.PUT, "/api/account/celebrations"), (.POST, "/api/account/tokens")] {
          let refused = try await client.send(method, path, raw: form.raw, contentType: form.type, siteHeader: false)
          #expect(refused.status == .forbidden, "\(method) \(path) with \(form.type ?? "no body")")
          #expect(try client.decode(APIErrorBody.self, from: refused).code == "request_header_required")
        }
      }
      // Still signed in: the logout above did not happen.
      #expect(try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me", siteHeader: false)).username == name)
      // JSON is proof enough (a cross-site page cannot send it without the server's consent), and so is the header.
      #expect(try await client.send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: [], kinds: []), siteHeader: false).status == .ok)
      let token = try await client.send(.POST, "/api/account/tokens")
      #expect(token.status == .created)
      let secret = try client.decode(TokenResponse.self, from: token).token
      // A bearer token is never sent by a browser on its own: scripts need neither.
      let script = client.stranger()
      let revoked = try await script.send(.POST, "/api/account/logout", headers: ["Authorization": "Bearer \(secret)"], siteHeader: false)
      #expect(revoked.status == .noContent)
      #expect(try await client.send(.POST, "/api/account/logout").status == .noContent)
    }
  }
}

@Suite("Operations: metrics")
struct MetricsTests {
  /// The value of the first sample line of `/metrics` whose name and labels start with `prefix`, summed
  /// over every such line.
  static func sample(_ text: String, _ prefix: String) -> Double {
    text.split(separator: "\n").filter { $0.hasPrefix(prefix) }.compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }.reduce(0, +)
  }

  @Test("/metrics counts requests per route pattern with latency, ledger entries only once committed, and open live streams")
  func metrics() async throws {
    try await withTestApp { client, app in
      let garden = try await ProjectsAPITests.project(client, "Garden")
      let task = try #require(try await ProjectsAPITests.task(client, "Dig", in: garden).task)
      let stream = try await EventStreamReader(client)
      _ = try await stream.next()  // the snapshot: the stream is open
      #expect(try await ProjectsAPITests.toggle(client, task.id, true).status == .ok)
      let first = String(buffer: try await client.send(.GET, "/metrics").body)
      #expect(first.contains("# TYPE completionkit_http_requests_total counter"))
      #expect(Self.sample(first, #"completionkit_http_requests_total{method="PATCH",route="/api/tasks/:id",status="200"}"#) == 1)
      #expect(Self.sample(first, #"completionkit_http_request_duration_seconds_count{method="PATCH",route="/api/tasks/:id"}"#) == 1)
      #expect(!first.contains(task.id), "ids never become labels")
      #expect(Self.sample(first, #"completionkit_live_streams{stream="projects"}"#) == 1)
      let paid = Self.sample(first, "completionkit_ledger_entries_total{")
      #expect(paid >= 1, "completing the project paid through the ledger")
      // Completing it again pays nothing more, and the figures say so.
      #expect(try await ProjectsAPITests.toggle(client, task.id, false).status == .ok)
      #expect(try await ProjectsAPITests.toggle(client, task.id, true).status == .ok)
      let second = String(buffer: try await client.send(.GET, "/metrics").body)
      #expect(Self.sample(second, "completionkit_ledger_entries_total{") == paid)
      #expect(Self.sample(second, #"completionkit_http_requests_total{method="PATCH",route="/api/tasks/:id",status="200"}"#) == 3)
      #expect(Self.sample(second, #"completionkit_http_requests_total{method="GET",route="/metrics",status="200"}"#) == 1)
      try await stream.close()
    }
  }

  @Test("With a metrics token, /metrics answers only a scraper that sends it")
  func metricsToken() async throws {
    var options = TestDatabase.options
    options.metricsToken = "scrape-me"
    try await withTestApp(options: options) { client in
      let refused = try await client.send(.GET, "/metrics")
      #expect(refused.status == .unauthorized)
      #expect(try client.decode(APIErrorBody.self, from: refused).code == "metrics_token_required")
      let wrong = try await client.send(.GET, "/metrics", headers: ["Authorization": "Bearer nope"])
      #expect(wrong.status == .unauthorized)
      let scraped = try await client.send(.GET, "/metrics", headers: ["Authorization": "Bearer scrape-me"])
      #expect(scraped.status == .ok && scraped.headers.first(name: .contentType)?.hasPrefix("text/plain; version=0.0.4") == true)
    }
  }
}
