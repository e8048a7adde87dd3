/// An 8-bit RGBA bitmap with straight (not premultiplied) alpha, stored row by row, top row first.
public struct RGBAImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha for each pixel.
    public internal(set) var pixels: [UInt8]

    /// Wraps existing RGBA8 data; `pixels.count` must equal `width * height * 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "image dimensions must not be negative")
        precondition(pixels.count == width * height * 4, "pixel buffer must hold width * height * 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Creates an image filled with a single colour.
    public init(width: Int, height: Int, color: RGBAColor = .clear) {
        precondition(width >= 0 && height >= 0, "image dimensions must not be negative")
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        if color != .clear {
            pixels.withUnsafeMutableBufferPointer { buffer in
                for index in stride(from: 0, to: buffer.count, by: 4) {
                    buffer[index] = color.red
                    buffer[index + 1] = color.green
                    buffer[index + 2] = color.blue
                    buffer[index + 3] = color.alpha
                }
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The colour at column `x`, row `y` (both zero-based, must be inside the image).
    public func pixel(x: Int, y: Int) -> RGBAColor {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel coordinate out of bounds")
        let index = (y * width + x) * 4
        return RGBAColor(red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2], alpha: pixels[index + 3])
    }

    /// Replaces the colour at column `x`, row `y`.
    public mutating func setPixel(x: Int, y: Int, to color: RGBAColor) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel coordinate out of bounds")
        let index = (y * width + x) * 4
        pixels[index] = color.red
        pixels[index + 1] = color.green
        pixels[index + 2] = color.blue
        pixels[index + 3] = color.alpha
    }

    /// True when every pixel is fully opaque.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            var index = 3
            while index < buffer.count {
                if buffer[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }
}

/// An 8-bit sRGB colour with straight alpha.
public struct RGBAColor: Sendable, Hashable {
    /// Red channel, 0–255.
    public var red: UInt8
    /// Green channel, 0–255.
    public var green: UInt8
    /// Blue channel, 0–255.
    public var blue: UInt8
    /// Opacity, 0 (transparent) – 255 (opaque).
    public var alpha: UInt8

    /// Creates a colour from its four channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// Creates a colour from `0xRRGGBB`, e.g. `RGBAColor(hex: 0x667EEA)`.
    public init(hex: UInt32, alpha: UInt8 = 255) {
        self.init(red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF), alpha: alpha)
    }

    /// The same colour with its alpha multiplied by `opacity` (0–1).
    public func withOpacity(_ opacity: Double) -> RGBAColor {
        let clamped = min(max(opacity, 0), 1)
        return RGBAColor(red: red, green: green, blue: blue, alpha: UInt8((Double(alpha) * clamped).rounded()))
    }

    /// Opaque white.
    public static let white = RGBAColor(red: 255, green: 255, blue: 255)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    /// Fully transparent black.
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
}
