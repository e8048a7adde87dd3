import CImaging
import Foundation

/// Why a font could not be loaded.
public enum FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file exists at the path.
    case fileNotFound(path: String)
    /// The file exists but FreeType could not open it as a font.
    case unreadable(path: String, freeTypeError: Int32)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .fileNotFound(let path): "font file not found: \(path)"
        case .unreadable(let path, let code): "FreeType cannot read font \(path) (error \(code))"
        }
    }
}

/// A TrueType/OpenType font loaded once with FreeType and safe to share between threads.
public final class Font: @unchecked Sendable {
    // @unchecked because FreeType faces are not thread-safe: every use of `library`, `face`
    // and the glyph cache happens while `lock` is held, and nothing mutable escapes it.
    private let lock = NSLock()
    private let library: FT_Library
    private let face: FT_Face
    private var glyphCache: [GlyphKey: Glyph] = [:]
    private var currentPixelSize = 0

    /// The file the font was loaded from.
    public let path: String

    /// Loads the font at `path` (the first face in the file).
    public init(path: String) throws(FontError) {
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        var library: FT_Library?
        let libraryError = FT_Init_FreeType(&library)
        guard libraryError == 0, let library else { throw .unreadable(path: path, freeTypeError: libraryError) }
        var face: FT_Face?
        let faceError = FT_New_Face(library, path, 0, &face)
        guard faceError == 0, let face else {
            FT_Done_FreeType(library)
            throw .unreadable(path: path, freeTypeError: faceError == 0 ? -1 : faceError)
        }
        // Glyph lookup below uses Unicode scalars; most fonts select this charmap by default anyway.
        _ = FT_Select_Charmap(face, FT_ENCODING_UNICODE)
        self.library = library
        self.face = face
        self.path = path
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// Width in pixels of `text` set on one line at `pixelSize`.
    public func measureWidth(_ text: String, pixelSize: Int) -> Double {
        shape(text, pixelSize: pixelSize).width
    }

    /// Distances from the baseline to the top of the tallest and bottom of the deepest glyphs, in pixels.
    public func lineMetrics(pixelSize: Int) -> (ascent: Double, descent: Double) {
        lock.withLock {
            setPixelSize(pixelSize)
            let metrics = face.pointee.size.pointee.metrics
            return (Double(metrics.ascender) / 64, Double(-metrics.descender) / 64)
        }
    }

    /// Glyphs with their pen positions for one line of text, plus the line's advance width.
    ///
    /// Characters the font lacks (emoji in DejaVu, for instance) are skipped rather than drawn as boxes.
    func shape(_ text: String, pixelSize: Int) -> (glyphs: [PositionedGlyph], width: Double) {
        lock.withLock {
            setPixelSize(pixelSize)
            let kerning = cimg_ft_has_kerning(face) != 0
            var positioned: [PositionedGlyph] = []
            var penX = 0.0
            var previousIndex: UInt32 = 0
            for scalar in text.unicodeScalars {
                let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
                guard index != 0, let glyph = glyph(index: index, pixelSize: pixelSize) else { continue }
                if kerning, previousIndex != 0 {
                    var delta = FT_Vector()
                    if FT_Get_Kerning(face, previousIndex, index, FT_KERNING_UNFITTED.rawValue, &delta) == 0 {
                        penX += Double(delta.x) / 64
                    }
                }
                positioned.append(PositionedGlyph(glyph: glyph, x: penX))
                penX += glyph.advance
                previousIndex = index
            }
            return (positioned, penX)
        }
    }

    /// Must be called with `lock` held.
    private func setPixelSize(_ pixelSize: Int) {
        guard pixelSize != currentPixelSize else { return }
        FT_Set_Pixel_Sizes(face, 0, FT_UInt(max(1, pixelSize)))
        currentPixelSize = pixelSize
    }

    /// Must be called with `lock` held and the pixel size already set.
    private func glyph(index: UInt32, pixelSize: Int) -> Glyph? {
        let key = GlyphKey(index: index, pixelSize: pixelSize)
        if let cached = glyphCache[key] { return cached }
        guard FT_Load_Glyph(face, index, cimg_ft_load_render_light) == 0 else { return nil }
        let slot = face.pointee.glyph.pointee
        let bitmap = slot.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        var coverage = [UInt8](repeating: 0, count: width * rows)
        if let buffer = bitmap.buffer, width > 0, rows > 0 {
            for row in 0..<rows {
                for column in 0..<width { coverage[row * width + column] = buffer[row * pitch + column] }
            }
        }
        // linearHoriAdvance is the unhinted 16.16 advance: hinting would round every glyph to whole
        // pixels and make word widths drift with the size.
        let glyph = Glyph(advance: Double(slot.linearHoriAdvance) / 65536, left: Int(slot.bitmap_left),
                          top: Int(slot.bitmap_top), width: width, height: rows, coverage: coverage)
        // Bounded so a server rendering arbitrary text at many sizes cannot grow without limit.
        if glyphCache.count >= 4096 { glyphCache.removeAll(keepingCapacity: true) }
        glyphCache[key] = glyph
        return glyph
    }
}

struct GlyphKey: Hashable {
    let index: UInt32
    let pixelSize: Int
}

/// A rendered glyph: an 8-bit coverage bitmap and where it sits relative to the pen.
struct Glyph: Sendable {
    let advance: Double
    let left: Int
    let top: Int
    let width: Int
    let height: Int
    let coverage: [UInt8]
}

struct PositionedGlyph: Sendable {
    let glyph: Glyph
    let x: Double
}
