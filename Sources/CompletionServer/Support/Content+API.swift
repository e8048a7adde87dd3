import CompletionAPI
import Vapor

// The shared API types stay free of Vapor; the server makes them `Content` here.
extension UserResponse: Content {}
extension TokenResponse: Content {}
extension SignInList: Content {}
extension RegisterResponse: Content {}
extension PasswordChangeResponse: Content {}
extension RecoverResponse: Content {}
extension RecoveryCodeStatus: Content {}
extension RecoveryCodeList: Content {}
extension CelebrationSettings: Content {}
extension HealthResponse: Content {}
extension SystemSummary: Content {}
extension APIErrorBody: Content {}
extension MotionCatalog: Content {}
extension ChoreographyPayload: Content {}
extension StaggerPayload: Content {}
extension WavePayload: Content {}
extension WigglePayload: Content {}
extension CryptogramGameView: Content {}
extension CryptogramMoveResponse: Content {}
extension CryptogramStatsView: Content {}
extension CryptogramShareView: Content {}
extension CurrentCryptogramResponse: Content {}
extension KidsTextCatalog: Content {}
extension ProjectsOverview: Content {}
extension ProjectView: Content {}
extension TaskListResponse: Content {}
extension TodayResponse: Content {}
extension UpcomingResponse: Content {}
extension TaskSearchResponse: Content {}
extension TaskChangeResponse: Content {}
extension ProjectsExport: Content {}
extension ProjectsImportResult: Content {}
extension ChallengesOverview: Content {}
extension ChallengeView: Content {}
extension PhotoView: Content {}
extension ChallengeCompletionView: Content {}
extension ProfileView: Content {}
extension PeoplePage: Content {}
extension FeedItemView: Content {}
extension FeedPage: Content {}
extension CongratsView: Content {}
extension CommentView: Content {}
extension ReportResponse: Content {}
extension CommentPage: Content {}
