/// The re-encoded upload: an upright, size-limited JPEG plus a thumbnail, both free of metadata.
public struct ProcessedPhoto: Sendable, Equatable {
    /// JPEG bytes of the upright photo, long side at most `maxSide`.
    public let full: [UInt8]
    /// Width of `full` in pixels.
    public let fullWidth: Int
    /// Height of `full` in pixels.
    public let fullHeight: Int
    /// JPEG bytes of the thumbnail, long side at most `thumbnailSide`.
    public let thumbnail: [UInt8]
    /// Width of `thumbnail` in pixels.
    public let thumbnailWidth: Int
    /// Height of `thumbnail` in pixels.
    public let thumbnailHeight: Int
    /// The format the upload arrived in.
    public let sourceFormat: ImageFormat
}

/// Turns an uploaded photo into what the server stores.
public struct PhotoProcessor: Sendable {
    /// Decodes `bytes`, turns it upright, shrinks it to `maxSide` and `thumbnailSide`, and re-encodes both as JPEG.
    ///
    /// Only pixels survive re-encoding, which is what strips location, camera and other metadata
    /// (EXIF, GPS, XMP, ICC, comments) from the stored files.
    public static func process(
        _ bytes: [UInt8],
        maxPixels: Int = 40_000_000,
        maxSide: Int = 2048,
        thumbnailSide: Int = 480,
        quality: Int = 82
    ) throws(ImagingError) -> ProcessedPhoto {
        let decoded = try ImageDecoder.decode(bytes, maxPixels: maxPixels, targetLongSide: maxSide)
        let full = decoded.image.resized(toFit: maxSide)
        // Shrinking the already-shrunk image is cheaper and, with area averaging, just as sharp.
        let thumbnail = full.resized(toFit: thumbnailSide)
        return ProcessedPhoto(
            full: JPEGEncoder.encode(full, quality: quality),
            fullWidth: full.width,
            fullHeight: full.height,
            thumbnail: JPEGEncoder.encode(thumbnail, quality: quality),
            thumbnailWidth: thumbnail.width,
            thumbnailHeight: thumbnail.height,
            sourceFormat: decoded.format
        )
    }
}
