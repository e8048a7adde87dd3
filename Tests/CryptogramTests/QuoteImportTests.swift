import Foundation
import Testing

@testable import Cryptogram

@Suite("Quote import")
struct QuoteImportTests {
  @Test("JSON: every valid row is read, optional fields included")
  func json() throws {
    let data = Data(#"[{"text": "Well done is better than well said.", "author": "Benjamin Franklin", "year": 1737, "source": "Poor Richard's Almanack"}, {"text": "Brevity is the soul of wit.", "author": "William Shakespeare"}]"#.utf8)
    let quotes = try QuoteImport.parse(data, format: .json)
    #expect(quotes.count == 2)
    #expect(quotes[0].year == 1737 && quotes[0].source == "Poor Richard's Almanack")
    #expect(quotes[1].year == nil && quotes[1].source == nil)
  }

  @Test("CSV: header names the columns; quoted fields may hold commas, quotes and line breaks")
  func csv() throws {
    let text = "author,text,year,source\r\n\"Franklin, Benjamin\",\"Well done is better than \"\"well\"\" said.\",1737,\r\nWilliam Shakespeare,\"Brevity is the soul\nof wit.\",,Hamlet\n\n"
    let quotes = try QuoteImport.parse(Data(text.utf8), format: .csv)
    #expect(quotes.map(\.author) == ["Franklin, Benjamin", "William Shakespeare"])
    #expect(quotes[0].text == "Well done is better than \"well\" said." && quotes[0].year == 1737 && quotes[0].source == nil)
    #expect(quotes[1].text == "Brevity is the soul\nof wit." && quotes[1].source == "Hamlet")
  }

  @Test("A file with any bad row is refused whole, with a message for every bad row")
  func badRows() {
    let text = """
      text,author,year
      Brevity is the soul of wit.,William Shakespeare,
      Hi,Someone,
      Knowledge is power.,,
      Brevity is the soul of wit!,William Shakespeare,
      An honest tale speeds best being plainly told.,William Shakespeare,sixteen
      """
    #expect {
      try QuoteImport.parse(Data(text.utf8), format: .csv)
    } throws: { error in
      guard case QuoteImport.FileError.badRows(let rows) = error else { return false }
      return rows.map(\.row) == [3, 4, 5, 6] && rows[0].message.contains("letters") && rows[1].message.contains("author")
        && rows[2].message.contains("repeats row 2") && rows[3].message.contains("year")
    }
  }

  @Test("Unreadable files say why", arguments: [
    ("{not json", QuoteImport.Format.json, "not valid JSON"), (#"{"text": "x"}"#, .json, "array"),
    ("quote,who\nA,B\n", .csv, "text and author"), ("text,author\n\"never closed,x\n", .csv, "never ends"),
  ])
  func unreadable(content: String, format: QuoteImport.Format, expected: String) {
    do {
      _ = try QuoteImport.parse(Data(content.utf8), format: format)
      Issue.record("should have been refused")
    } catch {
      #expect(error.description.contains(expected), "\(error.description)")
    }
  }

  @Test("Formats are recognised from file names")
  func formats() {
    #expect(QuoteImport.Format(fileName: "/tmp/Quotes.JSON") == .json)
    #expect(QuoteImport.Format(fileName: "more.csv") == .csv)
    #expect(QuoteImport.Format(fileName: "notes.txt") == nil)
  }
}
