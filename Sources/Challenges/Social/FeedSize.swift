/// A feed's size: entries past ``cap`` are trimmed off the request's path, once a feed holds
/// ``cap`` + ``slack`` of them.
public enum FeedSize {
  public static let cap = 800
  public static let slack = 100
}
