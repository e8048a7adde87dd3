import AsyncHTTPClient
import CompletionAPI
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// How a client shows the server who it is.
public enum ClientCredential: Sendable, Hashable {
  /// Nobody yet. The server makes a guest on the first change, and the client keeps its session from then on.
  case none
  /// A bearer token (`completionkit login`, or `POST /api/account/tokens`).
  case bearer(String)
  /// A browser-style session cookie (`ck_session`), as after `login`.
  case session(String)
}

/// What the server refused, with the API's stable code (see `APIErrorBody`).
public struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The HTTP status.
  public let status: Int
  /// The stable error code, e.g. `task_not_found`.
  public let code: String
  /// The server's message for people.
  public let message: String
  /// The whole body the server sent, for refusals that carry more than the code (a kids' refusal carries
  /// the unchanged screen).
  public let body: Data

  public init(status: Int, code: String, message: String, body: Data = Data()) {
    self.status = status
    self.code = code
    self.message = message
    self.body = body
  }

  /// The credential the client sent is unknown, revoked or expired (`401 invalid_token`): the person must
  /// sign in again; retrying as is cannot succeed.
  public var needsSignIn: Bool { status == 401 && (code == "invalid_token" || code == "session_ended") }

  public var description: String {
    needsSignIn ? "Your sign-in is no longer valid (the token is unknown, revoked or expired): please sign in again." : message
  }
}

/// A connection failure or an answer that is not the API's: the server is not there, or not CompletionKit.
public struct ClientTransportError: Error, Sendable, CustomStringConvertible {
  public let description: String

  public init(description: String) {
    self.description = description
  }
}

/// Bytes the server sent that are not JSON (a share card, a photo, a video), with their type.
public struct DownloadedFile: Sendable, Hashable {
  /// The body.
  public let data: Data
  /// The `Content-Type` the server named.
  public let contentType: String?
}

/// A typed client of the CompletionKit HTTP API: the shared `CompletionAPI` types in and out, errors as
/// ``APIError`` values with their stable codes. It holds no rule of any game; it sends what the person did
/// and returns what the server computed. One method per ``Endpoint`` (see the `API` folder).
///
/// It is a reference type because a sign-in is shared: the session a guest's first change makes, or a login,
/// is kept for every later request of every model using this client.
public final class CompletionClient: Sendable {
  /// The server's base URL, e.g. `http://127.0.0.1:8080`.
  public let server: String
  private let http: HTTPClient
  /// How long one request may take, connecting included (the pool keeps trying to connect until then).
  public let timeout: TimeAmount
  /// The connection pool, for long streams.
  var httpClient: HTTPClient { http }
  private let signIn: Mutex<ClientCredential>

  /// A client of `server`; `http` defaults to the shared connection pool. `timeout` bounds each request: an
  /// app in front of a person wants a short one, a script a long one.
  public init(server: String, credential: ClientCredential = .none, http: HTTPClient = .shared, timeout: TimeAmount = .seconds(30)) {
    self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
    self.signIn = Mutex(credential)
    self.http = http
    self.timeout = timeout
  }

  /// Who the requests are made as: updated by sign-ins, sign-outs and the guest session the server makes.
  public var credential: ClientCredential {
    get { signIn.withLock { $0 } }
    set { signIn.withLock { $0 = newValue } }
  }

  /// The sign-in as request headers, for a request the client does not make itself (a video player
  /// fetching an uploaded film).
  public var authorizationHeaders: [String: String] {
    switch credential {
    case .none: [:]
    case .bearer(let token): ["Authorization": "Bearer \(token)"]
    case .session(let cookie): ["Cookie": "ck_session=\(cookie)"]
    }
  }

  // MARK: Transport

  /// A request body.
  enum Body {
    case none
    case json(any Encodable)
    case bytes(Data, contentType: String)
  }

