import CompletionAPI
import CompletionClient
import FluentSQL
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CompletionServer

/// Password change, recovery codes, common passwords, token and session lifetimes, and personal answers kept
/// out of caches (OWASP ASVS level 2).
@Suite("Account security", .serialized)
struct AccountSecurityTests {
  private static func bearer(_ token: String) -> HTTPHeaders { ["Authorization": "Bearer \(token)"] }

  /// Saves `client`'s account and answers its recovery codes.
  private static func register(_ client: TestClient, _ name: String, _ password: String = "correct horse") async throws -> [String] {
    let saved = try await client.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: password))
    #expect(saved.status == .created)
    return try client.decode(RegisterResponse.self, from: saved).recoveryCodes
  }

  @Test("Common passwords (any case) and passwords containing the username are refused with their own codes, on sign-up, change and recovery")
  func commonPasswords() async throws {
    #expect(CommonPasswords.all.count >= 10_000)
    try await withTestApp { browser in
      let name = uniqueUsername("ada")
      for password in ["password", "12345678", "qwertyui", "Passw0rd", "PASSWORD1", "iloveyou"] {
        let refused = try await browser.stranger().send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: password))
        #expect(refused.status == .badRequest, "\(password)")
        let error = try browser.decode(APIErrorBody.self, from: refused)
        #expect(error.code == "password_too_common", "\(password)")
        #expect(error.message.contains("common"))
      }
      for password in [name, name.uppercased(), "my-\(name.uppercased())-rocks"] {
        let refused = try await browser.stranger().send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: password))
        #expect(try browser.decode(APIErrorBody.self, from: refused).code == "password_contains_username", "\(password)")
      }
      // None of those saved the account: the name is still free.
      let codes = try await Self.register(browser, name)

      let change = try await browser.send(.POST, "/api/account/password", json: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "letmein1"))
      #expect(change.status == .badRequest)
      #expect(try browser.decode(APIErrorBody.self, from: change).code == "password_too_common")
      let recover = try await browser.stranger().send(
        .POST, "/api/account/recover", json: RecoverRequest(username: name, code: codes[0], newPassword: "\(name)2024"))
      #expect(try browser.decode(APIErrorBody.self, from: recover).code == "password_contains_username")
      // A refused new password used nothing up: the code still works.
      let fine = try await browser.stranger().send(
        .POST, "/api/account/recover", json: RecoverRequest(username: name, code: codes[0], newPassword: "purple gorilla dance"))
      #expect(fine.status == .ok)
    }
  }

  @Test("Changing the password needs the current one; it ends every other browser and every token, keeps this browser, and the old password stops working")
  func changePassword() async throws {
    try await withTestApp { browser in
      let name = uniqueUsername("change")
      _ = try await Self.register(browser, name)
      let laptop = browser.stranger()
      #expect(try await laptop.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse")).status == .ok)
      let token = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens")).token

      let wrong = try await browser.send(.POST, "/api/account/password", json: ChangePasswordRequest(currentPassword: "not it at all", newPassword: "purple gorilla dance"))
      #expect(wrong.status == .forbidden)
      #expect(try browser.decode(APIErrorBody.self, from: wrong).code == "wrong_password")
      #expect(try await laptop.send(.GET, "/api/account/tokens").status == .ok, "a refused change ended a sign-in")

      let changed = try await browser.send(.POST, "/api/account/password", json: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "purple gorilla dance"))
      #expect(changed.status == .ok)
      #expect(try browser.decode(PasswordChangeResponse.self, from: changed) == PasswordChangeResponse(endedSignIns: 2, signedOut: false))
      // This browser stays; the other browser and the token are out.
      #expect(try browser.decode(UserResponse.self, from: try await browser.send(.GET, "/api/me")).username == name)
      #expect(try await laptop.send(.GET, "/api/account/tokens").status == .unauthorized)
      let script = browser.stranger()
      let refused = try await script.send(.GET, "/api/me", headers: Self.bearer(token))
      #expect(refused.status == .unauthorized)
      #expect(try script.decode(APIErrorBody.self, from: refused).code == "invalid_token")
      let list = try browser.decode(SignInList.self, from: try await browser.send(.GET, "/api/account/tokens"))
      #expect(list.signIns.count == 1 && list.signIns[0].current)

      let other = browser.stranger()
      #expect(try await other.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse")).status == .unauthorized)
      #expect(try await other.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "purple gorilla dance")).status == .ok)

      // A guest or a visitor cannot change a password.
      let guest = browser.stranger()
      try await guest.becomeGuest()
      let guestChange = try await guest.send(.POST, "/api/account/password", json: ChangePasswordRequest(currentPassword: "x", newPassword: "purple gorilla dance"))
      #expect(try guest.decode(APIErrorBody.self, from: guestChange).code == "named_account_required")
      let visitor = try await browser.stranger().send(.POST, "/api/account/password", json: ChangePasswordRequest(currentPassword: "x", newPassword: "purple gorilla dance"))
      #expect(visitor.status == .unauthorized)
    }
  }

  @Test("A password changed with a bearer token ends that token too, and the Swift client says to sign in again")
  func changePasswordWithToken() async throws {
    try await withTestApp { browser in
      let name = uniqueUsername("script")
      _ = try await Self.register(browser, name)
      let token = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens")).token
      let client = CompletionClient(server: browser.base, credential: .bearer(token))
      let answer = try await client.changePassword(current: "correct horse", new: "purple gorilla dance")
      #expect(answer.signedOut && answer.endedSignIns == 1)  // the browser; the token itself is not "other"
      do {
        _ = try await client.me()
        Issue.record("the token that changed the password still works")
      } catch let error as APIError {
        #expect(error.needsSignIn)
      }
      #expect(try browser.decode(UserResponse.self, from: try await browser.send(.GET, "/api/me")).isGuest)
    }
  }

  @Test("Wrong current passwords are throttled like sign-ins: after 5 the right one waits too (429)")
  func changePasswordIsThrottled() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      // The first hold lasts a second: with the clock stopped, a slow machine cannot let it run out before the
      // sign-in below is tried.
      app.services.clock.freeze()
      defer { app.services.clock.thaw() }
      let name = uniqueUsername("slow")
      _ = try await Self.register(browser, name)
      for _ in 0..<LoginThrottle.freeFailuresPerUsername {
        let wrong = try await browser.send(.POST, "/api/account/password", json: ChangePasswordRequest(currentPassword: "wrong guess", newPassword: "purple gorilla dance"))
        #expect(wrong.status == .forbidden)
      }
      let held = try await browser.send(.POST, "/api/account/password", json: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "purple gorilla dance"))
      #expect(held.status == .tooManyRequests)
      #expect(try browser.decode(APIErrorBody.self, from: held).code == "too_many_attempts")
      #expect(held.headers.first(name: "Retry-After") != nil)
      // The sign-in of that name waits as well: it is one budget.
      let login = try await browser.stranger().send(
        .POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse"), headers: ["X-Forwarded-For": "10.77.0.1"])
      #expect(login.status == .tooManyRequests)
    }
  }

  @Test("Saving an account gives ten one-time recovery codes, stored only as hashes; a code sets a new password once, signs this browser in and everyone else out")
  func recoveryCodes() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      let name = uniqueUsername("forgot")
      let codes = try await Self.register(browser, name)
      #expect(codes.count == 10 && Set(codes).count == 10)
      for code in codes { #expect(code.wholeMatch(of: /[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}/) != nil, "\(code)") }
      #expect(try browser.decode(RecoveryCodeStatus.self, from: try await browser.send(.GET, "/api/account/recovery-codes")).remaining == 10)
      // The database holds no code in clear.
      struct Stored: Decodable { let code_hash: String }
      let stored = try await app.db.sql.raw("SELECT code_hash FROM recovery_codes").all(decoding: Stored.self).map(\.code_hash)
      for code in codes {
        #expect(!stored.contains(code) && !stored.contains(RecoveryCodes.normalized(code)))
        #expect(stored.contains(RecoveryCodes.hash(code)))
      }
      let token = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens")).token

      // Forgotten on another computer: the code as typed (upper case, spaces) sets a new password.
      let elsewhere = browser.stranger()
      let typed = codes[3].uppercased().replacingOccurrences(of: "-", with: " ")
      let recovered = try await elsewhere.send(.POST, "/api/account/recover", json: RecoverRequest(username: name.uppercased(), code: typed, newPassword: "purple gorilla dance"))
      #expect(recovered.status == .ok)
      let answer = try elsewhere.decode(RecoverResponse.self, from: recovered)
      #expect(answer.user.username == name && answer.recoveryCodesLeft == 9)
      #expect(try elsewhere.decode(UserResponse.self, from: try await elsewhere.send(.GET, "/api/me")).username == name)
      // Everyone else is signed out: the first browser and the token.
      #expect(try browser.decode(UserResponse.self, from: try await browser.send(.GET, "/api/me")).isGuest)
      #expect(try await elsewhere.stranger().send(.GET, "/api/me", headers: Self.bearer(token)).status == .unauthorized)
      // The new password signs in, the old one does not.
      #expect(try await browser.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse")).status == .unauthorized)
      #expect(try await browser.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "purple gorilla dance")).status == .ok)

      // A used code, a made-up one and another account's name fail alike.
      for (username, code) in [(name, codes[3]), (name, "0000-0000-0000-0000"), (uniqueUsername("nobody"), codes[4])] {
        let refused = try await browser.stranger().send(.POST, "/api/account/recover", json: RecoverRequest(username: username, code: code, newPassword: "another fine phrase"))
        #expect(refused.status == .unauthorized)
        #expect(try browser.decode(APIErrorBody.self, from: refused).code == "invalid_recovery_code")
      }

      // New codes need the password; the old unused ones then stop working, the new ones work.
      let wrong = try await browser.send(.POST, "/api/account/recovery-codes", json: RecoveryCodesRequest(password: "correct horse"))
      #expect(wrong.status == .forbidden)
      #expect(try browser.decode(APIErrorBody.self, from: wrong).code == "wrong_password")
      let fresh = try browser.decode(
        RecoveryCodeList.self, from: try await browser.send(.POST, "/api/account/recovery-codes", json: RecoveryCodesRequest(password: "purple gorilla dance")))
      #expect(fresh.codes.count == 10 && Set(fresh.codes).isDisjoint(with: codes))
      let old = try await browser.stranger().send(.POST, "/api/account/recover", json: RecoverRequest(username: name, code: codes[5], newPassword: "another fine phrase"))
      #expect(old.status == .unauthorized)
      let new = try await browser.stranger().send(.POST, "/api/account/recover", json: RecoverRequest(username: name, code: fresh.codes[0], newPassword: "another fine phrase"))
      #expect(new.status == .ok)
      #expect(try browser.decode(RecoverResponse.self, from: new).recoveryCodesLeft == 9)
    }
  }

  @Test("One recovery code sent ten times at once sets a password once")
  func recoveryCodeIsUsedOnce() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      app.http.client.configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
      let name = uniqueUsername("race")
      let codes = try await Self.register(browser, name)
      let statuses = try await withThrowingTaskGroup(of: HTTPStatus.self) { group in
        for index in 0..<10 {
          group.addTask {
            try await browser.stranger().send(
              .POST, "/api/account/recover", json: RecoverRequest(username: name, code: codes[0], newPassword: "racing phrase \(index)"),
              headers: ["X-Forwarded-For": "10.88.0.\(index + 1)"]
            ).status
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.filter { $0 == .ok }.count == 1, "\(statuses)")
      #expect(statuses.allSatisfy { [.ok, .unauthorized, .tooManyRequests].contains($0) }, "\(statuses)")
      // Only that one code was used up. (The losers' wrong codes may have made the name wait, depending on the
      // order they ran in: the wait is over before the next try.)
      app.services.clock.advance(by: LoginThrottle.maxDelay + 1)
      let next = try await browser.stranger().send(
        .POST, "/api/account/recover", json: RecoverRequest(username: name, code: codes[1], newPassword: "calm phrase again"),
        headers: ["X-Forwarded-For": "10.88.1.1"])
      #expect(try browser.decode(RecoverResponse.self, from: next).recoveryCodesLeft == 8)
    }
  }

  @Test("Recovery is throttled like sign-in: after 5 wrong codes for a name, even a right code waits (429)")
  func recoveryIsThrottled() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      // The first hold lasts a second: time moves here only when the test moves it (see `changePasswordIsThrottled`).
      app.services.clock.freeze()
      defer { app.services.clock.thaw() }
      let name = uniqueUsername("guess")
      let codes = try await Self.register(browser, name)
      let guesser = browser.stranger()
      for index in 0..<LoginThrottle.freeFailuresPerUsername {
        let wrong = try await guesser.send(.POST, "/api/account/recover", json: RecoverRequest(username: name, code: "zzzz-zzzz-zzzz-zzz\(index)", newPassword: "another fine phrase"))
        #expect(wrong.status == .unauthorized)
      }
      let held = try await guesser.send(.POST, "/api/account/recover", json: RecoverRequest(username: name, code: codes[0], newPassword: "another fine phrase"))
      #expect(held.status == .tooManyRequests && held.headers.first(name: "Retry-After") != nil)
      #expect(try guesser.decode(APIErrorBody.self, from: held).code == "too_many_attempts")
      // Nothing was changed: the password still signs in once the wait is over.
    }
  }

  @Test("A token never outlives what made it: one made with a 1-day token ends with it; one made by a browser ends by the session's absolute limit")
  func tokensNeverOutliveTheirMaker() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      _ = try await Self.register(browser, uniqueUsername("mint"))
      let day = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens", json: TokenRequest(expiresInDays: 1)))
      let dayExpiry = try #require(day.expiresAt)
      let script = browser.stranger()
      let minted = try await script.send(.POST, "/api/account/tokens", json: TokenRequest(expiresInDays: 365), headers: Self.bearer(day.token))
      #expect(minted.status == .created)
      let year = try script.decode(TokenResponse.self, from: minted)
      #expect(try #require(year.expiresAt) <= dayExpiry + 1)
      // Its stored expiry says the same.
      let list = try script.decode(SignInList.self, from: try await script.send(.GET, "/api/account/tokens", headers: Self.bearer(year.token)))
      let stored = try #require(list.signIns.first { $0.current })
      #expect(stored.expiresAt <= dayExpiry + 1)

      // From the browser: capped at the session's absolute limit (180 days), although 365 were asked for.
      let sessionExpiry = try #require(list.signIns.first { $0.kind == "browser" }?.expiresAt)
      let fromBrowser = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens", json: TokenRequest(expiresInDays: 365)))
      #expect(abs(try #require(fromBrowser.expiresAt) - sessionExpiry) < 1)

      app.services.clock.advance(by: 2 * 86_400)
      defer { app.services.clock.advance(by: -2 * 86_400) }
      let after = try await script.send(.GET, "/api/me", headers: Self.bearer(year.token))
      #expect(after.status == .unauthorized, "a token made by a 1-day token outlived it")
    }
  }

  @Test("A browser session ends after 30 idle days although its absolute limit is far; use keeps it going, at one write a day, until 180 days")
  func sessionsExpireWhenIdle() async throws {
    try await withTestApp { (browser: TestClient, app: Application) in
      let clock = app.services.clock
      clock.freeze()
      defer { clock.thaw() }
      let start = clock.now()
      defer { clock.set(to: start) }
      let name = uniqueUsername("idle")
      _ = try await Self.register(browser, name)
      struct Seen: Decodable { let last_seen_at: Date? }
      let tokenIDs = try browser.decode(SignInList.self, from: try await browser.send(.GET, "/api/account/tokens")).signIns.map(\.id)
      let firstID = try #require(tokenIDs.first)
      let tokenID = try #require(UUID(uuidString: firstID))
      func lastSeen() async throws -> Date? {
        try await app.db.sql.raw("SELECT last_seen_at FROM auth_tokens WHERE id = \(bind: tokenID)").first(decoding: Seen.self)?.last_seen_at
      }
      let first = try #require(try await lastSeen())
      // An hour later (past the sign-in cache): used, but not written again the same day.
      clock.advance(by: 3600)
      #expect(try browser.decode(UserResponse.self, from: try await browser.send(.GET, "/api/me")).username == name)
      #expect(abs(try #require(try await lastSeen()).timeIntervalSince(first)) < 1)
      // A day later: written.
      clock.advance(by: 86_400)
      _ = try await browser.send(.GET, "/api/me")
      #expect(try #require(try await lastSeen()).timeIntervalSince(first) > 86_000)

      // Coming back every 20 days keeps the session past 30 days from signing in …
      for _ in 0..<3 {
        clock.advance(by: 20 * 86_400)
        #expect(try browser.decode(UserResponse.self, from: try await browser.send(.GET, "/api/me")).username == name)
      }
      // … but 31 idle days end it.
      clock.advance(by: 31 * 86_400)
      #expect(try browser.decode(UserResponse.self, from: try await browser.send(.GET, "/api/me")).isGuest)

      // Used every 20 days, a session still ends at its absolute limit.
      let other = browser.stranger()
      #expect(try await other.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: "correct horse")).status == .ok)
      var days = 0
      while days + 20 < 180 {
        clock.advance(by: 20 * 86_400)
        days += 20
        #expect(try other.decode(UserResponse.self, from: try await other.send(.GET, "/api/me")).username == name, "day \(days)")
      }
      // A minute past the 180th day (not the exact second: stored times may round either way).
      clock.advance(by: 20 * 86_400 + 60)
      #expect(try other.decode(UserResponse.self, from: try await other.send(.GET, "/api/me")).isGuest)
    }
  }

  @Test("Personal answers carry Cache-Control: no-store (/api/me, /api/account/*, any signed-in API answer, errors too); public ones keep theirs")
  func personalAnswersAreNotStored() async throws {
    try await withTestApp { browser in
      // A visitor's own answers too.
      #expect(try await browser.send(.GET, "/api/me").headers.first(name: .cacheControl) == "no-store")
      let unauthenticated = try await browser.send(.GET, "/api/account/tokens")
      #expect(unauthenticated.status == .unauthorized && unauthenticated.headers.first(name: .cacheControl) == "no-store")
      _ = try await Self.register(browser, uniqueUsername("cache"))
      for path in ["/api/me", "/api/account/tokens", "/api/account/celebrations", "/api/account/recovery-codes", "/api/projects", "/api/cryptogram/stats"] {
        let response = try await browser.send(.GET, path)
        #expect(response.status == .ok, "\(path)")
        #expect(response.headers.first(name: .cacheControl) == "no-store", "\(path)")
      }
      let token = try browser.decode(TokenResponse.self, from: try await browser.send(.POST, "/api/account/tokens"))
      let script = browser.stranger()
      #expect(try await script.send(.GET, "/api/projects", headers: Self.bearer(token.token)).headers.first(name: .cacheControl) == "no-store")
      // The anonymous, public motion catalogue is no one's: it is not marked.
      #expect(try await browser.stranger().send(.GET, "/api/motion").headers.first(name: .cacheControl) != "no-store")
    }
  }
}
