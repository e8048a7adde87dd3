/// For each destination column (or row): which source pixels contribute, and how much.
struct ResampleWeights {
    /// First contributing source index for each destination index.
    var starts: [Int]
    /// Number of contributing source pixels for each destination index.
    var counts: [Int]
    /// `maxCount` weights per destination index; each group sums to 1.
    var weights: [Float]
    var maxCount: Int

    /// Maps the source span `[origin, origin + length)` (fractional, for crops) onto `destination` pixels.
    ///
    /// Shrinking uses area averaging: every destination pixel is the exact mean of the source area it
    /// covers, which cannot alias or drop pixels. Enlarging (only reachable through scaledToFill) uses
    /// bilinear interpolation, because box weights would just repeat pixels.
    init(origin: Double, length: Double, sourceCount: Int, destination: Int) {
        let scale = length / Double(destination)
        var contributions: [[(index: Int, weight: Double)]] = []
        contributions.reserveCapacity(destination)
        for target in 0..<destination {
            var taps: [(index: Int, weight: Double)] = []
            if scale >= 1 {
                let left = origin + Double(target) * scale
                let right = left + scale
                var index = Int(left.rounded(.down))
                while Double(index) < right {
                    let overlap = min(right, Double(index + 1)) - max(left, Double(index))
                    if overlap > 1e-9 { taps.append((min(max(index, 0), sourceCount - 1), overlap)) }
                    index += 1
                }
            } else {
                let center = origin + (Double(target) + 0.5) * scale - 0.5
                let lower = Int(center.rounded(.down))
                let fraction = center - Double(lower)
                taps.append((min(max(lower, 0), sourceCount - 1), 1 - fraction))
                taps.append((min(max(lower + 1, 0), sourceCount - 1), fraction))
            }
            contributions.append(taps)
        }

        // Clamping at the borders can repeat an index; merge so each tap is a distinct, contiguous index.
        var starts = [Int](), counts = [Int]()
        var merged: [[Double]] = []
        for taps in contributions {
            let first = taps.map(\.index).min()!
            let last = taps.map(\.index).max()!
            var row = [Double](repeating: 0, count: last - first + 1)
            for tap in taps { row[tap.index - first] += tap.weight }
            starts.append(first)
            counts.append(row.count)
            merged.append(row)
        }
        let maxCount = counts.max() ?? 1
        var weights = [Float](repeating: 0, count: destination * maxCount)
        for (target, row) in merged.enumerated() {
            let total = row.reduce(0, +)
            for (offset, weight) in row.enumerated() {
                weights[target * maxCount + offset] = Float(weight / total)
            }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.maxCount = maxCount
    }
}

extension RGBAImage {
    /// A copy whose longer side is at most `maxSide`, keeping the aspect ratio; never enlarges.
    public func resized(toFit maxSide: Int) -> RGBAImage {
        let longSide = max(width, height)
        guard maxSide > 0, longSide > maxSide else { return self }
        let scale = Double(maxSide) / Double(longSide)
        let newWidth = width >= height ? maxSide : max(1, Int((Double(width) * scale).rounded()))
        let newHeight = width >= height ? max(1, Int((Double(height) * scale).rounded())) : maxSide
        return resampled(width: newWidth, height: newHeight,
                         crop: (0, 0, Double(width), Double(height)))
    }

    /// Exactly `width`×`height`: the centred crop with that aspect ratio, scaled to fit (enlarging if needed).
    public func scaledToFill(width targetWidth: Int, height targetHeight: Int) -> RGBAImage {
        precondition(targetWidth > 0 && targetHeight > 0, "target size must be positive")
        guard width > 0, height > 0 else { return RGBAImage(width: targetWidth, height: targetHeight) }
        let targetAspect = Double(targetWidth) / Double(targetHeight)
        var cropWidth = Double(width), cropHeight = Double(height)
        if cropWidth / cropHeight > targetAspect {
            cropWidth = cropHeight * targetAspect
        } else {
            cropHeight = cropWidth / targetAspect
        }
        let crop = ((Double(width) - cropWidth) / 2, (Double(height) - cropHeight) / 2, cropWidth, cropHeight)
        return resampled(width: targetWidth, height: targetHeight, crop: crop)
    }

