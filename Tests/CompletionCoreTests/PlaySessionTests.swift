import Foundation
import Testing

@testable import CompletionCore

@Suite("Play session")
struct PlaySessionTests {
  let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  @Test("The clock starts at the first input and excludes paused time")
  func timing() {
    var session = PlaySession()
    #expect(session.elapsed(at: t0.addingTimeInterval(100)) == 0)
    session.recordMistake(at: t0)
    session.pause(at: t0.addingTimeInterval(10))
    #expect(session.elapsed(at: t0.addingTimeInterval(50)) == 10)
    session.resume(at: t0.addingTimeInterval(40))
    session.recordHint(at: t0.addingTimeInterval(45))
    session.complete(at: t0.addingTimeInterval(70))
    #expect(session.elapsed(at: t0.addingTimeInterval(500)) == 40)
    #expect(session.mistakes == 1 && session.hints == 1)
    session.recordMistake(at: t0.addingTimeInterval(80))
    #expect(session.mistakes == 1)  // nothing counts after completion
  }

  @Test("Completing while paused does not count the pause")
  func completeWhilePaused() {
    var session = PlaySession()
    session.begin(at: t0)
    session.pause(at: t0.addingTimeInterval(30))
    session.complete(at: t0.addingTimeInterval(90))
    #expect(session.elapsed(at: t0.addingTimeInterval(90)) == 30)
  }

  @Test("m:ss formatting", arguments: [(0.0, "0:00"), (5.9, "0:05"), (65, "1:05"), (600, "10:00"), (3725, "62:05"), (-3, "0:00")])
  func formatting(seconds: Double, text: String) {
    #expect(PlaySession.formatted(seconds: seconds) == text)
  }
}
