import CompletionAPI
import CompletionClient
import CompletionCore
import Cryptogram
import Foundation
import Testing
import Vapor
import VaporTesting

@testable import CompletionServer

@Suite("Cryptogram page: a shared daily link's preview, the wiggle's samples, the effects on the wire", .serialized)
struct CryptogramPageTests {
  @Test("A daily link's preview tags are absolute on the configured public address, whatever Host the request names")
  func previewTagsUseThePublicAddress() async throws {
    var options = TestDatabase.options
    options.publicURL = "https://games.example.org"
    try await withTestApp(options: options) { client in
      var headers = HTTPHeaders()
      headers.replaceOrAdd(name: .host, value: "evil.example")
      let page = try await client.send(.GET, "/cryptogram?daily=2026-11-24", headers: headers)
      #expect(page.status == .ok && page.headers.contentType == .html)
      let html = String(buffer: page.body)
      #expect(html.contains(#"<meta property="og:url" content="https://games.example.org/cryptogram?daily=2026-11-24">"#))
      #expect(html.contains(#"<meta property="og:image" content="https://games.example.org/api/cryptogram/dailies/2026-11-24/card.png">"#))
      #expect(html.contains(#"<meta property="og:title" content="Cryptogram · Daily puzzle, Tuesday 24 November 2026">"#))
      #expect(!html.contains("evil.example"))
      // Not a day, or a day not out yet: the plain page.
      for link in ["/cryptogram", "/cryptogram?daily=soon", "/cryptogram?daily=2999-01-01"] {
        let plain = try await client.send(.GET, link)
        #expect(plain.status == .ok && !String(buffer: plain.body).contains("og:url"), "\(link)")
      }
      let card = try await client.send(.GET, "/api/cryptogram/dailies/2026-11-24/card.png")
      #expect(card.status == .ok && card.headers.contentType == .png && Array(card.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
      #expect(try await client.send(.GET, "/api/cryptogram/dailies/2999-01-01/card.png").status == .conflict)
      #expect(try await client.send(.GET, "/api/cryptogram/dailies/soon/card.png").status == .badRequest)
      #expect(try await client.send(.GET, "/api/cryptogram/dailies/1999-12-31/card.png").status == .notFound)
    }
  }

  @Test("Without a public address the links name the address the server listens on")
  func previewTagsUseTheListeningAddress() async throws {
    try await withTestApp { client in
      var headers = HTTPHeaders()
      headers.replaceOrAdd(name: .host, value: "evil.example")
      let html = String(buffer: try await client.send(.GET, "/cryptogram?daily=2026-11-24", headers: headers).body)
      #expect(html.contains(#"content="\#(client.base)/cryptogram?daily=2026-11-24""#), "\(client.base)")
    }
  }

  @Test("The public address is read from the environment, and only when it is one")
  func publicAddressFromTheEnvironment() {
    #expect(ServerOptions.fromEnvironment(environment: ["COMPLETIONKIT_PUBLIC_URL": "https://games.example.org/"]).publicURL == "https://games.example.org")
    #expect(ServerOptions.fromEnvironment(environment: ["COMPLETIONKIT_PUBLIC_URL": "games.example.org"]).publicURL == nil)
    #expect(ServerOptions.fromEnvironment(environment: ["COMPLETIONKIT_PUBLIC_URL": "ftp://x.org"]).publicURL == nil)
    #expect(ServerOptions.fromEnvironment(environment: [:]).publicURL == nil)
  }

  @Test("The solve's wiggle keeps the spring's overshoot in its samples, and its timing")
  func wiggleKeepsItsOvershoot() {
    let wiggle = CompletionCelebration.wiggle
    let payload = WigglePayload(
      wiggle, count: 40, seed: 7, preference: .full, framesPerSecond: CompletionCelebration.wiggleSamplesPerSecond)
    let unit = Wiggle.Cell(index: 0, offset: 1, delay: 0)
    let span = Double(wiggle.legCount) * wiggle.legDuration
    // The true largest swing, found finely.
    let peak = (0...20_000).map { abs(wiggle.offset(of: unit, at: span * Double($0) / 20_000)) }.max() ?? 0
    #expect(peak > 1.3, "the spring overshoots its offset")
    #expect((payload.shape.map(abs).max() ?? 0) >= peak * 0.97)
    // The same length as before: the last leg's end, and every cell home by the switch-off.
    #expect(abs(Double(payload.shape.count - 1) * payload.sampleInterval - span) < payload.sampleInterval)
    #expect(payload.duration == wiggle.resetAfter && payload.shape.first == 0 && payload.shape.last == 0)
    // At the old 60 samples a second the overshoot fell between samples.
    let coarse = WigglePayload(wiggle, count: 40, seed: 7, preference: .full)
    #expect((coarse.shape.map(abs).max() ?? 0) < peak * 0.8)
  }

  @Test("Effects are typed: a mistake carries the core's flash time, a refusal its reason; both read back the same")
  @MainActor func typedEffects() throws {
    let mistake = CryptogramEffectView(Board.Effect.mistake(cell: 4, letter: "E", mistakes: 1))
    #expect(mistake == .mistake(cell: 4, letter: "E", flashSeconds: CryptogramTiming.mistakeFlashSeconds))
    let refused = CryptogramEffectView(Board.Effect.refused(.paused))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(String(decoding: try encoder.encode(mistake), as: UTF8.self) == #"{"cells":[4],"flashSeconds":0.5,"letter":"E","type":"mistake"}"#)
    #expect(String(decoding: try encoder.encode(refused), as: UTF8.self) == #"{"reason":"paused","type":"refused"}"#)
    for effect in [mistake, refused, .revealed(cells: [1, 2], letter: "A"), .hint(cells: [3]), .solved, .abandoned] {
      #expect(try JSONDecoder().decode(CryptogramEffectView.self, from: try encoder.encode(effect)) == effect)
    }
    #expect(CryptogramModel.mistakeFlashSeconds == CryptogramTiming.mistakeFlashSeconds)
  }
}
