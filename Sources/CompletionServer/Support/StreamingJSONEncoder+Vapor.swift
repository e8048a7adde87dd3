import NIOCore
import Vapor

/// Vapor writes every JSON response body through this (see `configure`).
extension StreamingJSONEncoder: ContentEncoder {
  public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
    headers.contentType = .json
    body.writeBytes(try encode(encodable))
  }

  public func encode<E: Encodable>(
    _ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders, userInfo: [CodingUserInfoKey: any Sendable]
  ) throws {
    // No API type reads userInfo; Vapor passes it only for values that ask for it.
    try encode(encodable, to: &body, headers: &headers)
  }
}
