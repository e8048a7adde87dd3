import Testing
@testable import Imaging

@Suite struct ResultCardTests {
    static let fonts = try! ShareCardFonts()

    static func content(figures: [ResultFigure]) -> ResultCardContent {
        ResultCardContent(eyebrow: "CRYPTOGRAM · SOLVED", title: "Daily puzzle", subtitle: "Tuesday 24 November 2026",
                          figures: figures, invitation: "Can you crack the same one?")
    }

    @Test func rendersASquarePNGWithItsFigures() throws {
        let figures = [ResultFigure("Time", "3:12"), ResultFigure("Mistakes", "0"), ResultFigure("Hints", "1"), ResultFigure("Streak", "4 days")]
        let image = try ImageDecoder.decode(ResultCard.render(Self.content(figures: figures), fonts: Self.fonts)).image
        #expect(image.width == 1080 && image.height == 1080 && image.isOpaque)
        // The gradient's top, the gold medal's rim, and the light panel behind the figures.
        #expect(colorDistance(image.pixel(x: 540, y: 2), ResultCard.backgroundTop) <= 3)
        #expect(colorDistance(image.pixel(x: 540 - 76, y: 170), ResultCard.gold) <= 6)
        #expect(colorDistance(image.pixel(x: Int(ResultCard.panel.x) + 12, y: Int(ResultCard.panel.midY)), RGBAColor(hex: 0xFFFDF9)) <= 3)
        // Each figure's value puts dark ink inside its tile.
        let inner = ResultCard.panel.insetBy(dx: 36, dy: 40)
        let tileWidth = (inner.width - 20 * 3) / 4
        for index in 0..<4 {
            let x0 = Int(inner.x + Double(index) * (tileWidth + 20)), y0 = Int(inner.y + 60)
            let dark = (x0..<(x0 + Int(tileWidth))).contains { x in (y0..<(y0 + 96)).contains { y in image.pixel(x: x, y: y).red < 90 } }
            #expect(dark, "figure \(index) drew no value")
        }
    }

    @Test func takesAtMostFourFiguresAndOverlongTextDoesNotCrash() throws {
        let many = (1...6).map { ResultFigure("Label \($0)", String(repeating: "9", count: 40)) }
        let content = Self.content(figures: many)
        #expect(content.figures.count == 4)
        let image = try ImageDecoder.decode(ResultCard.render(content, fonts: Self.fonts)).image
        #expect(image.width == 1080)
        let empty = try ImageDecoder.decode(ResultCard.render(Self.content(figures: []), fonts: Self.fonts)).image
        #expect(empty.height == 1080)
    }
}
