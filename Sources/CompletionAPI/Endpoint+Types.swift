import CompletionCore

// What each operation sends and answers, as Swift types. `RouteTableTests` holds these to the schemas
// `openapi.json` names, so a type renamed on one side, or a route added without its types, fails a test that
// names the operation. Operations without a JSON body (or answer) fall to `default`.
extension Endpoint {
  /// The Swift type of the JSON body the operation takes; nil when it takes none or takes bytes (a photo, a video).
  public var requestType: Any.Type? {
    switch self {
    case .setCelebrations: CelebrationSettings.self
    case .login: LoginRequest.self
    case .register: RegisterRequest.self
    case .createToken: TokenRequest.self
    case .changePassword: ChangePasswordRequest.self
    case .recoverAccount: RecoverRequest.self
    case .regenerateRecoveryCodes: RecoveryCodesRequest.self
    case .updateActivity: ActivitySettingsRequest.self
    case .addComment: CommentRequest.self
    case .reportActivity: ReportRequest.self
    case .completeChallenge: CompleteChallengeRequest.self
    case .createCryptogramGame: NewCryptogramGameRequest.self
    case .guessCryptogramLetter: CryptogramGuessRequest.self
    case .hintCryptogram: CryptogramHintRequest.self
    case .sendKidsEvent: KidsEventRequest.self
    case .launchKids: KidsLaunchRequest.self
    case .createProject, .updateProject: ProjectRequest.self
    case .createHeading, .updateHeading: HeadingRequest.self
    case .importProjects, .previewImport: ProjectsExport.self
    case .orderProjects, .orderTasks: OrderRequest.self
    case .follow: FollowRequest.self
    case .createTask, .updateTask: TaskRequest.self
    case .batchTasks: TaskBatchRequest.self
    case .undoTaskChange: UndoRequest.self
    default: nil
    }
  }

  /// The Swift type of the JSON the operation answers with; nil when it answers no content, a file or a live stream.
  public var responseType: Any.Type? {
    switch self {
    case .getCelebrations, .setCelebrations: CelebrationSettings.self
    case .login, .getMe: UserResponse.self
    case .register: RegisterResponse.self
    case .listSignIns: SignInList.self
    case .createToken: TokenResponse.self
    case .changePassword: PasswordChangeResponse.self
    case .recoverAccount: RecoverResponse.self
    case .getRecoveryCodeStatus: RecoveryCodeStatus.self
    case .regenerateRecoveryCodes: RecoveryCodeList.self
    case .getAccountLimits: AccountLimits.self
    case .updateActivity: FeedItemView.self
    case .listComments: CommentPage.self
    case .addComment: CommentView.self
    case .congratulate, .uncongratulate: CongratsView.self
    case .reportActivity: ReportResponse.self
    case .getChallengesOverview: ChallengesOverview.self
    case .getChallenge, .joinChallenge, .leaveChallenge: ChallengeView.self
    case .completeChallenge: ChallengeCompletionView.self
    case .buyStreakFreeze: StreakFreezePurchaseView.self
    case .getCurrentCryptogram: CurrentCryptogramResponse.self
    case .createCryptogramGame, .getCryptogramGame: CryptogramGameView.self
    case .guessCryptogramLetter, .hintCryptogram, .pauseCryptogram, .resumeCryptogram, .continueCryptogram, .restartCryptogram,
      .abandonCryptogram:
      CryptogramMoveResponse.self
    case .shareCryptogram: CryptogramShareView.self
    case .getCryptogramStats: CryptogramStatsView.self
    case .getCryptogramDailies: CryptogramDailiesView.self
    case .getFeed: FeedPage.self
    case .sendKidsEvent, .launchKids, .getKidsState, .uploadKidsVideo: KidsResponse.self
    case .getKidsText: KidsTextCatalog.self
    case .getMotionCatalog: MotionCatalog.self
    case .getChoreography: ChoreographyPayload.self
    case .getStagger: StaggerPayload.self
    case .getWave: WavePayload.self
    case .getWiggle: WigglePayload.self
    case .uploadPhoto: PhotoView.self
    case .getProjectsOverview: ProjectsOverview.self
    case .createProject, .updateProject: ProjectView.self
    case .createHeading, .updateHeading, .deleteHeading: HeadingsResponse.self
    case .listHeadings: HeadingListResponse.self
    case .exportProjects: ProjectsExport.self
    case .importProjects: ProjectsImportResult.self
    case .previewImport: ProjectsImportPreview.self
    case .listInboxTasks, .listProjectTasks: TaskListResponse.self
    case .follow, .unfollow, .getMyProfile, .getProfile: ProfileView.self
    case .listFollowers, .listFollowing: PeoplePage.self
    case .listSystems: [SystemSummary].self
    case .createTask, .updateTask, .deleteTask, .undoTaskChange: TaskChangeResponse.self
    case .batchTasks: TaskBatchResponse.self
    case .tasksToday: TodayResponse.self
    case .tasksUpcoming: UpcomingResponse.self
    case .searchTasks: TaskSearchResponse.self
    case .getHealth, .getLiveness, .getReadiness: HealthResponse.self
    case .startActivityVideo, .getActivityVideoStatus, .startCryptogramVideo, .getCryptogramVideoStatus: ShareVideoView.self
    default: nil
    }
  }
}
