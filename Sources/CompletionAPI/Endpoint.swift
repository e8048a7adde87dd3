/// Every operation of the HTTP API, named as `openapi.json` names it (`operationId`): the route table, kept once.
///
/// The server registers its API routes from it (`RoutesBuilder.on(_:use:)`), the Swift client sends through it,
/// and `RouteTableTests` fails when the table, the routes the server registers and the document's paths and
/// methods differ in any direction. Adding a route: a case here, its method and `pattern` below, its types in
/// `Endpoint+Types.swift`, the handler in its controller's `boot`, the operation in `openapi.json`, a client method.
public enum Endpoint: String, CaseIterable, Sendable {
  case getCelebrations
  case setCelebrations
  case login
  case logout
  case logoutEverywhere
  case register
  case listSignIns
  case createToken
  case revokeSignIn
  case changePassword
  case recoverAccount
  case getRecoveryCodeStatus
  case getAccountLimits
  case regenerateRecoveryCodes
  case updateActivity
  case getActivityCard
  case listComments
  case addComment
  case uncongratulate
  case congratulate
  case reportActivity
  case getChallengesOverview
  case getChallenge
  case completeChallenge
  case joinChallenge
  case leaveChallenge
  case buyStreakFreeze
  case deleteComment
  case getCurrentCryptogram
  case createCryptogramGame
  case getCryptogramGame
  case abandonCryptogram
  case getCryptogramCard
  case continueCryptogram
  case guessCryptogramLetter
  case hintCryptogram
  case pauseCryptogram
  case restartCryptogram
  case resumeCryptogram
  case shareCryptogram
  case getCryptogramStats
  case getCryptogramDailies
  case getCryptogramDailyCard
  case getFeed
  case feedEvents
  case sendKidsEvent
  case launchKids
  case getKidsState
  case getKidsText
  case uploadKidsVideo
  case getKidsVideoFile
  case getMe
  case getMotionCatalog
  case getChoreography
  case getStagger
  case getWave
  case getWiggle
  case uploadPhoto
  case getPhoto
  case deletePhoto
  case getProjectsOverview
  case createProject
  case projectsEvents
  case exportProjects
  case importProjects
  case previewImport
  case listInboxTasks
  case orderProjects
  case deleteProject
  case updateProject
  case listProjectTasks
  case listHeadings
  case createHeading
  case updateHeading
  case deleteHeading
  case follow
  case unfollow
  case listFollowers
  case listFollowing
  case getMyProfile
  case getProfile
  case listSystems
  case createTask
  case orderTasks
  case batchTasks
  case undoTaskChange
  case tasksToday
  case tasksUpcoming
  case searchTasks
  case deleteTask
  case updateTask
  case getHealth
  case getLiveness
  case getReadiness
  case getMetrics
  case getPublicCard
  case startActivityVideo
  case getActivityVideoStatus
  case getActivityVideo
  case startCryptogramVideo
  case getCryptogramVideoStatus
  case getCryptogramVideo

