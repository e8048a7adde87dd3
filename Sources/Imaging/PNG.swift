import CImaging

// libpng's "simplified API" (png_image) converts every PNG flavour — palette, grey,
// 16-bit, interlaced, tRNS — to RGBA8 and reports errors through its return value.
enum PNGDecoding {
    static func decode(_ bytes: [UInt8], maxPixels: Int) throws(ImagingError) -> RGBAImage {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<RGBAImage, ImagingError> in
            var image = png_image()
            image.version = cimg_png_image_version
            guard png_image_begin_read_from_memory(&image, buffer.baseAddress, buffer.count) != 0 else {
                return .failure(.undecodable(message(of: image)))
            }
            let width = Int(image.width)
            let height = Int(image.height)
            if let error = ImagingError.dimensionError(width: width, height: height, maxPixels: maxPixels) {
                png_image_free(&image)
                return .failure(error)
            }
            image.format = cimg_png_format_rgba
            // Without a gAMA/sRGB chunk libpng assumes 16-bit data is linear light and would
            // brighten it; in practice 16-bit PNGs from cameras and editors are sRGB-encoded.
            image.flags |= cimg_png_flag_16bit_srgb

            var succeeded = false
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { storage, initializedCount in
                succeeded = png_image_finish_read(&image, nil, storage.baseAddress, Int32(width * 4), nil) != 0
                initializedCount = succeeded ? width * height * 4 : 0
            }
            // finish_read frees libpng's state on success and on failure.
            guard succeeded else { return .failure(.undecodable(message(of: image))) }
            return .success(RGBAImage(width: width, height: height, pixels: pixels))
        }
        return try result.get()
    }

    static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            return text.isEmpty ? "invalid PNG data" : text
        }
    }
}

/// Encodes images as RGBA8 PNG.
public enum PNGEncoder {
    /// Encodes `image` losslessly; decoding the result gives back exactly the same pixels.
    public static func encode(_ image: RGBAImage) -> [UInt8] {
        // PNG cannot hold an empty image; a single transparent pixel is the closest valid file.
        guard image.width > 0, image.height > 0 else { return encode(RGBAImage(width: 1, height: 1)) }
        var descriptor = png_image()
        descriptor.version = cimg_png_image_version
        descriptor.width = UInt32(image.width)
        descriptor.height = UInt32(image.height)
        descriptor.format = cimg_png_format_rgba
        let stride = Int32(image.width * 4)

        // Guess a size that almost always suffices (deflate never grows data by more than
        // a few bytes per block); libpng reports the real size when the guess is short.
        let rawSize = image.height * (image.width * 4 + 1)
        var capacity = rawSize + rawSize / 64 + 4096
        for _ in 0..<2 {
            var written = capacity
            let output = [UInt8](unsafeUninitializedCapacity: capacity) { storage, initializedCount in
                let ok = image.pixels.withUnsafeBufferPointer { pixels in
                    png_image_write_to_memory(&descriptor, storage.baseAddress, &written, 0, pixels.baseAddress, stride, nil)
                }
                initializedCount = ok != 0 ? written : 0
            }
            if !output.isEmpty { return output }
            // A failed write leaves the needed size in `written` only when the buffer was too small.
            guard written > capacity else { break }
            capacity = written
            descriptor.warning_or_error = 0
        }
        fatalError("libpng failed to encode a \(image.width)×\(image.height) image: \(PNGDecoding.message(of: descriptor))")
    }
}
