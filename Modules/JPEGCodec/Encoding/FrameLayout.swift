/// One component of the frame: its JPEG id, sampling factors, quantization/Huffman table index, and the geometry
/// of its plane within one strip.
struct ComponentLayout {
    let id: UInt8
    let horizontal: Int
    let vertical: Int
    /// 0 for luma (and grey), 1 for chroma: selects both the quantization and the Huffman tables.
    let table: Int
    /// Blocks per strip row (a whole number of MCUs, so the right edge is padded to the MCU).
    let blocksWide: Int
    /// Groups of eight blocks the DCT works on at once; the last group may hold unused blocks.
    @_optimize(size) var groups: Int { (blocksWide + 7) / 8 }
    /// Vectors (`SIMD8`) one strip of this plane occupies: 64 per group per block row.
    @_optimize(size) var vectorCount: Int { groups * vertical * 64 }
    /// Vectors one strip of quantized coefficients occupies: per group the 64 coefficients (zig-zag order) and two
    /// vectors of non-zero masks (`ForwardDCT.quantize`).
    @_optimize(size) var coefficientVectorCount: Int { groups * vertical * ForwardDCT.coefficientVectorsPerGroup }
}

/// The geometry of a frame: components, MCU size, and how many MCU rows ("strips") cover the image.
struct FrameLayout {
    let width: Int
    let height: Int
    let components: [ComponentLayout]
    /// MCU width and height in pixels (8 × the largest sampling factor).
    let mcuWidth: Int
    let mcuHeight: Int
    let mcusPerRow: Int
    let stripCount: Int

    @_optimize(size) init(width: Int, height: Int, sampling: FrameSampling) {
        let factors: [(h: Int, v: Int, table: Int)] =
            switch sampling {
            case .grayscale: [(1, 1, 0)]
            case .yCbCr444: [(1, 1, 0), (1, 1, 1), (1, 1, 1)]
            case .yCbCr420: [(2, 2, 0), (1, 1, 1), (1, 1, 1)]
            }
        let maxH = factors.map { $0.h }.max() ?? 1
        let maxV = factors.map { $0.v }.max() ?? 1
        self.width = width
        self.height = height
        mcuWidth = 8 * maxH
        mcuHeight = 8 * maxV
        mcusPerRow = (width + mcuWidth - 1) / mcuWidth
        stripCount = (height + mcuHeight - 1) / mcuHeight
        let mcus = mcusPerRow
        components = factors.enumerated().map { index, factor in
            ComponentLayout(
                id: UInt8(index + 1), horizontal: factor.h, vertical: factor.v, table: factor.table,
                blocksWide: mcus * factor.h)
        }
    }

    /// Blocks in one MCU, summed over components: bounds the bytes one MCU can produce.
    @_optimize(size) var blocksPerMCU: Int { components.reduce(0) { $0 + $1.horizontal * $1.vertical } }
}

/// The working memory of one strip: a float sample plane and a coefficient plane per component. Sample (x, y) of a
/// sample plane is lane (x / 8) mod 8 of vector ((y / 8) · groups + x / 64) · 64 + (y mod 8) · 8 + x mod 8: block
/// row, group of eight blocks, the sample's place in its block, then the block's lane (the layout `ForwardDCT`
/// expects). Its size depends on the image width only, never on the height: the encoder reuses it for every strip.
final class StripPlanes {
    let samples: [UnsafeMutablePointer<SIMD8<Float>>]
    let coefficients: [UnsafeMutablePointer<SIMD8<Int32>>]
    /// The block coder's lookup of each coefficient's magnitude category and extra bits (4,096 entries, 8 KiB).
    let magnitudes = MagnitudeTable()
    /// Two padded RGB rows of one group at the right edge (`StripConverter.padded`), which the vector paths read.
    let edgeRows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * StripConverter.paddedRowCapacity)
    /// Total bytes held, reported by the benchmark.
    let byteCount: Int

    @_optimize(size) init(layout: FrameLayout) {
        samples = layout.components.map { component in
            let planes = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: component.vectorCount)
            planes.initialize(repeating: .zero, count: component.vectorCount)
            return planes
        }
        coefficients = layout.components.map { component in
            let planes = UnsafeMutablePointer<SIMD8<Int32>>.allocate(capacity: component.coefficientVectorCount)
            planes.initialize(repeating: .zero, count: component.coefficientVectorCount)
            return planes
        }
        byteCount = Self.byteCount(layout)
    }

    /// Bytes the planes of `layout` take (32 per float vector and per coefficient vector), with the magnitude table.
    @_optimize(size) static func byteCount(_ layout: FrameLayout) -> Int {
        layout.components.reduce(MagnitudeTable.byteCount) { $0 + ($1.vectorCount + $1.coefficientVectorCount) * 32 }
    }

    deinit {
        samples.forEach { $0.deallocate() }
        coefficients.forEach { $0.deallocate() }
        edgeRows.deallocate()
    }
}

/// The component structure of a frame, chosen from the input format and the requested chroma subsampling.
enum FrameSampling {
    case grayscale
    case yCbCr444
    case yCbCr420
}
