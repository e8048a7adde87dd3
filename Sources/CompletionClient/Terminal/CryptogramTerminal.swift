import CompletionAPI
import CompletionCore
import Cryptogram
import Foundation

/// The terminal's size in character cells.
public struct TerminalSize: Hashable, Sendable {
  public var columns: Int
  public var rows: Int

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  /// The classic window: what a terminal that cannot say its size is taken to be.
  public static let standard = TerminalSize(columns: 80, rows: 24)
}

/// A key the player pressed, as the terminal cryptogram reads it.
public enum TerminalKey: Hashable, Sendable {
  case letter(Character)
  case next, previous, hint, pause, enter, newPuzzle, restart, quit
  case other

  /// The keys in `bytes` (one read from a terminal in raw mode): letters, arrows, Tab and Shift-Tab, Enter,
  /// Space, `?`, Esc and Ctrl-C.
  public static func parse(_ bytes: [UInt8]) -> [TerminalKey] {
    var keys: [TerminalKey] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case 0x1B:
        // A lone Esc (nothing after it in the same read) is the player leaving. A control sequence (ESC [ …
        // final, or ESC O final) is read whole: the plain arrows and Shift-Tab move, anything else (Ctrl- or
        // Shift-arrows, function keys) is ignored, never taken as letters. Alt with a key is ignored too.
        guard index < bytes.count else {
          keys.append(.quit)
          break
        }
        let introducer = bytes[index]
        index += 1
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
          keys.append(.other)
          break
        }
        var parameters: [UInt8] = []
        while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) {
          parameters.append(bytes[index])
          index += 1
        }
        guard index < bytes.count else {
          keys.append(.other)
          break
        }
        let final = bytes[index]
        index += 1
        guard parameters.isEmpty else {
          keys.append(.other)
          break
        }
        switch final {
        case UInt8(ascii: "C"), UInt8(ascii: "B"): keys.append(.next)
        case UInt8(ascii: "D"), UInt8(ascii: "A"), UInt8(ascii: "Z"): keys.append(.previous)
        default: keys.append(.other)
        }
      case 0x03, 0x04: keys.append(.quit)
      case 0x09: keys.append(.next)
      case 0x0D, 0x0A: keys.append(.enter)
      case UInt8(ascii: " "): keys.append(.pause)
      case UInt8(ascii: "?"): keys.append(.hint)
      case UInt8(ascii: "!"): keys.append(.newPuzzle)
      default:
        let scalar = Unicode.Scalar(byte)
        if scalar.properties.isAlphabetic, byte < 0x80 {
          keys.append(.letter(Character(scalar)))
        } else {
          keys.append(.other)
        }
      }
    }
    return keys
  }

  /// The keys one typed line stands for when the input is not a terminal (a script, a pipe): its letters in
  /// order, or one of the words `hint`, `pause`, `next`, `new`, `restart`, `continue`, `quit`.
  public static func parse(line: String) -> [TerminalKey] {
    let word = line.trimmingCharacters(in: .whitespaces).lowercased()
    switch word {
    case "hint", "?": return [.hint]
    case "pause", "resume": return [.pause]
    case "next", ">": return [.next]
    case "previous", "<": return [.previous]
    case "new", "!": return [.newPuzzle]
    case "restart": return [.restart]
    case "continue", "": return [.enter]
    // Answers to a question ("Leave this puzzle for a new one?"): y or n, as in a terminal.
    case "yes", "y": return [.letter("y")]
    case "no": return [.letter("n")]
    case "quit", "exit": return [.quit]
    default: return word.filter { $0.isLetter && $0.isASCII }.map { .letter($0) }
    }
  }
}

/// The cryptogram in a terminal: what a key does to a ``CryptogramModel``, and the screen drawn from it.
/// Pure apart from the model, so a test draws any size and checks every line.
@MainActor
public enum CryptogramTerminal {
  /// What the command does after a key.
  public enum Outcome: Sendable, Equatable {
    case keepPlaying
    case quit
  }

