/// One still picture of a share video, placed in the frame and named after the choreography step that brings it in.
public struct VideoLayer: Sendable, Equatable {
    /// The id of the choreography step that fades or slides this layer in (e.g. "title").
    public var step: String
    /// Where the layer sits in the frame, in frame pixels. The encoder scales `png` to this size when they differ.
    public var frame: CanvasRect
    /// The layer's pixels, PNG with transparency.
    public var png: [UInt8]

    /// A layer.
    public init(step: String, frame: CanvasRect, png: [UInt8]) {
        self.step = step
        self.frame = frame
        self.png = png
    }
}

/// The still parts of a share video: a background the encoder zooms slowly (nil: the caller brings a photo)
/// and the layers it composes over it. Drawing happens once here; every moving pixel is the encoder's work.
public struct VideoArt: Sendable, Equatable {
    /// A small PNG scaled to the whole frame, when there is no photo.
    public var background: [UInt8]?
    /// The layers, bottom first.
    public var layers: [VideoLayer]

    /// The art of one video.
    public init(background: [UInt8]?, layers: [VideoLayer]) {
        self.background = background
        self.layers = layers
    }
}

/// What a challenge's celebration video shows.
public struct ChallengeVideoContent: Sendable, Equatable {
    /// The challenge title, e.g. "Perfect Pancakes".
    public var title: String
    /// Points earned.
    public var points: Int
    /// The first line of the story; empty leaves the line out.
    public var storyLine: String
    /// Who completed it.
    public var personName: String
    /// "Daily", "Weekly", "Monthly" or "Special".
    public var challengeType: String
    /// Whether a photo lies under the layers (without one, the art brings its own background).
    public var hasPhoto: Bool
    /// The product name at the bottom.
    public var brand: String

    /// The content of one video.
    public init(title: String, points: Int, storyLine: String, personName: String, challengeType: String, hasPhoto: Bool,
                brand: String = "CompletionKit") {
        self.title = title
        self.points = points
        self.storyLine = storyLine
        self.personName = personName
        self.challengeType = challengeType
        self.hasPhoto = hasPhoto
        self.brand = brand
    }
}

/// Draws the layers of the 1080×1920 (9:16, what vertical video platforms play full screen) share videos.
///
/// Every layer is drawn only as large as its content, so a video's art is a few small PNGs drawn and encoded in
/// milliseconds; full-frame layers (the backdrop's shade, a missing photo's gradient) are drawn small and smooth and
/// scaled up by the encoder. Text keeps clear of the bottom 320 and top 200 pixels, where platforms lay their own
/// buttons and captions over a video.
public enum VideoArtist {
    /// Frame width in pixels.
    public static let width = 1080
    /// Frame height in pixels.
    public static let height = 1920

    static let margin = 90.0
    static let textWidth = Double(width) - 2 * margin

