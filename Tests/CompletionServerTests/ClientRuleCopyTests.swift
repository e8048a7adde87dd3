import CompletionAPI
import CompletionCore
import Foundation
import KidsGame
import Projects
import Testing

@testable import CompletionServer

/// A rule lives once, in Swift: the Waldabenteuer page gets its timings, movement, chest and tier rules and
/// lines from the server, and these tests fail if a copy of one comes back into `Public/js`.
@Suite("No copies of Swift rules in the web client")
struct ClientRuleCopyTests {
  /// The kids' page scripts, by file name.
  static func kidsScripts() throws -> [(name: String, text: String)] { try scripts(of: "kids") }

  /// A page's scripts: its entry `js/<page>.js` and every file of its folder `js/<page>/`.
  static func scripts(of page: String) throws -> [(name: String, text: String)] {
    let folder = ServerOptions.defaultPublicDirectory().appendingPathComponent("js", isDirectory: true)
    let parts = folder.appendingPathComponent(page, isDirectory: true)
    let files = [folder.appendingPathComponent("\(page).js")]
      + (try FileManager.default.contentsOfDirectory(at: parts, includingPropertiesForKeys: nil)).filter { $0.pathExtension == "js" }
    return try files.map { ("\(page)/\($0.lastPathComponent)", try String(contentsOf: $0, encoding: .utf8)) }
  }

