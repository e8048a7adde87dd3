import Foundation
@testable import Imaging

/// Deterministic generator so fuzz-style tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        // SplitMix64
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var generator = SeededGenerator(seed: seed)
    return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
}

/// An image whose every pixel is defined by a closure.
func makeImage(width: Int, height: Int, _ color: (Int, Int) -> RGBAColor) -> RGBAImage {
    var image = RGBAImage(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width { image.setPixel(x: x, y: y, to: color(x, y)) }
    }
    return image
}

/// Smooth, JPEG-friendly test content.
func gradientImage(width: Int, height: Int) -> RGBAImage {
    makeImage(width: width, height: height) { x, y in
        RGBAColor(red: UInt8(x * 255 / max(1, width - 1)), green: UInt8(y * 255 / max(1, height - 1)),
                  blue: UInt8((x + y) * 127 / max(1, width + height - 2)))
    }
}

/// Mean absolute difference over the RGB channels.
func meanAbsoluteDifference(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var total = 0
    for index in 0..<a.pixels.count where index % 4 != 3 {
        total += abs(Int(a.pixels[index]) - Int(b.pixels[index]))
    }
    return Double(total) / Double(a.width * a.height * 3)
}

func colorDistance(_ a: RGBAColor, _ b: RGBAColor) -> Int {
    max(abs(Int(a.red) - Int(b.red)), abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)))
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return false }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
        if Array(haystack[start..<(start + needle.count)]) == needle { return true }
    }
    return false
}

func contains(_ haystack: [UInt8], _ text: String) -> Bool { contains(haystack, Array(text.utf8)) }

/// Runs `body` expecting an ImagingError and returns it (nil when nothing was thrown).
func imagingError<Value>(_ body: @autoclosure () throws(ImagingError) -> Value) -> ImagingError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

func isUndecodable(_ error: ImagingError?) -> Bool {
    if case .undecodable = error { return true }
    return false
}

// MARK: - EXIF

/// A TIFF structure holding only IFD0 with an Orientation tag, in the chosen byte order.
func exifSegment(orientation: UInt16, bigEndian: Bool) -> [UInt8] {
    func u16(_ value: UInt16) -> [UInt8] {
        bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
    }
    func u32(_ value: UInt32) -> [UInt8] {
        bigEndian ? u16(UInt16(value >> 16)) + u16(UInt16(value & 0xFFFF)) : u16(UInt16(value & 0xFFFF)) + u16(UInt16(value >> 16))
    }
    var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
    tiff += u16(42) + u32(8)
    tiff += u16(2)                                              // two entries
    tiff += u16(0x011A) + u16(5) + u32(1) + u32(38)             // XResolution (rational, out of line) first, to be skipped
    tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
    tiff += u32(0)                                              // no next IFD
    tiff += u32(72) + u32(1)                                    // the XResolution value at offset 38
    let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
}

/// Inserts a segment right after SOI.
func insertingSegment(_ segment: [UInt8], intoJPEG jpeg: [UInt8]) -> [UInt8] {
    Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
}

// MARK: - Hand-made PNGs (stored deflate blocks, so no encoder is involved)

enum PNGBuilder {
    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// zlib stream made of uncompressed ("stored") deflate blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            output += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            output += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return output + bigEndian(b << 16 | a)
    }

    /// Builds a PNG; `pixel(x, y)` returns the packed sample bytes of one pixel (bit depth 8 or 16).
    static func make(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, interlaced: Bool = false,
        palette: [UInt8]? = nil, transparency: [UInt8]? = nil, pixel: (Int, Int) -> [UInt8]
    ) -> [UInt8] {
        var raw: [UInt8] = []
        func appendRows(xs: StrideTo<Int>, ys: StrideTo<Int>) {
            guard !Array(xs).isEmpty else { return }
            for y in ys {
                raw.append(0) // filter: none
                for x in xs { raw += pixel(x, y) }
            }
        }
        if interlaced {
            // Adam7: (x start, y start, x step, y step) for the seven passes.
            let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            for (x0, y0, dx, dy) in passes {
                appendRows(xs: stride(from: x0, to: width, by: dx), ys: stride(from: y0, to: height, by: dy))
            }
        } else {
            appendRows(xs: stride(from: 0, to: width, by: 1), ys: stride(from: 0, to: height, by: 1))
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header)
        if let palette { png += chunk("PLTE", palette) }
        if let transparency { png += chunk("tRNS", transparency) }
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return png
    }
}
