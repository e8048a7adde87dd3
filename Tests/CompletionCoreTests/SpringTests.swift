import Foundation
import Testing

@testable import CompletionCore

@Suite("Springs and curves")
struct SpringTests {
  @Test("Under-damped spring matches the closed form at known times")
  func underDampedClosedForm() {
    let spring = Spring(response: 0.4, dampingFraction: 0.5)
    let omega = 2 * Double.pi / 0.4
    let decay = 0.5 * omega
    let damped = omega * (1 - 0.25).squareRoot()
    for t in [0.05, 0.1, 0.2, 0.35, 0.6, 1.0] {
      let expected = 1 - exp(-decay * t) * (cos(damped * t) + decay / damped * sin(damped * t))
      #expect(abs(spring.value(at: t) - expected) < 1e-12)
    }
    // It overshoots: the first peak is at t = π/ωd with height 1 + e^(−ζπ/√(1−ζ²)).
    let peak = Double.pi / damped
    #expect(abs(spring.value(at: peak) - (1 + exp(-0.5 * .pi / 0.75.squareRoot()))) < 1e-9)
  }

  @Test("Critically damped spring matches 1 − e^(−ω t)(1 + ω t) and never overshoots")
  func criticallyDamped() {
    let spring = Spring(response: 0.5, dampingFraction: 1)
    let omega = 2 * Double.pi / 0.5
    for step in 1...100 {
      let t = Double(step) * 0.02
      let expected = 1 - exp(-omega * t) * (1 + omega * t)
      #expect(abs(spring.value(at: t) - expected) < 1e-12)
      #expect(spring.value(at: t) <= 1)
    }
  }

  @Test("Over-damped spring matches the two-exponential closed form and rises monotonically")
  func overDamped() {
    let spring = Spring(response: 0.5, dampingFraction: 2)
    let omega = 2 * Double.pi / 0.5
    let root = 3.0.squareRoot()
    let r1 = -omega * (2 - root)
    let r2 = -omega * (2 + root)
    var previous = 0.0
    for step in 1...100 {
      let t = Double(step) * 0.02
      let expected = 1 - (r2 * exp(r1 * t) - r1 * exp(r2 * t)) / (r2 - r1)
      #expect(abs(spring.value(at: t) - expected) < 1e-12)
      #expect(spring.value(at: t) >= previous)
      previous = spring.value(at: t)
    }
  }

  @Test("Starts at 0 and at rest", arguments: [Spring.standard, .gentle, .page, .bounce, Spring(response: 0.3, dampingFraction: 1.5)])
  func startsAtZero(spring: Spring) {
    #expect(spring.value(at: 0) == 0)
    #expect(abs(spring.value(at: 1e-6)) < 1e-6)
  }

  @Test("Settling time: stays within the threshold afterwards and not long before", arguments: [
    Spring.standard, .gentle, .page, .bounce, Spring(response: 0.15, dampingFraction: 0.2),
    Spring(response: 0.3, dampingFraction: 1), Spring(response: 0.3, dampingFraction: 3),
  ])
  func settlingTime(spring: Spring) {
    let settle = spring.settlingTime
    #expect(settle > 0)
    for step in 0...400 {
      let t = settle + Double(step) * 0.005
      #expect(abs(1 - spring.value(at: t)) <= Spring.settlingThreshold + 1e-12)
    }
    // Just before settling it is still visibly moving somewhere in the last 20 %.
    let window = stride(from: settle * 0.8, to: settle, by: settle / 400)
    #expect(window.contains { abs(1 - spring.value(at: $0)) > Spring.settlingThreshold * 0.5 })
  }

  @Test("Named springs carry the seed's numbers")
  func namedSprings() {
    #expect(Spring.standard == Spring(response: 0.3, dampingFraction: 0.7))
    #expect(Spring.gentle == Spring(response: 0.5, dampingFraction: 0.8))
    #expect(Spring.page == Spring(response: 0.6, dampingFraction: 0.85))
    #expect(Spring.bounce == Spring(response: 0.4, dampingFraction: 0.5))
  }

  @Test("Timing curves run over their duration and hit their ends")
  func timingCurves() {
    for curve in [Curve.linear, .easeIn, .easeOut, .easeInOut] {
      #expect(curve.value(elapsed: 0, duration: 0.4) == 0)
      #expect(curve.value(elapsed: 0.4, duration: 0.4) == 1)
      #expect(curve.activeDuration(nominal: 0.4) == 0.4)
    }
    #expect(abs(Curve.linear.value(elapsed: 0.1, duration: 0.4) - 0.25) < 1e-12)
    // Ease-in starts slow, ease-out starts fast; ease-in-out is symmetric.
    #expect(Curve.easeIn.value(elapsed: 0.1, duration: 0.4) < 0.25)
    #expect(Curve.easeOut.value(elapsed: 0.1, duration: 0.4) > 0.25)
    #expect(abs(Curve.easeInOut.value(elapsed: 0.2, duration: 0.4) - 0.5) < 1e-6)
    // A spring ignores the nominal duration and runs until it settles.
    #expect(Curve.spring(.standard).activeDuration(nominal: 0.2) == Spring.standard.settlingTime)
  }

  @Test("CSS easings: cubic-bezier for timing curves, sampled linear() for springs ending at 1")
  func cssEasing() {
    #expect(Curve.easeOut.cssEasing() == "cubic-bezier(0.0, 0.0, 0.58, 1.0)")
    let spring = Curve.spring(.bounce).cssEasing(samples: 10)
    #expect(spring.hasPrefix("linear(0.0000, "))
    #expect(spring.hasSuffix(", 1.0000)"))
    #expect(spring.split(separator: ",").count == 11)
  }

  @Test("A sampled curve agrees with the exact curve")
  func sampledCurve() {
    let curve = Curve.spring(.bounce)
    let sampled = SampledCurve(curve, duration: 0.3)
    #expect(sampled.value(elapsed: -1) == 0)
    #expect(sampled.value(elapsed: 100) == 1)
    for step in 0...200 {
      let t = Double(step) * sampled.duration / 200
      #expect(abs(sampled.value(elapsed: t) - curve.value(elapsed: t, duration: 0.3)) < 0.002)
    }
  }
}