  /// Carries out `key` on `model`. Letters are guesses while the puzzle is played; once it is solved or the
  /// mistakes ran out they choose what comes next (`n` new, `r` try again, `c` continue).
  /// A question (a new puzzle over one being played, Continue after a loss) waits for `y`; any other key is no.
  public static func handle(_ key: TerminalKey, on model: CryptogramModel) async -> Outcome {
    if model.confirmation != nil {
      switch key {
      case .quit: return .quit
      case .letter(let letter) where letter.lowercased() == "y": await model.confirm().value
      default: model.dismissConfirmation()
      }
      return .keepPlaying
    }
    switch key {
    case .quit: return .quit
    case .other: return .keepPlaying
    case .next: model.moveSelection(forward: true)
    case .previous: model.moveSelection(forward: false)
    case .hint: await model.hint().value
    case .pause:
      if model.game?.isPaused == true { await model.resume().value } else if model.acceptsInput { await model.pause().value }
    case .newPuzzle: await model.ask(.newPuzzle).value
    case .restart: await model.restart().value
    case .enter:
      if model.isSolved {
        await model.next().value
      } else if model.hasFailed {
        await model.ask(.continueAfterLoss).value
      } else if model.game?.isPaused == true {
        await model.resume().value
      }
    case .letter(let letter):
      if model.acceptsInput {
        await model.type(Character(letter.uppercased())).value
      } else if model.isSolved || model.hasFailed {
        switch letter.lowercased() {
        case "n": await model.next().value
        case "r": if model.hasFailed { await model.restart().value }
        case "c": if model.hasFailed { await model.ask(.continueAfterLoss).value }
        case "q": return .quit
        default: break
        }
      } else if model.game?.isPaused == true {
        await model.resume().value
      }
    }
    return .keepPlaying
  }

  /// What the terminal says on leaving: the result, or the command that really brings this puzzle back.
  /// - Parameters:
  ///   - command: how this game was started, less its mode (`completionkit play`, with `--server …` if given).
  ///   - today: today's date where the player is ("2026-11-25"): only today's daily comes back without a date.
  public static func goodbye(_ model: CryptogramModel, command: String, today: String) -> String? {
    guard let game = model.game else { return nil }
    if model.isSolved {
      let word = game.outcome == .finished ? "Finished" : "Solved"
      return "\(word) in \(model.formattedTime)." + (game.mode == "daily" ? " See you tomorrow!" : "")
    }
    let saved = "Your puzzle is saved (\(game.progress.displayPercent) % found)"
    if game.mode == "random" { return saved + ": `\(command) --random` brings it back." }
    if let date = game.date, date != today {
      return saved + ": open /cryptogram?daily=\(date) in the browser to finish it."
    }
    return saved + ": `\(command)` goes on."
  }

  // MARK: Drawing

  /// A run of text in one style.
  struct Span {
    var text: String
    var style: Style = .plain
  }

  enum Style {
    case plain, selected, sameCipher, mistake, hinted, given, dim, bold, title, warning, good
  }

  /// The screen for `model` now: at most `size.rows` lines, none wider than `size.columns` characters once
  /// the colour codes are left out. `color` false draws plain text (`NO_COLOR`, a pipe).
  public static func render(_ model: CryptogramModel, size: TerminalSize, color: Bool, keys: KeyHelp = .terminal) -> [String] {
    let width = max(20, size.columns)
    var lines: [[Span]] = []
    let top = header(model, width: width)
    lines += top
    if top.count == 1 { lines.append([]) }
    let help = helpLines(model, width: width, keys: keys)
    guard let game = model.game else {
      lines += wrap(model.problem ?? "Opening the puzzle…", width: width).map { [Span(text: $0)] }
      return finish(lines, help: help, size: size, color: color)
    }
    if model.isSolved && model.celebrationHasReached("overlay") {
      lines += celebration(model, game: game, width: width)
    } else if game.isPaused {
      // The board is hidden while the clock is stopped, as on the web page: a paused puzzle cannot be worked on.
      lines += [[], [Span(text: "  Paused", style: .title)], [], [Span(text: "  The board is hidden while the clock is stopped.")]]
      lines += wrap(model.problem ?? "Press Space or Enter to go on.", width: width - 2).map { [Span(text: "  " + $0, style: .bold)] }
    } else {
      let statusLines = wrap(statusText(model, game: game).text, width: width).map { [Span(text: $0, style: statusText(model, game: game).style)] }
      // What the board may use: the window less the header, a blank line, the status and the keys.
      let room = max(2, size.rows - lines.count - 1 - statusLines.count - help.count)
      lines += board(model, game: game, width: width, room: room, color: color)
      lines.append([])
      lines += statusLines
    }
    return finish(lines, help: help, size: size, color: color)
  }

