import Testing

@testable import CompletionCore

@Suite("Choreography")
struct ChoreographyTests {
  @Test("cardReveal and listAppear carry the seed's steps in order")
  func sequences() {
    let card = Choreography.cardReveal
    #expect(card.steps.map(\.id) == ["background", "icon", "title", "content", "actions"])
    #expect(card.steps.map(\.delay) == [0, 0.1, 0.15, 0.2, 0.3])
    #expect(card.steps.map(\.duration) == [0.2, 0.3, 0.25, 0.3, 0.25])
    #expect(card.steps.allSatisfy { $0.curve == .spring(.standard) })
    let list = Choreography.listAppear
    #expect(list.steps.map(\.id) == ["header", "items", "footer"])
    #expect(list.steps.map(\.delay) == [0, 0.1, 0.3])
    #expect(list.steps.map(\.duration) == [0.2, 0.4, 0.2])
    #expect(card.startOrder == ["background", "icon", "title", "content", "actions"])
  }

  @Test("Choreographed elements start at y +15, scale 0.98, transparent")
  func startAppearance() {
    let step = Choreography.cardReveal.step("icon")
    #expect(step?.appearance(at: 0) == Appearance(opacity: 0, offsetY: 15, scale: 0.98))
    #expect(step?.progress(at: 0.05) == 0)
  }

  @Test("Steps become active at their delay on a virtual clock; reset and restart behave like the seed")
  func stateOnVirtualClock() {
    let clock = ManualMotionClock()
    var state = ChoreographyState(.cardReveal, clock: clock)
    #expect(!state.isActive("background"))
    state.start()
    #expect(state.isActive("background"))
    #expect(!state.isActive("icon"))
    clock.advance(by: 0.12)
    #expect(state.isActive("icon"))
    #expect(!state.isActive("title"))
    state.start()  // starting again does not restart
    #expect(state.isActive("icon"))
    clock.advance(by: 0.2)
    #expect(state.isActive("actions"))
    #expect(state.progress(of: "background") > 0.5)
    state.reset()
    #expect(!state.isActive("background"))
    #expect(state.appearance(of: "title") == .choreographedHidden)
    state.restart()
    #expect(state.isActive("background") && !state.isActive("icon"))
    clock.advance(by: 5)
    #expect(state.isFinished)
    let done = state.appearance(of: "actions")
    #expect(abs(done.opacity - 1) < 1e-9 && abs(done.offsetY) < 0.05)
  }

  @Test("Every choreography has a reduced form: same order, opacity-only short fades")
  func reducedForm() {
    for choreography in Choreography.catalogue {
      let reduced = choreography.adapted(to: .reduced)
      #expect(reduced.startOrder == choreography.startOrder)
      for step in reduced.steps {
        #expect(step.from.offsetY == 0 && step.from.scale == 1 && step.from.opacity == 0)
        #expect(step.activeDuration == MotionPreference.crossFadeDuration)
        #expect(step.appearance(at: step.delay + 0.1).offsetY == 0)
      }
      let off = choreography.adapted(to: .off)
      #expect(off.totalDuration == 0)
      #expect(off.steps.allSatisfy { $0.appearance(at: 0) == $0.to })
    }
  }

  @Test("Active steps at a time follow the delays")
  func activeSteps() {
    #expect(Choreography.listAppear.activeStepIDs(at: 0.15) == ["header", "items"])
    #expect(Choreography.listAppear.activeStepIDs(at: 0.3) == ["header", "items", "footer"])
  }
}
