import CompletionAPI
import Foundation
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
}
