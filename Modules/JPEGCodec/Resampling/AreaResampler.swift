#if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
import _Builtin_intrinsics.arm.neon
#endif

/// Shrinks an image by area averaging: every output pixel is the mean of the source area it covers, with
/// fractional weights at the borders. That is the exact low-pass for downscaling, so fine patterns (fabric,
/// screens, text) average out instead of aliasing into moiré. Never enlarges: callers clamp the target. The sums
/// are integers with fixed-point weights, so every sample is within one level of the exact mean (a quarter level on
/// average) and the bytes are the same on every processor.
///
/// Works one output row at a time (a vertical pass into one row of 16-bit sums, then the horizontal pass), so its
/// working memory is two rows whatever the image height; from a JPEG frame's rows (`JPEGFrameRows`) it also
/// holds only the source rows of one output row's window.
package enum AreaResampler {
    /// The vertical weights' precision: 2⁸, so a source byte times its weight fits a 16-bit lane and a weighted
    /// column sums to at most 255 · 2⁸. Only a one-tap footprint (the same height) has the weight 2⁸ itself.
    static let verticalBits = 8
    /// The horizontal weights' precision: 2¹⁶, so a 16-bit column sum times its weight, added over the taps with
    /// the rounding half, stays below 2³², and the output byte is the high byte of the sums' high halves. A
    /// weight of 2¹⁶ itself (the same width) does not fit in 16 bits: that case takes `narrowPass` instead.
    static let horizontalBits = 16

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
        let vertical = Footprint(source: image.height, target: height, bits: verticalBits, cap: 255)
        return image.bytes.withUnsafeBufferPointer { source in
            guard let src = source.baseAddress else { return image }
            return resample(
                sourceWidth: image.width, format: image.format, vertical: vertical, width: width, height: height,
                rows: .bitmap(src, bytesPerRow: image.bytesPerRow))
        }
    }

    /// The picture of a decoded JPEG frame (gray8 or rgb8), resized to `width`×`height` (each at most the source's) while
    /// holding only the source rows the vertical pass is reading: one ring slot per tap, each row rendered once
    /// (the windows of consecutive output rows only move down, and a window's rows fall in distinct slots).
    /// The same bytes as resizing the fully rendered picture.
    package static func resize(rendering rows: JPEGFrameRows, width: Int, height: Int) -> Bitmap {
        if width == rows.width && height == rows.height { return rows.renderAll() }
        let vertical = Footprint(source: rows.height, target: height, bits: verticalBits, cap: 255)
        let slots = vertical.taps, bytesPerRow = rows.width * rows.format.bytesPerPixel
        // Every slot is rendered into before it is read, so the ring starts uninitialised; no slot holds a row yet.
        let ring = UnsafeMutablePointer<UInt8>.allocate(capacity: slots * bytesPerRow)
        defer { ring.deallocate() }
        let held = UnsafeMutablePointer<Int>.allocate(capacity: slots)
        defer { held.deallocate() }
        held.initialize(repeating: -1, count: slots)
        return resample(
            sourceWidth: rows.width, format: rows.format, vertical: vertical, width: width, height: height,
            rows: .rendering(rows, ring: ring, held: held, slots: slots, bytesPerRow: bytesPerRow))
    }

    /// Where `resample` takes its source rows from. One resampling loop serves both (a closure per source made the
    /// compiler copy the whole loop for each); the choice is made once per source row.
    private enum RowSource {
        /// A whole picture in memory, `bytesPerRow` apart.
        case bitmap(UnsafePointer<UInt8>, bytesPerRow: Int)
        /// A frame's rows rendered on demand into a ring of `slots` rows; `held[slot]` is the row a slot holds.
        case rendering(
            JPEGFrameRows, ring: UnsafeMutablePointer<UInt8>, held: UnsafeMutablePointer<Int>, slots: Int,
            bytesPerRow: Int)

        /// Source row `y`.
        func row(_ y: Int) -> UnsafePointer<UInt8> {
            switch self {
            case .bitmap(let start, let bytesPerRow):
                return start + y * bytesPerRow
            case .rendering(let rows, let ring, let held, let slots, let bytesPerRow):
                let slot = y % slots, line = ring + slot * bytesPerRow
                if held[slot] != y {
                    rows.render(row: y, into: line)
                    held[slot] = y
                }
                return UnsafePointer(line)
            }
        }
    }

    /// The same bytes as `resize(_:width:height:)`, one sample at a time in plain integers: the reference that
    /// VectorPathTests (x86-64) and the arm lab's `vector-check` (arm64) hold the vector passes to.
    package static func resizeOneByOne(_ image: Bitmap, width: Int, height: Int) -> Bitmap {
        if width == image.width && height == image.height { return image }
        let channels = image.format.bytesPerPixel
        let vertical = Footprint(source: image.height, target: height, bits: verticalBits, cap: 255)
        let horizontal = Footprint(
            source: image.width, target: width, bits: horizontalBits, cap: (1 << horizontalBits) - 1)
        var out = [UInt8](repeating: 0, count: width * height * channels)
        var column = [Int](repeating: 0, count: image.width * channels)
        for oy in 0..<height {
            for i in column.indices {
                var sum = 0
                for t in 0..<vertical.taps {
                    let y = vertical.first[oy] + t
                    sum += Int(vertical.weights[oy * vertical.taps + t]) * Int(image.bytes[y * image.bytesPerRow + i])
                }
                column[i] = sum
            }
            for ox in 0..<width {
                for c in 0..<channels {
                    var value = (column[ox * channels + c] + 128) >> 8
                    if width != image.width {
                        var sum = Int(half)
                        for t in 0..<horizontal.taps {
                            sum += Int(horizontal.weights[ox * horizontal.taps + t])
                                * column[(horizontal.first[ox] + t) * channels + c]
                        }
                        value = sum >> (verticalBits + horizontalBits)
                    }
                    out[(oy * width + ox) * channels + c] = UInt8(truncatingIfNeeded: value)
                }
            }
        }
        return Bitmap(width: width, height: height, format: image.format, bytes: out)
    }

    /// The resampling itself: `rows.row(y)` gives source row `y`, asked for in windows that only move down.
    private static func resample(
        sourceWidth: Int, format: BitmapFormat, vertical: Footprint, width: Int, height: Int, rows: RowSource
    ) -> Bitmap {
        let channels = format.bytesPerPixel
        let horizontal = Footprint(
            source: sourceWidth, target: width, bits: horizontalBits, cap: (1 << horizontalBits) - 1)
        // Three taps (every downscale by a factor up to 2) as one 64-bit load per pixel: w0, w1, w2, 0.
        var packed: [UInt16] = []
        if horizontal.taps == 3 {
            packed.reserveCapacity(width * 4)
            for o in 0..<width {
                packed += horizontal.weights[(o * 3)..<(o * 3 + 3)]
                packed.append(0)
            }
        }
        var out = [UInt8](repeating: 0, count: width * height * channels)
        // One spare lane so the RGB loop can read each pixel as four lanes.
        var column = [UInt16](repeating: 0, count: sourceWidth * channels + 1)
        let lines = UnsafeMutablePointer<UnsafePointer<UInt8>>.allocate(capacity: vertical.taps)
        defer { lines.deallocate() }
        out.withUnsafeMutableBufferPointer { target in
            column.withUnsafeMutableBufferPointer { accumulator in
                (horizontal.taps == 3 ? packed : horizontal.weights).withUnsafeBufferPointer { horizontalWeights in
                    horizontal.first.withUnsafeBufferPointer { horizontalFirst in
                        vertical.weights.withUnsafeBufferPointer { verticalWeights in
                            guard let dst = target.baseAddress, let acc = accumulator.baseAddress,
                                let weights = horizontalWeights.baseAddress, let firsts = horizontalFirst.baseAddress,
                                let down = verticalWeights.baseAddress
                            else { return }
                            let rowCount = sourceWidth * channels, taps = vertical.taps
                            let bytes = vertical.largest <= 255
                            for oy in 0..<height {
                                let first = vertical.first[oy]
                                for t in 0..<taps { lines.advanced(by: t).initialize(to: rows.row(first + t)) }
                                Self.verticalPass(
                                    lines, taps: taps, weights: down + oy * taps, byteWeights: bytes, into: acc,
                                    count: rowCount)
                                let line = dst + oy * width * channels
                                if width == sourceWidth {
                                    Self.narrowPass(acc, count: rowCount, into: line)
                                } else {
                                    Self.horizontalPass(
                                        acc, firsts: firsts, weights: weights, taps: horizontal.taps,
                                        channels: channels, width: width, into: line)
                                }
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, format: format, bytes: out)
    }

    /// The rounding half of the two passes' scale, added before the final shift.
    private static let half = UInt32(1) << (verticalBits + horizontalBits - 1)

    /// A row of the same width: each 16-bit column sum divided by 2⁸, rounded to nearest (halves up).
    @inline(__always)
    private static func narrowPass(_ acc: UnsafeMutablePointer<UInt16>, count: Int, into outLine: UnsafeMutablePointer<UInt8>) {
        for i in 0..<count { outLine[i] = UInt8(truncatingIfNeeded: (UInt32(acc[i]) &+ 128) &>> 8) }
    }

    /// One output row from the vertically reduced row `acc`: each pixel the weighted sum of `taps` pixels from
    /// `firsts[ox]`, rounded to nearest (halves up). Integer sums, so every processor gives the same bytes. Three
    /// taps read their weights packed four to a pixel.
    @inline(__always)
    private static func horizontalPass(
        _ acc: UnsafeMutablePointer<UInt16>, firsts: UnsafePointer<Int>, weights: UnsafePointer<UInt16>, taps: Int,
        channels: Int, width: Int, into outLine: UnsafeMutablePointer<UInt8>
    ) {
        if channels == 3 && taps == 3 {
            // Every pixel but the row's last is stored as four bytes, the fourth overwritten by the next pixel: a
            // three-byte store made the compiler compute the lanes one by one.
            for ox in 0..<(width - 1) {
                pixel3Taps3(acc + firsts[ox] &* 3, weights + ox &* 4, outLine + ox &* 3, wide: true)
            }
            let ox = width - 1
            pixel3Taps3(acc + firsts[ox] &* 3, weights + ox &* 4, outLine + ox &* 3, wide: false)
            return
        }
        if channels == 3 {
            for ox in 0..<width { pixel3(acc + firsts[ox] * 3, weights + ox * taps, taps, outLine + ox * 3) }
            return
        }
        let weightsPerTap = taps == 3 ? 4 : taps
        for ox in 0..<width {
            let start = acc + firsts[ox] * channels, w = weights + ox * weightsPerTap
            for c in 0..<channels {
                var sum = half
                for t in 0..<taps { sum &+= UInt32(w[t]) &* UInt32(start[t * channels + c]) }
                outLine[ox * channels + c] = UInt8(truncatingIfNeeded: sum &>> UInt32(verticalBits + horizontalBits))
            }
        }
    }

    /// One row of the vertical pass: the weighted sum of its source rows `lines`, in 16-bit lanes (each weighted
    /// sum is at most 255 · 2⁸). The first three taps are added in one sweep (most downscales that preparation
    /// makes have three or fewer), the rest one sweep each; a zero weight adds nothing, so it is skipped. With
    /// `byteWeights` every weight fits in a byte, so each product is a byte times a byte, which the compiler
    /// keeps in widening multiplies (`umull`/`umlal` on arm64, `pmullw` on x86-64).
    @inline(__always)
    private static func verticalPass(
        _ lines: UnsafePointer<UnsafePointer<UInt8>>, taps: Int, weights w: UnsafePointer<UInt16>, byteWeights: Bool,
        into acc: UnsafeMutablePointer<UInt16>, count: Int
    ) {
        let line = lines[0]
        guard byteWeights else {
            // The same height: one tap of weight 2⁸.
            let w0 = w[0]
            for i in 0..<count { acc[i] = UInt16(line[i]) &* w0 }
            for offset in 1..<max(taps, 1) where w[offset] != 0 {
                let weight = w[offset], next = lines[offset]
                for i in 0..<count { acc[i] &+= UInt16(next[i]) &* weight }
            }
            return
        }
        @inline(__always) func byte(_ t: Int) -> UInt16 { UInt16(UInt8(truncatingIfNeeded: w[t])) }
        switch taps {
        case 1:
            let w0 = byte(0)
            for i in 0..<count { acc[i] = UInt16(line[i]) &* w0 }
        case 2:
            let w0 = byte(0), w1 = byte(1), l1 = lines[1]
            for i in 0..<count { acc[i] = UInt16(line[i]) &* w0 &+ UInt16(l1[i]) &* w1 }
        default:
            let w0 = byte(0), w1 = byte(1), w2 = byte(2), l1 = lines[1], l2 = lines[2]
            for i in 0..<count { acc[i] = UInt16(line[i]) &* w0 &+ UInt16(l1[i]) &* w1 &+ UInt16(l2[i]) &* w2 }
        }
        for offset in min(taps, 3)..<taps where w[offset] != 0 {
            let weight = byte(offset), next = lines[offset]
            for i in 0..<count { acc[i] &+= UInt16(next[i]) &* weight }
        }
    }

    /// Four 16-bit lanes at `source`, widened to 32 bits.
    @inline(__always)
    private static func lanes(_ source: UnsafeMutablePointer<UInt16>) -> SIMD4<UInt32> {
        let v = UnsafeRawPointer(source).loadUnaligned(as: SIMD4<UInt16>.self)
        return SIMD4(UInt32(v[0]), UInt32(v[1]), UInt32(v[2]), UInt32(v[3]))
    }

    /// A pixel's four sums (three channels and a lane that is ignored) rounded down to bytes: each sum is at most
    /// 255 · 2²⁴, so the rounding half (2²³) added and the sum shifted down by 24 leaves a byte in every lane. On
    /// arm64 that is `addhn` (the add and the high halves) and the high byte of each half.
    @inline(__always)
    private static func pixelBytes(_ sum: SIMD4<UInt32>) -> SIMD4<UInt8> {
        #if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
        let b = unsafeBitCast(vaddhn_u32(sum, SIMD4(repeating: half)), to: SIMD8<UInt8>.self)
        return SIMD4(b[1], b[3], b[5], b[7])
        #else
        let b = unsafeBitCast((sum &+ half) &>> UInt32(verticalBits + horizontalBits), to: SIMD16<UInt8>.self)
        return SIMD4(b[0], b[4], b[8], b[12])
        #endif
    }

    /// `pixel3` for three taps, unrolled, its weights packed (`w0, w1, w2, 0`). `wide` stores the fourth
    /// lane too (a byte of the next pixel, which must be written after this one).
    @inline(__always)
    private static func pixel3Taps3(
        _ source: UnsafeMutablePointer<UInt16>, _ weights: UnsafePointer<UInt16>, _ out: UnsafeMutablePointer<UInt8>,
        wide: Bool
    ) {
        let w = UnsafeRawPointer(weights).loadUnaligned(as: SIMD4<UInt16>.self)
        let sum = lanes(source) &* UInt32(w[0]) &+ lanes(source + 3) &* UInt32(w[1]) &+ lanes(source + 6) &* UInt32(w[2])
        let bytes = pixelBytes(sum)
        if wide {
            UnsafeMutableRawPointer(out).storeBytes(of: bytes, as: SIMD4<UInt8>.self)
            return
        }
        out[0] = bytes[0]
        out[1] = bytes[1]
        out[2] = bytes[2]
    }

    /// One RGB output pixel: the weighted sum of `taps` pixels of the vertically reduced row, the three channels
    /// (and a fourth lane that is ignored) as one vector.
    @inline(__always)
    private static func pixel3(
        _ source: UnsafeMutablePointer<UInt16>, _ weights: UnsafePointer<UInt16>, _ taps: Int,
        _ out: UnsafeMutablePointer<UInt8>
    ) {
        var sum = SIMD4<UInt32>()
        for t in 0..<taps { sum &+= lanes(source + t * 3) &* UInt32(weights[t]) }
        let bytes = pixelBytes(sum)
        out[0] = bytes[0]
        out[1] = bytes[1]
        out[2] = bytes[2]
    }
}

extension Bitmap {
    /// This bitmap shrunk to `width`×`height` by area averaging (every output pixel the mean of the area it covers),
    /// the exact low-pass for downscaling, so fine patterns average out instead of turning into moiré. It never
    /// enlarges: each target dimension is clamped to 1 through this bitmap's own. A bitmap whose geometry
    /// `validate()` refuses is returned as it is. Working memory is two rows, whatever the height. Each sample is
    /// within one level of the exact mean (integer sums, the same bytes on every processor).
    public func resized(width: Int, height: Int) -> Bitmap {
        do { try validate() } catch { return self }
        return AreaResampler.resize(
            self, width: min(max(width, 1), self.width), height: min(max(height, 1), self.height))
    }
}
