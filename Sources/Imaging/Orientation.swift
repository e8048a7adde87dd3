/// The EXIF Orientation tag (1–8): how the stored pixels must be turned to appear upright.
enum ExifOrientation: Int, Sendable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// True for the four orientations whose upright picture swaps width and height.
    var swapsDimensions: Bool { rawValue >= 5 }

    /// Finds the Orientation tag in a JPEG's APP1 "Exif" segment; `.up` when absent or malformed.
    static func read(fromJPEG bytes: [UInt8]) -> ExifOrientation {
        var offset = 2 // after SOI
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return .up }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue } // fill byte before a marker
            // Start of scan or end of image: metadata segments only come before these.
            if marker == 0xDA || marker == 0xD9 { return .up }
            // Markers without a length field.
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { offset += 2; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return .up }
            let payload = bytes[(offset + 4)..<(offset + 2 + length)]
            if marker == 0xE1, payload.starts(with: [0x45, 0x78, 0x69, 0x66, 0, 0]) { // "Exif\0\0"
                return orientation(inTIFF: Array(payload.dropFirst(6))) ?? .up
            }
            offset += 2 + length
        }
        return .up
    }

    /// Reads tag 0x0112 from IFD0 of a TIFF structure in either byte order.
    static func orientation(inTIFF tiff: [UInt8]) -> ExifOrientation? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): bigEndian = true  // "MM", Motorola
        case (0x49, 0x49): bigEndian = false // "II", Intel
        default: return nil
        }
        func uint16(at index: Int) -> Int? {
            guard index >= 0, index + 2 <= tiff.count else { return nil }
            let (first, second) = (Int(tiff[index]), Int(tiff[index + 1]))
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        func uint32(at index: Int) -> Int? {
            guard let high = uint16(at: bigEndian ? index : index + 2),
                  let low = uint16(at: bigEndian ? index + 2 : index) else { return nil }
            return high << 16 | low
        }
        guard uint16(at: 2) == 42, let ifdOffset = uint32(at: 4), let entryCount = uint16(at: ifdOffset) else { return nil }
        for entry in 0..<entryCount {
            let entryOffset = ifdOffset + 2 + entry * 12
            guard let tag = uint16(at: entryOffset), let type = uint16(at: entryOffset + 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // SHORT as the spec says; a few writers use LONG. Either way the value sits inline.
            let value: Int?
            switch type {
            case 3: value = uint16(at: entryOffset + 8)
            case 4: value = uint32(at: entryOffset + 8)
            default: value = nil
            }
            return value.flatMap(ExifOrientation.init(rawValue:))
        }
        return nil
    }
}

extension RGBAImage {
    /// The upright picture for pixels stored with the given EXIF orientation.
    func transformed(by orientation: ExifOrientation) -> RGBAImage {
        if orientation == .up { return self }
        let (w, h) = (width, height)
        let (outWidth, outHeight) = orientation.swapsDimensions ? (h, w) : (w, h)
        // The source pixel for output (x, y) is start + x * stepX + y * stepY,
        // which turns every orientation into the same two nested loops.
        let (start, stepX, stepY): (Int, Int, Int)
        switch orientation {
        case .up: (start, stepX, stepY) = (0, 1, w)
        case .upMirrored: (start, stepX, stepY) = (w - 1, -1, w)
        case .down: (start, stepX, stepY) = ((h - 1) * w + w - 1, -1, -w)
        case .downMirrored: (start, stepX, stepY) = ((h - 1) * w, 1, -w)
        case .leftMirrored: (start, stepX, stepY) = (0, w, 1)
        case .right: (start, stepX, stepY) = ((h - 1) * w, -w, 1)
        case .rightMirrored: (start, stepX, stepY) = ((h - 1) * w + w - 1, -w, -1)
        case .left: (start, stepX, stepY) = (w - 1, w, -1)
        }
        let count = w * h * 4
        let output = [UInt8](unsafeUninitializedCapacity: count) { destination, initializedCount in
            pixels.withUnsafeBytes { source in
                let target = UnsafeMutableRawBufferPointer(destination)
                var outIndex = 0
                for y in 0..<outHeight {
                    var sourceIndex = start + y * stepY
                    for _ in 0..<outWidth {
                        let pixel = source.loadUnaligned(fromByteOffset: sourceIndex * 4, as: UInt32.self)
                        target.storeBytes(of: pixel, toByteOffset: outIndex * 4, as: UInt32.self)
                        sourceIndex += stepX
                        outIndex += 1
                    }
                }
            }
            initializedCount = count
        }
        return RGBAImage(width: outWidth, height: outHeight, pixels: output)
    }
}
