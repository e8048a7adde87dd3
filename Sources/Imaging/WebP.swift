import CImaging

/// libwebp, opened at first use (see CImagingWebP.h): nil where the library is not installed.
enum WebPLibrary {
    static let api: ck_webp_api? = {
        let api = ck_webp_load()
        return api.loaded != 0 ? api : nil
    }()
}

enum WebPDecoding {
    static func decode(_ bytes: [UInt8], maxPixels: Int) throws(ImagingError) -> RGBAImage {
        guard let api = WebPLibrary.api else { throw .unsupportedFormat }
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<RGBAImage, ImagingError> in
            var features = ck_webp_features()
            let status = api.get_features(buffer.baseAddress, buffer.count, &features, CK_WEBP_DECODER_ABI_VERSION)
            guard status == CK_WEBP_STATUS_OK else {
                return .failure(.undecodable("WebP header unreadable (status \(status))"))
            }
            guard features.has_animation == 0 else { return .failure(.undecodable("animated WebP is not supported")) }
            let width = Int(features.width)
            let height = Int(features.height)
            if let error = ImagingError.dimensionError(width: width, height: height, maxPixels: maxPixels) {
                return .failure(error)
            }
            var succeeded = false
            let count = width * height * 4
            // RGBA output (what *DecodeRGBA* produces) is straight alpha, matching RGBAImage.
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { storage, initializedCount in
                succeeded = api.decode_rgba_into(buffer.baseAddress, buffer.count, storage.baseAddress, count, Int32(width * 4)) != nil
                initializedCount = succeeded ? count : 0
            }
            guard succeeded else { return .failure(.undecodable("WebP bitstream is damaged or truncated")) }
            return .success(RGBAImage(width: width, height: height, pixels: pixels))
        }
        return try result.get()
    }
}

/// Encodes images as WebP (lossy or lossless, alpha preserved).
public enum WebPEncoder {
    /// Whether WebP can be read and written here (libwebp is installed).
    public static var isAvailable: Bool { WebPLibrary.api != nil }

    /// Encodes `image`; `quality` (0–100) applies to lossy mode only. Returns `nil` for empty images,
    /// for sides over 16383 pixels (the format's limit), and where libwebp is not installed.
    public static func encode(_ image: RGBAImage, quality: Double = 80, lossless: Bool = false) -> [UInt8]? {
        guard let api = WebPLibrary.api else { return nil }
        guard (1...16383).contains(image.width), (1...16383).contains(image.height) else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        let size = image.pixels.withUnsafeBufferPointer { pixels in
            let stride = Int32(image.width * 4)
            return lossless
                ? api.encode_lossless_rgba(pixels.baseAddress, Int32(image.width), Int32(image.height), stride, &output)
                : api.encode_rgba(pixels.baseAddress, Int32(image.width), Int32(image.height), stride,
                                  Float(min(max(quality, 0), 100)), &output)
        }
        guard size > 0, let output else { return nil }
        defer { api.free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