    /// Resamples the region `crop` (x, y, width, height in source pixels) to `newWidth`×`newHeight`.
    ///
    /// Works in premultiplied alpha so transparent pixels (whose colour is meaningless) cannot bleed
    /// into visible ones. Rows are filtered horizontally once each, then combined vertically through a
    /// small ring buffer, so memory stays at a few rows instead of a whole intermediate image.
    func resampled(width newWidth: Int, height newHeight: Int,
                   crop: (x: Double, y: Double, width: Double, height: Double)) -> RGBAImage {
        if newWidth == width, newHeight == height, crop == (0, 0, Double(width), Double(height)) { return self }
        let horizontal = ResampleWeights(origin: crop.x, length: crop.width, sourceCount: width, destination: newWidth)
        let vertical = ResampleWeights(origin: crop.y, length: crop.height, sourceCount: height, destination: newHeight)
        let rowLength = newWidth * 4
        let ringRows = vertical.maxCount
        var ring = [Float](repeating: 0, count: ringRows * rowLength)
        var ringSourceRow = [Int](repeating: -1, count: ringRows)
        let sourceWidth = width

        let output = [UInt8](unsafeUninitializedCapacity: newWidth * newHeight * 4) { destination, initializedCount in
            pixels.withUnsafeBufferPointer { source in
            ring.withUnsafeMutableBufferPointer { ring in
            horizontal.weights.withUnsafeBufferPointer { hWeights in
            horizontal.starts.withUnsafeBufferPointer { hStarts in
            horizontal.counts.withUnsafeBufferPointer { hCounts in
                let hMax = horizontal.maxCount

                func filterRow(_ sourceRow: Int, into slot: Int) {
                    let rowBase = sourceRow * sourceWidth * 4
                    let ringBase = slot * rowLength
                    for x in 0..<newWidth {
                        var red: Float = 0, green: Float = 0, blue: Float = 0, alpha: Float = 0
                        var sourceIndex = rowBase + hStarts[x] * 4
                        let weightBase = x * hMax
                        for tap in 0..<hCounts[x] {
                            let weightedAlpha = hWeights[weightBase + tap] * Float(source[sourceIndex + 3])
                            red += weightedAlpha * Float(source[sourceIndex])
                            green += weightedAlpha * Float(source[sourceIndex + 1])
                            blue += weightedAlpha * Float(source[sourceIndex + 2])
                            alpha += weightedAlpha
                            sourceIndex += 4
                        }
                        let target = ringBase + x * 4
                        ring[target] = red
                        ring[target + 1] = green
                        ring[target + 2] = blue
                        ring[target + 3] = alpha
                    }
                }

                var accumulator = [Float](repeating: 0, count: rowLength)
                accumulator.withUnsafeMutableBufferPointer { accumulator in
                    for y in 0..<newHeight {
                        for index in 0..<rowLength { accumulator[index] = 0 }
                        let start = vertical.starts[y]
                        for tap in 0..<vertical.counts[y] {
                            let sourceRow = start + tap
                            let slot = sourceRow % ringRows
                            if ringSourceRow[slot] != sourceRow {
                                filterRow(sourceRow, into: slot)
                                ringSourceRow[slot] = sourceRow
                            }
                            let weight = vertical.weights[y * vertical.maxCount + tap]
                            let ringBase = slot * rowLength
                            for index in 0..<rowLength { accumulator[index] += weight * ring[ringBase + index] }
                        }
                        // Un-premultiply: colour sums carry an extra factor of alpha.
                        let outputBase = y * rowLength
                        for x in 0..<newWidth {
                            let base = x * 4
                            let alpha = accumulator[base + 3]
                            if alpha < 0.5 { // rounds to fully transparent
                                for channel in 0..<4 { destination[outputBase + base + channel] = 0 }
                                continue
                            }
                            let inverse = 1 / alpha
                            for channel in 0..<3 {
                                let value = accumulator[base + channel] * inverse
                                destination[outputBase + base + channel] = UInt8(min(max(value + 0.5, 0), 255))
                            }
                            destination[outputBase + base + 3] = UInt8(min(max(alpha + 0.5, 0), 255))
                        }
                    }
                }
            }
            }
            }
            }
            }
            initializedCount = newWidth * newHeight * 4
        }
        return RGBAImage(width: newWidth, height: newHeight, pixels: output)
    }
}
