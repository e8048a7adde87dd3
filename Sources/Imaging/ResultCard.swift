/// One figure on a result card: a value and what it counts ("3:12", "Time").
public struct ResultFigure: Sendable, Equatable {
    /// What the value counts, e.g. "Time".
    public var label: String
    /// The value as shown, e.g. "3:12".
    public var value: String

    /// A figure.
    public init(_ label: String, _ value: String) {
        self.label = label
        self.value = value
    }
}

/// What a result card shows: a finished game's name and numbers, with nothing that would spoil it.
public struct ResultCardContent: Sendable, Equatable {
    /// A small heading above the title, e.g. "CRYPTOGRAM · SOLVED".
    public var eyebrow: String
    /// The game's name, e.g. "Daily puzzle".
    public var title: String
    /// One line under the title, e.g. "Tuesday 24 November 2026".
    public var subtitle: String
    /// Up to four figures, each a label and its value ("Time", "3:12").
    public var figures: [ResultFigure]
    /// A closing line, e.g. "Can you crack the same one?".
    public var invitation: String
    /// The product name shown at the bottom.
    public var brand: String

    /// Creates the content for one card.
    public init(eyebrow: String, title: String, subtitle: String, figures: [ResultFigure], invitation: String,
                brand: String = "CompletionKit") {
        self.eyebrow = eyebrow
        self.title = title
        self.subtitle = subtitle
        self.figures = Array(figures.prefix(4))
        self.invitation = invitation
        self.brand = brand
    }
}

/// Renders the 1080×1080 card a player shares after finishing a puzzle: square, so chats and feeds show it whole.
public enum ResultCard {
    /// Card width and height in pixels.
    public static let size = 1080

    // Layout, in card pixels. Internal so tests can sample known regions.
    static let margin = 72.0
    static let panel = CanvasRect(x: 72, y: 500, width: 936, height: 330)
    static let backgroundTop = RGBAColor(hex: 0x2F6F5E)
    static let backgroundBottom = RGBAColor(hex: 0x1D4A3E)
    static let gold = RGBAColor(hex: 0xE2BB5D)

    /// Draws the card and returns it PNG-encoded.
    public static func render(_ content: ResultCardContent, fonts: ShareCardFonts) -> [UInt8] {
        PNGEncoder.encode(renderImage(content, fonts: fonts))
    }

    /// Draws the card and returns its pixels.
    public static func renderImage(_ content: ResultCardContent, fonts: ShareCardFonts) -> RGBAImage {
        let side = Double(size)
        var canvas = Canvas(width: size, height: size, background: backgroundTop)
        canvas.fillVerticalGradient(CanvasRect(x: 0, y: 0, width: side, height: side), top: backgroundTop, bottom: backgroundBottom)
        // Two faint discs and a gold medal: a finish, without a word of the quote.
        canvas.fillCircle(centerX: 980, centerY: 120, radius: 230, color: RGBAColor.white.withOpacity(0.05))
        canvas.fillCircle(centerX: 60, centerY: 1000, radius: 190, color: RGBAColor.white.withOpacity(0.04))
        canvas.fillCircle(centerX: side / 2, centerY: 170, radius: 84, color: gold)
        canvas.fillCircle(centerX: side / 2, centerY: 170, radius: 66, color: RGBAColor(hex: 0xF3D58A))
        canvas.drawText("✓", font: fonts.bold, pixelSize: 84, color: RGBAColor(hex: 0x5A4100),
                        in: CanvasRect(x: side / 2 - 80, y: 115, width: 160, height: 110), alignment: .center, maxLines: 1, lineSpacing: 1.3)

        let textWidth = side - 2 * margin
        canvas.drawText(content.eyebrow, font: fonts.bold, pixelSize: 30, color: RGBAColor.white.withOpacity(0.75),
                        in: CanvasRect(x: margin, y: 282, width: textWidth, height: 42), alignment: .center, maxLines: 1, lineSpacing: 1.3)
        canvas.drawText(content.title, font: fonts.bold, pixelSize: 72, color: .white,
                        in: CanvasRect(x: margin, y: 326, width: textWidth, height: 92), alignment: .center, maxLines: 1, lineSpacing: 1.25)
        canvas.drawText(content.subtitle, font: fonts.regular, pixelSize: 36, color: RGBAColor.white.withOpacity(0.9),
                        in: CanvasRect(x: margin, y: 420, width: textWidth, height: 50), alignment: .center, maxLines: 1, lineSpacing: 1.3)

        drawFigures(content.figures, on: &canvas, fonts: fonts)

        canvas.drawText(content.invitation, font: fonts.bold, pixelSize: 40, color: gold,
                        in: CanvasRect(x: margin, y: 880, width: textWidth, height: 56), alignment: .center, maxLines: 1, lineSpacing: 1.3)
        canvas.drawText(content.brand, font: fonts.bold, pixelSize: 28, color: RGBAColor.white.withOpacity(0.65),
                        in: CanvasRect(x: margin, y: 980, width: textWidth, height: 40), alignment: .center, maxLines: 1, lineSpacing: 1.3)
        return canvas.image
    }

    /// The figures as tiles in one row on a light panel.
    private static func drawFigures(_ figures: [ResultFigure], on canvas: inout Canvas, fonts: ShareCardFonts) {
        canvas.fillSoftRoundedRect(panel.offsetBy(dy: 10), cornerRadius: 40, blur: 16, color: RGBAColor.black.withOpacity(0.25))
        canvas.fillRoundedRect(panel, cornerRadius: 40, color: RGBAColor(hex: 0xFFFDF9))
        guard !figures.isEmpty else { return }
        let gap = 20.0
        let inner = panel.insetBy(dx: 36, dy: 40)
        let tileWidth = (inner.width - gap * Double(figures.count - 1)) / Double(figures.count)
        for (index, figure) in figures.enumerated() {
            let tile = CanvasRect(x: inner.x + Double(index) * (tileWidth + gap), y: inner.y, width: tileWidth, height: inner.height)
            canvas.fillRoundedRect(tile, cornerRadius: 26, color: RGBAColor(hex: 0xF0EBE3))
            canvas.drawText(figure.value, font: fonts.bold, pixelSize: figures.count > 3 ? 60 : 72, color: RGBAColor(hex: 0x23211E),
                            in: CanvasRect(x: tile.x + 8, y: tile.y + 60, width: tile.width - 16, height: 96),
                            alignment: .center, maxLines: 1, lineSpacing: 1.3)
            canvas.drawText(figure.label.uppercased(), font: fonts.bold, pixelSize: 24, color: RGBAColor(hex: 0x5F5A52),
                            in: CanvasRect(x: tile.x + 8, y: tile.y + 168, width: tile.width - 16, height: 36),
                            alignment: .center, maxLines: 1, lineSpacing: 1.3)
        }
    }
}
