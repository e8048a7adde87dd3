import CompletionServer
import Foundation
import Testing

@Suite("Configuration")
struct ConfigurationTests {
  @Test("Defaults: SQLite in ./.completionkit")
  func defaults() {
    let options = ServerOptions.fromEnvironment(environment: [:])
    #expect(options.dataDirectory.lastPathComponent == ".completionkit")
    #expect(options.database == .sqliteFile(path: options.dataDirectory.appendingPathComponent("completionkit.sqlite").path))
    #expect(!options.secureCookies)
    #expect(FileManager.default.fileExists(atPath: options.publicDirectory.appendingPathComponent("index.html").path))
  }

  @Test("COMPLETIONKIT_DATA moves the data folder; --data-dir wins over it")
  func dataFolder() {
    let fromEnvironment = ServerOptions.fromEnvironment(environment: ["COMPLETIONKIT_DATA": "/tmp/ck-env"])
    #expect(fromEnvironment.dataDirectory.path == "/tmp/ck-env")
    let fromFlag = ServerOptions.fromEnvironment(dataDirectory: "/tmp/ck-flag", environment: ["COMPLETIONKIT_DATA": "/tmp/ck-env"])
    #expect(fromFlag.database == .sqliteFile(path: "/tmp/ck-flag/completionkit.sqlite"))
  }

  @Test("DATABASE_URL switches to PostgreSQL, and its password is never printed")
  func postgres() {
    let url = "postgres://ck:hunter2secret@db.internal:5432/ck?sslmode=disable"
    let options = ServerOptions.fromEnvironment(environment: ["DATABASE_URL": url])
    #expect(options.database == .postgres(url: url))
    #expect(options.database.kind == "postgres")
    let description = Launcher.describe(options.database)
    #expect(!description.contains("hunter2secret"))
    #expect(description == "PostgreSQL at postgres://ck:***@db.internal:5432/ck")
  }

  @Test("The log redactor masks session cookies, bearer tokens and passwords, and leaves other text alone")
  func redaction() {
    let head = "headers: cookie: ck_session=abcDEF123-_x; theme=dark; authorization: Bearer tok.en_123; host: x"
    let redacted = RedactingLogHandler.redact(head)
    #expect(!redacted.contains("abcDEF123") && !redacted.contains("tok.en_123"))
    #expect(redacted.contains("ck_session=•••") && redacted.contains("Bearer •••") && redacted.contains("theme=dark"))
    #expect(!RedactingLogHandler.redact(#"{"username":"ada","password":"s3cret!"}"#).contains("s3cret"))
    #expect(RedactingLogHandler.redact("GET /api/motion → 200") == "GET /api/motion → 200")
  }
}