  static func matches(_ pattern: String, in text: String) -> [String] {
    let regex = try! NSRegularExpression(pattern: pattern)
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).compactMap { Range($0.range, in: text).map { String(text[$0]) } }
  }

  /// A page's HTML file in `Public/`.
  static func html(_ page: String) throws -> String {
    try String(contentsOf: ServerOptions.defaultPublicDirectory().appendingPathComponent("\(page).html"), encoding: .utf8)
  }

  @Test("The Projects page takes the ring's motion and geometry, labels, limits, percentages and the celebration's hold from the server")
  func projectScriptsCopyNoRule() async throws {
    let folder = ServerOptions.defaultPublicDirectory().appendingPathComponent("js", isDirectory: true)
    let ring = ("progress-ring.js", try String(contentsOf: folder.appendingPathComponent("progress-ring.js"), encoding: .utf8))
    // The Projects page and its ring test bench (`/projects/lab`).
    let scripts = try Self.scripts(of: "projects") + Self.scripts(of: "projects-lab") + [ring]
    #expect(scripts.count >= 5)
    for (name, text) in scripts {
      // The ring's 0.4 s and curve and 0.6/0.56 geometry, the 100 ms debounce, the hold, percentages, the
      // colour and priority names and the field limits are all Swift's.
      for copy in [
        #"(?<![\d.])0?\.4\b"#, #"\b400\b"#, #"\bcubic-bezier\b"#, #"HOLD"#, #"\*\s*100\)"#, #"Math\.round\([^)]*100"#,
        #"completed\s*/\s*\w*total"#, #"(?<![\d.])0?\.(56|6)\b"#, #"INNER_RING|PRIORITIES|COLOR_LABELS"#, #""(Medium|Purple|Orange)""#,
        #"maxlength:\s*"?\d"#, #"maxLength\s*=\s*"?\d"#, #"toUpperCase\(\)"#,
      ] {
        #expect(Self.matches(copy, in: text).isEmpty, "\(name) copies a rule: \(copy)")
      }
    }
    // The fields' lengths are set from the overview's limits once it answers.
    #expect(Self.matches(#"maxlength="\d+""#, in: try Self.html("projects")).isEmpty, "projects.html copies a limit")
    try await withTestApp { client in
      let overview = try client.decode(ProjectsOverview.self, from: try await client.send(.GET, "/api/projects"))
      #expect(overview.ring.duration == ProgressAnimator.defaultDuration)
      #expect(overview.ring.samples.count > 10 && overview.ring.samples.last == 1)
      #expect(overview.ring.geometry == RingGeometryView(outerStroke: 1, innerRing: 0.6, pie: 0.56))
      #expect(overview.ring.geometry?.innerRing == ProjectRing.Geometry.innerRing && overview.ring.geometry?.pie == ProjectRing.Geometry.pie)
      #expect(overview.limits == ProjectLimitsView(name: 120, title: 500, notes: 10_000, projects: 500, tasksPerImport: 5_000, search: 200, firstTaskPage: 100, tasksPerBatch: 200, defaultHeadingName: ProjectLimits.defaultHeadingName))
      #expect(overview.priorities?.map(\.label) == ["None", "Low", "Medium", "High"])
      #expect(overview.priorities?.map(\.value) == TaskPriority.allCases.map(\.rawValue))
      #expect(overview.colorLabels?.map(\.value) == overview.colors && overview.colorLabels?.first?.label == "Red")
    }
  }

  @Test("The Challenges page takes points, types, limits, photo types and size, paging and the celebration's timing from the server")
  func challengeScriptCopiesNoRule() async throws {
    let scripts = try Self.scripts(of: "challenges")
    #expect(scripts.count >= 3)
    // Points by type, the 3 s dismissal, the 500/300 character limits, the 2048 px photo side, the type names,
    // the photo types and refusals and the feed's page size are Swift's.
    for (name, text) in scripts {
      for copy in [
        #"\b750\b"#, #"(?<![*/] )(?<![*/])\b1000\b"#, #"\b3000\b"#, #"\b2048\b"#, #"(?<![\d.])(?<!>= )500\b"#, #"(?<![\d.])300\b"#,
        #"daily\s*:\s*100"#, #""(Daily|Weekly|Monthly|Special)""#, #"\bTYPES\b|PHOTO_TYPES|REFUSED_PHOTO|FEED_PAGE_SIZE"#,
        #"\[\s*"image/(jpeg|png|webp)""#, #"JPEG, PNG|PNG or WebP"#, #""photo_(too_large|unsupported|unreadable|too_many_pixels)""#, #"\blimit:\s*(String\()?\w"#,
      ] {
        #expect(Self.matches(copy, in: text).isEmpty, "\(name) copies a rule: \(copy)")
      }
    }
    // The photo pickers take the server's types once the overview answers.
    #expect(Self.matches(#"accept="image/|PNG or WebP"#, in: try Self.html("challenges")).isEmpty, "challenges.html copies the photo types")
    try await withTestApp { client in
      let overview = try client.decode(ChallengesOverview.self, from: try await client.send(.GET, "/api/challenges"))
      #expect(overview.storyLimit == 500 && overview.commentLimit == 300 && overview.photoMaxSide == 2048)
      // What the page reads instead of keeping its own copy.
      #expect(overview.types.map(\.type) == ["daily", "weekly", "monthly", "special"] && overview.types.map(\.label).first == "Daily")
      #expect(overview.types.map(\.points) == [100, 500, 1000, 750])
      #expect(overview.photoTypes == ["image/jpeg", "image/png", "image/webp"])
      #expect(overview.refusedPhotoCodes == ["photo_too_large", "photo_unsupported", "photo_unreadable", "photo_too_many_pixels"])
      #expect(overview.photoFormats == ["JPEG", "PNG", "WebP"])
    }
  }

  @Test("The kids' catalog carries every timing and choreography the page plays")
  func catalogCarriesTheRules() async throws {
    try await withTestApp { client in
      let catalog = try client.decode(KidsTextCatalog.self, from: try await client.send(.GET, "/api/kids/text"))
      #expect(catalog.timing == KidsTimingView(
        heartbeatSeconds: KidsClientTiming.heartbeatSeconds, videoTickSeconds: KidsClientTiming.videoTickSeconds,
        loadingTickSeconds: KidsClientTiming.loadingTickSeconds))
      #expect(catalog.timing.typewriterSecondsPerCharacter == 0.035 && catalog.timing.parentNoticeSeconds == 2.5)
      #expect(catalog.timing.maxNameLength == GameMachine.maxNameLength && catalog.timing.maxTitleLength == GameMachine.maxTitleLength)
      #expect(KidsClientTiming.heartbeatSeconds < KidsController.maxHeartbeatGap, "a heartbeat on time always counts whole")
      #expect(Set(catalog.motion.keys) == Set(KidsChoreography.all.map(\.name)))
      #expect(catalog.motion["kidsCelebration"] == ChoreographyPayload(KidsChoreography.celebration, preference: .full))
      #expect(catalog.motion["kidsDieTumble"]?.steps.first?.duration == DiceRound.tumbleSeconds)
      #expect(catalog.tiers["fiveMinutes"]?["cost"] == VideoTier.fiveMinutes.cost)
      #expect(catalog.lines["noInternet"] == "Wir brauchen Internet.")
      #expect(catalog.maxTracePoints == NumberChoiceRound.maxPointsPerStroke)
    }
  }

  @Test("The parent area's name length, number of children and video formats come from the catalog, not the page")
  func parentAreaLimitsComeFromTheServer() async throws {
    let parent = try Self.kidsScripts().filter { $0.name.hasPrefix("kids/parent") }
    #expect(!parent.isEmpty)
    for (name, text) in parent {
      for copy in [#"bis \d+ Zeichen"#, #"höchstens (ein|zwei|drei|vier|fünf|sechs|sieben|acht|\d+) Kinder"#, #""video/"#, #"MP4, WebM"#] {
        #expect(Self.matches(copy, in: text).isEmpty, "\(name) copies a rule: \(copy)")
      }
    }
    try await withTestApp { client in
      let catalog = try client.decode(KidsTextCatalog.self, from: try await client.send(.GET, "/api/kids/text"))
      #expect(catalog.lines["invalidName"] == "Bitte gib einen Namen mit 1 bis \(GameMachine.maxNameLength) Zeichen ein.")
      #expect(GameMachine.maxPlayers == 6 && catalog.lines["tooManyPlayers"] == "Es können höchstens sechs Kinder mitspielen.")
      #expect(catalog.videoTypes == ["video/mp4", "video/webm", "video/ogg", "video/quicktime"])
      #expect(Set(catalog.videoTypes.map { String($0.dropFirst("video/".count)) }) == Set(KidsController.videoExtensions.keys))
      #expect(catalog.lines["videoFormats"] == "MP4, WebM, Ogg oder QuickTime")
      #expect(catalog.lines["unsupportedVideoType"] == "Bitte wähle ein Video im Format MP4, WebM, Ogg oder QuickTime.")
    }
  }

  @Test("The home page's username and password fields take the server's limits (GET /api/account/limits)")
  func accountLimitsComeFromTheServer() async throws {
    #expect(Self.matches(#"(min|max)length="\d+""#, in: try Self.html("index")).isEmpty, "index.html copies a limit")
    let home = try String(contentsOf: ServerOptions.defaultPublicDirectory().appendingPathComponent("js/home.js"), encoding: .utf8)
    #expect(Self.matches(#"(min|max)Length\s*=\s*\d"#, in: home).isEmpty, "home.js copies a limit")
    #expect(home.contains("/api/account/limits"))
    try await withTestApp { client in
      let limits = try client.decode(AccountLimits.self, from: try await client.send(.GET, "/api/account/limits"))
      #expect(limits == AccountController.limits)
      #expect(limits.usernameMinLength == 3 && limits.usernameMaxLength == 32 && limits.passwordMinLength == PasswordPolicy.minCharacters)
      // The limits are the ones the server holds a new account to.
      let long = String(repeating: "a", count: limits.usernameMaxLength + 1)
      let refused = try await client.send(.POST, "/api/account/register", json: RegisterRequest(username: long, password: "correct horse battery"))
      let code = try client.decode(APIErrorBody.self, from: refused).code
      #expect(code == "invalid_username")
    }
  }

  @Test("The kids' scripts name every timing from the catalog: no literal durations, intervals or rule constants")
  func noTimingOrRuleCopies() throws {
    let scripts = try Self.kidsScripts()
    #expect(scripts.count >= 5)
    for (name, text) in scripts {
      // Constants that would copy a Swift timing or rule.
      #expect(Self.matches(#"const [A-Z_]*(_MS|SECONDS|MARKS|COST|SLOTS|MILESTONE_STEP|TIER|POINTS)\b"#, in: text).isEmpty, "\(name)")
      // A literal animation duration (every duration comes from a choreography).
      #expect(Self.matches(#"duration:\s*\d"#, in: text).isEmpty, "\(name)")
      // The report intervals and idle marks, the tier costs and the chest threshold.
      for copy in [
        #"\b15000\b"#, #"\b4000\b"#, #"\b5000\b"#, #"\b250\b"#, #"\[\s*10\s*,\s*(15|20)"#, #"\?\s*10\s*:\s*20"#, #"coins\s*>=\s*\d"#,
        #"\|\|\s*10\)"#, #"\b2500\b"#, #"\b38\)"#, #"maxlength:\s*"\d+""#,
      ] {
        #expect(Self.matches(copy, in: text).isEmpty, "\(name) copies a rule: \(copy)")
      }
    }
  }

  @Test("Every page's script builds on the shared library (js/lib/), and no script is longer than one sitting's read (700 lines)")
  func pagesShareOneLibrary() throws {
    let publicFolder = ServerOptions.defaultPublicDirectory()
    let pages = try FileManager.default.contentsOfDirectory(at: publicFolder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "html" }
    #expect(pages.count >= 8)
    for page in pages {
      let html = try String(contentsOf: page, encoding: .utf8)
      let entries = Self.matches(#"src="/js/[a-z-]+\.js""#, in: html).map { $0.dropFirst(#"src="/js/"#.count).dropLast(#".js""#.count) }
      #expect(!entries.isEmpty, "\(page.lastPathComponent) loads no page script")
      for entry in entries {
        let texts = try Self.scripts(ofEntry: String(entry))
        #expect(texts.contains { $0.text.contains("/lib/") }, "\(entry).js and its folder import nothing from js/lib/")
      }
    }
    let all = FileManager.default.enumerator(at: publicFolder.appendingPathComponent("js"), includingPropertiesForKeys: nil)
    while let file = all?.nextObject() as? URL {
      guard file.pathExtension == "js" else { continue }
      let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
      #expect(lines <= 700, "\(file.lastPathComponent) has \(lines) lines")
    }
    // One element builder: no page keeps its own h().
    let copies = try Self.allScripts().filter { !$0.name.hasPrefix("lib/") && !Self.matches(#"function h\("#, in: $0.text).isEmpty }
    #expect(copies.isEmpty, "h() defined again in \(copies.map(\.name))")
  }

  /// An entry script and, when it has one, the folder of its parts.
  static func scripts(ofEntry entry: String) throws -> [(name: String, text: String)] {
    let folder = ServerOptions.defaultPublicDirectory().appendingPathComponent("js", isDirectory: true)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder.appendingPathComponent(entry).path, isDirectory: &isFolder), isFolder.boolValue {
      return try scripts(of: entry)
    }
    return [("\(entry).js", try String(contentsOf: folder.appendingPathComponent("\(entry).js"), encoding: .utf8))]
  }

  /// Every script under `Public/js`, named by its path there.
  static func allScripts() throws -> [(name: String, text: String)] {
    let folder = ServerOptions.defaultPublicDirectory().appendingPathComponent("js", isDirectory: true)
    var found: [(name: String, text: String)] = []
    let all = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = all?.nextObject() as? URL {
      guard file.pathExtension == "js" else { continue }
      let name = file.path.replacingOccurrences(of: folder.path + "/", with: "")
      found.append((name, try String(contentsOf: file, encoding: .utf8)))
    }
    return found
  }

  @Test("No line of Bennie's or the narrator's is written into the page: every spoken line comes from Swift")
  func noNarrationCopies() throws {
    let scripts = try Self.kidsScripts()
    for (_, line) in Narration.allTemplates {
      let words = line.template.replacingOccurrences(of: "[X]", with: "").replacingOccurrences(of: "[Y]", with: "")
      guard words.count >= 12 else { continue }
      for (name, text) in scripts {
        #expect(!text.contains(line.template), "\(name) copies \"\(line.template)\"")
      }
    }
  }
}
