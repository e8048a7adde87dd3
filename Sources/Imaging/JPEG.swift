import CImaging

enum JPEGDecoding {
    static func decode(_ bytes: [UInt8], maxPixels: Int, targetLongSide: Int?) throws(ImagingError) -> RGBAImage {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<RGBAImage, ImagingError> in
            guard let decoder = cimg_jpeg_decoder_create() else { return .failure(.undecodable("out of memory")) }
            defer { cimg_jpeg_decoder_destroy(decoder) }
            func failure() -> Result<RGBAImage, ImagingError> {
                .failure(.undecodable(String(cString: cimg_jpeg_decoder_message(decoder))))
            }

            guard cimg_jpeg_read_header(decoder, buffer.baseAddress, UInt(buffer.count)) == 0 else { return failure() }
            let sourceWidth = Int(decoder.pointee.info.image_width)
            let sourceHeight = Int(decoder.pointee.info.image_height)
            if let error = ImagingError.dimensionError(width: sourceWidth, height: sourceHeight, maxPixels: maxPixels) {
                return .failure(error)
            }

            let denominator = scaleDenominator(longSide: max(sourceWidth, sourceHeight), targetLongSide: targetLongSide)
            guard cimg_jpeg_start(decoder, UInt32(denominator)) == 0 else { return failure() }
            let width = Int(decoder.pointee.info.output_width)
            let height = Int(decoder.pointee.info.output_height)

            var succeeded = false
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { storage, initializedCount in
                succeeded = cimg_jpeg_read_pixels(decoder, storage.baseAddress) == 0
                initializedCount = succeeded ? width * height * 4 : 0
            }
            guard succeeded else { return failure() }
            return .success(RGBAImage(width: width, height: height, pixels: pixels))
        }
        return try result.get()
    }

    /// The largest libjpeg DCT scaling (1/2, 1/4, 1/8) that still leaves at least `targetLongSide` pixels,
    /// so the final resize always shrinks and never has to invent detail.
    static func scaleDenominator(longSide: Int, targetLongSide: Int?) -> Int {
        guard let target = targetLongSide, target > 0 else { return 1 }
        for denominator in [8, 4, 2] where (longSide + denominator - 1) / denominator >= target {
            return denominator
        }
        return 1
    }
}

/// Encodes images as baseline JPEG (JFIF) with no other metadata.
public enum JPEGEncoder {
    /// Encodes `image` at `quality` (1–100), compositing any transparency onto white.
    ///
    /// The output carries only the JFIF header: no EXIF, GPS, XMP, ICC profile or comment.
    public static func encode(_ image: RGBAImage, quality: Int = 82) -> [UInt8] {
        let rgb = compositedOnWhite(image)
        return encode(samples: rgb, width: image.width, height: image.height, components: 3, quality: quality)
    }

    /// Encodes raw interleaved samples: 1 component is greyscale, 3 RGB, 4 CMYK (written as-is).
    /// Kept internal; tests use it to produce greyscale and CMYK files.
    static func encode(
        samples: [UInt8], width: Int, height: Int, components: Int, quality: Int, fullChroma: Bool = false
    ) -> [UInt8] {
        precondition([1, 3, 4].contains(components), "JPEG supports 1, 3 or 4 components")
        precondition(samples.count == width * height * components, "sample buffer size mismatch")
        // libjpeg cannot represent an empty image; a 1×1 white picture is the least surprising stand-in.
        guard width > 0, height > 0 else {
            return encode(samples: [UInt8](repeating: 255, count: components), width: 1, height: 1,
                          components: components, quality: quality)
        }
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let status = samples.withUnsafeBufferPointer { buffer in
            cimg_jpeg_encode(buffer.baseAddress, Int32(width), Int32(height), Int32(components),
                             Int32(min(max(quality, 1), 100)), fullChroma ? 1 : 0, &output, &outputSize)
        }
        // Encoding valid pixels only fails when memory runs out, which Swift treats as fatal anyway.
        guard status == 0, let output else { fatalError("libjpeg failed to encode a \(width)×\(height) image") }
        defer { cimg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }

    /// Drops alpha by blending onto white, because JPEG has no transparency and white is what viewers expect.
    static func compositedOnWhite(_ image: RGBAImage) -> [UInt8] {
        let pixelCount = image.width * image.height
        return [UInt8](unsafeUninitializedCapacity: pixelCount * 3) { rgb, initializedCount in
            image.pixels.withUnsafeBufferPointer { rgba in
                for index in 0..<pixelCount {
                    let alpha = UInt32(rgba[index * 4 + 3])
                    let inverse = 255 - alpha
                    for channel in 0..<3 {
                        let value = UInt32(rgba[index * 4 + channel]) * alpha + 255 * inverse
                        rgb[index * 3 + channel] = UInt8((value + 127) / 255)
                    }
                }
            }
            initializedCount = pixelCount * 3
        }
    }
}
