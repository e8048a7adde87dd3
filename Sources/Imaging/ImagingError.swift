/// Why an image could not be decoded.
public enum ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not start with a JPEG, PNG or WebP signature.
    case unsupportedFormat
    /// The signature is right but the data is broken or truncated; the text says what the codec reported.
    case undecodable(String)
    /// The header declares more pixels than allowed; nothing was allocated for them.
    case tooLarge(width: Int, height: Int)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .unsupportedFormat: "not a JPEG, PNG or WebP image"
        case .undecodable(let reason): "image data is damaged: \(reason)"
        case .tooLarge(let width, let height): "image is too large (\(width)×\(height))"
        }
    }

    /// `.tooLarge` unless `width * height` fits the pixel budget, `.undecodable` for empty images, else `nil`.
    static func dimensionError(width: Int, height: Int, maxPixels: Int) -> ImagingError? {
        guard width > 0, height > 0 else { return .undecodable("image has no pixels (\(width)×\(height))") }
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        // libpng and libwebp take row strides as 32-bit ints, whatever the caller's budget.
        if overflow || pixelCount > maxPixels || pixelCount > Int(Int32.max) / 4 {
            return .tooLarge(width: width, height: height)
        }
        return nil
    }
}