  /// Which keys the last lines name: a terminal's, or the words a script sends line by line.
  public enum KeyHelp: Sendable {
    case terminal, lines
  }

  /// The title and the numbers on one line, or on two when the window is narrow.
  private static func header(_ model: CryptogramModel, width: Int) -> [[Span]] {
    guard let game = model.game else { return [[Span(text: "CRYPTOGRAM", style: .title)]] }
    let title = game.mode == "daily" ? "CRYPTOGRAM · Daily \(game.date ?? "")" : "CRYPTOGRAM · \(game.length.rawValue.capitalized) quote"
    let mistakes = game.mistakeLimit.map { "\(game.mistakes)/\($0)" } ?? "\(game.mistakes)"
    let numbers = "Time \(model.formattedTime)  Mistakes \(mistakes)  Hints \(game.hints)"
    let warn = game.mistakeLimit.map { game.mistakes >= $0 - 1 } ?? false
    let right = Span(text: numbers, style: warn ? .warning : .plain)
    if title.count + 2 + numbers.count > width {
      return [[Span(text: title, style: .title)], [right]]
    }
    return [[Span(text: title, style: .title), Span(text: String(repeating: " ", count: width - title.count - numbers.count)), right]]
  }

  /// The puzzle as rows of words: each cell two columns wide, a guess over its cipher letter; words are
  /// never split unless one is wider than the screen.
  private static func board(_ model: CryptogramModel, game: CryptogramGameView, width: Int, room: Int, color: Bool) -> [[Span]] {
    let usable = width - 2
    var rows: [[Int?]] = [[]]  // cell indices, nil for the gap between words
    for word in game.words {
      var pieces: [[Int]] = []
      var rest = word[...]
      while !rest.isEmpty {
        pieces.append(Array(rest.prefix(usable / 2)))
        rest = rest.dropFirst(usable / 2)
      }
      for piece in pieces {
        let current = rows[rows.count - 1]
        let needed = (current.isEmpty ? 0 : 1) + piece.count * 2
        let used = current.reduce(0) { $0 + ($1 == nil ? 1 : 2) }
        if !current.isEmpty, used + needed > usable { rows.append([]) }
        if !rows[rows.count - 1].isEmpty { rows[rows.count - 1].append(nil) }
        rows[rows.count - 1] += piece.map { Optional($0) }
      }
    }
    let selected = model.selectedCell.flatMap { game.cells.indices.contains($0) ? game.cells[$0] : nil }
    // Centred across the window, and with a blank line between rows when the window is tall enough.
    let widest = rows.map { $0.reduce(0) { $0 + ($1 == nil ? 1 : 2) } }.max() ?? 0
    let indent = String(repeating: " ", count: 1 + max(0, (usable - widest) / 2))
    let linesPerRow = color ? 2 : 3
    let spaced = rows.count * (linesPerRow + 1) - 1 <= room
    // A window too short for the whole board shows the rows around the selected cell (the board scrolls).
    let perRow = linesPerRow + (spaced ? 1 : 0)
    let fitting = max(1, (room + (spaced ? 1 : 0)) / perRow)
    var shown = rows.indices
    if rows.count > fitting {
      let selectedRow = model.selectedCell.flatMap { selected in rows.firstIndex { $0.contains(selected) } } ?? 0
      let first = min(max(0, selectedRow - fitting / 2), rows.count - fitting)
      shown = first..<(first + fitting)
    }
    var lines: [[Span]] = []
    for number in shown {
      let row = rows[number]
      if spaced, number > shown.lowerBound { lines.append([]) }
      var guesses: [Span] = [Span(text: indent)]
      var ciphers: [Span] = [Span(text: indent)]
      var marker: [Span] = [Span(text: indent)]
      var hasMarker = false
      for entry in row {
        guard let index = entry, game.cells.indices.contains(index) else {
          guesses.append(Span(text: " "))
          ciphers.append(Span(text: " "))
          marker.append(Span(text: " "))
          continue
        }
        let cell = game.cells[index]
        // The wiggle moves a cell one column within its slot while its swing is large.
        let swing = model.wiggleOffset(of: index)
        let shifted = color && abs(swing) >= 1.5
        func place(_ character: String) -> String { shifted && swing > 0 ? " " + character : character + " " }
        if !cell.isLetter {
          guesses.append(Span(text: place(cell.shown ?? " ")))
          ciphers.append(Span(text: "  "))
          marker.append(Span(text: "  "))
          continue
        }
        var style: Style = .plain
        var shown = cell.shown ?? "_"
        if let mistake = model.mistake, mistake.cell == index {
          shown = String(mistake.letter)
          style = .mistake
        } else if index == model.selectedCell {
          style = .selected
        } else if cell.shown == nil, let selected, selected.cipher == cell.cipher {
          style = .sameCipher
        } else if cell.hinted {
          style = .hinted
        } else if cell.prefilled {
          style = .given
        }
        guesses.append(Span(text: place(shown), style: style))
        ciphers.append(Span(text: place(cell.cipher ?? " "), style: index == model.selectedCell ? .selected : .dim))
        if index == model.selectedCell {
          marker.append(Span(text: "^ "))
          hasMarker = true
        } else {
          marker.append(Span(text: "  "))
        }
      }
      lines.append(guesses)
      lines.append(ciphers)
      // Without colour the selected cell is pointed at from below.
      if !color, hasMarker { lines.append(marker) }
    }
    return lines
  }