    /// The layers of a challenge's celebration: "backdrop" (the shade that makes text readable, the byline and the
    /// brand), "popper" (the "Challenge Complete" badge), "title", "message" (the story's first line) and "points".
    public static func challenge(_ content: ChallengeVideoContent, fonts: ShareCardFonts) -> VideoArt {
        var layers: [VideoLayer] = []
        // The shade: clear at the top, deep purple under the text, as the share card's colours.
        var shade = Canvas(width: 9, height: 64)
        shade.fillVerticalGradient(CanvasRect(x: 0, y: 18, width: 9, height: 22), top: .clear,
                                   bottom: RGBAColor(hex: 0x2A1550).withOpacity(0.78))
        shade.fill(CanvasRect(x: 0, y: 40, width: 9, height: 24), color: RGBAColor(hex: 0x2A1550).withOpacity(0.78))
        shade.fillVerticalGradient(CanvasRect(x: 0, y: 0, width: 9, height: 8), top: RGBAColor.black.withOpacity(0.35),
                                   bottom: .clear)
        layers.append(VideoLayer(step: "backdrop", frame: CanvasRect(x: 0, y: 0, width: Double(width), height: Double(height)),
                                 png: PNGEncoder.encode(shade.image)))

        let badge = pill("✓ Challenge Complete", font: fonts.bold, pixelSize: 44, height: 96, fill: ShareCard.badgeColor,
                         textColor: .white, centerY: 300)
        layers.append(VideoLayer(step: "popper", frame: badge.frame, png: badge.png))

        // The caption block is laid out from the top, then moved so it ends just above the bottom 320 pixels:
        // one- and three-line titles, with or without a story, all sit where a thumb does not cover them.
        var caption: [VideoLayer] = []
        let title = content.title.trimmingWhitespace
        let headline = title.isEmpty ? "Challenge completed!" : "Completed \(title)\(title.hasSuffix("!") ? "" : "!")"
        var y = 0.0
        let titleText = text(headline, font: fonts.bold, pixelSize: 84, color: .white, top: y, maxLines: 3, lineSpacing: 1.12)
        caption.append(VideoLayer(step: "title", frame: titleText.frame, png: titleText.png))
        y = titleText.frame.maxY + 30

        let story = content.storyLine.trimmingWhitespace
        if !story.isEmpty {
            let line = text("“\(story)”", font: fonts.regular, pixelSize: 44, color: RGBAColor.white.withOpacity(0.95), top: y,
                            maxLines: 2, lineSpacing: 1.25)
            caption.append(VideoLayer(step: "message", frame: line.frame, png: line.png))
            y = line.frame.maxY + 28
        }

        let label = "★ \(ShareCard.formatted(content.points)) \(content.points == 1 ? "point" : "points") earned"
        let points = pill(label, font: fonts.bold, pixelSize: 50, height: 104, fill: ShareCard.gold, textColor: RGBAColor(hex: 0x3D2C00),
                          centerY: y + 64)
        caption.append(VideoLayer(step: "points", frame: points.frame, png: points.png))
        y = points.frame.maxY + 22

        // The byline and brand arrive with the backdrop: they are the frame, not the news.
        let type = content.challengeType.trimmingWhitespace
        let typeText = type.isEmpty ? "Challenge" : "\(type) challenge"
        let person = content.personName.trimmingWhitespace
        let byline = text(person.isEmpty ? typeText : "\(person) · \(typeText)", font: fonts.regular, pixelSize: 38,
                          color: RGBAColor.white.withOpacity(0.9), top: y, maxLines: 1, lineSpacing: 1.3)
        caption.append(VideoLayer(step: "backdrop", frame: byline.frame, png: byline.png))
        y = byline.frame.maxY + 14
        let brand = text(content.brand, font: fonts.bold, pixelSize: 32, color: RGBAColor.white.withOpacity(0.7), top: y, maxLines: 1,
                         lineSpacing: 1.3)
        caption.append(VideoLayer(step: "backdrop", frame: brand.frame, png: brand.png))

        let shift = Double(height) - 330 - brand.frame.maxY
        layers += caption.map { layer in
            var moved = layer
            moved.frame = layer.frame.offsetBy(dy: shift.rounded())
            return moved
        }

        return VideoArt(background: content.hasPhoto ? nil : gradient(top: ShareCard.backgroundTop, bottom: ShareCard.backgroundBottom),
                        layers: layers)
    }

    /// The layers of a solved cryptogram, spoiler-free like its result card: "overlay" (the panel behind the figures,
    /// and the brand), "trophy" (the star and "CRYPTOGRAM · SOLVED"), "quote" (the puzzle's name and day — never the
    /// quote), "stats" (the figures) and "next" (the invitation).
    public static func cryptogram(_ content: ResultCardContent, fonts: ShareCardFonts) -> VideoArt {
        var layers: [VideoLayer] = []
        let panelRect = CanvasRect(x: margin, y: 1020, width: textWidth, height: 300)
        var panel = Canvas(width: Int(panelRect.width), height: Int(panelRect.height))
        panel.fillRoundedRect(CanvasRect(x: 0, y: 0, width: panelRect.width, height: panelRect.height), cornerRadius: 40,
                              color: RGBAColor.white.withOpacity(0.12))
        layers.append(VideoLayer(step: "overlay", frame: panelRect, png: PNGEncoder.encode(panel.image)))
        let brand = text(content.brand, font: fonts.bold, pixelSize: 32, color: RGBAColor.white.withOpacity(0.7), top: 1545, maxLines: 1,
                         lineSpacing: 1.3)
        layers.append(VideoLayer(step: "overlay", frame: brand.frame, png: brand.png))

        let starRect = CanvasRect(x: Double(width) / 2 - 110, y: 330, width: 220, height: 220)
        var star = Canvas(width: 220, height: 220)
        star.fillCircle(centerX: 110, centerY: 110, radius: 108, color: ResultCard.gold)
        star.drawText("★", font: fonts.bold, pixelSize: 130, color: RGBAColor(hex: 0x1D4A3E),
                      in: CanvasRect(x: 0, y: 30, width: 220, height: 160), alignment: .center, maxLines: 1, lineSpacing: 1.2)
        layers.append(VideoLayer(step: "trophy", frame: starRect, png: PNGEncoder.encode(star.image)))
        let eyebrow = text(content.eyebrow, font: fonts.bold, pixelSize: 40, color: ResultCard.gold, top: 600, maxLines: 1,
                           lineSpacing: 1.3)
        layers.append(VideoLayer(step: "trophy", frame: eyebrow.frame, png: eyebrow.png))

        let heading = text(content.title, font: fonts.bold, pixelSize: 96, color: .white, top: 720, maxLines: 2, lineSpacing: 1.1)
        layers.append(VideoLayer(step: "quote", frame: heading.frame, png: heading.png))
        let sub = text(content.subtitle, font: fonts.regular, pixelSize: 44, color: RGBAColor.white.withOpacity(0.9),
                       top: heading.frame.maxY + 20, maxLines: 2, lineSpacing: 1.25)
        layers.append(VideoLayer(step: "quote", frame: sub.frame, png: sub.png))

        // The figures in a row, each value over its label, inside the panel.
        var figures = Canvas(width: Int(panelRect.width), height: Int(panelRect.height))
        let count = max(content.figures.count, 1)
        let column = panelRect.width / Double(count)
        for (index, figure) in content.figures.enumerated() {
            let x = Double(index) * column
            figures.drawText(figure.value, font: fonts.bold, pixelSize: 80, color: .white,
                             in: CanvasRect(x: x, y: 70, width: column, height: 100), alignment: .center, maxLines: 1, lineSpacing: 1.2)
            figures.drawText(figure.label, font: fonts.regular, pixelSize: 34, color: RGBAColor.white.withOpacity(0.8),
                             in: CanvasRect(x: x, y: 180, width: column, height: 50), alignment: .center, maxLines: 1, lineSpacing: 1.3)
        }
        layers.append(VideoLayer(step: "stats", frame: panelRect, png: PNGEncoder.encode(figures.image)))

        let invitation = text(content.invitation, font: fonts.bold, pixelSize: 46, color: ResultCard.gold, top: panelRect.maxY + 60,
                              maxLines: 2, lineSpacing: 1.25)
        layers.append(VideoLayer(step: "next", frame: invitation.frame, png: invitation.png))
        return VideoArt(background: gradient(top: ResultCard.backgroundTop, bottom: ResultCard.backgroundBottom), layers: layers)
    }

