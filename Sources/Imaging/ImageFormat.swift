/// The image container formats Imaging can decode.
public enum ImageFormat: String, Sendable, CaseIterable {
    /// JPEG/JFIF/Exif.
    case jpeg
    /// PNG.
    case png
    /// WebP (lossy or lossless, still images).
    case webp

    /// Identifies the format from the file signature alone; `nil` for anything else.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        // "RIFF", a four-byte little-endian size we do not need, then "WEBP".
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    /// The format's name for people: "JPEG", "PNG", "WebP".
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }

    /// The IANA media type, e.g. `image/jpeg`.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }
}
