import CompletionServer
import Cryptogram
import Fluent
import Foundation
import Testing

@testable import CompletionServer

@Suite("quotes import command", .serialized)
struct QuoteImportCommandTests {
  @Test("Imports new quotes once; a bad file is refused whole and nothing stored is lost")
  func importIntoSQLiteFile() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ck-import-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ServerOptions(
      database: .sqliteFile(path: folder.appendingPathComponent("db.sqlite").path), dataDirectory: folder, passwordCost: 4)
    let good = folder.appendingPathComponent("good.json")
    try Data(#"[{"text": "Imported line one has plenty of letters.", "author": "Test Author"}, {"text": "Imported line two also has letters.", "author": "Test Author", "year": 1900}]"#.utf8).write(to: good)
    let bad = folder.appendingPathComponent("bad.csv")
    try Data("text,author\nA fine new line with letters,Someone\nx,\n".utf8).write(to: bad)

    // MUT
    let first = try await Launcher.importQuotes(options: options, path: good.path, format: nil, logLevel: "error")
    let second = try await Launcher.importQuotes(options: options, path: good.path, format: nil, logLevel: "error")
    await #expect(throws: LauncherError.self) {
      try await Launcher.importQuotes(options: options, path: bad.path, format: nil, logLevel: "error")
    }
    await #expect(throws: LauncherError.self) {
      try await Launcher.importQuotes(options: options, path: folder.appendingPathComponent("missing.json").path, format: nil, logLevel: "error")
    }

    // validate
    #expect(first == "Imported 2 new quotes.")
    #expect(second == "Imported 0 new quotes (2 already in the library).")
    try await withTestApp(options: options) { _, app in
      let imported = try await QuoteRecord.query(on: app.db).filter(\.$origin == "imported").all()
      #expect(imported.count == 2)
      #expect(try await QuoteRecord.query(on: app.db).count() == QuoteLibrary.bundled.quotes.count + 2)
      #expect(!imported.contains { $0.text.hasPrefix("A fine new line") })
    }
  }
}
