import Foundation

/// Which kinds of post a feed shows.
public enum PostFilter: String, CaseIterable, Hashable, Sendable {
  case all, challenges, social

  /// Reads `?filter=`; anything else is refused.
  public init(parsing text: String) throws(ChallengeRefusal) {
    guard let filter = PostFilter(rawValue: text) else { throw .invalidFilter(String(text.prefix(40))) }
    self = filter
  }

  public var kinds: [Post.Kind] {
    switch self {
    case .all: [.challengeCompleted, .follow]
    case .challenges: [.challengeCompleted]
    case .social: [.follow]
    }
  }
}
