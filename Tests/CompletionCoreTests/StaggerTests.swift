import Testing

@testable import CompletionCore

@Suite("Stagger")
struct StaggerTests {
  @Test("Configs carry the seed's exact numbers")
  func configs() {
    #expect(StaggerConfig.fast.baseDelay == 0 && StaggerConfig.fast.delayIncrement == 0.03)
    #expect(StaggerConfig.fast.curve == .spring(.standard))
    #expect(StaggerConfig.standard.baseDelay == 0 && StaggerConfig.standard.delayIncrement == 0.05)
    #expect(StaggerConfig.standard.curve == .spring(.standard))
    #expect(StaggerConfig.relaxed.baseDelay == 0.1 && StaggerConfig.relaxed.delayIncrement == 0.08)
    #expect(StaggerConfig.relaxed.curve == .easeOut && StaggerConfig.relaxed.duration == 0.4)
  }

  @Test("delay(for:) is base + index × increment")
  func delays() {
    #expect(StaggerConfig.fast.delay(for: 0) == 0)
    #expect(abs(StaggerConfig.fast.delay(for: 10) - 0.3) < 1e-12)
    #expect(abs(StaggerConfig.standard.delay(for: 4) - 0.2) < 1e-12)
    #expect(abs(StaggerConfig.relaxed.delay(for: 0) - 0.1) < 1e-12)
    #expect(abs(StaggerConfig.relaxed.delay(for: 5) - 0.5) < 1e-12)
  }

  @Test("Items enter from opacity 0, y +20, scale 0.95 and end in place")
  func entrance() {
    let timeline = StaggerTimeline(config: .standard, count: 3)
    #expect(timeline.appearance(ofItem: 2, at: 0) == Appearance(opacity: 0, offsetY: 20, scale: 0.95))
    let end = timeline.appearance(ofItem: 2, at: timeline.totalDuration + 0.01)
    #expect(abs(end.opacity - 1) < 1e-9 && abs(end.offsetY) < 0.05 && abs(end.scale - 1) < 0.01)
    // Item 1 has not started at 0.04 s (delay 0.05), item 0 has.
    #expect(timeline.appearance(ofItem: 1, at: 0.04).opacity == 0)
    #expect(timeline.appearance(ofItem: 0, at: 0.04).opacity > 0)
  }

  @Test("Origins: first, last and centre lead the cascade")
  func origins() {
    let first = StaggerTimeline(config: .fast, count: 5, origin: .first)
    #expect((0..<5).map { first.rank(of: $0) } == [0, 1, 2, 3, 4])
    let last = StaggerTimeline(config: .fast, count: 5, origin: .last)
    #expect((0..<5).map { last.rank(of: $0) } == [4, 3, 2, 1, 0])
    let center = StaggerTimeline(config: .fast, count: 5, origin: .center)
    #expect((0..<5).map { center.rank(of: $0) } == [2, 1, 0, 1, 2])
    let evenCenter = StaggerTimeline(config: .fast, count: 4, origin: .center)
    #expect((0..<4).map { evenCenter.rank(of: $0) } == [1, 0, 0, 1])
  }

  @Test("Exit runs the entrance in reverse and ends hidden")
  func exit() {
    let exit = StaggerTimeline(config: .standard, count: 4, direction: .exit)
    #expect((0..<4).map { exit.rank(of: $0) } == [3, 2, 1, 0])
    #expect(exit.appearance(ofItem: 0, at: 0) == .identity)
    #expect(exit.appearance(ofItem: 0, at: exit.totalDuration + 1).opacity == 0)
    let centerExit = StaggerTimeline(config: .standard, count: 5, origin: .center, direction: .exit)
    #expect((0..<5).map { centerExit.rank(of: $0) } == [0, 1, 2, 1, 0])
  }

  @Test("Only items new since the last reveal stagger, counting from the first new one")
  func newItemsOnly() {
    let timeline = StaggerTimeline(config: .standard, count: 7, previouslyRevealed: 4)
    #expect(timeline.delay(ofItem: 0) == nil)
    #expect(timeline.delay(ofItem: 3) == nil)
    #expect(timeline.delay(ofItem: 4) == 0)
    #expect(abs((timeline.delay(ofItem: 6) ?? -1) - 0.1) < 1e-12)
    #expect(timeline.appearance(ofItem: 2, at: 0) == .identity)
    #expect(timeline.animatedCount == 3)
  }

  @Test("Reduced motion shows every item at once with a cross-fade and no movement; off is instant")
  func preferences() {
    let reduced = StaggerTimeline(config: .relaxed, count: 6, preference: .reduced)
    #expect((0..<6).allSatisfy { reduced.delay(ofItem: $0) == 0 })
    #expect(reduced.duration == MotionPreference.crossFadeDuration)
    let middle = reduced.appearance(ofItem: 3, at: 0.1)
    #expect(middle.offsetY == 0 && middle.scale == 1 && middle.opacity > 0 && middle.opacity < 1)
    let off = StaggerTimeline(config: .relaxed, count: 6, preference: .off)
    #expect(off.totalDuration == 0)
    #expect(off.appearance(ofItem: 5, at: 0) == .identity)
  }

  @Test("Evaluating a frame into a buffer matches per-item evaluation")
  func frameEvaluation() {
    let timeline = StaggerTimeline(config: .fast, count: 50, origin: .center)
    var frame = [Appearance](repeating: .identity, count: 50)
    frame.withUnsafeMutableBufferPointer { timeline.evaluate(at: 0.4, into: $0) }
    for index in 0..<50 {
      let exact = timeline.appearance(ofItem: index, at: 0.4)
      #expect(frame[index] == exact)
    }
  }
}
