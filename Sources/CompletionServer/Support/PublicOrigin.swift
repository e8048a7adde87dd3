import Vapor

extension Application {
  /// Where absolute links point (link previews, share pages): the configured public address
  /// (`COMPLETIONKIT_PUBLIC_URL`), else the address this server listens on — never a request's `Host` header,
  /// which whoever sends the request chooses.
  var publicOrigin: String {
    if let configured = serverOptions.publicURL { return configured }
    let configuration = http.server.configuration
    let port = http.server.shared.localAddress?.port ?? configuration.port
    var host = configuration.hostname
    // Listening everywhere names no address a friend could use: the machine's own is the honest fallback.
    if host == "0.0.0.0" || host == "::" { host = "127.0.0.1" }
    if host.contains(":") { host = "[\(host)]" }
    return "http://\(host):\(port)"
  }
}
