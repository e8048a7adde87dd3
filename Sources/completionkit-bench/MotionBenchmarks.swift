import CAllocationCounter
import CompletionCore
import Foundation

/// Times `frames` evaluations of `body`, returning per-frame seconds (sorted) and allocations in total.
func measure(frames: Int, warmup: Int = 200, _ body: (Int) -> Void) -> (sorted: [Double], allocations: UInt64) {
  var samples = [Double](repeating: 0, count: frames)
  for i in 0..<warmup { body(i) }
  let clock = ContinuousClock()
  let before = ck_allocation_count()
  for i in 0..<frames {
    let start = clock.now
    body(i)
    let elapsed = start.duration(to: clock.now)
    samples[i] = elapsed.inSeconds
  }
  let allocations = ck_allocation_count() - before
  samples.sort()
  return (samples, allocations)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
  sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

func report(_ name: String, _ result: (sorted: [Double], allocations: UInt64), frames: Int, budget: Double) {
  let p50 = percentile(result.sorted, 0.5) * 1e6
  let p99 = percentile(result.sorted, 0.99) * 1e6
  let worst = (result.sorted.last ?? 0) * 1e6
  let perFrame = Double(result.allocations) / Double(frames)
  let verdict = p99 <= budget * 1e6 && result.allocations == 0 ? "within budget" : "OVER BUDGET"
  let label = name.padding(toLength: 46, withPad: " ", startingAt: 0)
  print(
    label
      + String(
        format: "p50 %7.1f µs  p99 %7.1f µs  max %7.1f µs  allocations/frame %.2f  ", p50, p99, worst, perFrame)
      + (budget > 0 ? "(budget \(Int(budget * 1e6)) µs, 0 allocations) \(verdict)" : "(control)"))
}

/// Motion budget: one frame of a 10,000-item staggered reveal ≤ 1 ms, no allocations.
func runMotionBenchmarks(frames: Int) {
print("CompletionKit benchmarks — \(ProcessInfo.processInfo.activeProcessorCount) cores visible, \(frames) frames each")
if ck_allocation_counting_available() == 0 { print("(allocation counting is not available on this platform)") }

// Budget (issue: Foundation): one frame of a 10,000-element staggered reveal ≤ 1 ms, no allocations.
for (name, config) in StaggerConfig.named {
  let timeline = StaggerTimeline(config: config, count: 10_000)
  var frame = [Appearance](repeating: .identity, count: 10_000)
  // Frames spread over the whole reveal (≈ 500 s for 10,000 items), at 120 Hz steps within each window.
  let span = timeline.totalDuration
  let result = frame.withUnsafeMutableBufferPointer { buffer in
    measure(frames: frames) { i in
      let t = (Double(i) * 7.919).truncatingRemainder(dividingBy: span)
      timeline.evaluate(at: t, into: buffer)
    }
  }
  precondition(frame.contains { $0.opacity > 0 }, "the benchmark must evaluate real frames")
  report("stagger 10,000 items, \(name)", result, frames: frames, budget: 0.001)
}

// Same, with items in motion at once (centre origin: two items share each delay).
do {
  let timeline = StaggerTimeline(config: .fast, count: 10_000, origin: .center)
  var frame = [Appearance](repeating: .identity, count: 10_000)
  let result = frame.withUnsafeMutableBufferPointer { buffer in
    measure(frames: frames) { i in timeline.evaluate(at: Double(i % 1_000) * 0.15, into: buffer) }
  }
  report("stagger 10,000 items, fast from centre", result, frames: frames, budget: 0.001)
}

// Worst case: every item mid-animation in the same frame (all delays 0 under reduced motion; a
// full-motion spring timeline sampled inside its first item's duration with a zero increment).
do {
  let allAtOnce = StaggerConfig(baseDelay: 0, delayIncrement: 0, curve: .spring(.standard))
  let timeline = StaggerTimeline(config: allAtOnce, count: 10_000)
  var frame = [Appearance](repeating: .identity, count: 10_000)
  let result = frame.withUnsafeMutableBufferPointer { buffer in
    measure(frames: frames) { i in timeline.evaluate(at: 0.01 + Double(i % 40) * 0.01, into: buffer) }
  }
  precondition(frame.allSatisfy { $0.opacity > 0 && $0.opacity <= 1 }, "every item must be mid-animation")
  report("stagger 10,000 items, all moving at once", result, frames: frames, budget: 0.001)
}

// Control: a frame that allocates a fresh array, to show the counter sees allocations.
do {
  let timeline = StaggerTimeline(config: .standard, count: 1_000)
  var sink = 0.0
  let result = measure(frames: frames) { i in
    var fresh = [Appearance](repeating: .identity, count: 1_000)
    fresh.withUnsafeMutableBufferPointer { timeline.evaluate(at: Double(i) * 0.01, into: $0) }
    sink += fresh[i % 1_000].opacity
  }
  precondition(sink >= 0)
  report("control: allocating a new 1,000-item frame", result, frames: frames, budget: 0)
}
}
