import CompletionAPI
import CompletionClient
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CompletionServer

@Suite("Accounts", .serialized)
struct AccountTests {
  @Test("Reads never make an account; a visitor's first write makes a guest with an http-only session cookie, which brings the same guest back")
  func guest() async throws {
    try await withTestApp { client, app in
      // Reading (what a first visit does on every page) answers as a guest but stores nothing.
      for path in ["/api/me", "/api/cryptogram/stats", "/api/account/celebrations", "/api/kids/state", "/api/social/me"] {
        let read = try await client.send(.GET, path)
        #expect(read.status == .ok, "\(path)")
        #expect(read.headers.setCookie?["ck_session"] == nil, "\(path) set a cookie")
      }
      let visitor = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
      #expect(visitor.isGuest && visitor.id.isEmpty)
      if case .sqliteMemory = app.serverOptions.database {  // a private database: nobody else adds users
        #expect(try await User.query(on: app.db).count() == 0)
      }

      let first = try await client.send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: [], kinds: []))
      #expect(first.status == .ok)
      if case .sqliteMemory = app.serverOptions.database {
        #expect(try await User.query(on: app.db).count() == 1)
      }
      let cookie = try #require(first.headers.setCookie?["ck_session"])
      #expect(cookie.isHTTPOnly)
      #expect(cookie.sameSite == .lax)
      #expect(cookie.string.count >= 40)
      let guest = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
      #expect(guest.isGuest && guest.username == nil && !guest.id.isEmpty)
      let again = try client.decode(UserResponse.self, from: try await client.send(.GET, "/api/me"))
      #expect(again.id == guest.id)
      // A stranger without the cookie is a different guest.
      let stranger = try await client.stranger().becomeGuest()
      #expect(stranger.id != guest.id)
    }
  }

  @Test("Saving a guest keeps its id; the account then signs in from another browser; logout forgets the session")
  func registerLoginLogout() async throws {
    try await withTestApp { browser in
      let guest = try await browser.becomeGuest()
      let name = uniqueUsername("ada")
      let registered = try await browser.send(
        .POST, "/api/account/register", json: RegisterRequest(username: name.uppercased(), password: "correct horse", displayName: "Ada"))
      #expect(registered.status == .created)
      let user = try browser.decode(UserResponse.self, from: registered)
      #expect(user.id == guest.id && !user.isGuest && user.username == name && user.displayName == "Ada")

      // Registering again is refused; the account is unchanged.
      let again = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: uniqueUsername(), password: "another password"))
      #expect(again.status == .conflict)
      #expect(try browser.decode(APIErrorBody.self, from: again).code == "already_registered")

      let other = browser.stranger()
      let wrong = try await other.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "wrong password"))
      #expect(wrong.status == .unauthorized)
      #expect(try other.decode(APIErrorBody.self, from: wrong).code == "invalid_credentials")
      let unknown = try await other.send(.POST, "/api/account/login", json: LoginRequest(username: "nobody_here", password: "whatever1"))
      #expect(unknown.status == .unauthorized)

      let login = try await other.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"))
      #expect(login.status == .ok)
      #expect(other.sessionCookie != nil)
      let me = try other.decode(UserResponse.self, from: try await other.send(.GET, "/api/me"))
      #expect(me.id == guest.id)

      let logout = try await other.send(.POST, "/api/account/logout")
      #expect(logout.status == .noContent)
      #expect(other.sessionCookie == nil)
      let afterLogout = try other.decode(UserResponse.self, from: try await other.send(.GET, "/api/me"))
      #expect(afterLogout.isGuest && afterLogout.id.isEmpty)
      // The first browser is still signed in.
      let first = try browser.decode(UserResponse.self, from: try await browser.send(.GET, "/api/me"))
      #expect(first.id == guest.id && !first.isGuest)
    }
  }

  @Test("A taken username, a bad username and a short password are clear 4xx and change nothing")
  func badRegistrations() async throws {
    try await withTestApp { first in
      let name = uniqueUsername("taken")
      try await first.becomeGuest()
      let ok = try await first.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "long enough"))
      #expect(ok.status == .created)

      let second = first.stranger()
      let guest = try await second.becomeGuest()
      let taken = try await second.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "long enough"))
      #expect(taken.status == .conflict)
      #expect(try second.decode(APIErrorBody.self, from: taken).code == "username_taken")
      let badName = try await second.send(.POST, "/api/account/register", json: RegisterRequest(username: "a b", password: "long enough"))
      #expect(try second.decode(APIErrorBody.self, from: badName).code == "invalid_username")
      let short = try await second.send(.POST, "/api/account/register", json: RegisterRequest(username: uniqueUsername(), password: "short"))
      #expect(short.status == .badRequest)
      #expect(try second.decode(APIErrorBody.self, from: short).code == "weak_password")
      let still = try second.decode(UserResponse.self, from: try await second.send(.GET, "/api/me"))
      #expect(still == guest)
    }
  }

  @Test("Bearer tokens: only for saved accounts, and they authenticate API calls without a cookie")
  func bearerTokens() async throws {
    try await withTestApp { browser in
      try await browser.becomeGuest()
      let refused = try await browser.send(.POST, "/api/account/tokens")
      #expect(refused.status == .forbidden)
      #expect(try browser.decode(APIErrorBody.self, from: refused).code == "named_account_required")

      let name = uniqueUsername("api")
      _ = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "long enough"))
      let created = try await browser.send(.POST, "/api/account/tokens")
      #expect(created.status == .created)
      let token = try browser.decode(TokenResponse.self, from: created)

      let script = browser.stranger()
      var headers = HTTPHeaders()
      headers.bearerAuthorization = BearerAuthorization(token: token.token)
      let me = try script.decode(UserResponse.self, from: try await script.send(.GET, "/api/me", headers: headers))
      #expect(me.username == name)
      #expect(script.sessionCookie == nil)

      headers.bearerAuthorization = BearerAuthorization(token: "not-a-real-token")
      let forged = try await script.send(.POST, "/api/account/tokens", headers: headers)
      #expect(forged.status == .unauthorized)
      #expect(try script.decode(APIErrorBody.self, from: forged).code == "invalid_token")
    }
  }

  @Test("A signed-out or replaced session secret stops working at once, although sign-ins are cached")
  func signedOutSecretsStopWorking() async throws {
    try await withTestApp { browser in
      let name = uniqueUsername("cache")
      _ = try await browser.send(.GET, "/api/me")
      _ = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "long enough"))

      // A second browser signs in and uses its session twice (the second time from the cache).
      let other = browser.stranger()
      _ = try await other.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "long enough"))
      let secret = try #require(other.sessionCookie)
      for _ in 0..<2 {
        let me = try other.decode(UserResponse.self, from: try await other.send(.GET, "/api/me"))
        #expect(me.username == name)
      }
      _ = try await other.send(.POST, "/api/account/logout")

      // Someone who kept the old secret is no longer signed in.
      let replay = browser.stranger()
      replay.sessionCookie = secret
      let refused = try await replay.send(.POST, "/api/account/tokens")
      #expect(refused.status == .unauthorized)
      #expect(try replay.decode(APIErrorBody.self, from: refused).code == "session_ended", "a change with a cookie that ended is refused as such")

      // Signing in again from a browser replaces its previous session: the previous secret stops working too.
      let third = browser.stranger()
      _ = try await third.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "long enough"))
      let first = try #require(third.sessionCookie)
      #expect(try third.decode(UserResponse.self, from: try await third.send(.GET, "/api/me")).username == name)
      _ = try await third.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "long enough"))
      #expect(third.sessionCookie != first)
      let stale = browser.stranger()
      stale.sessionCookie = first
      #expect(try await stale.send(.POST, "/api/account/tokens").status == .unauthorized)
    }
  }

  @Test("Passwords: blank, too short and over 72 bytes are refused with the right message; a longer guess never signs in")
  func passwordRules() async throws {
    try await withTestApp { browser in
      for (password, code) in [
        ("        ", "blank_password"), ("short", "weak_password"), (String(repeating: "a", count: 73), "password_too_long"),
        (String(repeating: "é", count: 37), "password_too_long"), (String(repeating: "x", count: 201), "password_too_long"),
      ] {
        let visitor = browser.stranger()
        let response = try await visitor.send(.POST, "/api/account/register", json: RegisterRequest(username: uniqueUsername(), password: password))
        #expect(response.status == .badRequest)
        let error = try visitor.decode(APIErrorBody.self, from: response)
        #expect(error.code == code, "\(password.count) characters")
        if code == "password_too_long" { #expect(error.message.contains("72")) }
      }
      // Exactly 72 bytes is allowed; the same 72 followed by anything does not sign in (bcrypt reads 72 bytes).
      let name = uniqueUsername("long")
      let exact = String(repeating: "A", count: 72)
      #expect(try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: exact)).status == .created)
      let other = browser.stranger()
      let longer = try await other.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: exact + "anything"))
      #expect(longer.status == .unauthorized)
      #expect(try await other.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: exact)).status == .ok)
    }
  }

  @Test("Saving a guest's account starts a new session: the guest's old session id no longer signs anyone in")
  func registerRotatesTheSession() async throws {
    try await withTestApp { browser in
      let guest = try await browser.becomeGuest()
      let before = try #require(browser.sessionCookie)
      let name = uniqueUsername("fix")
      let saved = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
      #expect(saved.status == .created)
      let after = try #require(browser.sessionCookie)
      #expect(after != before)
      #expect(try browser.decode(UserResponse.self, from: try await browser.send(.GET, "/api/me")).username == name)
      // Whoever knew the session id from before (a fixed one) is not signed in to the new account.
      let attacker = browser.stranger()
      attacker.sessionCookie = before
      let seen = try attacker.decode(UserResponse.self, from: try await attacker.send(.GET, "/api/me"))
      #expect(seen.id != guest.id && seen.username == nil && seen.isGuest)
    }
  }

  @Test("Password guessing slows down: after 5 checked passwords a username waits (429 + Retry-After, even with the right password); so does an address after 20")
  func loginThrottle() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      let name = uniqueUsername("guarded")
      _ = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
      // The waits are seconds long: on a busy machine six sign-ins can take longer than the first wait, so time
      // moves here only when the test moves it.
      let clock = app.services.clock
      clock.freeze()
      defer { clock.thaw() }
      let guesser = browser.stranger()
      for _ in 0..<5 {
        let wrong = try await guesser.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "wrong guess"))
        #expect(wrong.status == .unauthorized)
      }
      let held = try await guesser.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"))
      #expect(held.status == .tooManyRequests)
      #expect(try guesser.decode(APIErrorBody.self, from: held).code == "too_many_attempts")
      #expect(held.headers.first(name: "Retry-After").flatMap(Int.init) == 1)
      // Once the wait is over the right password works, and the count starts again.
      clock.set(to: clock.now().addingTimeInterval(2))
      #expect(try await guesser.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse")).status == .ok)
      #expect(try await guesser.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "wrong guess")).status == .unauthorized)

      // Many names tried from one address: after 20 checked passwords (6 above; the right one was given back)
      // that address waits too, whatever the name.
      for index in 0..<14 {
        let response = try await guesser.send(.POST, "/api/account/login", json: LoginRequest(username: uniqueUsername("nobody\(index)"), password: "whatever"))
        #expect(response.status == .unauthorized)
      }
      let blocked = try await guesser.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"))
      #expect(blocked.status == .tooManyRequests && blocked.headers.first(name: "Retry-After") != nil)
      #expect(try guesser.decode(APIErrorBody.self, from: blocked).message.contains("wait"))
    }
  }

  /// Sends `count` sign-ins at once; `request(i)` names the username, password and forwarded address of the i-th.
  private static func burst(
    _ client: TestClient, count: Int, _ request: @escaping @Sendable (Int) -> (username: String, password: String, address: String?)
  ) async throws -> [TestResponse] {
    try await withThrowingTaskGroup(of: TestResponse.self) { group in
      for index in 0..<count {
        let (username, password, address) = request(index)
        group.addTask {
          var headers = HTTPHeaders()
          if let address { headers.add(name: .xForwardedFor, value: address) }
          return try await client.stranger().send(
            .POST, "/api/account/login", json: LoginRequest(username: username, password: password), headers: headers)
        }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
  }

  /// Every answer to a burst is a refusal a client can act on: 401, 429 with Retry-After, or 503 busy.
  private static func expectOrderlyRefusals(_ responses: [TestResponse], _ client: TestClient) throws {
    for response in responses {
      #expect([.unauthorized, .tooManyRequests, .serviceUnavailable].contains(response.status), "\(response.status)")
      if response.status == .tooManyRequests { #expect(response.headers.first(name: "Retry-After").flatMap(Int.init) != nil) }
      if response.status == .serviceUnavailable { #expect(try client.decode(APIErrorBody.self, from: response).code == "busy") }
    }
  }

  @Test("A burst of 60 sign-ins for one username at once checks at most 5 passwords; 50 over 7 usernames from one address check at most 20")
  func throttleHoldsUnderBursts() async throws {
    var options = TestDatabase.options
    options.trustProxy = true  // each test below has an address of its own
    try await withTestApp(options: options) { (browser: TestClient, app: Application) in
      app.http.client.configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
      app.services.clock.freeze()  // the whole burst happens within one moment of the throttle's clock
      defer { app.services.clock.thaw() }
      let name = uniqueUsername("burst")
      _ = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
      let work = app.services.passwordWork
      var before = work.checkCount
      let forOne = try await Self.burst(browser, count: 60) { _ in (name, "wrong guess", "10.1.0.1") }
      try Self.expectOrderlyRefusals(forOne, browser)
      #expect(work.checkCount - before <= LoginThrottle.freeFailuresPerUsername)
      #expect(forOne.filter { $0.status == .unauthorized }.count <= 5)
      #expect(forOne.filter { $0.status == .tooManyRequests }.count >= 55)
      // The right password now waits as well (the guesser learns nothing).
      let held = try await browser.stranger().send(
        .POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"), headers: ["X-Forwarded-For": "10.1.0.9"])
      #expect(held.status == .tooManyRequests)

      before = work.checkCount
      let address = "10.2.0.\(Int.random(in: 1...250))"
      let names = (0..<7).map { _ in uniqueUsername("spread") }
      let spread = try await Self.burst(browser, count: 50) { index in (names[index % 7], "wrong guess", address) }
      try Self.expectOrderlyRefusals(spread, browser)
      #expect(work.checkCount - before <= LoginThrottle.freeFailuresPerAddress)
      #expect(spread.filter { $0.status == .unauthorized }.count <= 20)
    }
  }

  @Test("Two server processes on one PostgreSQL share the sign-in budget: a burst split over both checks at most 5 passwords")
  func throttleIsSharedAcrossServers() async throws {
    var options = TestDatabase.options
    guard case .postgres = options.database else { return }  // SQLite runs one process; CI runs this on PostgreSQL
    options.trustProxy = true
    try await withTestApp(options: options) { (first: TestClient, firstApp: Application) in
      try await withTestApp(options: options) { (second: TestClient, secondApp: Application) in
        for app in [firstApp, secondApp] {
          app.services.clock.freeze()
          app.http.client.configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
        }
        let name = uniqueUsername("shared")
        _ = try await first.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
        let before = firstApp.services.passwordWork.checkCount + secondApp.services.passwordWork.checkCount
        async let one = Self.burst(first, count: 30) { index in (name, "wrong guess", "10.3.0.\(index)") }
        async let two = Self.burst(second, count: 30) { index in (name, "wrong guess", "10.4.0.\(index)") }
        let responses = try await one + two
        try Self.expectOrderlyRefusals(responses, first)
        let checked = firstApp.services.passwordWork.checkCount + secondApp.services.passwordWork.checkCount - before
        #expect(checked <= LoginThrottle.freeFailuresPerUsername)
        #expect(responses.filter { $0.status == .unauthorized }.count <= 5)
        // Either process now refuses the right password too.
        let held = try await second.stranger().send(
          .POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"), headers: ["X-Forwarded-For": "10.5.0.1"])
        #expect(held.status == .tooManyRequests)
      }
    }
  }

  @Test("200 sign-ins at once are answered 401, 429 or 503 (never 500), while a signed-in person's writes keep working")
  func signInFloodLeavesOthersAlone() async throws {
    var options = TestDatabase.options
    options.trustProxy = true
    try await withTestApp(options: options) { (browser: TestClient, app: Application) in
      // The test's own HTTP client must open as many connections as the burst has requests.
      app.http.client.configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
      let name = uniqueUsername("steady")
      _ = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
      let flood = Task {
        // Unknown names: each is checked against the full-strength hash kept for them (the slow case).
        try await Self.burst(browser, count: 200) { index in (uniqueUsername("nobody"), "whatever \(index)", "10.6.\(index / 200).\(index % 200)") }
      }
      // Wait until hashing is under way, then work as the signed-in person while the flood runs.
      while app.services.passwordWork.checkCount == 0 { await Task.yield() }
      var answered = 0
      while answered < 20 {
        let write = try await browser.send(.PUT, "/api/account/celebrations", json: CelebrationSettings(optedOut: answered % 2 == 0 ? ["cryptogram"] : [], kinds: []))
        #expect(write.status == .ok)
        #expect(try await browser.send(.GET, "/api/me").status == .ok)
        answered += 1
      }
      let responses = try await flood.value
      try Self.expectOrderlyRefusals(responses, browser)
      #expect(responses.count == 200)
    }
  }

  @Test("An unknown, revoked or expired bearer token is 401 invalid_token with a Bearer challenge on reads and writes alike, and never makes a guest")
  func invalidBearerTokens() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      _ = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: uniqueUsername("bearer"), password: "correct horse"))
      let revoked = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens")).token
      let script = browser.stranger()
      let list = try script.decode(SignInList.self, from: try await script.send(.GET, "/api/account/tokens", headers: ["Authorization": "Bearer \(revoked)"]))
      let revokedID = try #require(list.signIns.first(where: \.current)?.id)
      #expect(try await browser.send(.DELETE, "/api/account/tokens/\(revokedID)").status == .noContent)
      let expiring = try browser.decode(
        TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens", json: TokenRequest(expiresInDays: 1))).token
      app.services.clock.advance(by: 2 * 86_400)
      defer { app.services.clock.advance(by: -2 * 86_400) }
      let usersBefore = try await User.query(on: app.db).count()
      for secret in ["made-up", revoked, expiring] {
        for (method, path, body) in [
          (HTTPMethod.GET, "/api/me", nil), (.PUT, "/api/account/celebrations", CelebrationSettings(optedOut: [], kinds: []) as (any Encodable)?),
          (.POST, "/api/projects", ["name": "Lost"]), (.POST, "/api/account/tokens", nil), (.GET, "/api/cryptogram/stats", nil),
        ] {
          let response = try await script.send(method, path, json: body, headers: ["Authorization": "Bearer \(secret)"])
          #expect(response.status == .unauthorized, "\(method) \(path)")
          #expect(try script.decode(APIErrorBody.self, from: response).code == "invalid_token", "\(method) \(path)")
          #expect(response.headers.first(name: .wwwAuthenticate) == #"Bearer error="invalid_token""#)
          #expect(response.headers.setCookie?["ck_session"] == nil)
        }
      }
      if case .sqliteMemory = app.serverOptions.database {
        #expect(try await User.query(on: app.db).count() == usersBefore, "a refused token made a guest")
      }
      // The Swift client tells the person to sign in again, and keeps nothing from the refusal.
      let client = CompletionClient(server: browser.base, credential: .bearer(revoked))
      do {
        _ = try await client.me()
        Issue.record("a revoked token was accepted")
      } catch let error as APIError {
        #expect(error.needsSignIn && error.description.contains("sign in again"))
      }
    }
  }

  @Test("Password hashing runs a few at a time: beyond the queue, requests are turned away as busy, and the queue drains in order")
  func passwordWorkIsCapped() async throws {
    let work = PasswordWork(limit: 1, maxWaiting: 1)
    let (started, startedSignal) = AsyncStream<Void>.makeStream()
    let (release, releaseSignal) = AsyncStream<Void>.makeStream()
    let first = Task {
      try await work.run {
        startedSignal.yield()
        for await _ in release { break }
        return "first"
      }
    }
    for await _ in started { break }
    let second = Task { try await work.run { "second" } }  // waits for the slot
    // The one slot is taken; once the second is waiting the queue is full and a third is refused at once.
    while work.waitingCount < 1 { await Task.yield() }
    do {
      _ = try await work.run { "third" }
      Issue.record("a third hash ran while the slot and the queue were full")
    } catch let error as AppError {
      #expect(error == .busy && error.retryAfter == 1)
    }
    releaseSignal.yield()
    #expect(try await first.value == "first")
    #expect(try await second.value == "second")
    #expect(try await work.run { "after" } == "after")
  }

  @Test("A password arriving after shutdown is turned away as busy, never starts the stopped threads again")
  func passwordWorkAfterShutdown() async throws {
    let work = PasswordWork(limit: 1, maxWaiting: 1, cost: 4)
    let hash = try await work.hash("correct horse")
    #expect(try await work.verify("correct horse", created: hash))
    await work.shutdown()
    do {
      _ = try await work.verify("correct horse", created: hash)
      Issue.record("a check ran after shutdown")
    } catch let error as AppError {
      #expect(error == .busy)
    }
    // Shut down before it ever started: the same.
    let idle = PasswordWork(limit: 1, maxWaiting: 1, cost: 4)
    await idle.shutdown()
    await #expect(throws: AppError.busy) { _ = try await idle.hash("x") }
  }

  @Test("Sign-ins can be listed and ended one by one or everywhere; tokens expire when asked; nobody ends someone else's")
  func tokensListRevokeEverywhere() async throws {
    try await withTestApp { browser in
      let name = uniqueUsername("tok")
      _ = try await browser.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
      let week = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens", json: TokenRequest(expiresInDays: 7)))
      let plain = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens"))
      for days in [0, 366] {
        let refused = try await browser.send(.POST, "/api/account/tokens", json: TokenRequest(expiresInDays: days))
        #expect(refused.status == .badRequest)
      }
      let list = try browser.decode(SignInList.self, from: try await browser.send(.GET, "/api/account/tokens"))
      #expect(list.signIns.count == 3)
      #expect(list.signIns.filter(\.current).map(\.kind) == ["browser"])
      #expect(list.signIns.filter { $0.kind == "token" }.count == 2)
      let lifetimes = list.signIns.filter { $0.kind == "token" }.map { (($0.expiresAt - ($0.createdAt ?? 0)) / 86_400).rounded() }.sorted()
      #expect(lifetimes == [7, 90])

      // A script with the week token lists the same sign-ins; ending it stops it at once.
      let script = browser.stranger()
      let bearer: HTTPHeaders = ["Authorization": "Bearer \(week.token)"]
      let seen = try script.decode(SignInList.self, from: try await script.send(.GET, "/api/account/tokens", headers: bearer))
      let weekID = try #require(seen.signIns.first(where: \.current)?.id)
      #expect(try await browser.send(.DELETE, "/api/account/tokens/\(weekID)").status == .noContent)
      #expect(try await script.send(.GET, "/api/account/tokens", headers: bearer).status == .unauthorized)

      // Someone else cannot end (or learn of) these sign-ins.
      let stranger = browser.stranger()
      _ = try await stranger.send(.POST, "/api/account/register", json: RegisterRequest(username: uniqueUsername("other"), password: "correct horse"))
      let mine = try browser.decode(SignInList.self, from: try await browser.send(.GET, "/api/account/tokens")).signIns
      for signIn in mine {
        #expect(try await stranger.send(.DELETE, "/api/account/tokens/\(signIn.id)").status == .notFound)
      }
      #expect(try stranger.decode(SignInList.self, from: try await stranger.send(.GET, "/api/account/tokens")).signIns.count == 1)

      // Signed in on a second browser too; "sign out everywhere" ends the browsers and the token alike.
      let laptop = browser.stranger()
      _ = try await laptop.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"))
      #expect(try await laptop.send(.GET, "/api/account/tokens").status == .ok)
      let before = try #require(browser.sessionCookie)
      #expect(try await browser.send(.POST, "/api/account/logout-everywhere").status == .noContent)
      #expect(try await laptop.send(.GET, "/api/account/tokens").status == .unauthorized)
      #expect(try await script.send(.GET, "/api/account/tokens", headers: ["Authorization": "Bearer \(plain.token)"]).status == .unauthorized)
      let replay = browser.stranger()
      replay.sessionCookie = before
      #expect(try await replay.send(.GET, "/api/account/tokens").status == .unauthorized)
      #expect(try await stranger.send(.GET, "/api/account/tokens").status == .ok)
    }
  }

  @Test("A change sent with a session that ended elsewhere is 401 session_ended and clears the cookie: nothing goes to a new guest; reads still visit")
  func endedSessionRefusesChanges() async throws {
    try await withTestApp { (laptop: TestClient, app: Application) in
      let name = uniqueUsername("dave")
      _ = try await laptop.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
      let phone = laptop.stranger()
      _ = try await phone.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"))
      let open = try #require(laptop.sessionCookie)
      #expect(try await phone.send(.POST, "/api/account/logout-everywhere").status == .noContent)
      let usersBefore = try await User.query(on: app.db).count()

      // The laptop's open page still believes it is dave; its change is refused, not saved to a guest.
      laptop.sessionCookie = open
      let refused = try await laptop.send(.POST, "/api/tasks", json: TaskRequest(title: "Added after sign-out"))
      #expect(refused.status == .unauthorized)
      #expect(try laptop.decode(APIErrorBody.self, from: refused).code == "session_ended")
      #expect(try await User.query(on: app.db).count() == usersBefore, "no guest was made")
      // The refusal told the browser to forget the cookie.
      #expect(refused.headers.setCookie?[Sessions.cookieName]?.string == "")

      // Reads with the stale cookie still answer, as a visitor.
      let stale = laptop.stranger()
      stale.sessionCookie = open
      let me = try stale.decode(UserResponse.self, from: try await stale.send(.GET, "/api/me"))
      #expect(me.id.isEmpty && me.isGuest)
      // Signing in (or registering) with the stale cookie still works.
      #expect(try await stale.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse")).status == .ok)
      #expect(try await stale.send(.POST, "/api/tasks", json: TaskRequest(title: "Back in")).status == .created)
      let daves = try stale.decode(TaskListResponse.self, from: try await stale.send(.GET, "/api/projects/inbox/tasks"))
      #expect(daves.tasks.map(\.title) == ["Back in"])
      // A browser with no cookie at all is a visitor whose first change makes a guest, as before.
      #expect(try await laptop.stranger().send(.POST, "/api/tasks", json: TaskRequest(title: "New visitor")).status == .created)
    }
  }

  @Test("An empty or malformed Authorization header is 401 invalid_token, never a guest")
  func malformedAuthorization() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      let usersBefore = try await User.query(on: app.db).count()
      for value in ["Bearer ", "Bearer", "Basic dXNlcjpwYXNz", "Token abc", "bearer garbage"] {
        let script = browser.stranger()
        let response = try await script.send(.POST, "/api/tasks", json: TaskRequest(title: "Scripted"), headers: ["Authorization": value])
        #expect(response.status == .unauthorized, "\(value)")
        #expect(response.headers.setCookie == nil, "\(value)")
        #expect((try? script.decode(APIErrorBody.self, from: response).code) == "invalid_token", "\(value)")
      }
      #expect(try await User.query(on: app.db).count() == usersBefore)
    }
  }

  @Test("Two server processes on one PostgreSQL: a sign-out on one is refused by the other at once, though it had cached the sign-in")
  func signOutAcrossServers() async throws {
    let options = TestDatabase.options
    guard case .postgres = options.database else { return }  // SQLite runs one process; CI runs this on PostgreSQL
    try await withTestApp(options: options) { first in
      try await withTestApp(options: options) { second in
        let name = uniqueUsername("multi")
        _ = try await first.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: "correct horse"))
        let elsewhere = second.stranger()
        elsewhere.sessionCookie = first.sessionCookie
        for _ in 0..<2 { #expect(try await elsewhere.send(.GET, "/api/account/tokens").status == .ok) }  // now cached there
        #expect(try await first.send(.POST, "/api/account/logout").status == .noContent)
        // The notification arrives within moments; well inside the cache's 30 seconds.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        var status = HTTPStatus.ok
        while status == .ok, clock.now < deadline {
          status = try await elsewhere.send(.GET, "/api/account/tokens").status
          if status == .ok { await Task.yield() }
        }
        #expect(status == .unauthorized)
      }
    }
  }
}
