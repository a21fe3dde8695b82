/// Reads pixels of one source format as packed words: red in bits 0–7, green in 8–15, blue in 16–23 (the top byte
/// is ignored), so eight pixels become one `SIMD8<Int32>` and the channels are masks and shifts of it.
protocol PixelReader {
    static var bytesPerPixel: Int { get }
    /// The pixel at `p`, reading only its own bytes.
    static func word(_ p: UnsafePointer<UInt8>) -> Int32
    /// The pixel at `p`, reading four bytes from `p` (the caller guarantees they exist): one load for RGB.
    static func wideWord(_ p: UnsafePointer<UInt8>) -> Int32
}

/// Three bytes per pixel.
enum RGBReader: PixelReader {
    static var bytesPerPixel: Int { 3 }

    @inline(__always)
    static func word(_ p: UnsafePointer<UInt8>) -> Int32 {
        Int32(p[0]) | Int32(p[1]) &<< 8 | Int32(p[2]) &<< 16
    }

    @inline(__always)
    static func wideWord(_ p: UnsafePointer<UInt8>) -> Int32 {
        Int32(bitPattern: UInt32(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)))
    }
}

/// Four bytes per pixel; transparency is flattened onto opaque white (spec 7.9 step 3). `StripConverter` flattens a
/// strip's rows with it and converts them as RGB (`convertFlattened`).
enum RGBAReader {
    @inline(__always)
    static func word(_ p: UnsafePointer<UInt8>) -> Int32 {
        // Over white: c·α + 255·(1 − α) = 255 − (255 − c)·α/255, rounded to nearest.
        let alpha = Int32(p[3])
        let r = 255 &- ((255 &- Int32(p[0])) &* alpha &+ 127) / 255
        let g = 255 &- ((255 &- Int32(p[1])) &* alpha &+ 127) / 255
        let b = 255 &- ((255 &- Int32(p[2])) &* alpha &+ 127) / 255
        return r | g &<< 8 | b &<< 16
    }
}

/// Fills a strip's sample planes from source rows: colour conversion (JFIF YCbCr, level-shifted by −128 for the
/// DCT) fused with chroma downsampling, so each source pixel is read once. Rows and columns past the image edge
/// repeat the last row or column, which keeps the padding blocks smooth and cheap to code.
///
/// Everything runs on whole vectors of the DCT layout (`StripPlanes`): one `SIMD8` holds the same position of eight
/// horizontally adjacent blocks, so the eight pixels 8 apart that make one vector are gathered with one load each
/// (`PixelReader.wideWord`) and then converted with vector arithmetic only. Horizontal neighbours are the next
/// vector and vertical ones the next row's, so the 2×2 chroma sums are vector additions too.
struct StripConverter {
    let source: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let bytesPerRow: Int
    let layout: FrameLayout
    /// For RGBA input: room for one strip's rows flattened onto white as RGB (`flattenedStripBytes`).
    var flattenedRows: UnsafeMutablePointer<UInt8>? = nil

    typealias Words = SIMD8<Int32>
    typealias Samples = SIMD8<Float>

    /// The clamped source row for strip-relative row `y` of strip `strip`.
    @inline(__always)
    private func row(_ strip: Int, _ y: Int) -> UnsafePointer<UInt8> {
        source + min(strip * layout.mcuHeight + y, height - 1) * bytesPerRow
    }

    /// Groups (of 64 pixel columns) whose pixels, and one more, all lie inside the image: their words can be read
    /// with `wideWord`, which may touch the byte after a pixel.
    private var interiorGroups: Int { (width - 1) / 64 }

    /// Groups whose pixels have sixteen bytes of the same row from each of them on (five more pixels and a byte):
    /// the SSE2 path's loads.
    var sse2Groups: Int { max(0, (width - 6) / 64) }

    /// Bytes of one padded row: a group's 64 RGB pixels and the 16 bytes the SSE2 path's last loads reach.
    static let paddedRowBytes = 64 * 3 + 16
    /// Room for one padded row: `padded` stores eight bytes at a time.
    static let paddedRowCapacity = paddedRowBytes + 8

