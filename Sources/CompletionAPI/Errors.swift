/// The body of every error response: a stable machine `code` and a human `message`.
public struct APIErrorBody: Codable, Hashable, Sendable {
  public let code: String
  public let message: String

  public init(code: String, message: String) {
    self.code = code
    self.message = message
  }
}
