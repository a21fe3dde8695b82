
/// The last step of a JPEG decode: each component's plane brought to output resolution (triangle-filter
/// upsampling for factors of two, the same "fancy" upsampling libjpeg-class decoders use by default; replication
/// otherwise), then the colour transform to grey or RGB.
extension JPEGFrame {
    /// The colour model of the components (T.81 leaves it to JFIF and Adobe APP14).
    enum ColorModel {
        case grey, yCbCr, rgb, cmyk, ycck
    }
}

/// A decoded frame's output rows, each rendered when asked for: the planes brought to output resolution and
/// converted to grey or RGB one row at a time. `renderAll` writes the whole picture; photo preparation instead
/// asks for the few rows its resampler is reading (`AreaResampler.resize(rendering:width:height:)`), so the
/// full-size RGB picture of a 12–48 MP photo is never held (36 MB at 12 MP full size, 20 MB at 48 MP and 3/8).
/// Every row is the same bytes either way.
package final class JPEGFrameRows {
    let model: JPEGFrame.ColorModel
    package let format: BitmapFormat
    package let width: Int, height: Int
    /// The file's ICC profile (APP2 chunks, reassembled), nil for none: it travels with the rows so that
    /// preparation, which never holds the decoded picture, can convert what it resizes to sRGB.
    package var iccProfile: [UInt8]?
    private let rows: [UpsampledRow]
    private let samples: UnsafeMutablePointer<UnsafePointer<UInt8>>
    private let ledger: BufferLedger

    init(_ frame: JPEGFrame, adobeTransform: Int?, ledger: BufferLedger) {
        self.ledger = ledger
        model = frame.colorModel(adobeTransform: adobeTransform)
        format = model == .grey ? .gray8 : .rgb8
        width = frame.outputWidth
        height = frame.outputHeight
        rows = frame.components.map { UpsampledRow($0, outputWidth: frame.outputWidth, ledger: ledger) }
        // Each slot is replaced by the row's own samples before it is read; it starts at its scratch row.
        samples = .allocate(capacity: rows.count)
        samples.initialize(from: rows.map { UnsafePointer($0.scratch) }, count: rows.count)
    }

    deinit {
        samples.deallocate()
    }

    /// The whole picture (its bytes counted in the decode's ledger).
    func renderAll() -> Bitmap {
        let bytesPerRow = width * format.bytesPerPixel, byteCount = bytesPerRow * height
        ledger.record(byteCount)
        // Every byte is written below, row by row, so the output starts uninitialised (no 36 MB memset for 12 MP).
        let bytes = [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
            initialized = byteCount
            guard let out = output.baseAddress else { return }
            for y in 0..<height { render(row: y, into: out + y * bytesPerRow) }
        }
        return Bitmap(width: width, height: height, format: format, bytes: bytes)
    }

    /// Writes output row `y` (`width` × bytes per pixel) at `line`.
    func render(row y: Int, into line: UnsafeMutablePointer<UInt8>) {
        let samples = self.samples
        for (index, row) in rows.enumerated() { samples[index] = row.row(y) }
        switch model {
        case .grey:
            line.update(from: samples[0], count: width)
        case .rgb:
            for x in 0..<width {
                (line[3 * x], line[3 * x + 1], line[3 * x + 2]) = (samples[0][x], samples[1][x], samples[2][x])
            }
        case .yCbCr:
            YCbCr.convert(samples[0], samples[1], samples[2], count: width, into: line)
        case .cmyk, .ycck:
            if model == .ycck { YCbCr.convert(samples[0], samples[1], samples[2], count: width, into: line) }
            for x in 0..<width {
                // Adobe writes CMYK inverted (255 = no ink); YCCK decodes to the complement of that.
                let k = Int(samples[3][x])
                for c in 0..<3 {
                    let stored = model == .ycck ? 255 - Int(line[3 * x + c]) : Int(samples[c][x])
                    line[3 * x + c] = UInt8((stored * k + 127) / 255)
                }
            }
        }
    }
}

/// One component's samples for an output row, upsampled from its plane into a scratch row when needed.
///
/// The loops run over raw pointers with the picture's edges handled outside them, so the compiler vectorises them.
final class UpsampledRow {
    let component: JPEGComponent
    let width: Int
    let scratch: UnsafeMutablePointer<UInt8>
    /// The vertical pass of the triangle filter (at most 4 × 255, so 16 bits suffice).
    let sums: UnsafeMutablePointer<Int16>
    let ledger: BufferLedger
    let countedBytes: Int

    init(_ component: JPEGComponent, outputWidth: Int, ledger: BufferLedger) {
        self.component = component
        self.ledger = ledger
        width = outputWidth
        let capacity = max(outputWidth, component.validWidth * component.upX) + 2
        scratch = .allocate(capacity: capacity)
        scratch.initialize(repeating: 0, count: capacity)
        sums = .allocate(capacity: component.validWidth + 2)
        sums.initialize(repeating: 0, count: component.validWidth + 2)
        countedBytes = capacity + 2 * (component.validWidth + 2)
        ledger.record(countedBytes)
    }

    deinit {
        scratch.deallocate()
        sums.deallocate()
        ledger.release(countedBytes)
    }

