
/// The pure-Swift JPEG encoder ReceptionKit uses to prepare photos for upload (spec 7.9).
///
/// It writes baseline JFIF (or progressive, `Options.progressive`) (4:2:0 with averaged chroma, 4:4:4, or grayscale for grey input), scales the Annex K
/// quantization tables by quality the way libjpeg does, and by default builds optimised Huffman tables from a
/// counting pass. It works one strip of MCU rows at a time, so its working memory depends on the image width only.
public struct JPEGEncoder: Sendable {
    /// How much chroma resolution colour images keep.
    public enum ChromaSubsampling: Sendable, Hashable {
        /// Chroma averaged over 2×2 pixels (4:2:0): the usual choice for photos.
        case halved
        /// Full-resolution chroma (4:4:4): larger files, sharper colour edges.
        case full
    }

    /// Which quantisation tables an encoding writes.
    public enum QuantizationTables: Sendable, Hashable {
        /// The ITU T.81 Annex K example tables scaled by quality as libjpeg scales them: the same tables (and, at
        /// a quality, the same picture) as libjpeg-based tools.
        case annexK
        /// Our own luma table, tuned for the fewest bytes at equal luma SSIM with its quality scale calibrated to
        /// libjpeg's (at quality q a photo's SSIM is about what cjpeg gives at q), with Annex K chroma; see
        /// Docs/ImagePipeline.md, "Tuned quantisation tables".
        case ssimTuned
    }

    /// Everything that changes the output bytes.
    public struct Options: Sendable, Hashable {
        /// 1...100 on libjpeg's scale.
        public var quality: Int
        /// Chroma resolution for colour input; ignored for grey input.
        public var chroma: ChromaSubsampling
        /// Whether to build Huffman tables from the image (Annex K.2) instead of using the Annex K examples: a
        /// counting pass (over every fourth strip of large images) for files about 0.6–1% smaller on photos.
        public var optimizeHuffman: Bool
        /// MCUs between restart markers; 0 writes none. At most 65,535.
        public var restartInterval: Int
        /// Whether to write a progressive JPEG (T.81 G: DC first, then AC bands, then their low bits, each scan
        /// with optimised tables of its own; `optimizeHuffman` does not apply) instead of a baseline one. Every scan
        /// codes each strip as it is transformed into a buffer of its own, so working memory still depends on the
        /// width only; the later scans' bytes wait in memory until the earlier scans are written.
        public var progressive: Bool
        /// Whether to choose each block's quantised AC values by rate–distortion optimisation (trellis
        /// quantisation) instead of rounding: the smaller-files mode. Smaller files at the same quality setting,
        /// for a slightly lower PSNR (see Docs/ImagePipeline.md for sizes at equal SSIM); unless `tables` says
        /// otherwise it writes the `.ssimTuned` tables. Works with baseline and progressive output; with
        /// optimised tables it adds a counting pass.
        public var trellis: Bool
        /// The quantisation tables; `nil` (the default) for the mode's own: `.ssimTuned` with `trellis`,
        /// `.annexK` otherwise.
        public var tables: QuantizationTables?
        /// λ of the trellis (squared quantiser steps of error one bit is worth); `nil` for the tuned default. A
        /// knob for benchmarks and tests.
        package var trellisLambda: Float?
        /// The block AC energy at which the trellis doubles a block's λ (0: the same λ everywhere); `nil` for the
        /// tuned default. A knob for benchmarks and tests.
        package var trellisMasking: Float?
        /// The exponent e of the trellis's distortion weight per coefficient, (step / mean AC step)^(2e), in steps of
        /// ¼ (0: every quantiser step alike; 1: the plain squared error); `nil` for the default (½ over the Annex K
        /// tables, 0 over the tuned ones). A knob for benchmarks and tests.
        package var trellisWeighting: Float?

        /// Options; the defaults match what photo preparation uses.
        public init(
            quality: Int = 85, chroma: ChromaSubsampling = .halved, optimizeHuffman: Bool = true,
            restartInterval: Int = 0, progressive: Bool = false, trellis: Bool = false,
            tables: QuantizationTables? = nil
        ) {
            self.quality = quality
            self.chroma = chroma
            self.optimizeHuffman = optimizeHuffman
            self.restartInterval = restartInterval
            self.progressive = progressive
            self.trellis = trellis
            self.tables = tables
            trellisLambda = nil
            trellisMasking = nil
            trellisWeighting = nil
        }

        /// Hashes the quality only; `==` compares every field, so equal values hash alike.
        @inline(never) public func hash(into hasher: inout Hasher) { hasher.combine(quality) }
    }

    /// The options photo preparation (spec 7.9) encodes with: baseline with trellis quantisation over the Annex K
    /// tables, optimised Huffman tables, 4:2:0 (Docs/ImagePipeline.md, "Issue 31").
    public static let preparationOptions = Options(trellis: true, tables: .annexK)

    /// The options used by `encode`; `encodeJPEG` takes its quality from its argument instead.
    public var options: Options

    /// Makes an encoder.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Encodes `image` at `quality` (1...100) with the other options of this encoder and returns the bytes.
    public func encodeJPEG(_ image: Bitmap, quality: Int) throws(CodecError) -> [UInt8] {
        var options = options
        options.quality = quality
        var sink = ByteArraySink()
        try JPEGEncoder(options: options).encode(image, into: &sink)
        return sink.bytes
    }

    /// Encodes `image` into `sink`. Nothing is written when the input is rejected.
    public func encode<Sink: JPEGByteSink>(_ image: Bitmap, into sink: inout Sink) throws(CodecError) {
        try image.validate()
        guard (1...100).contains(options.quality), (0...65_535).contains(options.restartInterval) else {
            throw .invalidImage
        }
        let plan = EncodingPlan(image: image, options: options)
        try image.bytes.withUnsafeBufferPointer { (pixels) throws(CodecError) in
            guard let base = pixels.baseAddress else { throw .invalidImage }
            // Handed over as an opaque escaping closure, so `run` is compiled once for every sink: a literal
            // closure would have the optimiser copy all of it for each sink type (6 kB each on arm64).
            let write = { (bytes: UnsafeRawBufferPointer) in sink.write(bytes) }
            withoutActuallyEscaping(write) { plan.run(pixels: base, to: $0) }
        }
    }

    /// Bytes of working memory (strip planes, the initial output buffer and, for RGBA, one strip flattened onto
    /// white) the encoder allocates for an image of this size, beyond the input and the output; independent of
    /// `height` by construction.
    package func workingMemoryBytes(width: Int, height: Int, format: BitmapFormat) -> Int {
        let layout = FrameLayout(width: width, height: height, sampling: EncodingPlan.sampling(format, options))
        let progressive = options.progressive ? EncodingPlan.progressiveWorkingBytes(layout) : 0
        let flattened = format == .rgba8 ? StripConverter.flattenedStripBytes(layout) : 0
        return StripPlanes.byteCount(layout) + EncodingPlan.initialOutputCapacity(layout) + progressive + flattened
    }
}
