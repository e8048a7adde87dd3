/// `GET /health`.
public struct HealthResponse: Codable, Hashable, Sendable {
  public let status: String
  public let version: String
  /// "sqlite" or "postgres".
  public let database: String

  public init(status: String, version: String, database: String) {
    self.status = status
    self.version = version
    self.database = database
  }
}

/// One of the five systems as the home page lists it.
public struct SystemSummary: Codable, Hashable, Sendable {
  public let id: String
  public let name: String
  public let tagline: String
  /// Where its page lives ("/motion").
  public let path: String

  public init(id: String, name: String, tagline: String, path: String) {
    self.id = id
    self.name = name
    self.tagline = tagline
    self.path = path
  }
}