    /// RGB row `row` from column `x0` into `copy` (`paddedRowCapacity` bytes): its pixels up to the image's
    /// right edge, then its last pixel repeated, as `gatherClamped` reads them, so that the groups at the edge take
    /// the vector paths too, which read whole groups of pixels (the portable path cost two and a half times as much
    /// on arm64).
    @inline(__always)
    func padded(_ row: UnsafePointer<UInt8>, from x0: Int, into copy: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        let count = min(64, width &- x0) &* 3
        copy.update(from: row + x0 &* 3, count: count)
        let last = row + (width &- 1) &* 3
        let pixel = UInt64(last[0]) | UInt64(last[1]) &<< 8 | UInt64(last[2]) &<< 16
        // Eight bytes holding the pixel two and two-thirds times, stored six bytes apart: two pixels a store.
        let pattern = pixel | pixel &<< 24 | pixel &<< 48
        var at = count
        while at < Self.paddedRowBytes {
            UnsafeMutableRawPointer(copy + at).storeBytes(of: pattern.littleEndian, as: UInt64.self)
            at &+= 6
        }
        return UnsafePointer(copy)
    }

    /// The words of the pixels at columns `x0`, `x0 + 8`, …, `x0 + 56` of `row`, all inside the image.
    @inline(__always)
    private static func gather<Reader: PixelReader>(_: Reader.Type, _ row: UnsafePointer<UInt8>, _ x0: Int) -> Words {
        let p = row + x0 &* Reader.bytesPerPixel
        let s = 8 &* Reader.bytesPerPixel
        return Words(
            Reader.wideWord(p), Reader.wideWord(p + s), Reader.wideWord(p + 2 &* s), Reader.wideWord(p + 3 &* s),
            Reader.wideWord(p + 4 &* s), Reader.wideWord(p + 5 &* s), Reader.wideWord(p + 6 &* s),
            Reader.wideWord(p + 7 &* s))
    }

    /// The same near the right edge: columns past the image repeat its last column.
    @inline(__always)
    private func gatherClamped<Reader: PixelReader>(_: Reader.Type, _ row: UnsafePointer<UInt8>, _ x0: Int) -> Words {
        var words = Words()
        for lane in 0..<8 {
            words[lane] = Reader.word(row + min(x0 &+ 8 &* lane, width &- 1) &* Reader.bytesPerPixel)
        }
        return words
    }

    /// Bytes of one strip of `layout`'s rows as RGB, with room for the vector paths' widest read past a row.
    static func flattenedStripBytes(_ layout: FrameLayout) -> Int { layout.mcuHeight &* layout.width &* 3 &+ 16 }

    /// RGBA input: the strip's rows flattened onto opaque white into `flattenedRows` (`RGBAReader.word`, the same
    /// rounding for every pixel), then converted as RGB at 4:2:0 (`subsampled`) or 4:4:4. RGBA so takes the RGB
    /// vector paths, and the codec keeps one converter per subsampling instead of one per pixel format; the bytes
    /// are those of the RGB image the flattening gives.
    func convertFlattened(strip: Int, into planes: StripPlanes, subsampled: Bool) {
        guard let rows = flattenedRows else { return }
        let rowBytes = width &* 3
        for y in 0..<layout.mcuHeight {
            let source = row(strip, y), target = rows + y &* rowBytes
            for x in 0..<width {
                let word = RGBAReader.word(source + x &* 4)
                target[x &* 3] = UInt8(truncatingIfNeeded: word)
                target[x &* 3 &+ 1] = UInt8(truncatingIfNeeded: word &>> 8)
                target[x &* 3 &+ 2] = UInt8(truncatingIfNeeded: word &>> 16)
            }
        }
        // Its rows are the strip's (already clamped at the image's bottom), so the strip is its first and only one.
        let flat = StripConverter(
            source: rows, width: width, height: layout.mcuHeight, bytesPerRow: rowBytes, layout: layout)
        if subsampled {
            flat.convert420(RGBReader.self, strip: 0, into: planes)
        } else {
            flat.convert444(RGBReader.self, strip: 0, into: planes)
        }
    }

