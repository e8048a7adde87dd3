import Foundation
import Logging

/// Wraps a log handler and masks secrets before anything is written: session cookies, bearer and basic
/// credentials, and password fields. Vapor logs whole request heads at trace level, so masking has to
/// happen here, where every log line passes, not in each route. For the same reason lines are cut here to a
/// bounded length: a request's head (a 60 KB path, say) cannot make a log line as long as itself.
public struct RedactingLogHandler: LogHandler {
  /// The most characters of a message a line keeps (masked first, then cut).
  static let maxMessage = 1_500
  /// The most characters of one metadata value.
  static let maxMetadataValue = 300

  private var base: any LogHandler

  public init(wrapping base: any LogHandler) {
    self.base = base
  }

  /// A `LoggingSystem.bootstrap` factory that writes redacted lines to standard output: plain text, or one
  /// JSON object a line when `COMPLETIONKIT_LOG_FORMAT=json`.
  public static func standardOutput(label: String) -> any LogHandler {
    if ProcessInfo.processInfo.environment["COMPLETIONKIT_LOG_FORMAT"]?.lowercased() == "json" {
      return RedactingLogHandler(wrapping: JSONLogHandler(label: label))
    }
    return RedactingLogHandler(wrapping: StreamLogHandler.standardOutput(label: label))
  }

  public var logLevel: Logger.Level {
    get { base.logLevel }
    set { base.logLevel = newValue }
  }

  public var metadata: Logger.Metadata {
    get { base.metadata }
    set { base.metadata = newValue }
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { base[metadataKey: key] }
    set { base[metadataKey: key] = newValue }
  }

  public func log(event: LogEvent) {
    var event = event
    event.message = Logger.Message(stringLiteral: LogQuote.capped(Self.redact(event.message.description), limit: Self.maxMessage))
    event.metadata = event.metadata.map { $0.mapValues { .string(LogQuote.capped(Self.redact($0.description), limit: Self.maxMetadataValue)) } }
    base.log(event: event)
  }

  private static let patterns: [NSRegularExpression] = [
    #"(ck_session=)[^;\s,}"]+"#,
    #"((?i:bearer|basic)\s+)[A-Za-z0-9._~+/=-]+"#,
    #"((?i:"?password"?)\s*[:=]\s*"?)[^",}\s]+"#,
  ].compactMap { try? NSRegularExpression(pattern: $0) }

  /// `text` with secret values replaced by •••.
  public static func redact(_ text: String) -> String {
    // Most lines hold nothing secret; skip the regular expressions for them.
    guard text.contains("ck_session=") || text.localizedCaseInsensitiveContains("bearer")
      || text.localizedCaseInsensitiveContains("basic") || text.localizedCaseInsensitiveContains("password")
    else { return text }
    var result = text
    for pattern in patterns {
      let range = NSRange(result.startIndex..., in: result)
      result = pattern.stringByReplacingMatches(in: result, range: range, withTemplate: "$1•••")
    }
    return result
  }
}
