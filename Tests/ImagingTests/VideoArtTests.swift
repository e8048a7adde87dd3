import Testing

@testable import Imaging

@Suite struct VideoArtTests {
    static let fonts = try! ShareCardFonts()

    static func content(title: String = "Perfect Pancakes", story: String = "Fluffy on the first try.", hasPhoto: Bool = true)
        -> ChallengeVideoContent {
        ChallengeVideoContent(title: title, points: 1000, storyLine: story, personName: "Anna", challengeType: "Monthly", hasPhoto: hasPhoto)
    }

    /// Every layer lies inside the frame, and its PNG is exactly its frame's size unless it is a small full-frame
    /// picture the encoder scales (the backdrop's shade).
    static func checkLayers(_ art: VideoArt) throws {
        let frame = CanvasRect(x: 0, y: 0, width: Double(VideoArtist.width), height: Double(VideoArtist.height))
        for layer in art.layers {
            #expect(layer.frame.x >= 0 && layer.frame.y >= 0 && layer.frame.maxX <= frame.maxX && layer.frame.maxY <= frame.maxY,
                    "\(layer.step) at \(layer.frame)")
            let image = try ImageDecoder.decode(layer.png).image
            let fullFrame = layer.frame == frame
            #expect(fullFrame || (image.width == Int(layer.frame.width) && image.height == Int(layer.frame.height)), "\(layer.step)")
        }
    }

    @Test func challengeLayersAreNamedForTheCelebrationsSteps() throws {
        let art = VideoArtist.challenge(Self.content(), fonts: Self.fonts)
        #expect(art.background == nil)
        #expect(Set(art.layers.map(\.step)) == ["backdrop", "popper", "title", "message", "points"])
        try Self.checkLayers(art)
        // The caption keeps clear of the bottom 320 pixels, where platforms put their own buttons and captions.
        let lowest = try #require(art.layers.filter { $0.frame.height < Double(VideoArtist.height) }.map(\.frame.maxY).max())
        #expect(lowest <= Double(VideoArtist.height - 320))
    }

    @Test func longTitlesAndNoStoryStillFitAndNoPhotoBringsABackground() throws {
        let art = VideoArtist.challenge(
            Self.content(title: String(repeating: "Extraordinarily Long Challenge Name ", count: 6), story: "", hasPhoto: false), fonts: Self.fonts)
        #expect(!art.layers.contains { $0.step == "message" })
        #expect(try ImageDecoder.decode(try #require(art.background)).image.width == 9)
        try Self.checkLayers(art)
        let title = try #require(art.layers.first { $0.step == "title" })
        let points = try #require(art.layers.first { $0.step == "points" })
        #expect(title.frame.maxY <= points.frame.y)
    }

    @Test func cryptogramLayersAreSpoilerFreeAndNamedForTheFinishsSteps() throws {
        let content = ResultCardContent(eyebrow: "CRYPTOGRAM · SOLVED", title: "Daily puzzle", subtitle: "Tuesday 24 November 2026",
                                        figures: [ResultFigure("Time", "3:12"), ResultFigure("Mistakes", "1")], invitation: "Can you crack the same one?")
        let art = VideoArtist.cryptogram(content, fonts: Self.fonts)
        #expect(art.background != nil)
        #expect(Set(art.layers.map(\.step)) == ["overlay", "trophy", "quote", "stats", "next"])
        try Self.checkLayers(art)
    }
}
