import CompletionAPI
import CompletionCore
import Foundation
import Testing
import Vapor
import VaporTesting

@Suite("Motion API", .serialized)
struct MotionAPITests {
  @Test("The catalogue lists springs, staggers, choreographies and preferences from the core")
  func catalogue() async throws {
    try await withTestApp { client in
      let catalog = try client.decode(MotionCatalog.self, from: try await client.send(.GET, "/api/motion"))
      #expect(catalog.springs.map(\.name) == ["standard", "gentle", "page", "bounce"])
      #expect(catalog.springs[0].response == 0.3 && catalog.springs[0].dampingFraction == 0.7)
      #expect(catalog.staggers.map(\.name) == ["fast", "standard", "relaxed"])
      #expect(catalog.choreographies == ["cardReveal", "listAppear"])
      #expect(catalog.preferences == [.full, .reduced, .off])
    }
  }

  @Test("A choreography is served as steps with delays, durations, easings and appearances")
  func choreography() async throws {
    try await withTestApp { client in
      let card = try client.decode(ChoreographyPayload.self, from: try await client.send(.GET, "/api/motion/choreographies/cardReveal"))
      #expect(card.steps.map(\.id) == ["background", "icon", "title", "content", "actions"])
      #expect(card.steps.map(\.delay) == [0, 0.1, 0.15, 0.2, 0.3])
      #expect(card.steps[0].curve.kind == "spring")
      #expect(card.steps[0].curve.css.hasPrefix("linear("))
      #expect(card.steps[0].from == Appearance(opacity: 0, offsetY: 15, scale: 0.98))
      #expect(abs(card.steps[0].duration - Spring.standard.settlingTime) < 1e-9)

      let calm = try client.decode(
        ChoreographyPayload.self, from: try await client.send(.GET, "/api/motion/choreographies/cardReveal?preference=reduced"))
      #expect(calm.preference == .reduced)
      #expect(calm.steps.allSatisfy { $0.from.offsetY == 0 && $0.from.scale == 1 && $0.duration == 0.2 })

      let missing = try await client.send(.GET, "/api/motion/choreographies/nope")
      #expect(missing.status == .notFound)
      let badPreference = try await client.send(.GET, "/api/motion/choreographies/cardReveal?preference=wild")
      #expect(badPreference.status == .badRequest)
      #expect(try client.decode(APIErrorBody.self, from: badPreference).code == "invalid_parameter")
    }
  }

  @Test("A stagger timeline has the seed's delays, new-items-only and exit order")
  func stagger() async throws {
    try await withTestApp { client in
      let fast = try client.decode(StaggerPayload.self, from: try await client.send(.GET, "/api/motion/stagger?config=fast&count=5"))
      #expect(nearlyEqual(fast.items.map(\.delay), [0, 0.03, 0.06, 0.09, 0.12]))
      #expect(fast.from == Appearance(opacity: 0, offsetY: 20, scale: 0.95))
      let relaxed = try client.decode(StaggerPayload.self, from: try await client.send(.GET, "/api/motion/stagger?config=relaxed&count=3"))
      #expect(abs((relaxed.items[2].delay ?? -1) - 0.26) < 1e-9)
      #expect(relaxed.curve.kind == "easeOut" && relaxed.duration == 0.4)
      let more = try client.decode(StaggerPayload.self, from: try await client.send(.GET, "/api/motion/stagger?count=6&previous=4"))
      #expect(more.items.map { $0.delay == nil } == [true, true, true, true, false, false])
      let exit = try client.decode(StaggerPayload.self, from: try await client.send(.GET, "/api/motion/stagger?count=3&direction=exit"))
      #expect(nearlyEqual(exit.items.map(\.delay), [0.1, 0.05, 0]))
      let calm = try client.decode(StaggerPayload.self, from: try await client.send(.GET, "/api/motion/stagger?count=4&preference=reduced"))
      #expect(calm.items.allSatisfy { $0.delay == 0 })

      for bad in ["count=-1", "count=10001", "count=abc", "config=slow", "origin=middle", "direction=up"] {
        let response = try await client.send(.GET, "/api/motion/stagger?\(bad)")
        #expect(response.status == .badRequest, "\(bad)")
        #expect(try client.decode(APIErrorBody.self, from: response).code == "invalid_parameter")
      }
    }
  }

  @Test("Wave and wiggle are served; calm preference keeps them still")
  func waveAndWiggle() async throws {
    try await withTestApp { client in
      let wave = try client.decode(WavePayload.self, from: try await client.send(.GET, "/api/motion/wave?count=4"))
      #expect(wave.active && wave.amplitude == 5 && wave.period == 2 && wave.items.count == 4)
      #expect(wave.items[0].keyframes.max()! <= 5.000001)
      let stillWave = try client.decode(WavePayload.self, from: try await client.send(.GET, "/api/motion/wave?count=4&preference=reduced"))
      #expect(!stillWave.active && stillWave.items.allSatisfy { $0.keyframes.allSatisfy { $0 == 0 } })
      let wiggle = try client.decode(WigglePayload.self, from: try await client.send(.GET, "/api/motion/wiggle?count=6&seed=9"))
      let repeated = try client.decode(WigglePayload.self, from: try await client.send(.GET, "/api/motion/wiggle?count=6&seed=9"))
      #expect(wiggle == repeated)
      #expect(nearlyEqual(wiggle.cells.map(\.delay), [0, 0.05, 0.1, 0.15, 0.2, 0]))
      // One shared shape, from rest to rest, swinging to the full offset; every cell home by the switch-off.
      #expect(wiggle.shape.first == 0 && wiggle.shape.last == 0 && (wiggle.shape.map(abs).max() ?? 0) > 0.9)
      #expect(0.2 + Double(wiggle.shape.count - 1) * wiggle.sampleInterval <= wiggle.duration + 1e-9)
      #expect(wiggle.cells.allSatisfy { abs($0.offset) <= 3 })
      // A long quote's wiggle stays small on the wire (per-cell tracks made it 70 KB).
      let long = try await client.send(.GET, "/api/motion/wiggle?count=180&seed=9")
      #expect(long.body.readableBytes < 12_000)
      let still = try client.decode(WigglePayload.self, from: try await client.send(.GET, "/api/motion/wiggle?count=6&seed=9&preference=reduced"))
      #expect(!still.active && still.shape == [0])
      let badSeed = try await client.send(.GET, "/api/motion/wiggle?seed=-4")
      #expect(badSeed.status == .badRequest)
    }
  }
}

/// Element-wise equality within floating-point noise; a nil never matches.
func nearlyEqual(_ actual: [Double?], _ expected: [Double]) -> Bool {
  actual.count == expected.count && zip(actual, expected).allSatisfy { a, e in a.map { abs($0 - e) < 1e-9 } ?? false }
}