  /// The HTTP method.
  public var method: String {
    switch self {
    case .getCelebrations, .listSignIns, .getRecoveryCodeStatus, .getActivityCard, .listComments, .getChallengesOverview, .getChallenge, .getCurrentCryptogram, .getCryptogramGame, .getCryptogramCard, .shareCryptogram, .getCryptogramStats, .getCryptogramDailies, .getCryptogramDailyCard, .getFeed, .feedEvents, .getKidsState, .getKidsText, .getKidsVideoFile, .getMe, .getMotionCatalog, .getChoreography, .getStagger, .getWave, .getWiggle, .getPhoto, .getProjectsOverview, .listHeadings, .projectsEvents, .exportProjects, .listInboxTasks, .listProjectTasks, .listFollowers, .listFollowing, .getMyProfile, .getProfile, .listSystems, .tasksToday, .tasksUpcoming, .searchTasks, .getHealth, .getLiveness, .getReadiness, .getMetrics, .getPublicCard, .getActivityVideoStatus, .getActivityVideo, .getCryptogramVideoStatus, .getCryptogramVideo, .getAccountLimits: "GET"
    case .login, .logout, .logoutEverywhere, .register, .createToken, .changePassword, .recoverAccount, .regenerateRecoveryCodes, .addComment, .congratulate, .reportActivity, .completeChallenge, .joinChallenge, .leaveChallenge, .buyStreakFreeze, .createCryptogramGame, .abandonCryptogram, .continueCryptogram, .guessCryptogramLetter, .hintCryptogram, .pauseCryptogram, .restartCryptogram, .resumeCryptogram, .sendKidsEvent, .launchKids, .uploadKidsVideo, .uploadPhoto, .createProject, .createHeading, .importProjects, .previewImport, .follow, .createTask, .startActivityVideo, .startCryptogramVideo, .undoTaskChange, .batchTasks: "POST"
    case .setCelebrations, .orderProjects, .orderTasks: "PUT"
    case .updateActivity, .updateProject, .updateHeading, .updateTask: "PATCH"
    case .revokeSignIn, .uncongratulate, .deleteComment, .deletePhoto, .deleteProject, .deleteHeading, .unfollow, .deleteTask: "DELETE"
    }
  }

