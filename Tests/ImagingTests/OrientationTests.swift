import Testing
@testable import Imaging

@Suite struct OrientationTests {
    // Stored 2×3 image:   A B
    //                     C D
    //                     E F
    static let a = RGBAColor(red: 255, green: 0, blue: 0)
    static let b = RGBAColor(red: 0, green: 255, blue: 0)
    static let c = RGBAColor(red: 0, green: 0, blue: 255)
    static let d = RGBAColor(red: 255, green: 255, blue: 255)
    static let e = RGBAColor(red: 0, green: 0, blue: 0)
    static let f = RGBAColor(red: 255, green: 255, blue: 0)
    static let stored = RGBAImage(width: 2, height: 3, pixels: [a, b, c, d, e, f].flatMap {
        [$0.red, $0.green, $0.blue, $0.alpha]
    })

    /// Decodes a 4:4:4, quality-100 JPEG of `stored` carrying the given orientation.
    func decodeStored(orientation: UInt16, bigEndian: Bool) throws -> RGBAImage {
        let rgb = JPEGEncoder.compositedOnWhite(Self.stored)
        let jpeg = JPEGEncoder.encode(samples: rgb, width: 2, height: 3, components: 3, quality: 100, fullChroma: true)
        let tagged = insertingSegment(exifSegment(orientation: orientation, bigEndian: bigEndian), intoJPEG: jpeg)
        return try ImageDecoder.decode(tagged).image
    }

    func expectPixels(_ image: RGBAImage, _ expected: [[RGBAColor]], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(image.height == expected.count && image.width == expected[0].count, sourceLocation: sourceLocation)
        guard image.height == expected.count, image.width == expected[0].count else { return }
        for (y, row) in expected.enumerated() {
            for (x, color) in row.enumerated() {
                // JPEG rounding on a 2×3 picture stays well within this of the saturated inputs.
                #expect(colorDistance(image.pixel(x: x, y: y), color) < 40, "pixel (\(x), \(y))", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: [true, false])
    func orientation6RotatesClockwise(bigEndian: Bool) throws {
        let image = try decodeStored(orientation: 6, bigEndian: bigEndian)
        #expect(image.width == 3 && image.height == 2)
        expectPixels(image, [[Self.e, Self.c, Self.a],
                             [Self.f, Self.d, Self.b]])
    }

    @Test(arguments: [true, false])
    func orientation3RotatesHalfTurn(bigEndian: Bool) throws {
        let image = try decodeStored(orientation: 3, bigEndian: bigEndian)
        #expect(image.width == 2 && image.height == 3)
        expectPixels(image, [[Self.f, Self.e],
                             [Self.d, Self.c],
                             [Self.b, Self.a]])
    }

    @Test(arguments: [true, false])
    func orientation8RotatesCounterClockwise(bigEndian: Bool) throws {
        let image = try decodeStored(orientation: 8, bigEndian: bigEndian)
        #expect(image.width == 3 && image.height == 2)
        expectPixels(image, [[Self.b, Self.d, Self.f],
                             [Self.a, Self.c, Self.e]])
    }

    @Test func missingOrInvalidOrientationLeavesPixelsAlone() throws {
        expectPixels(try decodeStored(orientation: 1, bigEndian: false), [[Self.a, Self.b], [Self.c, Self.d], [Self.e, Self.f]])
        expectPixels(try decodeStored(orientation: 9, bigEndian: true), [[Self.a, Self.b], [Self.c, Self.d], [Self.e, Self.f]])
        #expect(ExifOrientation.read(fromJPEG: JPEGEncoder.encode(Self.stored)) == .up)
    }

    @Test func readsOrientationInBothByteOrders() {
        let jpeg = JPEGEncoder.encode(Self.stored)
        for value in 1...8 {
            for bigEndian in [true, false] {
                let tagged = insertingSegment(exifSegment(orientation: UInt16(value), bigEndian: bigEndian), intoJPEG: jpeg)
                #expect(ExifOrientation.read(fromJPEG: tagged).rawValue == value)
            }
        }
    }

    @Test func malformedExifIsIgnored() {
        let jpeg = JPEGEncoder.encode(Self.stored)
        var segment = exifSegment(orientation: 6, bigEndian: true)
        segment[14] = 0x00 // break the TIFF IFD offset so it points past the data
        segment[15] = 0xFF
        #expect(ExifOrientation.read(fromJPEG: insertingSegment(segment, intoJPEG: jpeg)) == .up)
        let truncated = Array(insertingSegment(exifSegment(orientation: 6, bigEndian: true), intoJPEG: jpeg).prefix(20))
        #expect(ExifOrientation.read(fromJPEG: truncated) == .up)
    }

    /// All eight transforms, checked exactly (no JPEG loss) against the EXIF definitions.
    @Test func allTransformsMatchTheirDefinitions() {
        let expected: [ExifOrientation: [[RGBAColor]]] = [
            .up: [[Self.a, Self.b], [Self.c, Self.d], [Self.e, Self.f]],
            .upMirrored: [[Self.b, Self.a], [Self.d, Self.c], [Self.f, Self.e]],
            .down: [[Self.f, Self.e], [Self.d, Self.c], [Self.b, Self.a]],
            .downMirrored: [[Self.e, Self.f], [Self.c, Self.d], [Self.a, Self.b]],
            .leftMirrored: [[Self.a, Self.c, Self.e], [Self.b, Self.d, Self.f]],
            .right: [[Self.e, Self.c, Self.a], [Self.f, Self.d, Self.b]],
            .rightMirrored: [[Self.f, Self.d, Self.b], [Self.e, Self.c, Self.a]],
            .left: [[Self.b, Self.d, Self.f], [Self.a, Self.c, Self.e]],
        ]
        for orientation in ExifOrientation.allCases {
            let rows = expected[orientation]!
            let transformed = Self.stored.transformed(by: orientation)
            let expectedImage = RGBAImage(width: rows[0].count, height: rows.count,
                                          pixels: rows.flatMap { $0 }.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] })
            #expect(transformed == expectedImage, "orientation \(orientation.rawValue)")
        }
    }
}