  /// The JSON the server writes and reads (dates as ISO 8601, as its encoder writes them).
  static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }

  static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    return encoder
  }

  /// The path of `endpoint` with `parameters` put in its `{…}` gaps in order (each escaped), and `query`.
  func path(_ endpoint: Endpoint, _ parameters: [String], query: [(String, String?)] = []) -> String {
    var remaining = parameters[...]
    var path = ""
    for segment in endpoint.pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
      path += "/"
      if segment.hasPrefix("{") {
        path += Self.pathComponent(remaining.popFirst() ?? "")
      } else {
        path += segment
      }
    }
    precondition(remaining.isEmpty, "\(endpoint) takes fewer parameters")
    let items = query.compactMap { name, value in value.map { "\(name)=\(Self.queryComponent($0))" } }
    return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
  }

  /// The `Time-Zone` header naming the person's zone (an IANA name), the one spelling the API documents; none
  /// when nil (the server counts days in UTC then).
  static func zone(_ timeZone: String?) -> [(String, String)] {
    timeZone.map { [("Time-Zone", $0)] } ?? []
  }

  /// Sends one request and decodes the answer, or throws the server's ``APIError``.
  func send<Response: Decodable>(
    _ endpoint: Endpoint, _ parameters: String..., query: [(String, String?)] = [], body: Body = .none,
    headers extra: [(String, String)] = [], as type: Response.Type = Response.self
  ) async throws -> Response {
    let (bytes, _) = try await exchange(endpoint, parameters, query: query, body: body, headers: extra)
    do {
      return try Self.decoder().decode(Response.self, from: bytes)
    } catch {
      throw ClientTransportError(description: "\(server) sent an answer this client does not understand (\(error)).")
    }
  }

  /// Sends one request whose answer has no body (204).
  func sendExpectingNoContent(_ endpoint: Endpoint, _ parameters: String..., body: Body = .none) async throws {
    _ = try await exchange(endpoint, parameters, query: [], body: body, headers: [])
  }

  /// Sends one request and returns the raw answer (images, videos, metrics).
  func download(
    _ endpoint: Endpoint, _ parameters: String..., query: [(String, String?)] = [], headers extra: [(String, String)] = []
  ) async throws -> DownloadedFile {
    let (bytes, headers) = try await exchange(endpoint, parameters, query: query, body: .none, headers: extra)
    return DownloadedFile(data: bytes, contentType: headers.first(name: "Content-Type"))
  }

  /// The request as it goes out: the site header the server asks of every change, the sign-in, the body.
  func makeRequest(
    _ endpoint: Endpoint, _ parameters: [String], query: [(String, String?)], body: Body, headers extra: [(String, String)]
  ) throws -> HTTPClientRequest {
    var request = HTTPClientRequest(url: server + path(endpoint, parameters, query: query))
    request.method = HTTPMethod(rawValue: endpoint.method)
    request.headers.add(name: "Accept", value: "application/json")
    // The server refuses a change without JSON or this header (its guard against cross-site forms).
    request.headers.add(name: "X-CompletionKit", value: "1")
    switch credential {
    case .none: break
    case .bearer(let token): request.headers.add(name: "Authorization", value: "Bearer \(token)")
    case .session(let cookie): request.headers.add(name: "Cookie", value: "ck_session=\(cookie)")
    }
    for (name, value) in extra { request.headers.replaceOrAdd(name: name, value: value) }
    switch body {
    case .none: break
    case .json(let value):
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: try Self.encoder().encode(value)))
    case .bytes(let data, let contentType):
      request.headers.add(name: "Content-Type", value: contentType)
      request.body = .bytes(ByteBuffer(bytes: data))
    }
    return request
  }

  /// One round trip. A change is sent with an `Idempotency-Key`, and a connection that fails before an answer
  /// is tried again with the same key when the endpoint is safe to retry, so a retried move is applied (and
  /// paid) once.
  func exchange(
    _ endpoint: Endpoint, _ parameters: [String], query: [(String, String?)], body: Body, headers extra: [(String, String)]
  ) async throws -> (Data, HTTPHeaders) {
    var extra = extra
    let isChange = endpoint.method != "GET"
    if isChange, !extra.contains(where: { $0.0.lowercased() == "idempotency-key" }) {
      extra.append(("Idempotency-Key", UUID().uuidString))
    }
    let request = try makeRequest(endpoint, parameters, query: query, body: body, headers: extra)
    var attempt = 0
    while true {
      attempt += 1
      let response: HTTPClientResponse
      let bytes: Data
      do {
        response = try await http.execute(request, timeout: timeout)
        bytes = Data(try await response.body.collect(upTo: 256 << 20).readableBytesView)
      } catch {
        // Only a request the server deduplicates, or that sets a state, is sent again: a lost answer to "add a
        // task" may mean the task was added.
        if attempt < 2, endpoint.isSafeToRetry, !Task.isCancelled { continue }
        throw ClientTransportError(description: "Could not reach \(server): is `completionkit serve` running there? (\(error))")
      }
      // A refusal changes nothing the client holds: only a 2xx answer's session is kept.
      guard (200..<300).contains(response.status.code) else {
        if let problem = try? Self.decoder().decode(APIErrorBody.self, from: bytes) {
          throw APIError(status: Int(response.status.code), code: problem.code, message: problem.message, body: bytes)
        }
        throw ClientTransportError(description: "\(server) answered \(response.status.code) without an API error: is it a CompletionKit server?")
      }
      keepSession(from: response.headers, after: endpoint)
      return (bytes, response.headers)
    }
  }

  /// Takes the session a response set (a guest made by a first change, a sign-in) unless the client signs
  /// in with a token; a sign-out forgets it.
  private func keepSession(from headers: HTTPHeaders, after endpoint: Endpoint) {
    signIn.withLock { credential in
      if case .bearer = credential { return }
      if endpoint == .logout || endpoint == .logoutEverywhere {
        credential = .none
      } else if let cookie = Self.sessionCookie(in: headers) {
        credential = cookie.isEmpty ? .none : .session(cookie)
      }
    }
  }

  /// The `ck_session` value a response set.
  static func sessionCookie(in headers: HTTPHeaders) -> String? {
    for line in headers["Set-Cookie"] {
      let pair = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
      if pair.hasPrefix("ck_session=") { return String(pair.dropFirst("ck_session=".count)) }
    }
    return nil
  }

  /// An id as a path component (ids are UUIDs; anything else is escaped, and the server refuses it).
  static func pathComponent(_ raw: String) -> String {
    raw.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? raw
  }

  static func queryComponent(_ raw: String) -> String {
    raw.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? raw
  }
}
