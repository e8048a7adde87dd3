/// What a share card shows.
public struct ShareCardContent: Sendable, Equatable {
    /// The completion photo; `nil` draws a placeholder pattern instead.
    public var photo: RGBAImage?
    /// The challenge title, e.g. "Perfect Pancakes".
    public var title: String
    /// Points earned for the completion.
    public var points: Int
    /// Display name of the person who completed the challenge.
    public var personName: String
    /// The challenge cadence, e.g. "Daily", "Weekly", "Monthly" or "Special".
    public var challengeType: String
    /// The product name shown at the bottom.
    public var brand: String

    /// Creates the content for one card.
    public init(photo: RGBAImage?, title: String, points: Int, personName: String, challengeType: String,
                brand: String = "CompletionKit") {
        self.photo = photo
        self.title = title
        self.points = points
        self.personName = personName
        self.challengeType = challengeType
        self.brand = brand
    }
}

/// The two DejaVu fonts a share card is set in.
public struct ShareCardFonts: Sendable {
    /// Where Debian's fonts-dejavu-core package installs the fonts.
    public static let defaultDirectory = "/usr/share/fonts/truetype/dejavu"

    /// DejaVu Sans, for secondary lines.
    public let regular: Font
    /// DejaVu Sans Bold, for the title, badge and points.
    public let bold: Font

    /// Loads DejaVuSans.ttf and DejaVuSans-Bold.ttf from `directory`; throws `FontError.fileNotFound` naming the missing file.
    public init(directory: String = ShareCardFonts.defaultDirectory) throws(FontError) {
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        regular = try Font(path: base + "DejaVuSans.ttf")
        bold = try Font(path: base + "DejaVuSans-Bold.ttf")
    }

    /// Uses fonts that are already loaded.
    public init(regular: Font, bold: Font) {
        self.regular = regular
        self.bold = bold
    }
}

/// Renders the 1080×1350 (4:5, the portrait size social feeds show uncropped) image people share after a completion.
public enum ShareCard {
    /// Card width in pixels.
    public static let width = 1080
    /// Card height in pixels.
    public static let height = 1350

    // Layout, in card pixels. Internal so tests can sample known regions.
    static let margin = 60.0
    static let photoRect = CanvasRect(x: 60, y: 60, width: 960, height: 860)
    static let photoCornerRadius = 44.0
    static let badgeInset = 28.0
    static let badgeHeight = 68.0
    static let badgeColor = RGBAColor(hex: 0x22C55E)
    static let gold = RGBAColor(hex: 0xFFD700)
    static let backgroundTop = RGBAColor(hex: 0x667EEA)
    static let backgroundBottom = RGBAColor(hex: 0x764BA2)

    /// Draws the card and returns it PNG-encoded.
    public static func render(_ content: ShareCardContent, fonts: ShareCardFonts) -> [UInt8] {
        PNGEncoder.encode(renderImage(content, fonts: fonts))
    }

    /// Draws the card and returns its pixels.
    public static func renderImage(_ content: ShareCardContent, fonts: ShareCardFonts) -> RGBAImage {
        var canvas = Canvas(width: width, height: height, background: backgroundTop)
        let full = CanvasRect(x: 0, y: 0, width: Double(width), height: Double(height))
        canvas.fillVerticalGradient(full, top: backgroundTop, bottom: backgroundBottom)
        drawBackgroundDecoration(on: &canvas)

        drawSoftShadow(on: &canvas, for: photoRect, cornerRadius: photoCornerRadius)
        if let photo = content.photo, photo.width > 0, photo.height > 0 {
            canvas.draw(photo, in: photoRect, cornerRadius: photoCornerRadius)
        } else {
            drawPlaceholder(on: &canvas, in: photoRect, fonts: fonts)
        }
        drawBadge(on: &canvas, fonts: fonts)
        drawCaption(on: &canvas, content: content, fonts: fonts)
        return canvas.image
    }

    private static func drawBackgroundDecoration(on canvas: inout Canvas) {
        // Two large, faint discs break up the flat gradient without competing with the photo.
        canvas.fillCircle(centerX: 1010, centerY: 1240, radius: 260, color: RGBAColor.white.withOpacity(0.06))
        canvas.fillCircle(centerX: 40, centerY: 1010, radius: 170, color: RGBAColor.white.withOpacity(0.05))
    }

    private static func drawSoftShadow(on canvas: inout Canvas, for rect: CanvasRect, cornerRadius: Double) {
        canvas.fillSoftRoundedRect(rect.offsetBy(dy: 12), cornerRadius: cornerRadius, blur: 18,
                                   color: RGBAColor(hex: 0x2A1550).withOpacity(0.35))
    }

    private static func drawPlaceholder(on canvas: inout Canvas, in rect: CanvasRect, fonts: ShareCardFonts) {
        canvas.fillVerticalGradient(rect, top: RGBAColor(hex: 0x8C9EF0), bottom: RGBAColor(hex: 0x9A78C4),
                                    cornerRadius: photoCornerRadius)
        // Diagonal stripes, clipped to the rounded frame, read as "no photo" rather than "broken".
        let frame = RoundedRectShape(rect, cornerRadius: photoCornerRadius)
        let stripe = RGBAColor.white.withOpacity(0.08)
        canvas.paint(bounds: rect) { x, y in
            let phase = (x + y).truncatingRemainder(dividingBy: 64)
            let onStripe = min(max(min(phase, 32 - phase) + 0.5, 0), 1) // anti-aliased 32 px band
            return (stripe, frame.coverage(x: x, y: y) * (phase < 32 ? onStripe : 0))
        }
        canvas.fillCircle(centerX: rect.midX, centerY: rect.midY, radius: 120, color: RGBAColor.white.withOpacity(0.22))
        let starBox = CanvasRect(x: rect.midX - 120, y: rect.midY - 75, width: 240, height: 150)
        canvas.drawText("★", font: fonts.bold, pixelSize: 124, color: RGBAColor.white.withOpacity(0.9),
                        in: starBox, alignment: .center, maxLines: 1, lineSpacing: 1.2)
    }

