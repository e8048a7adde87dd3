import Testing
@testable import Imaging

@Suite struct ShareCardTests {
    static let fonts = try! ShareCardFonts()

    static func content(photo: RGBAImage?, title: String = "Perfect Pancakes") -> ShareCardContent {
        ShareCardContent(photo: photo, title: title, points: 150, personName: "Alex", challengeType: "Daily",
                         brand: "CompletionKit")
    }

    @Test func rendersA1080x1350PNG() throws {
        let png = ShareCard.render(Self.content(photo: gradientImage(width: 640, height: 480)), fonts: Self.fonts)
        #expect(ImageFormat.sniff(png) == .png)
        let image = try ImageDecoder.decode(png).image
        #expect(image.width == 1080 && image.height == 1350)

        // Badge: sample inside the pill's right padding, clear of the label.
        let badge = ShareCard.badgeRect(labelWidth: 0)
        let green = image.pixel(x: Int(badge.maxX) - 10, y: Int(badge.midY))
        #expect(Int(green.green) > Int(green.red) + 60 && Int(green.green) > Int(green.blue) + 40)

        // Background gradient ends, away from decorations.
        #expect(colorDistance(image.pixel(x: 540, y: 2), RGBAColor(hex: 0x667EEA)) <= 3)
        #expect(colorDistance(image.pixel(x: 540, y: 1349), RGBAColor(hex: 0x764BA2)) <= 3)

        // The photo fills its frame: its centre shows the gradient's middle, not the background.
        let photoCentre = image.pixel(x: Int(ShareCard.photoRect.midX), y: Int(ShareCard.photoRect.midY))
        #expect(colorDistance(photoCentre, RGBAColor(red: 128, green: 128, blue: 64)) < 12)
    }

    @Test func rendersWithoutAPhoto() throws {
        let image = try ImageDecoder.decode(ShareCard.render(Self.content(photo: nil), fonts: Self.fonts)).image
        #expect(image.width == 1080 && image.height == 1350)
        #expect(image.isOpaque)
    }

    @Test func emojiAndOverlongTextDoNotCrash() throws {
        let title = "🥞🥞 Perfect Pancakes 🔥 with a title far too long to fit on two lines of the card at all 👩‍🍳"
        let card = ShareCardContent(photo: RGBAImage(width: 3, height: 1000, color: .white), title: title,
                                    points: 1_234_567, personName: "Zoë 🌟 O'Brien", challengeType: "Special")
        let image = try ImageDecoder.decode(ShareCard.render(card, fonts: Self.fonts)).image
        #expect(image.width == 1080 && image.height == 1350)
    }

    @Test func formatsPointsWithGrouping() {
        #expect(ShareCard.formatted(0) == "0")
        #expect(ShareCard.formatted(999) == "999")
        #expect(ShareCard.formatted(1000) == "1,000")
        #expect(ShareCard.formatted(1_234_567) == "1,234,567")
        #expect(ShareCard.formatted(-4200) == "-4,200")
    }
}
