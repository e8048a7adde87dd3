import Vapor

/// Routes that exist only when the server runs with `COMPLETIONKIT_TEST_HOOKS=1` (browser tests).
struct TestHooksController: RouteCollection {
  struct AdvanceClock: Content {
    let advanceSeconds: Double
    /// True stops real time from moving the clock from now on (it stays stopped for the server's life).
    let freeze: Bool?
  }

  struct ClockResponse: Content {
    let now: Date
  }

  func boot(routes: any RoutesBuilder) throws {
    routes.post("api", "test", "clock", use: advance)
    // Cuts every open live stream, as a lost connection would (pages reconnect and must miss nothing).
    routes.post("api", "test", "projects", "drop-streams") { req async -> HTTPStatus in
      await req.application.services.projectsLive.hub.dropStreams()
      return .noContent
    }
  }

  /// `POST /api/test/clock {advanceSeconds, freeze?}`: moves the game clock forward, and can stop real time.
  @Sendable func advance(req: Request) async throws -> ClockResponse {
    let body = try req.decodeJSON(AdvanceClock.self)
    guard body.advanceSeconds.isFinite, body.advanceSeconds >= 0, body.advanceSeconds <= 86_400 else {
      throw AppError.invalidParameter("advanceSeconds", "a number of seconds from 0 to 86400")
    }
    if body.freeze == true { req.application.services.clock.freeze() }
    req.application.services.clock.advance(by: body.advanceSeconds)
    return ClockResponse(now: req.application.services.clock.now())
  }
}
