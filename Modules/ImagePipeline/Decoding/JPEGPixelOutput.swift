import ReceptionCore

/// The last step of a JPEG decode: each component's plane brought to output resolution (triangle-filter
/// upsampling for factors of two, the same "fancy" upsampling libjpeg-class decoders use by default; replication
/// otherwise), then the colour transform to grey or RGB.
extension JPEGFrame {
    /// The colour model of the components (T.81 leaves it to JFIF and Adobe APP14).
    enum ColorModel {
        case grey, yCbCr, rgb, cmyk, ycck
    }

    func colorModel(adobeTransform: Int?) -> ColorModel {
        switch components.count {
        case 1: return .grey
        case 3:
            if adobeTransform == 0 { return .rgb }
            let ids = components.map(\.id)
            return adobeTransform == nil && ids == [0x52, 0x47, 0x42] ? .rgb : .yCbCr  // "RGB"
        default:
            return adobeTransform == 2 ? .ycck : .cmyk
        }
    }

    /// Builds the output image.
    func render(adobeTransform: Int?, ledger: BufferLedger) -> PixelBuffer {
        let model = colorModel(adobeTransform: adobeTransform)
        let format: PixelFormat = model == .grey ? .gray8 : .rgb8
        let width = outputWidth, height = outputHeight
        var bytes = [UInt8](repeating: 0, count: width * height * format.bytesPerPixel)
        ledger.record(bytes.count)
        let rows = components.map { UpsampledRow($0, outputWidth: width, ledger: ledger) }
        let tables = YCbCrTables.shared
        bytes.withUnsafeMutableBufferPointer { output in
            guard let out = output.baseAddress else { return }
            for y in 0..<height {
                let samples = rows.map { $0.row(y) }
                let line = out + y * width * format.bytesPerPixel
                switch model {
                case .grey:
                    line.update(from: samples[0], count: width)
                case .rgb:
                    for x in 0..<width {
                        (line[3 * x], line[3 * x + 1], line[3 * x + 2]) = (samples[0][x], samples[1][x], samples[2][x])
                    }
                case .yCbCr:
                    tables.convert(samples[0], samples[1], samples[2], count: width, into: line)
                case .cmyk, .ycck:
                    if model == .ycck { tables.convert(samples[0], samples[1], samples[2], count: width, into: line) }
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
        return PixelBuffer(width: width, height: height, format: format, bytes: bytes)
    }
}

/// One component's samples for an output row, upsampled from its plane into a scratch row when needed.
final class UpsampledRow {
    let component: JPEGComponent
    let width: Int
    let scratch: UnsafeMutablePointer<UInt8>
    let sums: UnsafeMutablePointer<Int32>
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
        countedBytes = capacity + 4 * (component.validWidth + 2)
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
        guard let plane = c.plane.baseAddress else { return UnsafePointer(scratch) }
        let valid = c.validWidth, last = c.validWidth - 1, lastRow = c.validHeight - 1
        if c.upX == 1 && c.upY == 1 { return UnsafePointer(plane + y * c.stride) }
        if c.upY == 2 && (c.upX == 1 || c.upX == 2) {
            // Vertical triangle: 3/4 of the nearer row, 1/4 of the farther (edges replicate).
            let near = min(y >> 1, lastRow)
            let far = y & 1 == 0 ? max(near - 1, 0) : min(near + 1, lastRow)
            let a = plane + near * c.stride, b = plane + far * c.stride
            for i in 0..<valid { sums[i] = 3 * Int32(a[i]) + Int32(b[i]) }
            if c.upX == 1 {
                let bias: Int32 = y & 1 == 0 ? 1 : 2
                for i in 0..<valid { scratch[i] = UInt8(truncatingIfNeeded: (sums[i] + bias) >> 2) }
            } else {
                for i in 0..<valid {
                    let here = 3 * sums[i]
                    scratch[2 * i] = UInt8(truncatingIfNeeded: (here + sums[max(i - 1, 0)] + 8) >> 4)
                    scratch[2 * i + 1] = UInt8(truncatingIfNeeded: (here + sums[min(i + 1, last)] + 7) >> 4)
                }
            }
            return UnsafePointer(scratch)
        }
        let source = plane + min(y / c.upY, lastRow) * c.stride
        if c.upX == 2 && c.upY == 1 {
            for i in 0..<valid {
                let here = 3 * Int32(source[i])
                scratch[2 * i] = UInt8(truncatingIfNeeded: (here + Int32(source[max(i - 1, 0)]) + 1) >> 2)
                scratch[2 * i + 1] = UInt8(truncatingIfNeeded: (here + Int32(source[min(i + 1, last)]) + 2) >> 2)
            }
            return UnsafePointer(scratch)
        }
        for x in 0..<width { scratch[x] = source[min(x / c.upX, last)] }
        return UnsafePointer(scratch)
    }
}

/// JFIF YCbCr → RGB (R = Y + 1.402 Cr', G = Y − 0.344136 Cb' − 0.714136 Cr', B = Y + 1.772 Cb'), with the
/// products precomputed per chroma value in 16.16 fixed point.
struct YCbCrTables: Sendable {
    static let shared = YCbCrTables()
    let redFromCr: [Int32], blueFromCb: [Int32], greenFromCb: [Int32], greenFromCr: [Int32]

    init() {
        func table(_ factor: Double, fixed: Bool) -> [Int32] {
            (0..<256).map { i in
                let value = factor * Double(i - 128)
                return fixed ? Int32((value * 65_536).rounded()) : Int32(value.rounded())
            }
        }
        redFromCr = table(1.402, fixed: false)
        blueFromCb = table(1.772, fixed: false)
        greenFromCb = table(-0.344136, fixed: true)
        greenFromCr = table(-0.714136, fixed: true)
    }

    func convert(
        _ luma: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>, count: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        redFromCr.withUnsafeBufferPointer { rCr in
            blueFromCb.withUnsafeBufferPointer { bCb in
                greenFromCb.withUnsafeBufferPointer { gCb in
                    greenFromCr.withUnsafeBufferPointer { gCr in
                        for x in 0..<count {
                            let y = Int32(luma[x]), b = Int(cb[x]), r = Int(cr[x])
                            let green = y + ((gCb[b] + gCr[r] + 32_768) >> 16)
                            out[3 * x] = UInt8(clamping: y + rCr[r])
                            out[3 * x + 1] = UInt8(clamping: green)
                            out[3 * x + 2] = UInt8(clamping: y + bCb[b])
                        }
                    }
                }
            }
        }
    }
}
