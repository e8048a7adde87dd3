import Foundation
import Testing
@testable import Imaging

let dejaVu = ShareCardFonts.defaultDirectory + "/DejaVuSans.ttf"

@Suite struct CanvasTests {
    static let background = RGBAColor(red: 10, green: 20, blue: 30)

    @Test func circleFillsCentreAndLeavesOutsideAlone() {
        var canvas = Canvas(width: 100, height: 100, background: Self.background)
        canvas.fillCircle(centerX: 50, centerY: 50, radius: 20.5, color: RGBAColor(red: 255, green: 128, blue: 0))
        #expect(canvas.image.pixel(x: 50, y: 50) == RGBAColor(red: 255, green: 128, blue: 0))
        #expect(canvas.image.pixel(x: 50, y: 31) == RGBAColor(red: 255, green: 128, blue: 0))
        #expect(canvas.image.pixel(x: 5, y: 5) == Self.background)
        #expect(canvas.image.pixel(x: 50, y: 75) == Self.background)
        // The edge is anti-aliased: the pixel the circle's edge runs through (centre 50.5, 29.5) is a mix.
        let edge = canvas.image.pixel(x: 50, y: 29)
        #expect(edge.red > Self.background.red && edge.red < 255)
    }

    @Test func roundedRectLeavesCornersOpen() {
        var canvas = Canvas(width: 60, height: 60, background: Self.background)
        canvas.fillRoundedRect(CanvasRect(x: 10, y: 10, width: 40, height: 40), cornerRadius: 12, color: .white)
        #expect(canvas.image.pixel(x: 10, y: 10) == Self.background) // cut corner
        #expect(canvas.image.pixel(x: 30, y: 10) == .white)           // straight edge
        #expect(canvas.image.pixel(x: 30, y: 30) == .white)
        #expect(canvas.image.pixel(x: 50, y: 30) == Self.background)  // just outside
    }

    @Test func fillRectAndWholeCanvas() {
        var canvas = Canvas(width: 20, height: 20)
        canvas.fill(RGBAColor(red: 1, green: 2, blue: 3))
        #expect(canvas.image.pixel(x: 19, y: 19) == RGBAColor(red: 1, green: 2, blue: 3))
        canvas.fill(CanvasRect(x: 5, y: 5, width: 5, height: 5), color: .white)
        #expect(canvas.image.pixel(x: 5, y: 5) == .white)
        #expect(canvas.image.pixel(x: 9, y: 9) == .white)
        #expect(canvas.image.pixel(x: 10, y: 10) == RGBAColor(red: 1, green: 2, blue: 3))
    }

