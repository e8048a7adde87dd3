import PropertyBased
import Testing

@testable import CompletionCore

@Suite("Progress")
struct ProgressTests {
  @Test("Completion ratio: 0 when empty, 100 % only when truly complete")
  func ratio() {
    #expect(CompletionRatio(completed: 0, total: 0).fraction == 0)
    #expect(!CompletionRatio(completed: 0, total: 0).isComplete)
    #expect(CompletionRatio(completed: 199, total: 200).displayPercent == 99)
    #expect(CompletionRatio(completed: 200, total: 200).displayPercent == 100)
    #expect(CompletionRatio(completed: 1, total: 1000).displayPercent == 1)
    #expect(CompletionRatio(completed: 0, total: 5).displayPercent == 0)
    // The nearest whole percent, not the one below: 8 of 12 is 66.7 %, 1 of 8 is 12.5 %.
    #expect(CompletionRatio(completed: 8, total: 12).displayPercent == 67)
    #expect(CompletionRatio(completed: 2, total: 3).displayPercent == 67)
    #expect(CompletionRatio(completed: 1, total: 3).displayPercent == 33)
    #expect(CompletionRatio(completed: 1, total: 8).displayPercent == 13)
    #expect(CompletionRatio(completed: 995, total: 1000).displayPercent == 99)
    #expect(CompletionRatio(completed: 1, total: 201).displayPercent == 1)
    #expect(CompletionRatio(completed: 7, total: 5).completed == 5)
    #expect(CompletionRatio(completed: 1, total: 4).fraction == 0.25)
  }

  @Test("Animator reaches its target after 0.4 s and retargets from where it is")
  func animator() {
    let clock = ManualMotionClock()
    var animator = ProgressAnimator(clock: clock)
    #expect(animator.duration == 0.4)
    animator.retarget(to: 1)
    clock.advance(by: 0.2)
    let midway = animator.value
    #expect(midway > 0 && midway < 1)
    animator.retarget(to: 0)
    #expect(abs(animator.value - midway) < 1e-12)  // no jump
    clock.advance(by: 0.4)
    #expect(animator.value == 0)  // a 0 % target is reached
    #expect(!animator.isAnimating)
  }

  @Test("Cancel freezes the value; reset jumps without animating")
  func cancelAndReset() {
    let clock = ManualMotionClock()
    var animator = ProgressAnimator(clock: clock)
    animator.retarget(to: 0.8)
    clock.advance(by: 0.1)
    animator.cancel()
    let frozen = animator.value
    clock.advance(by: 1)
    #expect(animator.value == frozen)
    animator.reset(to: 0.3)
    #expect(animator.value == 0.3)
  }

  @Test("Property: for any sequence of retargets the value stays in 0…1, never jumps, and lands on the last target")
  func animatorProperty() async {
    let step = PropertyBased.zip(Gen.double(in: -0.5...1.5), Gen.double(in: 0...0.6))
    await propertyCheck(count: 200, input: step.array(of: 1...20)) { steps in
      let clock = ManualMotionClock()
      var animator = ProgressAnimator(clock: clock)
      for (target, wait) in steps {
        let before = animator.value
        animator.retarget(to: target)
        #expect(abs(animator.value - before) < 1e-9)
        clock.advance(by: wait)
        #expect(animator.value >= 0 && animator.value <= 1)
      }
      clock.advance(by: 0.41)
      let last = min(max(steps.last!.0, 0), 1)
      #expect(abs(animator.value - last) < 1e-9)
    }
  }
}
