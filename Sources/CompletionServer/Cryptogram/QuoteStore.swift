import Cryptogram
import Fluent
import Foundation
import Vapor

/// The quotes the server plays with: the database is the source of truth; this keeps a cached copy so a
/// guess never waits on a quote lookup, and reloads it when the table changes (an import from the CLI).
actor QuoteStore {
  private var library = QuoteLibrary([])
  private var loadedCount = -1

  /// Adds any bundled quote the database does not have yet, in one transaction.
  static func syncBundled(on db: any Database) async throws -> Int {
    let existing = Set(try await QuoteRecord.query(on: db).all(\.$id).compactMap { $0 })
    let missing = QuoteLibrary.bundled.quotes.filter { !existing.contains($0.id) }
    guard !missing.isEmpty else { return 0 }
    try await db.transaction { db in
      for chunk in stride(from: 0, to: missing.count, by: 100) {
        let records = missing[chunk..<min(chunk + 100, missing.count)].map {
          QuoteRecord(id: $0.id, text: $0.text, author: $0.author, year: $0.year, source: $0.source, origin: "bundled")
        }
        try await records.create(on: db)
      }
    }
    return missing.count
  }

  /// Imports checked quotes; returns how many were new (the rest were already in the library).
  static func importQuotes(_ quotes: [Quote], on db: any Database) async throws -> (added: Int, alreadyPresent: Int) {
    let existing = Set(try await QuoteRecord.query(on: db).all(\.$id).compactMap { $0 })
    let new = quotes.filter { !existing.contains($0.id) }
    try await db.transaction { db in
      for quote in new {
        try await QuoteRecord(id: quote.id, text: quote.text, author: quote.author, year: quote.year, source: quote.source, origin: "imported")
          .create(on: db)
      }
    }
    return (new.count, quotes.count - new.count)
  }

  /// The whole library, reloaded when the number of stored quotes changed.
  func library(on db: any Database) async throws -> QuoteLibrary {
    let count = try await QuoteRecord.query(on: db).count()
    if count != loadedCount {
      let records = try await QuoteRecord.query(on: db).all()
      library = QuoteLibrary(records.map { Quote(text: $0.text, author: $0.author, year: $0.year, source: $0.source) })
      loadedCount = count
    }
    return library
  }

  /// One quote by id, from the cache when possible.
  func quote(id: String, on db: any Database) async throws -> Quote? {
    if let quote = library.quote(id: id) { return quote }
    return try await self.library(on: db).quote(id: id)
  }
}