  private static func statusText(_ model: CryptogramModel, game: CryptogramGameView) -> (text: String, style: Style) {
    if let question = model.confirmation { return (question.question + " (y/n)", .warning) }
    if let problem = model.problem { return (problem, .warning) }
    if model.isSending { return ("Waiting for the server…", .dim) }
    if model.hasFailed { return ("Out of mistakes. Enter or c: keep playing · r: try again · n: new puzzle", .warning) }
    if model.isSolved { return (game.outcome == .finished ? "Finished." : "Solved!", .good) }
    if let mistake = model.mistake { return ("\(mistake.letter) is not the letter there.", .mistake) }
    if !game.hasStarted { return ("Type a letter for the highlighted cell. The clock starts with your first move.", .plain) }
    return ("\(game.progress.displayPercent) % found", .plain)
  }

  /// The solved screen, each part appearing at its step of the server's choreography (the core's times).
  private static func celebration(_ model: CryptogramModel, game: CryptogramGameView, width: Int) -> [[Span]] {
    func part(_ step: String, _ spans: [Span]) -> [[Span]] {
      guard model.celebrationHasReached(step) else { return [[]] }
      // Still fading in: drawn dim until its step is half way.
      let appearance = model.celebrationAppearance(of: step)
      return [appearance.opacity < 0.5 ? spans.map { Span(text: $0.text, style: .dim) } : spans]
    }
    var lines: [[Span]] = []
    // A solve after Continue is finished, not won (the core's `PuzzleOutcome`).
    let finished = game.outcome == .finished
    lines += part("trophy", [Span(text: finished ? "*  F I N I S H E D  *" : "*  S O L V E D  *", style: .good)])
    if finished { lines += part("trophy", [Span(text: "  Kept going past the mistake limit: not a win.", style: .dim)]) }
    lines.append([])
    if let solution = game.solution {
      for line in wrap("“\(solution.text)”", width: width - 4) {
        lines += part("quote", [Span(text: "  " + line, style: .bold)])
      }
      for line in wrap("— \(solution.author)" + (solution.year.map { ", \($0)" } ?? ""), width: width - 4) {
        lines += part("attribution", [Span(text: "  " + line)])
      }
      if let source = solution.source, !source.isEmpty {
        for line in wrap(source, width: width - 6) { lines += part("source", [Span(text: "    " + line, style: .dim)]) }
      }
    }
    lines.append([])
    let stats = game.stats ?? CompletionStats(seconds: game.elapsedSeconds, mistakes: game.mistakes, hints: game.hints)
    lines += part("stats", [Span(text: "  Time \(stats.formattedTime)   Mistakes \(stats.mistakes)   Hints \(stats.hints)")])
    lines.append([])
    lines += part("next", [Span(text: "  Press Enter for the next puzzle", style: .title)])
    return lines
  }

