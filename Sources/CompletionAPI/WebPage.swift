/// The web client's pages: HTML the server sends for a browser, named as `openapi.json` names them. With
/// ``Endpoint`` they are every route the server has.
public enum WebPage: String, CaseIterable, Sendable {
  case getHomePage
  case getApiPage
  case getChallengesPage
  case getCryptogramPage
  case getCryptogramStatsPage
  case getKidsPage
  case getMotionPage
  case getProjectsPage
  case getProjectsLabPage
  case getSharePage

  /// The path, with `{name}` where a parameter goes (every page is a GET).
  public var pattern: String {
    switch self {
    case .getHomePage: "/"
    case .getApiPage: "/api"
    case .getChallengesPage: "/challenges"
    case .getCryptogramPage: "/cryptogram"
    case .getCryptogramStatsPage: "/cryptogram/stats"
    case .getKidsPage: "/kids"
    case .getMotionPage: "/motion"
    case .getProjectsPage: "/projects"
    case .getProjectsLabPage: "/projects/lab"
    case .getSharePage: "/s/{id}"
    }
  }
}
