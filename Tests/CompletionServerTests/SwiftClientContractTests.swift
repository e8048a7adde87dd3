import CompletionAPI
import CompletionClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import CompletionServer

/// The Swift client against the contract: one method for every operation of the API, and no copy of a
/// server rule or timing in the client or the SwiftUI layer.
@Suite("Swift client: every route, no rule copies")
struct SwiftClientContractTests {
  /// The package's root, found from the public folder (which sits in it).
  static var root: URL { ServerOptions.defaultPublicDirectory().deletingLastPathComponent() }

  /// Every Swift file under `folder` (relative to the package root), by path.
  static func sources(_ folder: String) throws -> [(path: String, text: String)] {
    let base = root.appendingPathComponent(folder, isDirectory: true)
    guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
    var files: [(String, String)] = []
    for case let url as URL in walker where url.pathExtension == "swift" {
      files.append((String(url.path.dropFirst(root.path.count + 1)), try String(contentsOf: url, encoding: .utf8)))
    }
    return files.sorted { $0.0 < $1.0 }
  }

  /// The operations of `openapi.json` that are the API (not the HTML pages).
  static func documentedOperations() throws -> Set<String> {
    let data = try Data(contentsOf: ServerOptions.defaultPublicDirectory().appendingPathComponent("openapi.json"))
    let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    var operations: Set<String> = []
    for (_, item) in paths {
      for (method, value) in item where ["get", "post", "put", "patch", "delete"].contains(method) {
        guard let operation = value as? [String: Any], let id = operation["operationId"] as? String else { continue }
        let responses = operation["responses"] as? [String: Any] ?? [:]
        let ok = responses.filter { $0.key.hasPrefix("2") }.values.compactMap { ($0 as? [String: Any])?["content"] as? [String: Any] }
        // A page answers HTML and nothing else; every other operation is the client's business.
        let pageOnly = !ok.isEmpty && ok.allSatisfy { Set($0.keys) == ["text/html"] }
        if !pageOnly { operations.insert(id) }
      }
    }
    return operations
  }

  @Test("The client names every operation of the document, with its method and path, and a method sends each one")
  func everyOperationHasAMethod() throws {
    let documented = try Self.documentedOperations()
    #expect(documented.count > 70)
    #expect(Set(Endpoint.allCases.map(\.rawValue)) == documented)
    let data = try Data(contentsOf: ServerOptions.defaultPublicDirectory().appendingPathComponent("openapi.json"))
    let paths = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["paths"] as? [String: [String: Any]])
    for endpoint in Endpoint.allCases {
      let operation = paths[endpoint.pattern]?[endpoint.method.lowercased()] as? [String: Any]
      #expect(operation?["operationId"] as? String == endpoint.rawValue, "\(endpoint): \(endpoint.method) \(endpoint.pattern)")
    }
    // Each endpoint is sent by a public method of the client (not only listed).
    let client = try Self.sources("Sources/CompletionClient/API").map(\.text).joined(separator: "\n")
    for endpoint in Endpoint.allCases {
      let sent = !ClientRuleCopyTests.matches(#"(send|sendExpectingNoContent|download|decodedEvents)\(\s*\."# + endpoint.rawValue + #"\b"#, in: client).isEmpty
      #expect(sent, "no client method sends \(endpoint)")
    }
  }

  @Test("The client's named error codes are exactly the document's, and a refusal arrives as one")
  func errorCodesAreTheDocuments() async throws {
    let data = try Data(contentsOf: ServerOptions.defaultPublicDirectory().appendingPathComponent("openapi.json"))
    let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
    let codes = try #require((schemas["ErrorCode"] as? [String: Any])?["enum"] as? [String])
    #expect(APIErrorCode.documented.map(\.rawValue) == codes)
    try await withTestApp { test in
      let client = CompletionClient(server: test.base)
      do {
        _ = try await client.updateTask(UUID().uuidString, TaskRequest(completed: true))
        Issue.record("a task nobody has was changed")
      } catch let error as APIError {
        #expect(error.errorCode == .taskNotFound && error.status == 404)
      }
    }
  }

