import Testing
@testable import Imaging

@Suite struct SniffTests {
    @Test func recognisesJPEG() {
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == .jpeg)
    }

    @Test func recognisesPNG() {
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == .png)
    }

    @Test func recognisesWebP() {
        let header = Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)
        #expect(ImageFormat.sniff(header) == .webp)
    }

    @Test func rejectsEverythingElse() {
        #expect(ImageFormat.sniff(Array("Hello, world! This is plain text.".utf8)) == nil)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8) + [1, 0, 1, 0]) == nil)
        #expect(ImageFormat.sniff(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WAVEfmt ".utf8)) == nil)
        #expect(ImageFormat.sniff([0xFF, 0xD8]) == nil) // too short for the JPEG signature
        #expect(ImageFormat.sniff([0x89, 0x50, 0x4E, 0x47]) == nil) // truncated PNG signature
        #expect(ImageFormat.sniff([]) == nil)
        #expect(ImageFormat.sniff(randomBytes(64, seed: 7)) == nil)
    }

    @Test func mimeTypes() {
        #expect(ImageFormat.jpeg.mimeType == "image/jpeg")
        #expect(ImageFormat.png.mimeType == "image/png")
        #expect(ImageFormat.webp.mimeType == "image/webp")
    }

    @Test func unknownBytesAreUnsupported() {
        #expect(imagingError(try ImageDecoder.decode(Array("not an image".utf8))) == .unsupportedFormat)
        #expect(imagingError(try ImageDecoder.decode([])) == .unsupportedFormat)
    }
}
