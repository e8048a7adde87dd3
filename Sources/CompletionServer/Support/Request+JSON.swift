import Vapor

extension Request {
  /// Decodes a JSON body, refusing other content types with 415 and bad JSON with 400 `invalid_json`.
  func decodeJSON<T: Decodable>(_ type: T.Type) throws -> T {
    guard let contentType = headers.contentType, contentType.type == "application", contentType.subType == "json" else {
      throw AppError.unsupportedMediaType
    }
    guard let body = body.data else { throw AppError.invalidJSON("the body is empty.") }
    return try JSONDecoder().decode(T.self, from: body)
  }
}
