/// A decoded picture, already turned upright, together with the format it came from.
public struct DecodedImage: Sendable, Equatable {
    /// The pixels, rotated/flipped according to any EXIF orientation.
    public let image: RGBAImage
    /// The container format of the source bytes.
    public let format: ImageFormat

    /// Pairs decoded pixels with their source format.
    public init(image: RGBAImage, format: ImageFormat) {
        self.image = image
        self.format = format
    }
}

/// Decodes JPEG, PNG and WebP bytes into upright RGBA8 images.
public enum ImageDecoder {
    /// Decodes `bytes`, refusing images whose header declares more than `maxPixels` pixels.
    ///
    /// `targetLongSide` is a hint that the caller will shrink the result so its long side is at most
    /// that many pixels; JPEGs may then be decoded at 1/2, 1/4 or 1/8 size (never below the hint).
    public static func decode(
        _ bytes: [UInt8],
        maxPixels: Int = 40_000_000,
        targetLongSide: Int? = nil
    ) throws(ImagingError) -> DecodedImage {
        guard let format = ImageFormat.sniff(bytes) else { throw .unsupportedFormat }
        let image: RGBAImage
        switch format {
        case .jpeg:
            let decoded = try JPEGDecoding.decode(bytes, maxPixels: maxPixels, targetLongSide: targetLongSide)
            image = decoded.transformed(by: ExifOrientation.read(fromJPEG: bytes))
        case .png:
            image = try PNGDecoding.decode(bytes, maxPixels: maxPixels)
        case .webp:
            image = try WebPDecoding.decode(bytes, maxPixels: maxPixels)
        }
        return DecodedImage(image: image, format: format)
    }
}