    @Test func sourceOverBlending() {
        var canvas = Canvas(width: 2, height: 1, background: RGBAColor(red: 0, green: 0, blue: 255))
        canvas.fill(RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        let mixed = canvas.image.pixel(x: 0, y: 0)
        #expect(abs(Int(mixed.red) - 128) <= 1 && mixed.green == 0 && abs(Int(mixed.blue) - 127) <= 1 && mixed.alpha == 255)

        var clear = Canvas(width: 1, height: 1)
        clear.fill(RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(clear.image.pixel(x: 0, y: 0) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        clear.fill(RGBAColor(red: 0, green: 0, blue: 255, alpha: 128))
        let stacked = clear.image.pixel(x: 0, y: 0)
        #expect(abs(Int(stacked.alpha) - 192) <= 1)   // 0.5 + 0.5 × 0.5
        #expect(abs(Int(stacked.red) - 85) <= 1)      // red keeps 0.25 of 0.75 coverage
        #expect(abs(Int(stacked.blue) - 170) <= 1)
    }

    @Test func verticalGradientRunsTopToBottom() {
        var canvas = Canvas(width: 4, height: 101)
        canvas.fillVerticalGradient(CanvasRect(x: 0, y: 0, width: 4, height: 101), top: .black, bottom: .white)
        #expect(canvas.image.pixel(x: 1, y: 0).red <= 2)
        #expect(abs(Int(canvas.image.pixel(x: 1, y: 50).red) - 128) <= 2)
        #expect(canvas.image.pixel(x: 1, y: 100).red >= 253)
    }

    @Test func softRoundedRectFadesOutOverItsBlur() {
        var canvas = Canvas(width: 100, height: 100, background: .white)
        canvas.fillSoftRoundedRect(CanvasRect(x: 30, y: 30, width: 40, height: 40), cornerRadius: 8, blur: 10, color: .black)
        #expect(canvas.image.pixel(x: 50, y: 50) == .black)             // 20 px inside: solid
        let onEdge = canvas.image.pixel(x: 50, y: 30).red               // on the edge: about half
        #expect((100...155).contains(onEdge))
        #expect(canvas.image.pixel(x: 50, y: 19).red > onEdge)          // fading outwards
        #expect(canvas.image.pixel(x: 50, y: 15) == .white)             // beyond the blur: untouched
    }

    @Test func drawImageAspectFillsAndClipsCorners() {
        let photo = makeImage(width: 200, height: 100) { x, _ in x < 100 ? RGBAColor(red: 255, green: 0, blue: 0) : RGBAColor(red: 0, green: 0, blue: 255) }
        var canvas = Canvas(width: 100, height: 100, background: Self.background)
        canvas.draw(photo, in: CanvasRect(x: 20, y: 20, width: 60, height: 60), cornerRadius: 15)
        #expect(canvas.image.pixel(x: 25, y: 50) == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(canvas.image.pixel(x: 74, y: 50) == RGBAColor(red: 0, green: 0, blue: 255))
        #expect(canvas.image.pixel(x: 20, y: 20) == Self.background) // rounded away
        #expect(canvas.image.pixel(x: 10, y: 50) == Self.background) // outside the rect
    }

    @Test func drawImageHandlesFractionalAndOffCanvasRects() {
        let photo = RGBAImage(width: 10, height: 10, color: .white)
        var canvas = Canvas(width: 50, height: 50, background: .black)
        canvas.draw(photo, in: CanvasRect(x: 20.6, y: 10.4, width: 9.7, height: 9.2), cornerRadius: 2)
        canvas.draw(photo, in: CanvasRect(x: -30.5, y: 40.5, width: 60, height: 60))
        #expect(canvas.image.pixel(x: 25, y: 15) == .white)
        #expect(canvas.image.pixel(x: 20, y: 15) == .black)
        #expect(canvas.image.pixel(x: 5, y: 45) == .white)
    }
}

@Suite struct TextTests {
    @Test func helloDrawsInsideItsRectOnly() throws {
        let font = try Font(path: dejaVu)
        let before = Canvas(width: 200, height: 80, background: .white)
        var canvas = before
        let rect = CanvasRect(x: 40, y: 20, width: 100, height: 30)
        let height = canvas.drawText("Hello", font: font, pixelSize: 24, color: .black, in: rect)
        #expect(height > 0 && height <= 30)

        var changedInside = 0
        for y in 0..<80 {
            for x in 0..<200 where canvas.image.pixel(x: x, y: y) != before.image.pixel(x: x, y: y) {
                let inside = Double(x) >= rect.x && Double(x) < rect.maxX && Double(y) >= rect.y && Double(y) < rect.maxY
                #expect(inside, "pixel (\(x), \(y)) outside the text rect changed")
                changedInside += 1
            }
        }
        #expect(changedInside > 50)
    }

    @Test func textIsClippedToSmallRects() throws {
        let font = try Font(path: dejaVu)
        let before = Canvas(width: 120, height: 60, background: .white)
        var canvas = before
        // Half the line height: glyphs must be cut, not spill below.
        canvas.drawText("Jumpy g", font: font, pixelSize: 30, color: .black, in: CanvasRect(x: 10, y: 10, width: 100, height: 15))
        for y in 25..<60 {
            for x in 0..<120 { #expect(canvas.image.pixel(x: x, y: y) == .white) }
        }
    }

    @Test func longTextWrapsAndEndsWithEllipsis() throws {
        let font = try Font(path: dejaVu)
        let text = "Completed the incredibly long challenge of making perfect pancakes every morning for a month"
        let layout = font.layout(text, pixelSize: 40, maxWidth: 500, maxLines: 2)
        #expect(layout.lines.count == 2)
        #expect(layout.isTruncated)
        #expect(layout.lines.last?.hasSuffix("…") == true)
        #expect(layout.lines.first?.hasPrefix("Completed the") == true)
        for width in layout.lineWidths { #expect(width <= 500) }
        #expect(layout.height == 2 * layout.lineHeight)
    }

    @Test func shortTextIsOneUntruncatedLine() throws {
        let font = try Font(path: dejaVu)
        let layout = font.layout("Perfect Pancakes", pixelSize: 40, maxWidth: 1000, maxLines: 2)
        #expect(layout.lines == ["Perfect Pancakes"])
        #expect(!layout.isTruncated)
        #expect(abs(layout.width - font.measureWidth("Perfect Pancakes", pixelSize: 40)) < 0.001)
    }

    @Test func wrapsAtSpacesAndBreaksOverlongWords() throws {
        let font = try Font(path: dejaVu)
        let wrapped = font.layout("aaa bbb ccc", pixelSize: 20, maxWidth: font.measureWidth("aaa bbb", pixelSize: 20) + 1)
        #expect(wrapped.lines == ["aaa bbb", "ccc"])
        let broken = font.layout(String(repeating: "W", count: 40), pixelSize: 20, maxWidth: 100)
        #expect(broken.lines.count > 1)
        for width in broken.lineWidths { #expect(width <= 100) }
        #expect(broken.lines.joined() == String(repeating: "W", count: 40))
        #expect(font.layout("one\ntwo", pixelSize: 20, maxWidth: 500).lines == ["one", "two"])
    }

    @Test func kerningTightensAV() throws {
        let font = try Font(path: dejaVu)
        let pair = font.measureWidth("AV", pixelSize: 100)
        let separate = font.measureWidth("A", pixelSize: 100) + font.measureWidth("V", pixelSize: 100)
        #expect(pair < separate - 1)
    }

    @Test func missingGlyphsAreSkipped() throws {
        let font = try Font(path: dejaVu)
        #expect(font.measureWidth("🥞", pixelSize: 30) == 0)
        #expect(abs(font.measureWidth("A🥞B", pixelSize: 30) - font.measureWidth("AB", pixelSize: 30)) < 0.001)
        var canvas = Canvas(width: 200, height: 50, background: .white)
        canvas.drawText("🏃‍♀️🔥 Go ✓★", font: font, pixelSize: 24, color: .black, in: CanvasRect(x: 0, y: 0, width: 200, height: 50))
        #expect(canvas.image.pixels.contains { $0 < 128 })
    }

    @Test func missingFontFileIsReported() {
        #expect(throws: FontError.fileNotFound(path: "/nonexistent/Font.ttf")) { try Font(path: "/nonexistent/Font.ttf") }
        #expect(throws: FontError.fileNotFound(path: "/nonexistent/DejaVuSans.ttf")) { try ShareCardFonts(directory: "/nonexistent") }
    }

    @Test func notAFontIsReported() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imaging-not-a-font-\(UUID().uuidString).ttf").path
        try Data("definitely not a font".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            try Font(path: path)
        } throws: { error in
            if case .unreadable = error as? FontError { return true }
            return false
        }
    }

    @Test func fontIsSafeToShareAcrossTasks() async throws {
        let font = try Font(path: dejaVu)
        let expected = font.measureWidth("Concurrency", pixelSize: 33)
        let widths = await withTaskGroup(of: Double.self) { group in
            for index in 0..<16 {
                group.addTask {
                    var canvas = Canvas(width: 300, height: 60)
                    canvas.drawText("Thread \(index)", font: font, pixelSize: 20 + index, color: .black,
                                    in: CanvasRect(x: 0, y: 0, width: 300, height: 60))
                    return font.measureWidth("Concurrency", pixelSize: 33)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(widths.count == 16 && widths.allSatisfy { $0 == expected })
    }
}