    /// The badge rectangle for a given label width: pinned to the photo's top-right corner.
    static func badgeRect(labelWidth: Double) -> CanvasRect {
        let width = labelWidth + 2 * 28
        return CanvasRect(x: photoRect.maxX - badgeInset - width, y: photoRect.y + badgeInset,
                          width: width, height: badgeHeight)
    }

    private static func drawBadge(on canvas: inout Canvas, fonts: ShareCardFonts) {
        let label = "✓ Challenge Complete"
        let pixelSize = 32
        let labelWidth = fonts.bold.measureWidth(label, pixelSize: pixelSize)
        let rect = badgeRect(labelWidth: labelWidth)
        canvas.fillSoftRoundedRect(rect.offsetBy(dy: 4), cornerRadius: badgeHeight / 2, blur: 6,
                                   color: RGBAColor.black.withOpacity(0.22))
        canvas.fillRoundedRect(rect, cornerRadius: badgeHeight / 2, color: badgeColor)
        drawCentered(label, font: fonts.bold, pixelSize: pixelSize, color: .white, in: rect, on: &canvas)
    }

    private static func drawCaption(on canvas: inout Canvas, content: ShareCardContent, fonts: ShareCardFonts) {
        let textWidth = Double(width) - 2 * margin
        let title = content.title.trimmingWhitespace
        let headline = title.isEmpty ? "Challenge completed!" : "Completed \(title)\(title.hasSuffix("!") ? "" : "!")"
        let titleSize = 58
        let titleLayout = fonts.bold.layout(headline, pixelSize: titleSize, maxWidth: textWidth, maxLines: 2,
                                            lineSpacing: 1.16)

        let pointsLabel = "★ \(formatted(content.points)) \(content.points == 1 ? "point" : "points") earned"
        let pointsSize = 38
        let pointsHeight = 76.0
        let pointsWidth = min(textWidth, fonts.bold.measureWidth(pointsLabel, pixelSize: pointsSize) + 2 * 36)

        let type = content.challengeType.trimmingWhitespace
        let typeText = type.isEmpty ? "Challenge" : "\(type) challenge"
        let person = content.personName.trimmingWhitespace
        let byline = person.isEmpty ? typeText : "\(person) · \(typeText)"
        let bylineSize = 34
        let bylineHeight = Double(bylineSize) * 1.3

        let brandSize = 26
        let brandHeight = Double(brandSize) * 1.3
        let brandTop = Double(height) - 44 - brandHeight

        // Centre the caption block between the photo and the brand line, so one- and two-line
        // titles both look deliberate.
        let gap = 26.0
        let blockHeight = titleLayout.height + gap + pointsHeight + gap + bylineHeight
        let available = brandTop - photoRect.maxY
        var y = photoRect.maxY + max(16, (available - blockHeight) / 2)

        canvas.drawText(headline, font: fonts.bold, pixelSize: titleSize, color: .white,
                        in: CanvasRect(x: margin, y: y, width: textWidth, height: titleLayout.height),
                        alignment: .center, maxLines: 2, lineSpacing: 1.16)
        y += titleLayout.height + gap

        let pill = CanvasRect(x: (Double(width) - pointsWidth) / 2, y: y, width: pointsWidth, height: pointsHeight)
        canvas.fillSoftRoundedRect(pill.offsetBy(dy: 5), cornerRadius: pointsHeight / 2, blur: 8,
                                   color: RGBAColor(hex: 0x2A1550).withOpacity(0.3))
        canvas.fillRoundedRect(pill, cornerRadius: pointsHeight / 2, color: gold)
        drawCentered(pointsLabel, font: fonts.bold, pixelSize: pointsSize, color: RGBAColor(hex: 0x3D2C00),
                     in: pill.insetBy(dx: 20, dy: 0), on: &canvas)
        y += pointsHeight + gap

        canvas.drawText(byline, font: fonts.regular, pixelSize: bylineSize, color: RGBAColor.white.withOpacity(0.92),
                        in: CanvasRect(x: margin, y: y, width: textWidth, height: bylineHeight),
                        alignment: .center, maxLines: 1, lineSpacing: 1.3)

        canvas.drawText(content.brand, font: fonts.bold, pixelSize: brandSize, color: RGBAColor.white.withOpacity(0.7),
                        in: CanvasRect(x: margin, y: brandTop, width: textWidth, height: brandHeight),
                        alignment: .center, maxLines: 1, lineSpacing: 1.3)
    }

    /// One line of text centred horizontally and vertically in `rect`.
    private static func drawCentered(_ text: String, font: Font, pixelSize: Int, color: RGBAColor,
                                     in rect: CanvasRect, on canvas: inout Canvas) {
        let lineHeight = Double(pixelSize) * 1.25
        let lineRect = CanvasRect(x: rect.x, y: rect.midY - lineHeight / 2, width: rect.width, height: lineHeight)
        canvas.drawText(text, font: font, pixelSize: pixelSize, color: color, in: lineRect,
                        alignment: .center, maxLines: 1, lineSpacing: 1.25)
    }

    /// 12345 → "12,345", without Foundation's locale-dependent formatters.
    static func formatted(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }
}

extension CanvasRect {
    /// The same rectangle moved by `dx`, `dy`.
    func offsetBy(dx: Double = 0, dy: Double = 0) -> CanvasRect {
        CanvasRect(x: x + dx, y: y + dy, width: width, height: height)
    }
}

extension String {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