  private static func helpLines(_ model: CryptogramModel, width: Int, keys: KeyHelp) -> [[Span]] {
    let items: [String]
    if model.confirmation != nil {
      return [[Span(text: keys == .lines ? "Lines: yes or no" : "y: yes · any other key: no", style: .dim)]]
    }
    switch (keys, model.isSolved) {
    case (.lines, true): items = ["Lines: next (or n) for the next puzzle", "quit"]
    case (.lines, false): items = ["Lines: letters to guess", "hint", "pause", "next", "new", "quit"]
    case (.terminal, true): items = ["Enter or n: next puzzle", "q or Esc: quit"]
    case (.terminal, false):
      items =
        width >= 78
        ? ["A-Z guess", "Tab/arrows move", "? hint", "Space pause", "! new puzzle", "Esc quit"]
        : ["A-Z guess", "Tab move", "? hint", "Space pause", "! new", "Esc quit"]
    }
    // Wrapped between keys, never inside one ("Esc" and "quit" stay together).
    var lines: [String] = []
    for item in items {
      if let last = lines.last, last.count + 3 + item.count <= width {
        lines[lines.count - 1] = last + " · " + item
      } else {
        lines.append(item)
      }
    }
    return lines.map { [Span(text: $0, style: .dim)] }
  }

  /// Words of `text` in lines of at most `width` characters.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var current = ""
    for word in text.split(separator: " ") {
      if current.isEmpty {
        current = String(word)
      } else if current.count + 1 + word.count <= width {
        current += " " + word
      } else {
        lines.append(current)
        current = String(word)
      }
      while current.count > width {
        lines.append(String(current.prefix(width)))
        current = String(current.dropFirst(width))
      }
    }
    if !current.isEmpty { lines.append(current) }
    return lines
  }

  /// The lines cut to the screen with the key help at the bottom, written with or without colour codes.
  private static func finish(_ lines: [[Span]], help: [[Span]], size: TerminalSize, color: Bool) -> [String] {
    var kept = lines
    let body = max(0, size.rows - help.count)
    if kept.count > body { kept = Array(kept.prefix(body)) }
    // The key help sits at the bottom of the window.
    while kept.count < body { kept.append([]) }
    kept += help.prefix(max(0, size.rows - kept.count))
    return kept.map { spans in
      var remaining = max(20, size.columns)
      var out = ""
      for span in spans where remaining > 0 {
        let text = String(span.text.prefix(remaining))
        remaining -= text.count
        out += color ? ansi(span.style, text) : text
      }
      return out
    }
  }

  private static func ansi(_ style: Style, _ text: String) -> String {
    let code: String
    switch style {
    case .plain: return text
    case .selected: code = "7;1"
    case .sameCipher: code = "4"
    case .mistake: code = "1;31"
    case .hinted: code = "36"
    case .given: code = "2"
    case .dim: code = "2"
    case .bold: code = "1"
    case .title: code = "1;33"
    case .warning: code = "33"
    case .good: code = "1;32"
    }
    return "\u{1B}[\(code)m\(text)\u{1B}[0m"
  }
}
