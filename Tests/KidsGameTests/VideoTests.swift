import Foundation
import Testing

@testable import KidsGame

@Suite("Video clock and YouTube links")
struct VideoTests {
  @Test("Tiers: 10 coins = 5 min, 20 coins = 10 + 2 min")
  func tiers() {
    #expect(VideoTier.fiveMinutes.cost == 10 && VideoTier.fiveMinutes.minutes == 5)
    #expect(VideoTier.twelveMinutes.cost == 20 && VideoTier.twelveMinutes.minutes == 12)
    #expect(VideoTier.twelveMinutes.bonusMinutes == 2)
  }

  @Test("Remaining time, the arc and the hand")
  func remaining() {
    let timer = VideoTimer(grantedMinutes: 5, startedAt: t0)
    #expect(timer.remaining(at: t0) == 300)
    #expect(timer.remaining(at: at(90)) == 210)
    #expect(timer.remaining(at: at(1_000)) == 0)
    #expect(timer.remaining(at: at(-10)) == 300)
    #expect(timer.fractionRemaining(at: at(150)) == 0.5)
    #expect(timer.handAngle(at: at(75)) == 90)
    #expect(timer.minutesLeft(at: at(1)) == 5)
    #expect(timer.label(at: at(30)) == "Noch 5 Minuten")
    #expect(timer.label(at: at(250)) == "Noch 1 Minute")
    #expect(timer.label(at: at(300)) == "Zeit ist um!")
  }

  @Test("The one-minute warning comes once, time up comes once")
  func warningOnce() {
    var timer = VideoTimer(grantedMinutes: 5, startedAt: t0)
    #expect(timer.tick(at: at(100)).isEmpty)
    #expect(timer.tick(at: at(240)) == [.oneMinuteLeft])
    #expect(timer.tick(at: at(250)).isEmpty)
    #expect(timer.tick(at: at(260)).isEmpty)
    #expect(timer.tick(at: at(300)) == [.timeUp])
    #expect(timer.tick(at: at(400)).isEmpty)
    #expect(timer.isFinished)
    // A clock that jumps straight to the end only says time up.
    var late = VideoTimer(grantedMinutes: 12, startedAt: t0)
    #expect(late.tick(at: at(12 * 60 + 5)) == [.timeUp])
  }

  @Test("The clock pauses in the background")
  func pause() {
    var timer = VideoTimer(grantedMinutes: 5, startedAt: t0)
    timer.pause(at: at(60))
    #expect(timer.remaining(at: at(500)) == 240)
    timer.resume(at: at(500))
    #expect(timer.remaining(at: at(560)) == 180)
    #expect(timer.tick(at: at(500 + 180)) == [.oneMinuteLeft])
    #expect(timer.tick(at: at(500 + 240)) == [.timeUp])
  }

  @Test("In the machine: background pauses, foreground resumes, the warning is said once")
  func machineClock() {
    var game = Game(coins: 10)
    game.toVideoPlaying()
    let start = game.now
    #expect(game.send(.appBackgrounded(at: start.addingTimeInterval(60))) == [.pauseVideoTimer, .save])
    #expect(game.send(.appForegrounded(at: start.addingTimeInterval(600))) == [.resumeVideoTimer])
    #expect(game.send(.videoTick(at: start.addingTimeInterval(600 + 170))).isEmpty)
    #expect(game.send(.videoTick(at: start.addingTimeInterval(600 + 180))).contains(.videoOneMinuteWarning))
    #expect(game.send(.videoTick(at: start.addingTimeInterval(600 + 200))).isEmpty)
    #expect(game.state == .videoPlaying)
    #expect(game.send(.videoTick(at: start.addingTimeInterval(600 + 240))).contains(.videoTimeUp(holdSeconds: 3)))
    #expect(game.state == .home)
  }

  static let valid: [(String, String)] = [
    ("https://www.youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"),
    ("https://youtube.com/watch?v=dQw4w9WgXcQ&t=42s", "dQw4w9WgXcQ"),
    ("http://m.youtube.com/watch?feature=share&v=a_b-C1d2E3f", "a_b-C1d2E3f"),
    ("youtube.com/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"),
    ("  https://youtu.be/dQw4w9WgXcQ\n", "dQw4w9WgXcQ"),
    ("https://youtu.be/dQw4w9WgXcQ?si=abc", "dQw4w9WgXcQ"),
    ("youtu.be/dQw4w9WgXcQ", "dQw4w9WgXcQ"),
    ("https://www.youtube.com/embed/dQw4w9WgXcQ", "dQw4w9WgXcQ"),
    ("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0", "dQw4w9WgXcQ"),
    ("HTTPS://WWW.YOUTUBE.COM/watch?v=dQw4w9WgXcQ", "dQw4w9WgXcQ"),
  ]

  @Test("The three link forms give the 11-character ID")
  func validLinks() throws {
    for (link, id) in Self.valid {
      #expect(try YouTubeLink(parsing: link).videoID == id, "\(link)")
      #expect(YouTubeLink.parse(link) == .success(try YouTubeLink(parsing: link)))
    }
  }

  static let invalid = [
    "", "   ", "dQw4w9WgXcQ", "hello",
    "https://www.youtube.com/watch?v=dQw4w9WgXc",  // 10 characters
    "https://www.youtube.com/watch?v=dQw4w9WgXcQQ",  // 12 characters
    "https://www.youtube.com/watch?v=dQw4w9WgX!Q",
    "https://www.youtube.com/watch?list=PL123",
    "https://www.youtube.com/shorts/dQw4w9WgXcQ",
    "https://www.youtube.com/embed/",
    "https://youtu.be/",
    "https://youtu.be/dQw4w9WgXcQ/extra",
    "https://vimeo.com/123456",
    "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
    "https://notyoutube.com/watch?v=dQw4w9WgXcQ",
    "ftp://youtube.com/watch?v=dQw4w9WgXcQ",
    "javascript:alert(1)",
    "https://user@youtube.com/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ extra",
    "https://youtu.be/dQw4w9WgXcä",
  ]

  @Test("Anything else is \"Ungültiger YouTube Link\"")
  func invalidLinks() {
    for link in Self.invalid {
      #expect(throws: YouTubeLinkError.invalid, "\(link)") { try YouTubeLink(parsing: link) }
    }
    #expect(YouTubeLinkError.invalid.message == "Ungültiger YouTube Link")
  }

  @Test("Canonical, embed and thumbnail addresses")
  func addresses() throws {
    let link = try YouTubeLink(parsing: "https://youtu.be/dQw4w9WgXcQ")
    #expect(link.watchURL == "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    #expect(link.embedURL.hasPrefix("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"))
    #expect(link.thumbnailURL == ApprovedVideo(id: "dQw4w9WgXcQ", title: "", addedAt: t0).thumbnailURL)
  }
}
