import Vapor

/// Routes that exist only when the server runs with `COMPLETIONKIT_TEST_HOOKS=1` (browser tests).
struct TestHooksController: RouteCollection {
  struct AdvanceClock: Content {
    /// Seconds to move forward (none when left out).
    let advanceSeconds: Double?
    /// True stops real time from moving the clock from now on; false lets it run again (from the time it
    /// shows, without a jump); nil leaves it as it is.
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

  /// `POST /api/test/clock {advanceSeconds, freeze?}`: moves the game clock forward, and can stop or restart
  /// real time.
  @Sendable func advance(req: Request) async throws -> ClockResponse {
    let body = try req.decodeJSON(AdvanceClock.self)
    let seconds = body.advanceSeconds ?? 0
    guard seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
      throw AppError.invalidParameter("advanceSeconds", "a number of seconds from 0 to 86400")
    }
    switch body.freeze {
    case true?: req.application.services.clock.freeze()
    case false?: req.application.services.clock.thaw()
    case nil: break
    }
    req.application.services.clock.advance(by: seconds)
    return ClockResponse(now: req.application.services.clock.now())
  }
}
