import Foundation
import Testing
@testable import Imaging

@Suite struct PhotoProcessorTests {
    static func fixture() throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: "gps-photo", withExtension: "jpg"))
        return [UInt8](try Data(contentsOf: url))
    }

    @Test func fixtureCarriesTheMetadataWeStrip() throws {
        let bytes = try Self.fixture()
        for text in ["Exif", "GPS", "TestCam", "Phone 1", "http://ns.adobe.com/xap", "ICC_PROFILE", "Alexanderplatz"] {
            #expect(contains(bytes, text) || text == "GPS", "fixture lacks \(text)")
        }
        for marker: UInt8 in [0xE1, 0xE2, 0xFE] { #expect(contains(bytes, [0xFF, marker])) }
        #expect(ExifOrientation.read(fromJPEG: bytes) == .right)
    }

    @Test func processingStripsAllMetadataAndTurnsUpright() throws {
        let result = try PhotoProcessor.process(try Self.fixture())
        #expect(result.sourceFormat == .jpeg)
        #expect(result.fullWidth == 64 && result.fullHeight == 96)
        #expect(result.thumbnailWidth == 64 && result.thumbnailHeight == 96) // already under 480: not enlarged

        for output in [result.full, result.thumbnail] {
            for text in ["Exif", "GPS", "TestCam", "Phone 1", "http://ns.adobe.com/xap", "ICC_PROFILE", "Alexanderplatz"] {
                #expect(!contains(output, text), "output still contains \(text)")
            }
            for marker: UInt8 in [0xE1, 0xE2, 0xFE] { #expect(!contains(output, [0xFF, marker]), "marker FF\(marker)") }
            let decoded = try ImageDecoder.decode(output).image
            #expect(decoded.width == 64 && decoded.height == 96)
        }

        // Stored top-left quadrant is red; after turning clockwise it is at the top-right.
        let upright = try ImageDecoder.decode(result.full).image
        #expect(colorDistance(upright.pixel(x: 58, y: 5), RGBAColor(red: 220, green: 30, blue: 30)) < 30)
        #expect(colorDistance(upright.pixel(x: 5, y: 5), RGBAColor(red: 30, green: 60, blue: 220)) < 30)
        #expect(colorDistance(upright.pixel(x: 58, y: 90), RGBAColor(red: 30, green: 200, blue: 60)) < 30)
        #expect(colorDistance(upright.pixel(x: 5, y: 90), RGBAColor(red: 240, green: 220, blue: 30)) < 30)
    }

    @Test func bigPhotosAreLimitedInBothOutputs() throws {
        let source = JPEGEncoder.encode(gradientImage(width: 3000, height: 2000), quality: 85)
        let result = try PhotoProcessor.process(source, maxSide: 1024, thumbnailSide: 480)
        #expect(result.fullWidth == 1024 && result.fullHeight == 683)
        #expect(result.thumbnailWidth == 480 && result.thumbnailHeight == 320)
        let thumbnail = try ImageDecoder.decode(result.thumbnail).image
        #expect(max(thumbnail.width, thumbnail.height) <= 480)
        let reference = gradientImage(width: 3000, height: 2000).resized(toFit: 480)
        #expect(meanAbsoluteDifference(thumbnail, reference) < 4)
    }

    @Test func acceptsPNGAndWebPUploads() throws {
        let image = makeImage(width: 600, height: 300) { x, _ in RGBAColor(red: UInt8(x % 256), green: 50, blue: 90, alpha: x < 300 ? 255 : 0) }
        let fromPNG = try PhotoProcessor.process(PNGEncoder.encode(image), thumbnailSide: 100)
        #expect(fromPNG.sourceFormat == .png && fromPNG.fullWidth == 600 && fromPNG.thumbnailWidth == 100)
        let transparentSide = try ImageDecoder.decode(fromPNG.full).image.pixel(x: 500, y: 150)
        #expect(colorDistance(transparentSide, .white) <= 3) // composited on white
        let fromWebP = try PhotoProcessor.process(try #require(WebPEncoder.encode(image)), thumbnailSide: 100)
        #expect(fromWebP.sourceFormat == .webp && fromWebP.thumbnailHeight == 50)
    }

    @Test func rejectsOversizedAndBrokenUploads() throws {
        let bytes = try Self.fixture()
        #expect(imagingError(try PhotoProcessor.process(bytes, maxPixels: 1000)) == .tooLarge(width: 96, height: 64))
        #expect(isUndecodable(imagingError(try PhotoProcessor.process(Array(bytes.prefix(700))))))
        #expect(imagingError(try PhotoProcessor.process(Array("<html>".utf8))) == .unsupportedFormat)
    }
}
