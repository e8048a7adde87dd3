import NIOCore
import StreamingJSON
import Vapor

/// Vapor writes every JSON response body through this (see `configure`): the streaming encoder behind
/// Vapor's `ContentEncoder`.
struct StreamingContentEncoder: ContentEncoder {
  private let encoder = StreamingJSONEncoder()

  func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
    headers.contentType = .json
    body.writeBytes(try encoder.encode(encodable))
  }

  func encode<E: Encodable>(
    _ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders, userInfo: [CodingUserInfoKey: any Sendable]
  ) throws {
    // No API type reads userInfo; Vapor passes it only for values that ask for it.
    try encode(encodable, to: &body, headers: &headers)
  }
}
