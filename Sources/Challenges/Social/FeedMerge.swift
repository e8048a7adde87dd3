import Foundation

/// Where an item sits in a feed: newest first, by time and then by id, so items of the same instant
/// still have one order and a cursor never skips or repeats one.
public struct FeedPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// Microseconds since 1970.
  public let at: Int64
  public let id: String

  public init(at: Int64, id: String) {
    self.at = at
    self.id = id
  }

  /// Feed order: `a < b` when `a` comes first (is newer).
  public static func < (lhs: FeedPosition, rhs: FeedPosition) -> Bool {
    lhs.at != rhs.at ? lhs.at > rhs.at : lhs.id > rhs.id
  }

  /// The opaque cursor text: "{at}_{id}".
  public var description: String { "\(at)_\(id)" }

  /// Reads a cursor made by ``description``; nil for anything else.
  public init?(cursor: String) {
    guard let separator = cursor.firstIndex(of: "_"), let at = Int64(cursor[..<separator]) else { return nil }
    let id = String(cursor[cursor.index(after: separator)...])
    guard !id.isEmpty, id.count <= 64 else { return nil }
    self.init(at: at, id: id)
  }
}

/// A person's feed is two lists read separately: entries copied into it when an ordinary account posted
/// (fan-out on write), and recent activities of the very big accounts they follow (merged when they read,
/// because copying one post into millions of feeds costs too much). One page interleaves both.
public enum FeedMerge {
  /// One page.
  public struct Page: Hashable, Sendable {
    public let items: [FeedPosition]
    /// The cursor for the next page, nil when this was the last.
    public let next: FeedPosition?
  }

  /// Merges `fannedOut` and `pulled` (each already restricted to items after `cursor` and holding up to
  /// `limit + 1` of its newest) into one page of at most `limit` items, newest first, without duplicates.
  public static func page(fannedOut: [FeedPosition], pulled: [FeedPosition], after cursor: FeedPosition?, limit: Int) -> Page {
    var seen = Set<String>()
    var merged: [FeedPosition] = []
    merged.reserveCapacity(min(fannedOut.count + pulled.count, limit + 1))
    for item in (fannedOut + pulled).sorted() {
      if let cursor, !(cursor < item) { continue }
      if seen.insert(item.id).inserted { merged.append(item) }
    }
    let limit = max(limit, 1)
    guard merged.count > limit else { return Page(items: merged, next: nil) }
    let items = Array(merged.prefix(limit))
    return Page(items: items, next: items.last)
  }
}
