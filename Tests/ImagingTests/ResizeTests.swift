import Testing
@testable import Imaging

@Suite struct ResizeTests {
    @Test func fitsLandscapeAndPortrait() {
        let landscape = RGBAImage(width: 4000, height: 3000, color: RGBAColor(red: 10, green: 20, blue: 30))
        let fitted = landscape.resized(toFit: 2048)
        #expect(fitted.width == 2048 && fitted.height == 1536)
        #expect(fitted.pixel(x: 1000, y: 700) == RGBAColor(red: 10, green: 20, blue: 30))

        let portrait = RGBAImage(width: 300, height: 400, color: .white).resized(toFit: 200)
        #expect(portrait.width == 150 && portrait.height == 200)
    }

    @Test func neverUpscales() {
        let small = gradientImage(width: 100, height: 50)
        #expect(small.resized(toFit: 2048) == small)
        #expect(small.resized(toFit: 100) == small)
    }

    @Test func checkerAveragesToMidGrey() {
        let checker = makeImage(width: 2, height: 2) { x, y in (x + y) % 2 == 0 ? .black : .white }
        let grey = checker.resized(toFit: 1).pixel(x: 0, y: 0)
        #expect((127...128).contains(grey.red))
        #expect(grey.red == grey.green && grey.green == grey.blue && grey.alpha == 255)
    }

    @Test func flatColourSurvivesExactly() {
        let color = RGBAColor(red: 12, green: 34, blue: 56, alpha: 200)
        let resized = RGBAImage(width: 37, height: 23, color: color).resized(toFit: 10)
        #expect(resized.width == 10 && resized.height == 6)
        #expect(resized == RGBAImage(width: 10, height: 6, color: color))
    }

    @Test func transparentPixelsDoNotBleedColour() {
        // Invisible green next to opaque red: the average must be half-transparent pure red.
        let image = makeImage(width: 2, height: 1) { x, _ in
            x == 0 ? RGBAColor(red: 0, green: 255, blue: 0, alpha: 0) : RGBAColor(red: 255, green: 0, blue: 0)
        }
        let pixel = image.resized(toFit: 1).pixel(x: 0, y: 0)
        #expect(pixel.red == 255 && pixel.green == 0 && pixel.blue == 0)
        #expect((127...128).contains(pixel.alpha))
    }

    @Test func fractionalAreaAveraging() {
        // 3 → 2 pixels: each output covers 1.5 inputs.
        let image = makeImage(width: 3, height: 1) { x, _ in [RGBAColor.black, .white, .black][x] }
        let resized = image.resampled(width: 2, height: 1, crop: (0, 0, 3, 1))
        #expect((84...86).contains(resized.pixel(x: 0, y: 0).red)) // (0 + 0.5 × 255) / 1.5 = 85
        #expect((84...86).contains(resized.pixel(x: 1, y: 0).red))
    }

    @Test func scaledToFillCropsTheCentre() {
        // 400×200: quarters from left are black, red, blue, black; the centred square keeps red | blue.
        let image = makeImage(width: 400, height: 200) { x, _ in
            [RGBAColor.black, RGBAColor(red: 255, green: 0, blue: 0), RGBAColor(red: 0, green: 0, blue: 255), .black][x / 100]
        }
        let filled = image.scaledToFill(width: 100, height: 100)
        #expect(filled.width == 100 && filled.height == 100)
        #expect(filled.pixel(x: 5, y: 50) == RGBAColor(red: 255, green: 0, blue: 0))
        #expect(filled.pixel(x: 94, y: 50) == RGBAColor(red: 0, green: 0, blue: 255))

        let enlarged = gradientImage(width: 4, height: 4).scaledToFill(width: 30, height: 10)
        #expect(enlarged.width == 30 && enlarged.height == 10)
    }
}
