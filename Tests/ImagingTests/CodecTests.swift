import Testing
@testable import Imaging

@Suite struct RoundTripTests {
    @Test func pngRoundTripIsExact() throws {
        var generator = SeededGenerator(seed: 1)
        let image = makeImage(width: 37, height: 21) { _, _ in
            RGBAColor(red: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                      blue: .random(in: 0...255, using: &generator), alpha: .random(in: 1...255, using: &generator))
        }
        let encoded = PNGEncoder.encode(image)
        #expect(ImageFormat.sniff(encoded) == .png)
        let decoded = try ImageDecoder.decode(encoded)
        #expect(decoded.format == .png)
        #expect(decoded.image == image)
    }

    @Test func jpegRoundTripIsClose() throws {
        let image = gradientImage(width: 64, height: 48)
        let encoded = JPEGEncoder.encode(image, quality: 90)
        #expect(ImageFormat.sniff(encoded) == .jpeg)
        let decoded = try ImageDecoder.decode(encoded)
        #expect(decoded.format == .jpeg)
        #expect(decoded.image.width == 64 && decoded.image.height == 48)
        #expect(meanAbsoluteDifference(decoded.image, image) < 3)
        #expect(decoded.image.isOpaque)
    }

    @Test func jpegEncoderCompositesTransparencyOnWhite() throws {
        let image = RGBAImage(width: 16, height: 16, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 0))
        let decoded = try ImageDecoder.decode(JPEGEncoder.encode(image)).image
        #expect(colorDistance(decoded.pixel(x: 8, y: 8), .white) <= 2)
    }

    @Test func jpegEncoderWritesOnlyJFIF() {
        let encoded = JPEGEncoder.encode(gradientImage(width: 32, height: 32))
        #expect(Array(encoded.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE0]) // SOI then APP0 (JFIF)
        #expect(contains(encoded, "JFIF"))
        for marker: UInt8 in [0xE1, 0xE2, 0xED, 0xEE, 0xFE] { #expect(!contains(encoded, [0xFF, marker])) }
    }

    @Test func webpLosslessRoundTripIsExact() throws {
        let image = makeImage(width: 20, height: 12) { x, y in
            RGBAColor(red: UInt8(x * 12), green: UInt8(y * 20), blue: 90, alpha: UInt8(255 - x * 5))
        }
        let encoded = try #require(WebPEncoder.encode(image, lossless: true))
        #expect(ImageFormat.sniff(encoded) == .webp)
        let decoded = try ImageDecoder.decode(encoded)
        #expect(decoded.format == .webp)
        #expect(decoded.image == image)
    }

    @Test func webpLossyWithAlphaDecodes() throws {
        let image = makeImage(width: 64, height: 64) { x, y in
            RGBAColor(red: 200, green: UInt8(y * 3), blue: UInt8(x * 3), alpha: x < 32 ? 255 : 0)
        }
        let encoded = try #require(WebPEncoder.encode(image, quality: 90))
        let decoded = try ImageDecoder.decode(encoded).image
        #expect(decoded.width == 64 && decoded.height == 64)
        #expect(decoded.pixel(x: 10, y: 30).alpha == 255)
        #expect(decoded.pixel(x: 50, y: 30).alpha == 0)
        #expect(colorDistance(decoded.pixel(x: 10, y: 30), image.pixel(x: 10, y: 30)) < 20)
    }

    @Test func webpEncoderRejectsImpossibleSizes() {
        #expect(WebPEncoder.encode(RGBAImage(width: 0, height: 0)) == nil)
    }
}

@Suite struct DecodingVariantTests {
    @Test func grayscaleJPEG() throws {
        let samples = (0..<(32 * 16)).map { UInt8(($0 % 32) * 8) }
        let jpeg = JPEGEncoder.encode(samples: samples, width: 32, height: 16, components: 1, quality: 95)
        let image = try ImageDecoder.decode(jpeg).image
        #expect(image.width == 32 && image.height == 16)
        for x in [0, 10, 31] {
            let pixel = image.pixel(x: x, y: 8)
            #expect(pixel.red == pixel.green && pixel.green == pixel.blue && pixel.alpha == 255)
            #expect(abs(Int(pixel.red) - x * 8) <= 6)
        }
    }

    @Test func adobeCMYKJPEG() throws {
        // Adobe convention: stored values are inverted ink, so (255, 0, 0, 255) means "full magenta+yellow" = red.
        let inkless: [UInt8] = [255, 255, 255, 255], red: [UInt8] = [255, 0, 0, 255]
        let samples = (0..<(16 * 16)).flatMap { $0 % 16 < 8 ? red : inkless }
        let jpeg = JPEGEncoder.encode(samples: samples, width: 16, height: 16, components: 4, quality: 95)
        #expect(contains(jpeg, "Adobe"))
        let image = try ImageDecoder.decode(jpeg).image
        #expect(colorDistance(image.pixel(x: 2, y: 8), RGBAColor(red: 255, green: 0, blue: 0)) < 12)
        #expect(colorDistance(image.pixel(x: 13, y: 8), .white) < 12)
    }