  /// A listener that takes each connection's request and hangs up without an answer, counting requests.
  final class HangUpServer: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    let requests = NIOLockedValueBox(0)

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      requests.withLockedValue { $0 += 1 }
      context.close(promise: nil)
    }
  }

  @Test("A lost answer is retried only where the server deduplicates or the change sets a state: a move yes, a new task no")
  func retriesOnlyWhatIsSafe() async throws {
    let handler = HangUpServer()
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .childChannelInitializer { $0.pipeline.addHandler(handler) }
      .bind(host: "127.0.0.1", port: 0).get()
    let port = try #require(channel.localAddress?.port)
    let client = CompletionClient(server: "http://127.0.0.1:\(port)")
    await #expect(throws: ClientTransportError.self) { _ = try await client.guess(UUID().uuidString, cell: 0, letter: "E") }
    let afterMove = handler.requests.withLockedValue { $0 }
    #expect(afterMove == 2, "a move is sent again with its idempotency key")
    await #expect(throws: ClientTransportError.self) { _ = try await client.createTask(TaskRequest(title: "Dig")) }
    #expect(handler.requests.withLockedValue { $0 } == afterMove + 1, "adding a task is sent once")
    try await channel.close()
  }

  /// Patterns that would mean a client runs a rule, a timing or the time itself instead of the server and the
  /// injected clock.
  static let forbidden: [(pattern: String, why: String)] = [
    (#"\bDate\(\)"#, "the time comes from the injected ModelClock"),
    (#"Task\.sleep"#, "waiting goes through the injected ModelClock"),
    (#"Calendar\.current"#, "the family's day is the server's, in its time zone"),
    (#"\bGameMachine\b"#, "the kids' game runs on the server"),
    (#"\.handle\("#, "rules are applied by the server"),
    (#"\bBoard\("#, "the cryptogram board is the server's"),
    (#"\bIdlePrompts\b"#, "idle marks come with the level"),
    (#"countsAsPlay"#, "play time is counted by the server"),
    (#"\bSeededRandom\b"#, "the wiggle's cells come from the server"),
    (#"CompletionCelebration\."#, "the celebration's timings come with the solving move"),
    (#"\bDiceRound\b|\bLoadingScreen\b|\bKidsClientTiming\b|\bKidsChoreography\b"#, "timings come from /api/kids/text"),
    (#"secondsPerCharacter\s*=\s*[0-9.]"#, "the typewriter's pace comes from /api/kids/text (timing.typewriterSecondsPerCharacter)"),
    (#"\bCoinRules\b|\bCoinProgress\b|\bChestDisplay\b|\bVideoTier\b"#, "coins, chests and tiers are computed by the server"),
    (#"%\s*(5|10)\b"#, "milestones and chests are the server's"),
    (#"playTimeReportSeconds|milestoneStep\s*[*%/]"#, "report intervals and milestones are the server's"),
    (#"bis \d+ Zeichen|maxNameLength\s*=\s*\d"#, "a name's length is the server's (the catalog's invalidName line, timing.maxNameLength)"),
    (#"höchstens (ein|zwei|drei|vier|fünf|sechs|sieben|acht|\d+) Kinder|maxPlayers\s*=\s*\d"#, "how many children may play is the server's (the catalog's tooManyPlayers line)"),
    (#"MP4, WebM|"video/(mp4|webm|ogg|quicktime)""#, "the upload's formats are the server's (the catalog's videoTypes and videoFormats)"),
  ]

  @Test("The patterns find the copies they name")
  func patternsFindCopies() {
    for copy in [
      #"case "invalid_name": "Bitte gib einen Namen mit 1 bis 20 Zeichen ein.""#, #""Es können höchstens sechs Kinder mitspielen.""#,
      #"let types = ["video/mp4", "video/webm"]"#, #"Text("MP4, WebM oder Ogg")"#,
    ] {
      #expect(Self.forbidden.contains { !ClientRuleCopyTests.matches($0.pattern, in: copy).isEmpty }, "\(copy)")
    }
  }

  @Test("No copy of a server rule or timing in the Swift client or the SwiftUI layer")
  func noRuleCopies() throws {
    let client = try Self.sources("Sources/CompletionClient")
    let views = try Self.sources("Sources/CompletionKitUI")
    #expect(client.count >= 10 && !views.isEmpty)
    for (path, text) in client + views {
      // The one place real time is read and waited for.
      if path.hasSuffix("Models/ModelClock.swift") { continue }
      let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
      for (pattern, why) in Self.forbidden {
        let found = ClientRuleCopyTests.matches(pattern, in: code)
        #expect(found.isEmpty, "\(path): \(found.first ?? "") — \(why)")
      }
    }
    for (path, text) in client {
      #expect(!text.contains("import SwiftUI"), "\(path): the client is platform-neutral; SwiftUI comes in through small protocols")
    }
    for (path, text) in views {
      for module in ["KidsGame", "Cryptogram"] {
        #expect(!text.contains("import \(module)\n"), "\(path) imports \(module): a view draws what the model holds, the rules stay on the server")
      }
    }
  }
}
