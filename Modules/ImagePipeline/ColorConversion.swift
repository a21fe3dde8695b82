/// Reads one pixel of a source format as red, green, blue in 0...255.
protocol PixelReader {
    static var bytesPerPixel: Int { get }
    static func rgb(_ pixel: UnsafePointer<UInt8>) -> (Int, Int, Int)
}

/// Three bytes per pixel.
enum RGBReader: PixelReader {
    static var bytesPerPixel: Int { 3 }
    @inline(__always)
    static func rgb(_ p: UnsafePointer<UInt8>) -> (Int, Int, Int) { (Int(p[0]), Int(p[1]), Int(p[2])) }
}

/// Four bytes per pixel; transparency is flattened onto opaque white (spec 7.9 step 3).
enum RGBAReader: PixelReader {
    static var bytesPerPixel: Int { 4 }
    @inline(__always)
    static func rgb(_ p: UnsafePointer<UInt8>) -> (Int, Int, Int) {
        // Over white: c·α + 255·(1 − α) = 255 − (255 − c)·α/255, rounded to nearest.
        let alpha = Int(p[3])
        return (
            255 - ((255 - Int(p[0])) * alpha + 127) / 255, 255 - ((255 - Int(p[1])) * alpha + 127) / 255,
            255 - ((255 - Int(p[2])) * alpha + 127) / 255
        )
    }
}

/// Per-channel luma contributions for every byte value, so a luma sample is three loads and two additions instead
/// of three conversions, three multiplications and three additions (the −128 level shift rides on blue).
final class LumaTables {
    let values: UnsafeMutablePointer<Float>

    init() {
        values = .allocate(capacity: 3 * 256)
        for v in 0..<256 {
            values[v] = 0.299 * Float(v)
            values[256 + v] = 0.587 * Float(v)
            values[512 + v] = 0.114 * Float(v) - 128
        }
    }

    deinit { values.deallocate() }

    @inline(__always)
    func luma(_ r: Int, _ g: Int, _ b: Int) -> Float {
        values[r] + values[256 &+ g] + values[512 &+ b]
    }
}

/// Fills a strip's sample planes from source rows: colour conversion (JFIF YCbCr, level-shifted by −128 for the
/// DCT) fused with chroma downsampling, so each source pixel is read once. Rows and columns past the image edge
/// repeat the last row or column, which keeps the padding blocks smooth and cheap to code.
struct StripConverter {
    let source: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let bytesPerRow: Int
    let layout: FrameLayout
    let tables = LumaTables()

    /// The clamped source row for strip-relative row `y` of strip `strip`.
    @inline(__always)
    private func row(_ strip: Int, _ y: Int) -> UnsafePointer<UInt8> {
        source + min(strip * layout.mcuHeight + y, height - 1) * bytesPerRow
    }

    /// Grey input to the single plane of a grayscale frame.
    func convertGray(strip: Int, into planes: StripPlanes) {
        let luma = UnsafeMutableRawPointer(planes.samples[0]).assumingMemoryBound(to: Float.self)
        let groups = layout.components[0].groups
        let paddedWidth = layout.mcusPerRow * layout.mcuWidth
        for y in 0..<layout.mcuHeight {
            let pixels = row(strip, y)
            for x in 0..<paddedWidth {
                luma[laneIndex(x: x, y: y, groups: groups)] = Float(pixels[min(x, width - 1)]) - 128
            }
        }
    }

    /// Colour input at full chroma resolution (4:4:4).
    func convert444<Reader: PixelReader>(_ reader: Reader.Type, strip: Int, into planes: StripPlanes) {
        let y0 = UnsafeMutableRawPointer(planes.samples[0]).assumingMemoryBound(to: Float.self)
        let cb = UnsafeMutableRawPointer(planes.samples[1]).assumingMemoryBound(to: Float.self)
        let cr = UnsafeMutableRawPointer(planes.samples[2]).assumingMemoryBound(to: Float.self)
        let groups = layout.components[0].groups
        let paddedWidth = layout.mcusPerRow * layout.mcuWidth
        for y in 0..<layout.mcuHeight {
            let pixels = row(strip, y)
            for x in 0..<paddedWidth {
                let (r, g, b) = Reader.rgb(pixels + min(x, width - 1) * Reader.bytesPerPixel)
                let index = laneIndex(x: x, y: y, groups: groups)
                y0[index] = tables.luma(r, g, b)
                cb[index] = blueDifference(Float(r), Float(g), Float(b))
                cr[index] = redDifference(Float(r), Float(g), Float(b))
            }
        }
    }

