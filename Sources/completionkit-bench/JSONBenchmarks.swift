import CompletionAPI
import CompletionServer
import Cryptogram
import Foundation
import StreamingJSON

/// Encoding a cryptogram move response (a medium quote, mid-game) with Foundation's encoder and with the
/// server's streaming encoder: the largest CPU cost of a guess before the streaming encoder.
func runJSONEncodingBenchmark(rounds: Int) throws {
  let quote = QuoteLibrary.bundled.quotes.first { $0.length == .medium }!
  let puzzle = Puzzle(quote: quote, seed: 7)
  var board = Board(puzzle: puzzle)
  let cell = puzzle.cells.first { $0.isLetter && !puzzle.prefilled.contains($0.index) }!
  let effects = board.handle(.guess(cell: cell.index, letter: "E", at: Date()), in: puzzle)
  let response = CryptogramMoveResponse(
    game: CryptogramGameView(id: UUID().uuidString, mode: "random", date: nil, puzzle: puzzle, board: board, elapsedSeconds: 12.5),
    effects: effects.map(CryptogramEffectView.init), celebration: nil, wiggle: nil)
  let foundation = JSONEncoder()
  let streaming = StreamingJSONEncoder()
  let clock = ContinuousClock()
  print("JSON encoding of a move response (\(puzzle.cells.count) cells, \(try streaming.encode(response).count) bytes), \(rounds) rounds")
  for (label, encode) in [
    ("Foundation JSONEncoder", { _ = try foundation.encode(response) }),
    ("StreamingJSONEncoder", { _ = try streaming.encode(response) }),
  ] as [(String, () throws -> Void)] {
    var samples: [Double] = []
    samples.reserveCapacity(rounds)
    for _ in 0..<200 { try encode() }
    for _ in 0..<rounds {
      let start = clock.now
      try encode()
      samples.append(start.duration(to: clock.now).inSeconds)
    }
    samples.sort()
    print(label.padding(toLength: 28, withPad: " ", startingAt: 0)
      + String(format: "p50 %6.1f µs  p99 %6.1f µs", percentile(samples, 0.5) * 1e6, percentile(samples, 0.99) * 1e6))
  }
}