    @Test func palettePNGWithTransparency() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255]
        let png = PNGBuilder.make(width: 3, height: 2, bitDepth: 8, colorType: 3, palette: palette,
                                  transparency: [255, 128]) { x, y in [UInt8((x + y) % 3)] }
        let image = try ImageDecoder.decode(png).image
        #expect(image.pixel(x: 0, y: 0) == RGBAColor(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(image.pixel(x: 1, y: 0) == RGBAColor(red: 0, green: 255, blue: 0, alpha: 128))
        #expect(image.pixel(x: 2, y: 0) == RGBAColor(red: 0, green: 0, blue: 255, alpha: 255))
        #expect(image.pixel(x: 0, y: 1) == RGBAColor(red: 0, green: 255, blue: 0, alpha: 128))
    }

    @Test func sixteenBitPNG() throws {
        // 16-bit RGB with values whose high byte is the expected 8-bit result.
        let png = PNGBuilder.make(width: 4, height: 4, bitDepth: 16, colorType: 2) { x, y in
            [UInt8(x * 60), 0x80, UInt8(y * 60), 0x00, 0xC8, 0x10]
        }
        let image = try ImageDecoder.decode(png).image
        for (x, y) in [(0, 0), (3, 1), (2, 3)] {
            let pixel = image.pixel(x: x, y: y)
            #expect(abs(Int(pixel.red) - x * 60) <= 1)
            #expect(abs(Int(pixel.green) - y * 60) <= 1)
            #expect(abs(Int(pixel.blue) - 0xC8) <= 1)
            #expect(pixel.alpha == 255)
        }
    }

    @Test func interlacedGreyAlphaPNG() throws {
        let png = PNGBuilder.make(width: 11, height: 9, bitDepth: 8, colorType: 4, interlaced: true) { x, y in
            [UInt8(x * 20 + y), UInt8(255 - y * 10)]
        }
        let image = try ImageDecoder.decode(png).image
        #expect(image.width == 11 && image.height == 9)
        for y in 0..<9 {
            for x in 0..<11 {
                let grey = UInt8(x * 20 + y)
                #expect(image.pixel(x: x, y: y) == RGBAColor(red: grey, green: grey, blue: grey, alpha: UInt8(255 - y * 10)))
            }
        }
    }

    @Test func jpegScaleDenominatorKeepsTargetResolution() {
        #expect(JPEGDecoding.scaleDenominator(longSide: 4000, targetLongSide: nil) == 1)
        #expect(JPEGDecoding.scaleDenominator(longSide: 4000, targetLongSide: 2048) == 1)
        #expect(JPEGDecoding.scaleDenominator(longSide: 4000, targetLongSide: 2000) == 2)
        #expect(JPEGDecoding.scaleDenominator(longSide: 4000, targetLongSide: 1000) == 4)
        #expect(JPEGDecoding.scaleDenominator(longSide: 4000, targetLongSide: 480) == 8)
    }

    @Test func downscaledJPEGDecodeNeverGoesBelowTheTarget() throws {
        let jpeg = JPEGEncoder.encode(gradientImage(width: 1600, height: 1000))
        let image = try ImageDecoder.decode(jpeg, targetLongSide: 390).image
        #expect(image.width == 400 && image.height == 250) // 1/4 scale: the smallest that keeps 390 px
        let full = try ImageDecoder.decode(jpeg).image
        #expect(full.width == 1600 && full.height == 1000)
    }
}

@Suite struct DamagedInputTests {
    static let jpeg = JPEGEncoder.encode(gradientImage(width: 48, height: 40))
    static let png = PNGEncoder.encode(gradientImage(width: 48, height: 40))
    static let webp = WebPEncoder.encode(gradientImage(width: 48, height: 40), quality: 80)!
    static let webpLossless = WebPEncoder.encode(gradientImage(width: 48, height: 40), lossless: true)!

    @Test(arguments: [jpeg, png, webp, webpLossless])
    func truncatedFilesAreUndecodable(file: [UInt8]) {
        #expect((try? ImageDecoder.decode(file)) != nil) // the intact file decodes
        for fraction in [0.05, 0.25, 0.5, 0.75, 0.9] {
            let cut = Array(file.prefix(max(12, Int(Double(file.count) * fraction))))
            let error = imagingError(try ImageDecoder.decode(cut))
            #expect(isUndecodable(error), "cut at \(cut.count) of \(file.count) bytes gave \(String(describing: error))")
        }
    }

