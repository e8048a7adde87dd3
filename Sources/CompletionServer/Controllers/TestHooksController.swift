import Vapor

/// Routes that exist only when the server runs with `COMPLETIONKIT_TEST_HOOKS=1` (browser tests).
struct TestHooksController: RouteCollection {
  struct AdvanceClock: Content {
    let advanceSeconds: Double
  }

  struct ClockResponse: Content {
    let now: Date
  }

  func boot(routes: any RoutesBuilder) throws {
    routes.post("api", "test", "clock", use: advance)
  }

  /// `POST /api/test/clock {advanceSeconds}`: moves the game clock forward.
  @Sendable func advance(req: Request) async throws -> ClockResponse {
    let body = try req.decodeJSON(AdvanceClock.self)
    guard body.advanceSeconds.isFinite, body.advanceSeconds >= 0, body.advanceSeconds <= 86_400 else {
      throw AppError.invalidParameter("advanceSeconds", "a number of seconds from 0 to 86400")
    }
    req.application.clock.advance(by: body.advanceSeconds)
    return ClockResponse(now: req.application.clock.now())
  }
}
