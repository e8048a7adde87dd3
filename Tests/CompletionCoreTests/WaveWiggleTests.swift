import Foundation
import Testing

@testable import CompletionCore

@Suite("Wave and wiggle")
struct WaveWiggleTests {
  @Test("Wave: amplitude 5, 2 s loop, phase by normalised index")
  func wave() {
    let wave = Wave.standard
    #expect(wave.amplitude == 5 && wave.period == 2)
    #expect(abs(wave.phase(at: 0.5) - .pi / 2) < 1e-12)
    #expect(abs(wave.phase(at: 2.5) - .pi / 2) < 1e-12)
    // First item at t = 0.5: sin(π/2) × 5 = 5.
    #expect(abs(wave.offset(index: 0, count: 5, at: 0.5) - 5) < 1e-12)
    // Item 1 of 5 is a quarter turn ahead: sin(π/2 + π/2) = 0.
    #expect(abs(wave.offset(index: 1, count: 5, at: 0.5)) < 1e-12)
    // Item 2 of 5 is half a turn ahead: sin(π/2 + π) = −5.
    #expect(abs(wave.offset(index: 2, count: 5, at: 0.5) + 5) < 1e-12)
    #expect(Wave.normalizedIndex(0, count: 1) == 0)
    let keyframes = wave.keyframes(index: 3, count: 7, samples: 12)
    #expect(keyframes.count == 13)
    #expect(abs(keyframes.first! - keyframes.last!) < 1e-9)
  }

  @Test("Wiggle: seeded offsets in −3…3, delay (index % 5) × 0.05, spring 0.15/0.2, 3 autoreversing legs")
  func wiggle() {
    let wiggle = Wiggle.completion
    #expect(wiggle.spring == Spring(response: 0.15, dampingFraction: 0.2))
    #expect(wiggle.repeatCount == 3 && wiggle.autoreverses)
    var a = SeededRandom(seed: 42)
    var b = SeededRandom(seed: 42)
    let cells = wiggle.cells(count: 12, using: &a)
    #expect(cells == wiggle.cells(count: 12, using: &b))
    #expect(cells.allSatisfy { (-3...3).contains($0.offset) })
    #expect(cells.map(\.delay).map { ($0 * 100).rounded() } == [0, 5, 10, 15, 20, 0, 5, 10, 15, 20, 0, 5])
    let cell = Wiggle.Cell(index: 1, offset: 2, delay: 0.05)
    #expect(wiggle.offset(of: cell, at: 0.04) == 0)
    // Out, back, out, home: four legs of 0.1 s between the last cell's start (0.2 s) and the switch-off.
    #expect(wiggle.legCount == 4 && abs(wiggle.legDuration - 0.1) < 1e-12)
    let spring = wiggle.spring
    #expect(abs(wiggle.offset(of: cell, at: 0.1) - 2 * spring.value(at: 0.5 * spring.settlingTime)) < 1e-12)
    #expect(wiggle.offset(of: cell, at: 0.6) == 0)
  }

  @Test("Wiggle: every cell swings out, back and out again (three autoreversing legs), then home by the switch-off, with no jump")
  func wiggleEndsAtRest() {
    let wiggle = Wiggle.completion
    for index in 0..<5 {
      let cell = Wiggle.Cell(index: index, offset: 3, delay: wiggle.delay(for: index))
      let samples = (0...6_000).map { wiggle.offset(of: cell, at: Double($0) / 10_000) }
      // No jump: a loose spring moves fast, but never a large part of the offset in 0.1 ms.
      let steps = zip(samples, samples.dropFirst()).map { abs($1 - $0) }
      #expect(steps.max()! < 0.25, "cell \(index)")
      // At rest at the end (and already before the switch-off for every cell but the last group).
      #expect(abs(samples.last!) < 0.01)
      // Out twice near the full offset (the legs out, back, out), with the way back between.
      var peaks = 0
      var armed = true
      for value in samples {
        if armed, value > 2.7 { peaks += 1; armed = false }
        if value < 1 { armed = true }
      }
      #expect(peaks == 2, "cell \(index): \(peaks) swings")
    }
  }

  @Test("Seeded generator: same seed, same numbers; text seeds are stable")
  func seeded() {
    var a = SeededRandom(seed: "2026-11-21")
    var b = SeededRandom(seed: "2026-11-21")
    var c = SeededRandom(seed: "2026-11-22")
    let first = (0..<5).map { _ in a.next() }
    #expect(first == (0..<5).map { _ in b.next() })
    #expect(first != (0..<5).map { _ in c.next() })
    var known = SeededRandom(seed: 0)
    #expect(known.next() == 0xe220_a839_7b1d_cdaf)
  }
}
