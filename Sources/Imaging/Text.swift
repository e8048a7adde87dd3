/// The result of wrapping text into a width: the lines that will be drawn and their sizes.
public struct TextLayout: Sendable, Equatable {
    /// The lines, after wrapping and truncation (a truncated last line ends with "…").
    public let lines: [String]
    /// The advance width of each line in pixels.
    public let lineWidths: [Double]
    /// Vertical distance between consecutive baselines.
    public let lineHeight: Double
    /// True when text was cut to respect `maxLines`.
    public let isTruncated: Bool

    /// Total height of all lines.
    public var height: Double { Double(lines.count) * lineHeight }
    /// Width of the widest line.
    public var width: Double { lineWidths.max() ?? 0 }
}

extension Font {
    /// Breaks `text` into lines no wider than `maxWidth`, at most `maxLines` of them, ending in "…" if cut.
    ///
    /// Words wrap at spaces; a word wider than the whole line is broken between characters.
    /// Newlines start a new line. `lineSpacing` is the baseline distance as a multiple of `pixelSize`.
    public func layout(
        _ text: String, pixelSize: Int, maxWidth: Double, maxLines: Int = .max, lineSpacing: Double = 1.2
    ) -> TextLayout {
        let maxLines = max(1, maxLines)
        var lines: [String] = []
        var truncated = false

        paragraphs: for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            for word in paragraph.split(separator: " ") {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if measureWidth(candidate, pixelSize: pixelSize) <= maxWidth {
                    current = candidate
                    continue
                }
                if !current.isEmpty {
                    lines.append(current)
                    current = ""
                }
                // Hard-break words that cannot fit on a line of their own.
                for character in word {
                    let extended = current + String(character)
                    if !current.isEmpty, measureWidth(extended, pixelSize: pixelSize) > maxWidth {
                        lines.append(current)
                        current = String(character)
                    } else {
                        current = extended
                    }
                }
                if lines.count > maxLines { break paragraphs }
            }
            lines.append(current)
            if lines.count > maxLines { break }
        }

        if lines.count > maxLines {
            truncated = true
            lines.removeLast(lines.count - maxLines)
            lines[maxLines - 1] = ellipsized(lines[maxLines - 1], pixelSize: pixelSize, maxWidth: maxWidth)
        }
        return TextLayout(
            lines: lines,
            lineWidths: lines.map { measureWidth($0, pixelSize: pixelSize) },
            lineHeight: Double(pixelSize) * lineSpacing,
            isTruncated: truncated
        )
    }

    /// `line` shortened until it fits with a trailing "…", which always marks that more text followed.
    private func ellipsized(_ line: String, pixelSize: Int, maxWidth: Double) -> String {
        var kept = line
        while !kept.isEmpty, measureWidth(kept + "…", pixelSize: pixelSize) > maxWidth {
            kept.removeLast()
        }
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + "…"
    }
}

extension Canvas {
    /// Draws `text` wrapped to `rect.width`, clipped to `rect`, and returns the height of the lines drawn.
    @discardableResult
    public mutating func drawText(
        _ text: String,
        font: Font,
        pixelSize: Int,
        color: RGBAColor,
        in rect: CanvasRect,
        alignment: TextAlignment = .left,
        maxLines: Int = .max,
        lineSpacing: Double = 1.2
    ) -> Double {
        let layout = font.layout(text, pixelSize: pixelSize, maxWidth: rect.width, maxLines: maxLines,
                                 lineSpacing: lineSpacing)
        let (ascent, descent) = font.lineMetrics(pixelSize: pixelSize)
        // Centre the font's ascent+descent band in each line box so extra spacing is shared above and below.
        let baselineOffset = (layout.lineHeight - (ascent + descent)) / 2 + ascent
        let clipX0 = max(0, Int(rect.x.rounded(.down))), clipX1 = min(width, Int(rect.maxX.rounded(.up)))
        let clipY0 = max(0, Int(rect.y.rounded(.down))), clipY1 = min(height, Int(rect.maxY.rounded(.up)))
        guard clipX0 < clipX1, clipY0 < clipY1 else { return layout.height }
        let canvasWidth = width

        for (lineIndex, line) in layout.lines.enumerated() {
            let shaped = font.shape(line, pixelSize: pixelSize)
            let startX: Double
            switch alignment {
            case .left: startX = rect.x
            case .center: startX = rect.x + (rect.width - shaped.width) / 2
            case .right: startX = rect.maxX - shaped.width
            }
            let baseline = Int((rect.y + Double(lineIndex) * layout.lineHeight + baselineOffset).rounded())
            for positioned in shaped.glyphs {
                let glyph = positioned.glyph
                let originX = Int((startX + positioned.x).rounded()) + glyph.left
                let originY = baseline - glyph.top
                let (left, right) = (max(clipX0, originX), min(clipX1, originX + glyph.width))
                let (top, bottom) = (max(clipY0, originY), min(clipY1, originY + glyph.height))
                guard left < right, top < bottom else { continue } // wholly clipped
                let columns = left..<right, rows = top..<bottom
                glyph.coverage.withUnsafeBufferPointer { coverage in
                    withPixels { pixels in
                        for y in rows {
                            for x in columns {
                                let value = coverage[(y - originY) * glyph.width + (x - originX)]
                                if value == 0 { continue }
                                Canvas.blend(color, coverage: Double(value) / 255, into: pixels, at: (y * canvasWidth + x) * 4)
                            }
                        }
                    }
                }
            }
        }
        return layout.height
    }
}