    /// Colour input with chroma averaged over each 2×2 square (4:2:0). Averaging RGB and then converting equals
    /// averaging the converted chroma (the transform is linear) and costs one conversion instead of four.
    ///
    /// The loop walks one luma block (8 columns, four 2×2 quads) at a time so the DCT-layout positions are computed
    /// once per block; blocks wholly inside the image read pixels without clamping.
    func convert420<Reader: PixelReader>(_ reader: Reader.Type, strip: Int, into planes: StripPlanes) {
        let lumaPlane = UnsafeMutableRawPointer(planes.samples[0]).assumingMemoryBound(to: Float.self)
        let cb = UnsafeMutableRawPointer(planes.samples[1]).assumingMemoryBound(to: Float.self)
        let cr = UnsafeMutableRawPointer(planes.samples[2]).assumingMemoryBound(to: Float.self)
        let lumaGroups = layout.components[0].groups
        let chromaGroups = layout.components[1].groups
        let lumaBlocks = layout.mcusPerRow * 2
        let interiorBlocks = width / 8
        let step = Reader.bytesPerPixel
        let tables = tables
        for cy in 0..<(layout.mcuHeight / 2) {
            let top = row(strip, 2 * cy)
            let bottom = row(strip, 2 * cy + 1)
            for block in 0..<lumaBlocks {
                let lumaBase = laneIndex(x: block &* 8, y: 2 &* cy, groups: lumaGroups)
                let chromaBase = laneIndex(x: block &* 4, y: cy, groups: chromaGroups)
                let interior = block < interiorBlocks
                for quad in 0..<4 {
                    let x0 = block &* 8 &+ quad &* 2
                    let left = interior ? x0 : min(x0, width &- 1)
                    let right = interior ? x0 &+ 1 : min(x0 &+ 1, width &- 1)
                    let (r0, g0, b0) = Reader.rgb(top + left &* step)
                    let (r1, g1, b1) = Reader.rgb(top + right &* step)
                    let (r2, g2, b2) = Reader.rgb(bottom + left &* step)
                    let (r3, g3, b3) = Reader.rgb(bottom + right &* step)
                    // +8 floats is the next column of the block, +64 the next row.
                    let index = lumaBase &+ quad &* 16
                    lumaPlane[index] = tables.luma(r0, g0, b0)
                    lumaPlane[index &+ 8] = tables.luma(r1, g1, b1)
                    lumaPlane[index &+ 64] = tables.luma(r2, g2, b2)
                    lumaPlane[index &+ 72] = tables.luma(r3, g3, b3)
                    let r = Float(r0 &+ r1 &+ r2 &+ r3), g = Float(g0 &+ g1 &+ g2 &+ g3)
                    let b = Float(b0 &+ b1 &+ b2 &+ b3)
                    let chromaIndex = chromaBase &+ quad &* 8
                    cb[chromaIndex] = blueDifference(r, g, b) * 0.25
                    cr[chromaIndex] = redDifference(r, g, b) * 0.25
                }
            }
        }
    }
}

// JFIF (ITU-T T.871) full-range YCbCr. Y is shifted by −128 for the DCT (in `LumaTables`); Cb and Cr would be
// +128 and −128, which cancel, so they are used as computed.

@inline(__always)
func blueDifference(_ r: Float, _ g: Float, _ b: Float) -> Float {
    -0.168_735_892 * r - 0.331_264_108 * g + 0.5 * b
}

@inline(__always)
func redDifference(_ r: Float, _ g: Float, _ b: Float) -> Float {
    0.5 * r - 0.418_687_589 * g - 0.081_312_411 * b
}