  /// The path with `{name}` where a parameter goes, as in the OpenAPI document.
  public var pattern: String {
    switch self {
    case .getCelebrations: "/api/account/celebrations"
    case .setCelebrations: "/api/account/celebrations"
    case .login: "/api/account/login"
    case .logout: "/api/account/logout"
    case .logoutEverywhere: "/api/account/logout-everywhere"
    case .register: "/api/account/register"
    case .listSignIns: "/api/account/tokens"
    case .createToken: "/api/account/tokens"
    case .revokeSignIn: "/api/account/tokens/{id}"
    case .changePassword: "/api/account/password"
    case .recoverAccount: "/api/account/recover"
    case .getRecoveryCodeStatus, .regenerateRecoveryCodes: "/api/account/recovery-codes"
    case .getAccountLimits: "/api/account/limits"
    case .updateActivity: "/api/activities/{id}"
    case .getActivityCard: "/api/activities/{id}/card.png"
    case .listComments: "/api/activities/{id}/comments"
    case .addComment: "/api/activities/{id}/comments"
    case .uncongratulate: "/api/activities/{id}/congrats"
    case .congratulate: "/api/activities/{id}/congrats"
    case .reportActivity: "/api/activities/{id}/report"
    case .getChallengesOverview: "/api/challenges"
    case .getChallenge: "/api/challenges/{id}"
    case .completeChallenge: "/api/challenges/{id}/complete"
    case .joinChallenge: "/api/challenges/{id}/join"
    case .leaveChallenge: "/api/challenges/{id}/leave"
    case .buyStreakFreeze: "/api/challenges/streak/freezes"
    case .deleteComment: "/api/comments/{id}"
    case .getCurrentCryptogram: "/api/cryptogram/current"
    case .createCryptogramGame: "/api/cryptogram/games"
    case .getCryptogramGame: "/api/cryptogram/games/{id}"
    case .abandonCryptogram: "/api/cryptogram/games/{id}/abandon"
    case .getCryptogramCard: "/api/cryptogram/games/{id}/card.png"
    case .continueCryptogram: "/api/cryptogram/games/{id}/continue"
    case .guessCryptogramLetter: "/api/cryptogram/games/{id}/guesses"
    case .hintCryptogram: "/api/cryptogram/games/{id}/hints"
    case .pauseCryptogram: "/api/cryptogram/games/{id}/pause"
    case .restartCryptogram: "/api/cryptogram/games/{id}/restart"
    case .resumeCryptogram: "/api/cryptogram/games/{id}/resume"
    case .shareCryptogram: "/api/cryptogram/games/{id}/share"
    case .getCryptogramStats: "/api/cryptogram/stats"
    case .getCryptogramDailies: "/api/cryptogram/dailies"
    case .getCryptogramDailyCard: "/api/cryptogram/dailies/{date}/card.png"
    case .getFeed: "/api/feed"
    case .feedEvents: "/api/feed/events"
    case .sendKidsEvent: "/api/kids/events"
    case .launchKids: "/api/kids/launch"
    case .getKidsState: "/api/kids/state"
    case .getKidsText: "/api/kids/text"
    case .uploadKidsVideo: "/api/kids/videos"
    case .getKidsVideoFile: "/api/kids/videos/{id}/file"
    case .getMe: "/api/me"
    case .getMotionCatalog: "/api/motion"
    case .getChoreography: "/api/motion/choreographies/{name}"
    case .getStagger: "/api/motion/stagger"
    case .getWave: "/api/motion/wave"
    case .getWiggle: "/api/motion/wiggle"
    case .uploadPhoto: "/api/photos"
    case .getPhoto: "/api/photos/{id}"
    case .deletePhoto: "/api/photos/{id}"
    case .getProjectsOverview: "/api/projects"
    case .createProject: "/api/projects"
    case .projectsEvents: "/api/projects/events"
    case .exportProjects: "/api/projects/export"
    case .importProjects: "/api/projects/import"
    case .previewImport: "/api/projects/import/preview"
    case .listInboxTasks: "/api/projects/inbox/tasks"
    case .orderProjects: "/api/projects/order"
    case .deleteProject: "/api/projects/{id}"
    case .updateProject: "/api/projects/{id}"
    case .listProjectTasks: "/api/projects/{id}/tasks"
    case .listHeadings: "/api/projects/headings"
    case .createHeading: "/api/projects/{id}/headings"
    case .updateHeading, .deleteHeading: "/api/projects/{id}/headings/{headingId}"
    case .follow: "/api/social/follow"
    case .unfollow: "/api/social/follow/{username}"
    case .listFollowers: "/api/social/followers"
    case .listFollowing: "/api/social/following"
    case .getMyProfile: "/api/social/me"
    case .getProfile: "/api/social/people/{username}"
    case .listSystems: "/api/systems"
    case .createTask: "/api/tasks"
    case .orderTasks: "/api/tasks/order"
    case .batchTasks: "/api/tasks/batch"
    case .undoTaskChange: "/api/tasks/undo"
    case .tasksToday: "/api/tasks/today"
    case .tasksUpcoming: "/api/tasks/upcoming"
    case .searchTasks: "/api/tasks/search"
    case .deleteTask: "/api/tasks/{id}"
    case .updateTask: "/api/tasks/{id}"
    case .getHealth: "/health"
    case .getLiveness: "/health/live"
    case .getReadiness: "/health/ready"
    case .getMetrics: "/metrics"
    case .getPublicCard: "/s/{id}/card.png"
    case .startActivityVideo, .getActivityVideoStatus: "/api/activities/{id}/video"
    case .getActivityVideo: "/api/activities/{id}/video.mp4"
    case .startCryptogramVideo, .getCryptogramVideoStatus: "/api/cryptogram/games/{id}/video"
    case .getCryptogramVideo: "/api/cryptogram/games/{id}/video.mp4"
    }
  }

  /// Whether sending it twice does what sending it once does, so a request whose answer was lost can be sent
  /// again: reads, puts and deletes, the changes the server deduplicates by `Idempotency-Key` (or, for the
  /// kids' events, by their event id), and changes that set a state rather than add to one.
  public var isSafeToRetry: Bool {
    switch method {
    case "GET", "PUT", "DELETE": return true
    default: break
    }
    switch self {
    case .guessCryptogramLetter, .hintCryptogram, .pauseCryptogram, .resumeCryptogram, .continueCryptogram, .restartCryptogram,
      .abandonCryptogram, .updateTask, .updateHeading, .batchTasks, .completeChallenge, .buyStreakFreeze, .sendKidsEvent, .joinChallenge, .leaveChallenge, .follow, .congratulate,
      .startActivityVideo, .startCryptogramVideo, .undoTaskChange:
      return true
    default:
      return false
    }
  }
}