    @Test func pngMissingOnlyItsEndChunkStillDecodes() throws {
        // Every pixel is present; like browsers, libpng does not insist on IEND.
        let image = try ImageDecoder.decode(Array(Self.png.dropLast(6))).image
        #expect(image == gradientImage(width: 48, height: 40))
    }

    @Test func jpegMissingOnlyItsEndMarkerIsUndecodable() {
        let error = imagingError(try ImageDecoder.decode(Array(Self.jpeg.dropLast(2))))
        #expect(isUndecodable(error))
    }

    @Test(arguments: 0..<20)
    func randomBytesAfterValidSignatures(seed: Int) {
        let noise = randomBytes(4096, seed: UInt64(seed))
        let riffHeader = Array("RIFF".utf8) + [0xF8, 0x0F, 0, 0] + Array("WEBP".utf8)
        let signatures: [[UInt8]] = [[0xFF, 0xD8, 0xFF], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], riffHeader]
        for signature in signatures {
            let error = imagingError(try ImageDecoder.decode(signature + noise))
            #expect(isUndecodable(error), "signature \(signature.prefix(4)) seed \(seed): \(String(describing: error))")
        }
    }

    /// Single-byte corruption anywhere must either decode or fail cleanly — never crash or hang.
    @Test(arguments: [jpeg, png, webp, webpLossless])
    func corruptedBytesNeverCrash(file: [UInt8]) {
        var generator = SeededGenerator(seed: UInt64(file.count))
        for _ in 0..<150 {
            var damaged = file
            let index = Int.random(in: 0..<damaged.count, using: &generator)
            damaged[index] = UInt8.random(in: 0...255, using: &generator)
            do {
                let decoded = try ImageDecoder.decode(damaged, maxPixels: 1_000_000)
                #expect(decoded.image.pixels.count == decoded.image.width * decoded.image.height * 4)
            } catch {
                switch error {
                case .undecodable, .unsupportedFormat, .tooLarge: break
                }
            }
        }
    }

    @Test func pngHeaderClaimingHugeDimensionsIsTooLarge() {
        // IHDR says 100000×100000 RGBA (40 GB of pixels); the data is one tiny row.
        let png = PNGBuilder.make(width: 1, height: 1, bitDepth: 8, colorType: 6) { _, _ in [1, 2, 3, 4] }
        var patched = png
        let width = PNGBuilder.bigEndian(100_000)
        let ihdrData = 16 // signature (8) + length (4) + "IHDR" (4)
        patched.replaceSubrange(ihdrData..<(ihdrData + 4), with: width)
        patched.replaceSubrange((ihdrData + 4)..<(ihdrData + 8), with: width)
        let crc = PNGBuilder.crc32(Array(patched[12..<(ihdrData + 13)]))
        patched.replaceSubrange((ihdrData + 13)..<(ihdrData + 17), with: PNGBuilder.bigEndian(crc))
        #expect(imagingError(try ImageDecoder.decode(patched)) == .tooLarge(width: 100_000, height: 100_000))
    }

    @Test func jpegHeaderClaimingHugeDimensionsIsTooLarge() throws {
        var jpeg = Self.jpeg
        // Baseline SOF0: FF C0, length (2), precision (1), height (2), width (2).
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFD, 0xE8, 0xFD, 0xE8]) // 65000 × 65000
        #expect(imagingError(try ImageDecoder.decode(jpeg)) == .tooLarge(width: 65000, height: 65000))
    }

    @Test func webpHeaderClaimingHugeDimensionsIsTooLarge() {
        // VP8L header: signature 0x2F then 14 bits width-1, 14 bits height-1, alpha bit, 3 version bits.
        var webp = Self.webpLossless
        #expect(Array(webp[12..<16]) == Array("VP8L".utf8))
        let bits: UInt32 = 0x3FFF | 0x3FFF << 14 | 1 << 28
        webp.replaceSubrange(21..<25, with: [UInt8(bits & 0xFF), UInt8((bits >> 8) & 0xFF),
                                             UInt8((bits >> 16) & 0xFF), UInt8(bits >> 24)])
        #expect(imagingError(try ImageDecoder.decode(webp)) == .tooLarge(width: 16384, height: 16384))
    }

    @Test func pixelBudgetApplies() {
        for file in [Self.jpeg, Self.png, Self.webp] {
            #expect(imagingError(try ImageDecoder.decode(file, maxPixels: 48 * 40 - 1)) == .tooLarge(width: 48, height: 40))
            #expect((try? ImageDecoder.decode(file, maxPixels: 48 * 40)) != nil)
        }
    }
}
