/// A rectangle in canvas coordinates (pixels, origin top-left, y downwards).
public struct CanvasRect: Sendable, Equatable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width (non-negative).
    public var width: Double
    /// Height (non-negative).
    public var height: Double

    /// Creates a rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// Right edge.
    public var maxX: Double { x + width }
    /// Bottom edge.
    public var maxY: Double { y + height }
    /// Horizontal centre.
    public var midX: Double { x + width / 2 }
    /// Vertical centre.
    public var midY: Double { y + height / 2 }

    /// The rectangle shrunk by `dx` on the left and right and `dy` at the top and bottom.
    public func insetBy(dx: Double, dy: Double) -> CanvasRect {
        CanvasRect(x: x + dx, y: y + dy, width: max(0, width - 2 * dx), height: max(0, height - 2 * dy))
    }
}

/// Horizontal placement of text lines within their rectangle.
public enum TextAlignment: Sendable {
    /// Lines start at the rectangle's left edge.
    case left
    /// Lines are centred in the rectangle.
    case center
    /// Lines end at the rectangle's right edge.
    case right
}

/// An RGBA drawing surface; every operation blends "source over" with anti-aliased edges.
public struct Canvas: Sendable {
    /// The pixels drawn so far.
    public private(set) var image: RGBAImage

    /// Canvas width in pixels.
    public var width: Int { image.width }
    /// Canvas height in pixels.
    public var height: Int { image.height }

    /// Creates a canvas filled with `background`.
    public init(width: Int, height: Int, background: RGBAColor = .clear) {
        image = RGBAImage(width: width, height: height, color: background)
    }

    /// Starts from an existing image.
    public init(image: RGBAImage) {
        self.image = image
    }

    /// Blends `color` over the whole canvas.
    public mutating func fill(_ color: RGBAColor) {
        fill(CanvasRect(x: 0, y: 0, width: Double(width), height: Double(height)), color: color)
    }

    /// Blends `color` over `rect`; fractional edges get partial coverage.
    public mutating func fill(_ rect: CanvasRect, color: RGBAColor) {
        fillRoundedRect(rect, cornerRadius: 0, color: color)
    }

    /// Fills `rect` with corners rounded to `cornerRadius` (clamped to half the shorter side).
    public mutating func fillRoundedRect(_ rect: CanvasRect, cornerRadius: Double, color: RGBAColor) {
        let shape = RoundedRectShape(rect, cornerRadius: cornerRadius)
        paint(bounds: rect) { x, y in (color, shape.coverage(x: x, y: y)) }
    }

    /// Fills the ellipse inscribed in `rect`.
    public mutating func fillEllipse(in rect: CanvasRect, color: RGBAColor) {
        let shape = EllipseShape(rect)
        paint(bounds: rect) { x, y in (color, shape.coverage(x: x, y: y)) }
    }

    /// Fills a circle of `radius` around (`centerX`, `centerY`).
    public mutating func fillCircle(centerX: Double, centerY: Double, radius: Double, color: RGBAColor) {
        fillEllipse(in: CanvasRect(x: centerX - radius, y: centerY - radius, width: 2 * radius, height: 2 * radius),
                    color: color)
    }

    /// Fills `rect` (optionally with rounded corners) with a gradient running from `top` to `bottom`.
    public mutating func fillVerticalGradient(_ rect: CanvasRect, top: RGBAColor, bottom: RGBAColor, cornerRadius: Double = 0) {
        let shape = RoundedRectShape(rect, cornerRadius: cornerRadius)
        // The colour depends only on the row, so work it out once per row rather than per pixel.
        let firstRow = Int(rect.y.rounded(.down))
        let rowColors = (firstRow..<Int(rect.maxY.rounded(.up))).map { row in
            let t = rect.height > 0 ? min(max((Double(row) + 0.5 - rect.y) / rect.height, 0), 1) : 0
            return RGBAColor.interpolate(top, bottom, t)
        }
        paint(bounds: rect) { x, y in
            (rowColors[Int(y) - firstRow], shape.coverage(x: x, y: y))
        }
    }

    /// Fills a rounded rectangle whose edge fades out over `blur` pixels each side — a cheap drop shadow.
    public mutating func fillSoftRoundedRect(_ rect: CanvasRect, cornerRadius: Double, blur: Double, color: RGBAColor) {
        let shape = RoundedRectShape(rect, cornerRadius: cornerRadius)
        let feather = max(blur, 0.5)
        paint(bounds: rect.insetBy(dx: -feather, dy: -feather)) { x, y in
            let distance = shape.signedDistance(x: x, y: y)
            let t = min(max((feather - distance) / (2 * feather), 0), 1)
            return (color, t * t * (3 - 2 * t)) // smoothstep looks like a blur's falloff
        }
    }

