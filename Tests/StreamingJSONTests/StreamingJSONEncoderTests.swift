import CompletionAPI
import CompletionCore
import Cryptogram
import Foundation
import KidsGame
import Testing
import Vapor

import StreamingJSON

/// The server's JSON encoder must say exactly what Vapor's default encoder says: the same JSON values for
/// every API type (compared as parsed JSON, since spacing is not part of the contract), and refusals where
/// Foundation refuses.
@Suite("Streaming JSON encoder")
struct StreamingJSONEncoderTests {
  /// Vapor's default JSON encoder (ISO 8601 dates), the reference.
  static let reference = JSONEncoder.custom(dates: .iso8601)

  /// A parsed JSON value that keeps `true` and `1` apart (JSONSerialization's NSNumbers do not).
  indirect enum JSONValue: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let bool = try? single.decode(Bool.self) {
        self = .bool(bool)
      } else if let number = try? single.decode(Double.self) {
        self = .number(number)
      } else if let string = try? single.decode(String.self) {
        self = .string(string)
      } else if let array = try? single.decode([JSONValue].self) {
        self = .array(array)
      } else {
        self = .object(try single.decode([String: JSONValue].self))
      }
    }
  }

  /// Parses both encodings and requires equal JSON values (key order and slash escaping may differ:
  /// Foundation on Linux orders keys by hash and writes "\/").
  func expectSameJSON<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let streamed = try StreamingJSONEncoder().encode(value)
    let expected = try Self.reference.encode(value)
    let parsedStreamed = try JSONDecoder().decode(JSONValue.self, from: Data(streamed))
    let parsedExpected = try JSONDecoder().decode(JSONValue.self, from: expected)
    #expect(
      parsedStreamed == parsedExpected,
      "streamed \(String(decoding: streamed, as: UTF8.self)) vs Foundation \(String(decoding: expected, as: UTF8.self))",
      sourceLocation: sourceLocation)
  }

  @Test("every bundled quote's game view, fresh, part-played and solved, matches Foundation")
  func cryptogramViews() throws {
    // Every fifth quote keeps the debug-build test short; lengths and punctuation still vary throughout.
    for (index, quote) in QuoteLibrary.bundled.quotes.enumerated() where index % 5 == 0 {
      let puzzle = Puzzle(quote: quote, seed: UInt64(index))
      var board = Board(puzzle: puzzle)
      let start = Date(timeIntervalSince1970: 1_800_000_000)
      try expectSameJSON(CryptogramGameView(id: "fresh", mode: "daily", date: "2026-11-22", puzzle: puzzle, board: board, elapsedSeconds: 0))
      // A wrong guess, a right one and a hint, then the key: every kind of cell and effect appears.
      let open = puzzle.cells.filter { $0.isLetter && !puzzle.prefilled.contains($0.index) }
      var effects: [Board.Effect] = []
      if let first = open.first, let plain = first.plain {
        let wrong = Letters.letter((plain + 1) % 26)
        effects += board.handle(.guess(cell: first.index, letter: wrong, at: start), in: puzzle)
        effects += board.handle(.guess(cell: first.index, letter: Letters.letter(plain), at: start.addingTimeInterval(3)), in: puzzle)
      }
      effects += board.handle(.hint(cell: nil, at: start.addingTimeInterval(5)), in: puzzle)
      try expectSameJSON(
        CryptogramMoveResponse(
          game: CryptogramGameView(id: "played", mode: "random", date: nil, puzzle: puzzle, board: board, elapsedSeconds: 5.25),
          effects: effects.map(CryptogramEffectView.init), celebration: nil, wiggle: nil))
      for cell in open where !board.revealed.contains(cell.index) {
        if let plain = cell.plain {
          effects = board.handle(.guess(cell: cell.index, letter: Letters.letter(plain), at: start.addingTimeInterval(61.5)), in: puzzle)
        }
      }
      #expect(board.status == .solved)
      if index % 25 == 0 {
        try expectSameJSON(
          CryptogramMoveResponse(
            game: CryptogramGameView(id: "solved", mode: "random", date: nil, puzzle: puzzle, board: board, elapsedSeconds: 61.5),
            effects: effects.map(CryptogramEffectView.init),
            celebration: ChoreographyPayload(CompletionCelebration.choreography, preference: .full),
            wiggle: WigglePayload(CompletionCelebration.wiggle, count: puzzle.cells.count, seed: puzzle.seed, preference: .full)))
      }
    }
  }

  @Test("motion catalogue, errors, the kids' text and videos match Foundation")
  func otherAPITypes() throws {
    try expectSameJSON(MotionCatalog(choreographies: Choreography.catalogue))
    try expectSameJSON(APIErrorBody(code: "invalid_letter", message: "Pick a letter from A to Z."))
    try expectSameJSON(KidsTextCatalog(screen: ["home": "Waldabenteuer", "quote": "Sag \"Hallo\"\n"], coinsPerChest: 10, milestoneStep: 5, tiers: ["10": ["minutes": 5]],
        timing: KidsTimingView(heartbeatSeconds: 15, videoTickSeconds: 5, loadingTickSeconds: 0.25),
        motion: ["kidsCelebration": ChoreographyPayload(KidsChoreography.celebration, preference: .full)], lines: ["noInternet": "Wir brauchen Internet."], maxTracePoints: 4000))
    let video = ApprovedVideo(id: "dQw4w9WgXcQ", title: "Bären im Wald", addedAt: Date(timeIntervalSince1970: 1_790_000_000), category: nil, source: .youtube)
    try expectSameJSON(KidsVideoView(video))
    try expectSameJSON(HealthResponse(status: "ok", version: "1.0", database: "sqlite"))
  }

  @Test("strings: quotes, backslashes, control characters and non-ASCII survive a round trip")
  func strings() throws {
    let samples = [
      "", "plain", "say \"hi\"", "back\\slash", "line\nbreak\ttab\r", "\u{0}\u{1}\u{1F}", "Ünïcödé – „Zitat“ 🐻", "/path/",
      String(repeating: "long ", count: 500),
    ]
    for sample in samples {
      try expectSameJSON([sample])
      let decoded = try JSONDecoder().decode([String].self, from: Data(StreamingJSONEncoder().encode([sample])))
      #expect(decoded == [sample])
    }
  }

  @Test("numbers, optionals, dates, nested arrays and dictionaries match Foundation")
  func shapes() throws {
    struct Shapes: Encodable {
      var small: Int8 = -3
      var big: UInt64 = .max
      var whole = 3.0
      var fraction = 0.1
      var tiny = 1e-7
      var huge = 1e300
      var negativeZero = -0.0
      var float: Float = 0.1
      var wholeFloat: Float = 3
      var widths: [UInt16] = [1, 65535]
      var floats: [Float] = [0.1, 2.5, -7]
      var wrappedFloat: Float? = 0.3
      var missing: String? = nil
      var present: Int? = 4
      var flag = true
      var date = Date(timeIntervalSince1970: 1_800_000_000)
      var nested: [[Int?]] = [[1, nil], [], [3]]
      var map: [String: [String: Bool]] = ["a": ["x": true], "b": [:]]
      var empty: [String] = []
      var data = Data([0, 1, 2, 250])
      var url = URL(string: "https://example.com/a?b=c")!
      var id = UUID()
      var maybeID: UUID? = UUID()
      var noID: UUID? = nil
      var ids = [UUID(), UUID()]
    }
    try expectSameJSON(Shapes())
    try expectSameJSON(42)
    try expectSameJSON("top-level string")
    try expectSameJSON(Optional<Int>.none)
  }

  @Test("a value that encodes nothing is an empty object inside others and refused at the top, like Foundation")
  func emptyEncodable() throws {
    struct Nothing: Encodable {
      func encode(to encoder: any Encoder) throws {}
    }
    try expectSameJSON([Nothing(), Nothing()])
    try expectSameJSON(["key": Nothing()])
    #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(Nothing()) }
    #expect(throws: EncodingError.self) { try Self.reference.encode(Nothing()) }
  }

  @Test("hand-written nested containers and super encoders, written in order, match Foundation")
  func nestedContainers() throws {
    struct Handwritten: Encodable {
      enum Keys: String, CodingKey { case name, inner, list, parent }
      enum InnerKeys: String, CodingKey { case depth }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode("outer", forKey: .name)
        var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
        try inner.encode(2, forKey: .depth)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode(1)
        var deeper = list.nestedUnkeyedContainer()
        try deeper.encode("a")
        try list.encode(3)
        try ["parent-value"].encode(to: container.superEncoder(forKey: .parent))
      }
    }
    try expectSameJSON(Handwritten())
  }

  @Test("writing into a container after its parent moved on is refused, not written as broken JSON")
  func outOfOrderIsRefused() throws {
    struct OutOfOrder: Encodable {
      enum Keys: String, CodingKey { case first, second }
      enum InnerKeys: String, CodingKey { case late }
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .first)
        try container.encode(1, forKey: .second)
        try inner.encode(2, forKey: .late)
      }
    }
    #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(OutOfOrder()) }
  }

  @Test("non-finite numbers are refused, as Foundation refuses them")
  func nonFinite() throws {
    for value in [Double.nan, .infinity, -.infinity] {
      #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode([value]) }
      #expect(throws: EncodingError.self) { try Self.reference.encode([value]) }
    }
  }

  @Test("a cell written directly is byte for byte what its synthesized encode(to:) writes")
  func directCells() throws {
    /// The members of `CryptogramCellView` with the compiler's own `encode(to:)`.
    struct SynthesizedCell: Encodable {
      let index: Int
      let isLetter: Bool
      let cipher: String?
      let shown: String?
      let prefilled: Bool
      let hinted: Bool
    }
    var checked = 0
    for (index, quote) in QuoteLibrary.bundled.quotes.enumerated() where index % 25 == 0 {
      let puzzle = Puzzle(quote: quote, seed: UInt64(index))
      var board = Board(puzzle: puzzle)
      _ = board.handle(.hint(cell: nil, at: Date(timeIntervalSince1970: 1_800_000_000)), in: puzzle)
      let view = CryptogramGameView(id: "g", mode: "random", date: nil, puzzle: puzzle, board: board, elapsedSeconds: 0)
      for cell in view.cells {
        let synthesized = SynthesizedCell(
          index: cell.index, isLetter: cell.isLetter, cipher: cell.cipher, shown: cell.shown, prefilled: cell.prefilled, hinted: cell.hinted)
        #expect(try StreamingJSONEncoder().encode(cell) == StreamingJSONEncoder().encode(synthesized))
        checked += 1
      }
    }
    // Punctuation (shown, no cipher), prefilled and hinted letters all occur among these cells.
    #expect(checked > 500)
    #expect(try String(decoding: StreamingJSONEncoder().encode([Self.quoteMarkCell]), as: UTF8.self).contains(#""shown":"\"""#))
  }

  /// A cell showing a double quote, which must be escaped.
  static var quoteMarkCell: CryptogramCellView {
    let quote = Quote(text: "\"HI\" SAID A", author: "Test")
    let puzzle = Puzzle(quote: quote, seed: 1)
    let view = CryptogramGameView(id: "g", mode: "random", date: nil, puzzle: puzzle, board: Board(puzzle: puzzle), elapsedSeconds: 0)
    return view.cells.first { $0.shown == "\"" }!
  }

  @Test("dates written as seconds since 2001 read back exactly with Foundation's default decoder, as its encoder writes them")
  func referenceDates() throws {
    struct Stamped: Codable, Equatable {
      let at: Date
      let maybe: Date?
      let many: [Date]
    }
    let value = Stamped(
      at: Date(timeIntervalSinceReferenceDate: 786_543_210.123_456_7), maybe: Date(timeIntervalSinceReferenceDate: 3),
      many: [Date(timeIntervalSince1970: 1_800_000_000.000_001), Date(timeIntervalSinceReferenceDate: -0.25), Date(timeIntervalSinceReferenceDate: 1e-7)])
    let streamed = try StreamingJSONEncoder(dates: .secondsSinceReferenceDate).encode(value)
    #expect(try JSONDecoder().decode(Stamped.self, from: Data(streamed)) == value)
    let foundation = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(JSONValue.self, from: Data(streamed)) == JSONDecoder().decode(JSONValue.self, from: foundation))
  }

  @Test("a cryptogram board stored by the server reads back equal, played or not")
  func storedBoards() throws {
    for (index, quote) in QuoteLibrary.bundled.quotes.enumerated() where index % 50 == 0 {
      let puzzle = Puzzle(quote: quote, seed: UInt64(index))
      var board = Board(puzzle: puzzle)
      let start = Date(timeIntervalSinceReferenceDate: 786_543_210.987_654)
      _ = board.handle(.hint(cell: nil, at: start), in: puzzle)
      _ = board.handle(.pause(at: start.addingTimeInterval(1.5)), in: puzzle)
      _ = board.handle(.resume(at: start.addingTimeInterval(7.25)), in: puzzle)
      let stored = try StreamingJSONEncoder(dates: .secondsSinceReferenceDate).encode(board)
      #expect(try JSONDecoder().decode(Board.self, from: Data(stored)) == board)
    }
  }

  @Test("integers and index lists are written as Foundation writes them, at every width and sign")
  func integers() throws {
    let numbers = [0, 7, 9, 10, -1, -9, -10, 42, 1_000_000, Int.max, Int.min, Int.max - 1, Int.min + 1]
    for number in numbers {
      #expect(try String(decoding: StreamingJSONEncoder().encode([number]), as: UTF8.self) == "[\(number)]")
    }
    try expectSameJSON(numbers)
    try expectSameJSON([[1, 2, 3], [], [-4, 50]])
    try expectSameJSON(["words": [[0, 1], [3]]])
  }
}
