import CompletionAPI
import FluentSQL
import Foundation
import Testing
import Vapor

@testable import CompletionServer

/// A live stream lives only as long as the sign-in it was opened with: revoked from another device, signed out,
/// or deleted by another server process, it ends by its next heartbeat with a `session_ended` event.
@Suite("Live streams end with their sign-in")
struct LiveSessionEndTests {
  /// Heartbeats every 0.2 s, so a test waits for the stream's end briefly (it waits for the event, not a time).
  static var options: ServerOptions {
    var options = TestDatabase.options
    options.liveHeartbeat = 0.2
    return options
  }

  /// A saved account signed in on two "browsers": the laptop (which revokes) and the phone (whose streams end).
  static func twoBrowsers(_ laptop: TestClient) async throws -> (phone: TestClient, phoneSignIn: String) {
    let name = uniqueUsername("live")
    let password = "correct horse battery"
    #expect(try await laptop.send(.POST, "/api/account/register", json: RegisterRequest(username: name, password: password)).status == .created)
    let phone = laptop.stranger()
    #expect(try await phone.send(.POST, "/api/account/login", json: LoginRequest(username: name, password: password)).status == .ok)
    let list = try phone.decode(SignInList.self, from: try await phone.send(.GET, "/api/account/tokens"))
    let mine = try #require(list.signIns.first { $0.current })
    return (phone, mine.id)
  }

  /// Reads events until `session_ended`, then expects the stream to end; answers that event's body.
  static func readUntilSessionEnded(_ reader: EventStreamReader) async throws -> APIErrorBody {
    while let event = try await reader.nextEvent() {
      guard event.name == "session_ended" else { continue }
      let body = try JSONDecoder().decode(APIErrorBody.self, from: Data(event.data.utf8))
      #expect(try await reader.nextEvent() == nil, "the stream goes on after session_ended")
      return body
    }
    Issue.record("the stream ended without a session_ended event")
    return APIErrorBody(code: "", message: "")
  }

  @Test("Revoking a sign-in from another device ends its projects and feed streams; the other device's stream goes on")
  func revokeEndsStreams() async throws {
    try await withTestApp(options: Self.options) { laptop, _ in
      let (phone, phoneSignIn) = try await Self.twoBrowsers(laptop)
      let projects = try await EventStreamReader(phone)
      let feed = try await EventStreamReader(phone, path: "/api/feed/events")
      let laptopStream = try await EventStreamReader(laptop)
      _ = try await projects.next()  // the opening snapshot
      _ = try await laptopStream.next()
      #expect(try await laptop.send(.DELETE, "/api/account/tokens/\(phoneSignIn)").status == .noContent)

      let ended = try await Self.readUntilSessionEnded(projects)
      #expect(ended.code == "session_ended" && ended.message.contains("signed out"))
      #expect(try await Self.readUntilSessionEnded(feed).code == "session_ended")

      // A reconnect with the revoked cookie is refused, so a page does not follow the person's data again.
      #expect(try await phone.send(.GET, "/api/projects/events").status == .unauthorized)

      // The laptop's own stream was checked at the same heartbeats and stays open: its next change arrives.
      _ = try await ProjectsAPITests.project(laptop, "Still live")
      #expect(try await laptopStream.next().projects.contains { $0.name == "Still live" })
      try await projects.close()
      try await feed.close()
      try await laptopStream.close()
    }
  }

  @Test("A sign-in deleted by another server process (no news reaches this one's cache) ends the stream too")
  func deletedElsewhereEndsStream() async throws {
    try await withTestApp(options: Self.options) { laptop, app in
      let (phone, phoneSignIn) = try await Self.twoBrowsers(laptop)
      let projects = try await EventStreamReader(phone)
      _ = try await projects.next()
      // What another process's revoke leaves in the shared database, without this process hearing of it.
      let id = try #require(UUID(uuidString: phoneSignIn))
      try await app.db.sql.delete(from: AuthToken.schema).where("id", .equal, SQLBind(id)).run()
      #expect(try await Self.readUntilSessionEnded(projects).code == "session_ended")
      try await projects.close()
    }
  }

  @Test("Signing out ends that browser's stream")
  func logoutEndsStream() async throws {
    try await withTestApp(options: Self.options) { laptop, _ in
      let (phone, _) = try await Self.twoBrowsers(laptop)
      let projects = try await EventStreamReader(phone)
      _ = try await projects.next()
      let cookie = try #require(phone.sessionCookie)
      #expect(try await phone.send(.POST, "/api/account/logout").status == .noContent)
      #expect(try await Self.readUntilSessionEnded(projects).code == "session_ended")
      // The old cookie opens nothing.
      phone.sessionCookie = cookie
      #expect(try await phone.send(.GET, "/api/projects/events").status == .unauthorized)
      try await projects.close()
    }
  }

  @Test("COMPLETIONKIT_LIVE_HEARTBEAT sets the heartbeat; out-of-range values keep 15 s")
  func heartbeatSetting() {
    #expect(ServerOptions.fromEnvironment(environment: ["COMPLETIONKIT_LIVE_HEARTBEAT": "0.5"]).liveHeartbeat == 0.5)
    #expect(ServerOptions.fromEnvironment(environment: ["COMPLETIONKIT_LIVE_HEARTBEAT": "0"]).liveHeartbeat == 15)
    #expect(ServerOptions.fromEnvironment(environment: [:]).liveHeartbeat == 15)
  }
}
