import Foundation
import Logging
import Synchronization

/// Writes each log event as one line of JSON (`time`, `level`, `label`, `message`, `source`, then the
/// metadata), for log collectors that read structured lines. Chosen with `COMPLETIONKIT_LOG_FORMAT=json`;
/// wrapped by ``RedactingLogHandler`` like the plain handler, so secrets are masked before they get here.
public struct JSONLogHandler: LogHandler {
  private let label: String
  private let write: @Sendable (String) -> Void
  public var logLevel: Logger.Level = .info
  public var metadata: Logger.Metadata = [:]

  /// One lock for the process's standard output, so lines from several threads never interleave.
  private static let output = Mutex(())

  public init(label: String, write: @escaping @Sendable (String) -> Void = JSONLogHandler.writeToStandardOutput) {
    self.label = label
    self.write = write
  }

  /// Writes a line to standard output and flushes it.
  public static let writeToStandardOutput: @Sendable (String) -> Void = { line in
    let bytes = Array(line.utf8)
    output.withLock { _ in
      // One write(2) per line: whole lines reach the file, whoever else writes to it.
      var offset = 0
      while offset < bytes.count {
        let written = bytes[offset...].withUnsafeBytes { Foundation.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        guard written > 0 else { return }
        offset += written
      }
    }
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(event: LogEvent) {
    var fields = metadata
    if let extra = event.metadata { fields.merge(extra) { _, new in new } }
    var line = "{\"time\":"
    Self.append(string: Self.timestamp(Date()), to: &line)
    line += ",\"level\":"
    Self.append(string: event.level.rawValue, to: &line)
    line += ",\"label\":"
    Self.append(string: label, to: &line)
    line += ",\"message\":"
    Self.append(string: event.message.description, to: &line)
    line += ",\"source\":"
    Self.append(string: event.source, to: &line)
    if !fields.isEmpty {
      line += ",\"metadata\":"
      Self.append(.dictionary(fields), to: &line)
    }
    line += "}\n"
    write(line)
  }

  private static func timestamp(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }

  private static func append(_ value: Logger.Metadata.Value, to line: inout String) {
    switch value {
    case .string(let text): append(string: text, to: &line)
    case .stringConvertible(let value): append(string: value.description, to: &line)
    case .array(let values):
      line += "["
      for (index, value) in values.enumerated() {
        if index > 0 { line += "," }
        append(value, to: &line)
      }
      line += "]"
    case .dictionary(let values):
      line += "{"
      for (index, key) in values.keys.sorted().enumerated() {
        if index > 0 { line += "," }
        append(string: key, to: &line)
        line += ":"
        append(values[key]!, to: &line)
      }
      line += "}"
    }
  }

  /// `text` as a JSON string literal.
  static func append(string text: String, to line: inout String) {
    line += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": line += "\\\""
      case "\\": line += "\\\\"
      case "\n": line += "\\n"
      case "\r": line += "\\r"
      case "\t": line += "\\t"
      case _ where scalar.value < 0x20:
        line += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
      default: line.unicodeScalars.append(scalar)
      }
    }
    line += "\""
  }
}