    /// Draws `source` scaled to cover `rect` (centre-cropped to its aspect ratio), clipped to rounded corners.
    public mutating func draw(_ source: RGBAImage, in rect: CanvasRect, cornerRadius: Double = 0, opacity: Double = 1) {
        // Resample to whole pixels once, so each canvas pixel maps to exactly one image pixel.
        let left = Int(rect.x.rounded()), top = Int(rect.y.rounded())
        let right = Int(rect.maxX.rounded()), bottom = Int(rect.maxY.rounded())
        guard right > left, bottom > top, source.width > 0, source.height > 0 else { return }
        let fitted = source.scaledToFill(width: right - left, height: bottom - top)
        let pixelRect = CanvasRect(x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom - top))
        let shape = RoundedRectShape(pixelRect, cornerRadius: cornerRadius)
        let opacity = min(max(opacity, 0), 1)
        let fittedWidth = fitted.width
        fitted.pixels.withUnsafeBufferPointer { sourcePixels in
            paint(bounds: pixelRect) { x, y in
                let index = ((Int(y) - top) * fittedWidth + (Int(x) - left)) * 4
                let color = RGBAColor(red: sourcePixels[index], green: sourcePixels[index + 1],
                                      blue: sourcePixels[index + 2], alpha: sourcePixels[index + 3])
                return (color, shape.coverage(x: x, y: y) * opacity)
            }
        }
    }

    /// Visits each canvas pixel overlapping `bounds` and blends the colour/coverage the closure returns.
    /// The closure receives the pixel centre, so shapes are sampled where the pixel actually is.
    mutating func paint(bounds: CanvasRect, _ shader: (Double, Double) -> (RGBAColor, Double)) {
        let x0 = max(0, Int(bounds.x.rounded(.down))), x1 = min(width, Int(bounds.maxX.rounded(.up)))
        let y0 = max(0, Int(bounds.y.rounded(.down))), y1 = min(height, Int(bounds.maxY.rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let canvasWidth = width
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let (color, coverage) = shader(Double(x) + 0.5, Double(y) + 0.5)
                    Canvas.blend(color, coverage: coverage, into: pixels, at: (y * canvasWidth + x) * 4)
                }
            }
        }
    }

    /// Gives direct access to the pixel buffer for inner loops.
    mutating func withPixels<Result>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> Result) -> Result {
        image.pixels.withUnsafeMutableBufferPointer { body($0) }
    }

    /// Source-over compositing of a straight-alpha colour onto a straight-alpha pixel.
    @inline(__always)
    static func blend(_ color: RGBAColor, coverage: Double, into pixels: UnsafeMutableBufferPointer<UInt8>, at index: Int) {
        let sourceAlpha = Float(color.alpha) / 255 * Float(coverage)
        if sourceAlpha <= 0 { return }
        let destinationAlpha = Float(pixels[index + 3]) / 255
        if sourceAlpha >= 1 || destinationAlpha == 0 {
            pixels[index] = color.red
            pixels[index + 1] = color.green
            pixels[index + 2] = color.blue
            pixels[index + 3] = UInt8(min(sourceAlpha * 255 + 0.5, 255))
            return
        }
        let keep = destinationAlpha * (1 - sourceAlpha)
        let outputAlpha = sourceAlpha + keep
        let source = (Float(color.red), Float(color.green), Float(color.blue))
        let mixed = (
            (source.0 * sourceAlpha + Float(pixels[index]) * keep) / outputAlpha,
            (source.1 * sourceAlpha + Float(pixels[index + 1]) * keep) / outputAlpha,
            (source.2 * sourceAlpha + Float(pixels[index + 2]) * keep) / outputAlpha
        )
        pixels[index] = UInt8(min(mixed.0 + 0.5, 255))
        pixels[index + 1] = UInt8(min(mixed.1 + 0.5, 255))
        pixels[index + 2] = UInt8(min(mixed.2 + 0.5, 255))
        pixels[index + 3] = UInt8(min(outputAlpha * 255 + 0.5, 255))
    }
}

extension RGBAColor {
    /// Linear mix of two colours, `t` = 0 gives `from`, 1 gives `to`.
    static func interpolate(_ from: RGBAColor, _ to: RGBAColor, _ t: Double) -> RGBAColor {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        return RGBAColor(red: mix(from.red, to.red), green: mix(from.green, to.green),
                         blue: mix(from.blue, to.blue), alpha: mix(from.alpha, to.alpha))
    }
}

// Shapes report coverage from a signed distance to their edge: a one-pixel ramp centred on the
// edge gives smooth anti-aliasing at the cost of one distance evaluation per pixel.

struct RoundedRectShape {
    let centerX, centerY, halfWidth, halfHeight, radius: Double

    init(_ rect: CanvasRect, cornerRadius: Double) {
        centerX = rect.midX
        centerY = rect.midY
        halfWidth = rect.width / 2
        halfHeight = rect.height / 2
        radius = min(max(cornerRadius, 0), min(halfWidth, halfHeight))
    }

    /// Distance from the edge: negative inside, positive outside.
    func signedDistance(x: Double, y: Double) -> Double {
        let qx = abs(x - centerX) - (halfWidth - radius)
        let qy = abs(y - centerY) - (halfHeight - radius)
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return outside + min(max(qx, qy), 0) - radius
    }

    func coverage(x: Double, y: Double) -> Double {
        min(max(0.5 - signedDistance(x: x, y: y), 0), 1)
    }
}

struct EllipseShape {
    let centerX, centerY, radiusX, radiusY: Double

    init(_ rect: CanvasRect) {
        centerX = rect.midX
        centerY = rect.midY
        radiusX = rect.width / 2
        radiusY = rect.height / 2
    }

    func coverage(x: Double, y: Double) -> Double {
        guard radiusX > 0, radiusY > 0 else { return 0 }
        let dx = x - centerX, dy = y - centerY
        let distance: Double
        if radiusX == radiusY {
            distance = (dx * dx + dy * dy).squareRoot() - radiusX
        } else {
            // First-order distance to the implicit curve f = |p / r| - 1, i.e. f / |∇f|.
            let nx = dx / radiusX, ny = dy / radiusY
            let f = (nx * nx + ny * ny).squareRoot()
            let gx = dx / (radiusX * radiusX), gy = dy / (radiusY * radiusY)
            let gradient = (gx * gx + gy * gy).squareRoot()
            distance = gradient > 0 ? (f - 1) * f / gradient : -min(radiusX, radiusY)
        }
        return min(max(0.5 - distance, 0), 1)
    }
}
