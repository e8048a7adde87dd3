import Testing

@testable import Projects

/// An import keeps every line's own text: only a real list marker (followed by a space) is taken off, and
/// only `# Name` starts a project. Names and notes never keep control characters.
@Suite("Plain list: a line's own text is kept")
struct PlainListTextTests {
  @Test(
    "Numbers, times and hashes that are part of the text stay",
    arguments: [
      ("1.5 kg flour", "1.5 kg flour"),
      ("2.0 litres of milk", "2.0 litres of milk"),
      ("12.30 pick up the kids", "12.30 pick up the kids"),
      ("#2 pencils for school", "#2 pencils for school"),
      ("-5 degrees: bring gloves", "-5 degrees: bring gloves"),
      ("3) call mum", "call mum"),
      ("12. water the plants", "water the plants"),
      ("- 1.5 kg flour", "1.5 kg flour"),
      ("* [x] 2.0 litres of milk", "2.0 litres of milk"),
      ("+ buy #2 pencils", "buy #2 pencils"),
      ("[x]ray appointment", "[x]ray appointment"),
    ])
  func keepsText(line: String, title: String) throws {
    let list = try PlainListImport.parse(line).get()
    #expect(list.projects.isEmpty, "\(line) must not start a project")
    #expect(list.inbox.map(\.title) == [title])
  }

  @Test("Only the heading form starts a project; a hash glued to a word is a task")
  func headings() throws {
    let list = try PlainListImport.parse("#2 pencils\n# Groceries\n1.5 kg flour\n## Kitchen\n#hashtag idea").get()
    #expect(list.inbox.map(\.title) == ["#2 pencils"])
    #expect(list.projects.map(\.name) == ["Groceries", "Kitchen"])
    #expect(list.projects[0].tasks.map(\.title) == ["1.5 kg flour"])
    #expect(list.projects[1].tasks.map(\.title) == ["#hashtag idea"])
  }

  @Test("A marker alone is a line with no task")
  func markerAlone() {
    guard case .failure(.badLines(let problems)) = PlainListImport.parse("ok\n-\n1.\n* [ ]") else {
      Issue.record("expected bad lines")
      return
    }
    #expect(problems.map(\.line) == [2, 3, 4])
  }

  @Test("Control characters never reach a name, a title or notes; notes keep their lines and tabs")
  func controlCharacters() throws {
    let list = try PlainListImport.parse("# Work\u{1B}]0;pwned\u{07}\n- Pay\u{1B}[31m rent").get()
    #expect(list.projects.map(\.name) == ["Work ]0;pwned"])
    #expect(list.projects[0].tasks.map(\.title) == ["Pay [31m rent"])
    #expect(try ProjectInput.name("Home\u{1B}[2J\u{9B}") == "Home [2J")
    #expect(try ProjectInput.notes("line one\r\nline\ttwo\u{1B}[0m\u{07}\rthree") == "line one\nline\ttwo[0m\nthree")
    #expect(try ProjectInput.title("a\u{0}b") == "a b")
    // Direction overrides and isolates are invisible and reorder what is shown: taken out, never kept.
    #expect(try ProjectInput.title("Invoice\u{202E}fdp.exe") == "Invoicefdp.exe")
    #expect(try ProjectInput.notes("one\u{2067}two\u{2069}\nthree") == "onetwo\nthree")
    #expect(try ProjectInput.name("Ωμέγα \u{200E}A") == "Ωμέγα \u{200E}A", "a direction mark stays")
  }

  @Test("A preview notes every line whose text the import changes, and the lines that stop it")
  func lineNotes() throws {
    let text = "- Milk\n1.5 kg flour\n\n# Work\n* [x] Pay rent\nCall\u{1B}[31m Bob\n\tindented with a tab\n[ ] open one"
    let reading = PlainListImport.read(text)
    #expect(reading.error == nil)
    #expect(reading.list.inbox.map(\.title) == ["Milk", "1.5 kg flour"])
    #expect(reading.list.projects.map(\.name) == ["Work"])
    #expect(reading.list.projects[0].tasks.map(\.title) == ["Pay rent", "Call [31m Bob", "indented with a tab", "open one"])
    #expect(reading.list.projects[0].tasks.map(\.completed) == [true, false, false, false])
    let notes = reading.notes.map { "\($0.line) \($0.kind.rawValue)" }
    #expect(notes == ["1 marker_removed", "5 marker_removed", "5 done_mark_read", "6 control_characters_removed", "8 done_mark_read"])
    #expect(reading.notes[0].message == "the list marker “-” was taken off.")
    #expect(reading.notes.allSatisfy { !$0.refuses })
    // The same list imports exactly as read.
    #expect(try PlainListImport.parse(text).get() == reading.list)
  }

  @Test("Lines that stop an import are noted with the rest; the list as a whole is refused")
  func refusingNotes() {
    let reading = PlainListImport.read("ok\n#\n- \n\(String(repeating: "x", count: ProjectLimits.maxTitleLength + 1))\n* fine")
    #expect(reading.notes.filter(\.refuses).map { "\($0.line) \($0.kind.rawValue)" } == ["2 empty_heading", "3 empty_task", "4 too_long"])
    #expect(reading.notes.map(\.line) == [2, 3, 3, 4, 5])
    guard case .badLines(let problems) = reading.error else {
      Issue.record("expected bad lines")
      return
    }
    #expect(problems.map(\.line) == [2, 3, 4])
    #expect(PlainListImport.read("\n  \n").error == .empty)
  }
}
