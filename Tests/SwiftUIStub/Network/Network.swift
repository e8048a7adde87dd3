// NOT Network.framework: the path monitor `Sources/CompletionKitUI` uses, with Apple's signatures and no
// behaviour (see ../README.md).

@_exported import Foundation
import Dispatch

/// The state of the device's network path.
public struct NWPath: Equatable, Sendable {
  public enum Status: Equatable, Hashable, Sendable {
    case satisfied, unsatisfied, requiresConnection
  }
  public let status: NWPath.Status
}

/// Watches the network path and reports each change to `pathUpdateHandler` on the monitor's queue.
final public class NWPathMonitor: @unchecked Sendable {
  public init() { fatalError() }
  final public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)?
  final public func start(queue: DispatchQueue) {}
  final public func cancel() {}
}
