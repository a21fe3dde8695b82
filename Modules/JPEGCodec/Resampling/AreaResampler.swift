
/// Shrinks an image by area averaging: every output pixel is the mean of the source area it covers, with
/// fractional weights at the borders. That is the exact low-pass for downscaling, so fine patterns (fabric,
/// screens, text) average out instead of aliasing into moiré. Never enlarges: callers clamp the target.
///
/// Works one output row at a time (a vertical pass into one `Float` row, then the horizontal pass), so its
/// working memory is two rows whatever the image height; from a JPEG frame's rows (`JPEGFrameRows`) it also
/// holds only the source rows of one output row's window.
package enum AreaResampler {
    /// For each output index, the first source index it covers and the weights of `taps` sources from there, in
    /// one flat array (`taps` per output). Outputs that cover fewer sources are padded with zero weights (at the
    /// end, or at the start where the window would pass the last source), which adds exact zeros to the sums, so
    /// the result is the same as weighting only the covered sources.
    struct Footprint {
        var first: [Int] = []
        var weights: [Float] = []
        var taps = 1

        init(source: Int, target: Int) {
            let scale = Double(source) / Double(target)
            var rows: [[Float]] = []
            for o in 0..<target {
                let a = Double(o) * scale, b = Double(o + 1) * scale
                let first = Int(a), last = min(source, Int(b.rounded(.up)))
                var row: [Float] = []
                for i in first..<max(last, first + 1) {
                    let overlap = min(b, Double(i + 1)) - max(a, Double(i))
                    row.append(Float(max(0, overlap) / scale))
                }
                self.first.append(first)
                rows.append(row)
            }
            taps = rows.map { $0.count }.max() ?? 1
            weights.reserveCapacity(target * taps)
            for o in 0..<target {
                let row = rows[o]
                let excess = max(0, first[o] + taps - source)
                first[o] -= excess
                weights += [Float](repeating: 0, count: excess) + row
                    + [Float](repeating: 0, count: taps - excess - row.count)
            }
        }
    }

    /// The size that fits `width`×`height` within `maximumEdge` on its longer side: scaled down (never up), each
    /// dimension rounded to the nearest pixel, at least 1 (spec 7.9 step 3).
    package static func fit(width: Int, height: Int, maximumEdge: Int) -> (Int, Int) {
        let longer = max(width, height)
        guard longer > maximumEdge else { return (width, height) }
        let factor = Double(maximumEdge) / Double(longer)
        return (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }

    /// `image` (gray8 or rgb8) resized to `width`×`height`, each at most the source's.
    package static func resize(_ image: Bitmap, width: Int, height: Int) -> Bitmap {
        if width == image.width && height == image.height { return image }
        let vertical = Footprint(source: image.height, target: height)
        return image.bytes.withUnsafeBufferPointer { source in
            guard let src = source.baseAddress else { return image }
            let stride = image.bytesPerRow
            return resample(
                sourceWidth: image.width, format: image.format, vertical: vertical, width: width, height: height
            ) { y in src + y * stride }
        }
    }

    /// The picture of a decoded JPEG frame (gray8 or rgb8), resized to `width`×`height` (each at most the source's) while
    /// holding only the source rows the vertical pass is reading: one ring slot per tap, each row rendered once
    /// (the windows of consecutive output rows only move down, and a window's rows fall in distinct slots).
    /// The same bytes as resizing the fully rendered picture.
    package static func resize(rendering rows: JPEGFrameRows, width: Int, height: Int) -> Bitmap {
        if width == rows.width && height == rows.height { return rows.renderAll() }
        let vertical = Footprint(source: rows.height, target: height)
        let slots = vertical.taps, bytesPerRow = rows.width * rows.format.bytesPerPixel
        // Every slot is rendered into before it is read, so the ring starts uninitialised.
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * bytesPerRow)
        defer { ring.deallocate() }
        var held = [Int](repeating: -1, count: slots)
        return resample(
            sourceWidth: rows.width, format: rows.format, vertical: vertical, width: width, height: height
        ) { y in
            let slot = y % slots, line = ring + slot * bytesPerRow
            if held[slot] != y {
                rows.render(row: y, into: line)
                held[slot] = y
            }
            return UnsafePointer(line)
        }
    }

    /// The resampling itself: `row(y)` gives source row `y`, asked for in windows that only move down.
    private static func resample(
        sourceWidth: Int, format: BitmapFormat, vertical: Footprint, width: Int, height: Int,
        row: (Int) -> UnsafePointer<UInt8>
    ) -> Bitmap {
        let channels = format.bytesPerPixel
        let horizontal = Footprint(source: sourceWidth, target: width)
        var out = [UInt8](repeating: 0, count: width * height * channels)
        // One spare float so the RGB loop can read each pixel as four lanes.
        var column = [Float](repeating: 0, count: sourceWidth * channels + 1)
        let lines = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: vertical.taps)
        defer { lines.deallocate() }
        out.withUnsafeMutableBufferPointer { target in
            column.withUnsafeMutableBufferPointer { accumulator in
                horizontal.weights.withUnsafeBufferPointer { horizontalWeights in
                    horizontal.first.withUnsafeBufferPointer { horizontalFirst in
                        vertical.weights.withUnsafeBufferPointer { verticalWeights in
                            guard let dst = target.baseAddress, let acc = accumulator.baseAddress,
                                let weights = horizontalWeights.baseAddress, let firsts = horizontalFirst.baseAddress,
                                let down = verticalWeights.baseAddress
                            else { return }
                            let rowCount = sourceWidth * channels, taps = vertical.taps
                            for oy in 0..<height {
                                let first = vertical.first[oy]
                                for t in 0..<taps { lines.advanced(by: t).initialize(to: row(first + t)) }
                                Self.verticalPass(lines, taps: taps, weights: down + oy * taps, into: acc, count: rowCount)
                                Self.horizontalPass(
                                    acc, firsts: firsts, weights: weights, taps: horizontal.taps, channels: channels,
                                    width: width, into: dst + oy * width * channels)
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, format: format, bytes: out)
    }

    /// One output row from the vertically reduced row `acc`: each pixel the weighted sum of `taps` pixels from
    /// `firsts[ox]`.
    @inline(__always)
    private static func horizontalPass(
        _ acc: UnsafeMutablePointer<Float>, firsts: UnsafePointer<Int>, weights: UnsafePointer<Float>, taps: Int,
        channels: Int, width: Int, into outLine: UnsafeMutablePointer<UInt8>
    ) {
        if channels == 3 && taps == 3 {
            // Every pixel but the row's last is stored as four bytes, the fourth overwritten by the next pixel: a
            // three-byte store made the compiler compute the lanes one by one.
            for ox in 0..<(width - 1) {
                pixel3Taps3(acc + firsts[ox] &* 3, weights + ox &* 3, outLine + ox &* 3, wide: true)
            }
            let ox = width - 1
            pixel3Taps3(acc + firsts[ox] &* 3, weights + ox &* 3, outLine + ox &* 3, wide: false)
            return
        }
        if channels == 3 {
            for ox in 0..<width { pixel3(acc + firsts[ox] * 3, weights + ox * taps, taps, outLine + ox * 3) }
            return
        }
        for ox in 0..<width {
            let start = acc + firsts[ox] * channels, w = weights + ox * taps
            for c in 0..<channels {
                var sum: Float = 0.5
                for t in 0..<taps { sum += w[t] * start[t * channels + c] }
                outLine[ox * channels + c] = UInt8(clamping: Int(sum))
            }
        }
    }

    /// One row of the vertical pass: the weighted sum of its source rows `lines`, in tap order. The first three
    /// taps are added in one sweep (most downscales that preparation makes have three or fewer), the rest one sweep
    /// each as before; a zero weight adds an exact zero to a sum that is never negative, so leaving it in or out
    /// gives the same floats, and a sweep per tap cost a load and a store of the whole row each (issue 21).
    @inline(__always)
    private static func verticalPass(
        _ lines: UnsafePointer<UnsafePointer<UInt8>>, taps: Int, weights w: UnsafePointer<Float>,
        into acc: UnsafeMutablePointer<Float>, count: Int
    ) {
        let line = lines[0]
        switch taps {
        case 1:
            let w0 = w[0]
            for i in 0..<count { acc[i] = w0 * Float(line[i]) }
        case 2:
            let w0 = w[0], w1 = w[1], l1 = lines[1]
            for i in 0..<count { acc[i] = w0 * Float(line[i]) + w1 * Float(l1[i]) }
        default:
            let w0 = w[0], w1 = w[1], w2 = w[2], l1 = lines[1], l2 = lines[2]
            for i in 0..<count { acc[i] = w0 * Float(line[i]) + w1 * Float(l1[i]) + w2 * Float(l2[i]) }
        }
        for offset in min(taps, 3)..<taps {
            let weight = w[offset]
            guard weight != 0 else { continue }
            let next = lines[offset]
            for i in 0..<count { acc[i] += weight * Float(next[i]) }
        }
    }

    /// `pixel3` for three taps, unrolled: the same products added in the same order. `wide` stores the fourth
    /// lane too (a byte of the next pixel, which must be written after this one).
    @inline(__always)
    private static func pixel3Taps3(
        _ source: UnsafeMutablePointer<Float>, _ weights: UnsafePointer<Float>, _ out: UnsafeMutablePointer<UInt8>,
        wide: Bool
    ) {
        @inline(__always) func pixel(_ t: Int) -> SIMD4<Float> {
            UnsafeRawPointer(source + t &* 3).loadUnaligned(as: SIMD4<Float>.self)
        }
        let sum = weights[0] * pixel(0) + weights[1] * pixel(1) + weights[2] * pixel(2)
        let bytes = SampleRounding.bytes(sum)
        if wide {
            UnsafeMutableRawPointer(out).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
            return
        }
        out[0] = bytes[0]
        out[1] = bytes[1]
        out[2] = bytes[2]
    }

    /// One RGB output pixel: the weighted sum of `taps` pixels of the vertically reduced row, the three channels
    /// (and a fourth lane that is ignored) as one vector, rounded by `SampleRounding` (the sums lie in 0…255, far
    /// below 2²²) instead of a checked float-to-integer conversion per channel. It differs from
    /// `floor(sum + 0.5)` only on exact ties, where it rounds to even.
    @inline(__always)
    private static func pixel3(
        _ source: UnsafeMutablePointer<Float>, _ weights: UnsafePointer<Float>, _ taps: Int,
        _ out: UnsafeMutablePointer<UInt8>
    ) {
        var sum = SIMD4<Float>()
        for t in 0..<taps {
            sum += weights[t] * UnsafeRawPointer(source + t * 3).loadUnaligned(as: SIMD4<Float>.self)
        }
        let bytes = SampleRounding.bytes(sum)
        out[0] = bytes[0]
        out[1] = bytes[1]
        out[2] = bytes[2]
    }
}

extension Bitmap {
    /// This bitmap shrunk to `width`×`height` by area averaging (every output pixel the mean of the area it covers),
    /// the exact low-pass for downscaling, so fine patterns average out instead of turning into moiré. It never
    /// enlarges: each target dimension is clamped to 1 through this bitmap's own. A bitmap whose geometry
    /// `validate()` refuses is returned as it is. Working memory is two rows, whatever the height.
    public func resized(width: Int, height: Int) -> Bitmap {
        do { try validate() } catch { return self }
        return AreaResampler.resize(
            self, width: min(max(width, 1), self.width), height: min(max(height, 1), self.height))
    }
}