    /// Grey input to the single plane of a grayscale frame.
    func convertGray(strip: Int, into planes: StripPlanes) {
        let luma = planes.samples[0]
        let groups = layout.components[0].groups
        for y in 0..<layout.mcuHeight {
            let pixels = row(strip, y)
            let vectors = luma + y &* 8
            for group in 0..<groups {
                for column in 0..<8 {
                    var words = Words()
                    for lane in 0..<8 {
                        words[lane] = Int32(pixels[min(group &* 64 &+ 8 &* lane &+ column, width &- 1)])
                    }
                    vectors[group &* 64 &+ column] = Self.float(words) - 128
                }
            }
        }
    }

    /// Colour input at full chroma resolution (4:4:4).
    func convert444<Reader: PixelReader>(_ reader: Reader.Type, strip: Int, into planes: StripPlanes) {
        let (luma, cb, cr) = (planes.samples[0], planes.samples[1], planes.samples[2])
        let groups = layout.components[0].groups
        let interior = interiorGroups
        for y in 0..<layout.mcuHeight {
            let pixels = row(strip, y)
            for group in 0..<groups {
                let index = group &* 64 &+ y &* 8
                for column in 0..<8 {
                    let x0 = group &* 64 &+ column
                    let words =
                        group < interior ? Self.gather(reader, pixels, x0) : gatherClamped(reader, pixels, x0)
                    let (r, g, b) = Self.channels(words)
                    luma[index &+ column] = Self.luma(r, g, b)
                    cb[index &+ column] = blueDifference(r, g, b)
                    cr[index &+ column] = redDifference(r, g, b)
                }
            }
        }
    }

    /// Colour input with chroma averaged over each 2×2 square (4:2:0). Averaging RGB and then converting equals
    /// averaging the converted chroma (the transform is linear) and costs one conversion instead of four.
    ///
    /// For each pair of rows and each luma group, columns c and c + 1 of both rows are four vectors of words; their
    /// luma goes to four luma vectors, and the sum of the four gives chroma column c/2 of every luma block. Luma
    /// block b holds chroma columns 4·(b mod 2) + c/2 of chroma block ⌊b/2⌋, so the even lanes of that sum are one
    /// half of a chroma vector and the odd lanes one half of the vector four columns on.
    func convert420<Reader: PixelReader>(_ reader: Reader.Type, strip: Int, into planes: StripPlanes) {
        let luma = planes.samples[0]
        let cb = UnsafeMutableRawPointer(planes.samples[1]).assumingMemoryBound(to: SIMD4<Float>.self)
        let cr = UnsafeMutableRawPointer(planes.samples[2]).assumingMemoryBound(to: SIMD4<Float>.self)
        let lumaGroups = layout.components[0].groups
        let chromaGroups = layout.components[1].groups
        let interior = interiorGroups
        #if arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)
        let inPlace = interior
        #else
        let inPlace = sse2Groups
        #endif
        // RGB groups the vector paths cannot read in place (at the right edge) are read from padded copies.
        for cy in 0..<(layout.mcuHeight / 2) {
            let top = row(strip, 2 &* cy)
            let bottom = row(strip, 2 &* cy &+ 1)
            let y = 2 &* cy
            for group in 0..<lumaGroups {
                let lumaVector: Int = ((y &>> 3) &* lumaGroups &+ group) &* 64 &+ (y & 7) &* 8
                let upper = luma + lumaVector
                // In SIMD4 halves: chroma vector (row cy, column 0) of chroma group ⌊group/2⌋, half group mod 2.
                let chromaVector: Int = ((cy &>> 3) &* chromaGroups &+ (group &>> 1)) &* 64 &+ (cy & 7) &* 8
                let chroma: Int = chromaVector &* 2 &+ (group & 1)
                let x0 = group &* 64
                #if (arch(arm64) && canImport(_Builtin_intrinsics.arm.neon)) || (arch(x86_64) && canImport(_Builtin_intrinsics.intel))
                if Reader.self == RGBReader.self {
                    let t = group < inPlace ? top + x0 &* 3 : padded(top, from: x0, into: planes.edgeRows)
                    let b = group < inPlace
                        ? bottom + x0 &* 3
                        : padded(bottom, from: x0, into: planes.edgeRows + Self.paddedRowCapacity)
                    #if arch(arm64)
                    Self.group420NEON(top: t, bottom: b, upper: upper, cb: cb, cr: cr, chroma: chroma)
                    #else
                    for pair in 0..<4 {
                        Self.pair420SSE2(
                            top: t, bottom: b, x: 2 &* pair, upper: upper, column: 2 &* pair, cb: cb, cr: cr,
                            target: chroma &+ 2 &* pair)
                    }
                    #endif
                    continue
                }
                #endif
                for pair in 0..<4 {
                    let c = 2 &* pair
                    let t0: Words, t1: Words, b0: Words, b1: Words
                    if group < interior {
                        t0 = Self.gather(reader, top, x0 &+ c)
                        t1 = Self.gather(reader, top, x0 &+ c &+ 1)
                        b0 = Self.gather(reader, bottom, x0 &+ c)
                        b1 = Self.gather(reader, bottom, x0 &+ c &+ 1)
                    } else {
                        t0 = gatherClamped(reader, top, x0 &+ c)
                        t1 = gatherClamped(reader, top, x0 &+ c &+ 1)
                        b0 = gatherClamped(reader, bottom, x0 &+ c)
                        b1 = gatherClamped(reader, bottom, x0 &+ c &+ 1)
                    }
                    upper[c] = Self.luma(t0)
                    upper[c &+ 1] = Self.luma(t1)
                    upper[c &+ 8] = Self.luma(b0)
                    upper[c &+ 9] = Self.luma(b1)
                    // Red and blue sum in separate 16-bit halves, green on its own: four 8-bit values fit.
                    let redBlue = Words(repeating: 0x00FF_00FF)
                    let sumRB = (t0 & redBlue) &+ (t1 & redBlue) &+ (b0 & redBlue) &+ (b1 & redBlue)
                    let green = Words(repeating: 0xFF00)
                    let sumG = (t0 & green) &+ (t1 & green) &+ (b0 & green) &+ (b1 & green)
                    let r = Self.float(sumRB & 0xFFFF), g = Self.float(sumG &>> 8), b = Self.float(sumRB &>> 16)
                    let blue = blueDifference(r, g, b) * 0.25
                    let red = redDifference(r, g, b) * 0.25
                    // Chroma column `pair` (even luma blocks) and column 4 + `pair` (odd ones): 8 vectors apart.
                    let target = chroma &+ 2 &* pair
                    cb[target] = blue.evenHalf
                    cb[target &+ 8] = blue.oddHalf
                    cr[target] = red.evenHalf
                    cr[target &+ 8] = red.oddHalf
                }
            }
        }
    }