    /// A vertical gradient drawn 9×16 and scaled to the frame by the encoder: smooth colours lose nothing by it.
    static func gradient(top: RGBAColor, bottom: RGBAColor) -> [UInt8] {
        var canvas = Canvas(width: 9, height: 16)
        canvas.fillVerticalGradient(CanvasRect(x: 0, y: 0, width: 9, height: 16), top: top, bottom: bottom)
        return PNGEncoder.encode(canvas.image)
    }

    /// Centred text, `textWidth` wide, cropped to the lines it takes.
    static func text(_ string: String, font: Font, pixelSize: Int, color: RGBAColor, top: Double, maxLines: Int,
                     lineSpacing: Double) -> (frame: CanvasRect, png: [UInt8]) {
        let layout = font.layout(string, pixelSize: pixelSize, maxWidth: textWidth, maxLines: maxLines, lineSpacing: lineSpacing)
        let height = max(1, Int(layout.height.rounded(.up)))
        var canvas = Canvas(width: Int(textWidth), height: height)
        canvas.drawText(string, font: font, pixelSize: pixelSize, color: color,
                        in: CanvasRect(x: 0, y: 0, width: textWidth, height: Double(height)), alignment: .center,
                        maxLines: maxLines, lineSpacing: lineSpacing)
        return (CanvasRect(x: margin, y: top.rounded(), width: textWidth, height: Double(height)), PNGEncoder.encode(canvas.image))
    }

    /// A rounded label centred horizontally, with the card's soft shadow.
    static func pill(_ label: String, font: Font, pixelSize: Int, height: Double, fill: RGBAColor, textColor: RGBAColor,
                     centerY: Double) -> (frame: CanvasRect, png: [UInt8]) {
        let width = min(textWidth, (font.measureWidth(label, pixelSize: pixelSize) + 2 * 40).rounded(.up))
        let shadow = 12.0
        var canvas = Canvas(width: Int(width + 2 * shadow), height: Int(height + 2 * shadow))
        let rect = CanvasRect(x: shadow, y: shadow, width: width, height: height)
        canvas.fillSoftRoundedRect(rect.offsetBy(dy: 5), cornerRadius: height / 2, blur: 8, color: RGBAColor.black.withOpacity(0.25))
        canvas.fillRoundedRect(rect, cornerRadius: height / 2, color: fill)
        let lineHeight = Double(pixelSize) * 1.25
        canvas.drawText(label, font: font, pixelSize: pixelSize, color: textColor,
                        in: CanvasRect(x: rect.x, y: rect.midY - lineHeight / 2, width: width, height: lineHeight), alignment: .center,
                        maxLines: 1, lineSpacing: 1.25)
        let frame = CanvasRect(x: ((Double(VideoArtist.width) - canvas.image.width.asDouble) / 2).rounded(),
                               y: (centerY - Double(canvas.height) / 2).rounded(), width: Double(canvas.width), height: Double(canvas.height))
        return (frame, PNGEncoder.encode(canvas.image))
    }
}

extension Int {
    fileprivate var asDouble: Double { Double(self) }
}