    /// The samples of output row `y` (at least `width` of them).
    func row(_ y: Int) -> UnsafePointer<UInt8> {
        let c = component
        guard let plane = c.plane.baseAddress, c.validWidth > 0 else { return UnsafePointer(scratch) }
        let valid = c.validWidth, last = c.validWidth - 1, lastRow = c.validHeight - 1
        let scratch = self.scratch, sums = self.sums
        if c.upX == 1 && c.upY == 1 { return UnsafePointer(plane + y * c.stride) }
        if c.upY == 2 && (c.upX == 1 || c.upX == 2) {
            // Vertical triangle: 3/4 of the nearer row, 1/4 of the farther (edges replicate).
            let near = min(y >> 1, lastRow)
            let far = y & 1 == 0 ? max(near - 1, 0) : min(near + 1, lastRow)
            let a = plane + near * c.stride, b = plane + far * c.stride
            for i in 0..<valid { sums[i] = 3 &* Int16(a[i]) &+ Int16(b[i]) }
            if c.upX == 1 {
                let bias: Int16 = y & 1 == 0 ? 1 : 2
                for i in 0..<valid { scratch[i] = UInt8(truncatingIfNeeded: (sums[i] &+ bias) &>> 2) }
            } else {
                Self.triangle(sums, count: valid, into: scratch, bias: (8, 7), shift: 4)
            }
            return UnsafePointer(scratch)
        }
        let source = plane + min(y / c.upY, lastRow) * c.stride
        if c.upX == 2 && c.upY == 1 {
            for i in 0..<valid { sums[i] = Int16(source[i]) }
            Self.triangle(sums, count: valid, into: scratch, bias: (1, 2), shift: 2)
            return UnsafePointer(scratch)
        }
        for x in 0..<width { scratch[x] = source[min(x / c.upX, last)] }
        return UnsafePointer(scratch)
    }

    /// Horizontal triangle upsampling by two: output 2i is (3·s[i] + s[i−1] + bias.0) >> shift, output 2i + 1 is
    /// (3·s[i] + s[i+1] + bias.1) >> shift; the first and last sample stand in for their missing neighbours. On
    /// x86-64 the interior runs eight samples at a time through SSE2 (`UpsampledRow+SSE2.swift`).
    @inline(__always)
    static func triangle(
        _ s: UnsafeMutablePointer<Int16>, count: Int, into out: UnsafeMutablePointer<UInt8>, bias: (Int16, Int16),
        shift: Int16
    ) {
        let last = count - 1
        func pair(_ i: Int, _ left: Int16, _ right: Int16) {
            let here = 3 &* s[i]
            out[2 * i] = UInt8(truncatingIfNeeded: (here &+ left &+ bias.0) &>> shift)
            out[2 * i + 1] = UInt8(truncatingIfNeeded: (here &+ right &+ bias.1) &>> shift)
        }
        pair(0, s[0], s[min(1, last)])
        guard last > 0 else { return }
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
        let done = triangleSSE2(s, from: 1, upTo: last, into: out, bias: bias, shift: shift)
        #else
        let done = 1
        #endif
        triangleOneByOne(s, range: done..<last, into: out, bias: bias, shift: shift)
        pair(last, s[last - 1], s[last])
    }

    /// The interior samples of `range` one at a time (each has both neighbours).
    static func triangleOneByOne(
        _ s: UnsafeMutablePointer<Int16>, range: Range<Int>, into out: UnsafeMutablePointer<UInt8>,
        bias: (Int16, Int16), shift: Int16
    ) {
        for i in range {
            let here = 3 &* s[i]
            out[2 * i] = UInt8(truncatingIfNeeded: (here &+ s[i - 1] &+ bias.0) &>> shift)
            out[2 * i + 1] = UInt8(truncatingIfNeeded: (here &+ s[i + 1] &+ bias.1) &>> shift)
        }
    }
}

/// JFIF YCbCr → RGB (R = Y + 1.402 Cr', G = Y − 0.344136 Cb' − 0.714136 Cr', B = Y + 1.772 Cb', with Cb' = Cb − 128
/// and Cr' = Cr − 128) in 16.16 fixed point with round-half-up: plain integer arithmetic with no table lookups.
/// On x86-64 and arm64 sixteen pixels at a time go through SSE2 (`YCbCr+SSE2.swift`) or NEON (`YCbCr+NEON.swift`),
/// the same sums, the rest one by one.
enum YCbCr {
    static func convert(
        _ luma: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        #if arch(x86_64) && canImport(_Builtin_intrinsics.intel)
        let done = convertSSE2(luma, cb, cr, count: count, into: out)
        #elseif arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
        let done = convertNEON(luma, cb, cr, count: count, into: out)
        #else
        let done = 0
        #endif
        convertOneByOne(luma, cb, cr, range: done..<count, into: out)
    }

    /// The pixels of `range`, one at a time (the reference the vector path is tested against).
    static func convertOneByOne(
        _ luma: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, range: Range<Int>,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        for x in range {
            let y = Int32(luma[x]), b = Int32(cb[x]) &- 128, r = Int32(cr[x]) &- 128
            // 91,881 = 2¹⁶ + 26,345; 46,802 = 2¹⁵ + 14,034; 116,130 = 2¹⁷ − 14,942. Whole multiples of 2¹⁶ leave
            // the rounded shift unchanged, and constants below 2¹⁵ fit 16-bit vector multiplies.
            let red = y &+ r &+ ((26_345 &* r &+ 32_768) &>> 16)
            let green = y &+ ((-22_554 &* b &- 14_034 &* r &- (r &<< 15) &+ 32_768) &>> 16)
            let blue = y &+ (b &<< 1) &+ ((-14_942 &* b &+ 32_768) &>> 16)
            out[3 * x] = UInt8(clamping: red)
            out[3 * x + 1] = UInt8(clamping: green)
            out[3 * x + 2] = UInt8(clamping: blue)
        }
    }
}