    /// `Float(v)` for 0 ≤ v < 2²³, exact: with the exponent of 2²³ the mantissa bits are the integer itself. Two
    /// vector instructions, where the generic SIMD conversion is not always inlined.
    @inline(__always)
    private static func float(_ v: Words) -> Samples {
        unsafeBitCast(v | 0x4B00_0000, to: Samples.self) - 8_388_608
    }

    @inline(__always)
    private static func channels(_ words: Words) -> (Samples, Samples, Samples) {
        (float(words & 0xFF), float(words &>> 8 & 0xFF), float(words &>> 16 & 0xFF))
    }

    @inline(__always)
    private static func luma(_ words: Words) -> Samples {
        let (r, g, b) = channels(words)
        return luma(r, g, b)
    }

    /// JFIF luma, level-shifted by −128 (the shift rides on blue).
    @inline(__always)
    static func luma(_ r: Samples, _ g: Samples, _ b: Samples) -> Samples {
        (r * 0.299 + g * 0.587) + (b * 0.114 - 128)
    }
}

// JFIF (ITU-T T.871) full-range YCbCr. Y is shifted by −128 for the DCT (in `StripConverter.luma`); Cb and Cr would
// be +128 and −128, which cancel, so they are used as computed.

@inline(__always)
func blueDifference<V: SIMD>(_ r: V, _ g: V, _ b: V) -> V where V.Scalar == Float {
    -0.168_735_892 * r - 0.331_264_108 * g + 0.5 * b
}

@inline(__always)
func redDifference<V: SIMD>(_ r: V, _ g: V, _ b: V) -> V where V.Scalar == Float {
    0.5 * r - 0.418_687_589 * g - 0.081_312_411 * b
}
