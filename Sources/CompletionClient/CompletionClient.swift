import AsyncHTTPClient
import CompletionAPI
import Foundation
import NIOCore
import NIOHTTP1

/// How a client shows the server who it is.
public enum ClientCredential: Sendable, Hashable {
  /// Nobody yet.
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

  public var description: String { message }
}

/// A connection failure or an answer that is not the API's: the server is not there, or not CompletionKit.
public struct ClientTransportError: Error, Sendable, CustomStringConvertible {
  public let description: String

  public init(description: String) {
    self.description = description
  }
}

/// A typed client of the CompletionKit HTTP API: the shared `CompletionAPI` types in and out, errors as
/// ``APIError`` values with their stable codes. It holds no rule of any game; it sends what the person did
/// and returns what the server computed.
public struct CompletionClient: Sendable {
  /// The server's base URL, e.g. `http://127.0.0.1:8080`.
  public let server: String
  /// Who the requests are made as.
  public var credential: ClientCredential
  private let http: HTTPClient

  /// A client of `server`; `http` defaults to the shared connection pool.
  public init(server: String, credential: ClientCredential = .none, http: HTTPClient = .shared) {
    self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
    self.credential = credential
    self.http = http
  }

  // MARK: Accounts

  /// Signs in with a password; the client then carries the session cookie.
  public mutating func login(username: String, password: String) async throws {
    let (_, headers): (UserResponse, HTTPHeaders) = try await send(.POST, "/api/account/login", body: LoginRequest(username: username, password: password))
    guard let cookie = Self.sessionCookie(in: headers) else { throw ClientTransportError(description: "The server signed in but sent no session.") }
    credential = .session(cookie)
  }

  /// A new bearer token for the signed-in named account (for scripts and the command line).
  public func createToken() async throws -> TokenResponse {
    try await send(.POST, "/api/account/tokens", body: Optional<String>.none).0
  }

  /// The signed-in person.
  public func me() async throws -> UserResponse {
    try await send(.GET, "/api/me", body: Optional<String>.none).0
  }

  // MARK: Projects

  /// Every project with its counts, the Inbox, and the ring's animation.
  public func projects() async throws -> ProjectsOverview {
    try await send(.GET, "/api/projects", body: Optional<String>.none).0
  }

  /// The tasks of a project, or of the Inbox when `projectID` is nil, in their order.
  public func tasks(inProject projectID: String?) async throws -> TaskListResponse {
    let path = projectID.map { "/api/projects/\(Self.pathComponent($0))/tasks" } ?? "/api/projects/inbox/tasks"
    return try await send(.GET, path, body: Optional<String>.none).0
  }

  /// Adds a task (title required).
  public func createTask(_ request: TaskRequest) async throws -> TaskChangeResponse {
    try await send(.POST, "/api/tasks", body: request).0
  }

  /// Changes a task: any field of `request` that is set.
  public func updateTask(_ id: String, _ request: TaskRequest) async throws -> TaskChangeResponse {
    try await send(.PATCH, "/api/tasks/\(Self.pathComponent(id))", body: request).0
  }

  // MARK: Transport

  /// Sends one request and decodes the answer, or throws the server's ``APIError``.
  func send<Response: Decodable, Body: Encodable>(
    _ method: HTTPMethod, _ path: String, body: Body?
  ) async throws -> (Response, HTTPHeaders) {
    var request = HTTPClientRequest(url: server + path)
    request.method = method
    request.headers.add(name: "Accept", value: "application/json")
    // The server refuses a change without JSON or this header (its guard against cross-site forms).
    request.headers.add(name: "X-CompletionKit", value: "1")
    switch credential {
    case .none: break
    case .bearer(let token): request.headers.add(name: "Authorization", value: "Bearer \(token)")
    case .session(let cookie): request.headers.add(name: "Cookie", value: "ck_session=\(cookie)")
    }
    if let body {
      request.headers.add(name: "Content-Type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
    }
    let response: HTTPClientResponse
    do {
      response = try await http.execute(request, timeout: .seconds(30))
    } catch {
      throw ClientTransportError(description: "Could not reach \(server): is `completionkit serve` running there? (\(error))")
    }
    let collected = try await response.body.collect(upTo: 16 << 20)
    let bytes = Data(collected.readableBytesView)
    guard (200..<300).contains(response.status.code) else {
      if let problem = try? JSONDecoder().decode(APIErrorBody.self, from: bytes) {
        throw APIError(status: Int(response.status.code), code: problem.code, message: problem.message)
      }
      throw ClientTransportError(description: "\(server) answered \(response.status.code) without an API error: is it a CompletionKit server?")
    }
    do {
      return (try JSONDecoder().decode(Response.self, from: bytes), response.headers)
    } catch {
      throw ClientTransportError(description: "\(server) sent an answer this client does not understand (\(error)).")
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
    raw.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-"))) ?? raw
  }
}
