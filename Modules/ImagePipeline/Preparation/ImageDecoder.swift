import JPEGCodec

/// Picks the decoder by the file's signature from `formats`, one `ImageFormatDecoding` per format: PNG and JPEG
/// with our own decoders everywhere; on Apple platforms every other format ImageIO reads (HEIC, GIF, WebP, TIFF, …)
/// through ImageIO; on Linux HEIC through libheif, GIF through giflib, WebP through libwebp and TIFF through libtiff.
/// Anything no decoder recognises is `invalid_image`.
package enum ImageDecoder {
    /// The decoders, asked in order; the first whose signature matches decodes the file.
    @inline(never) @_optimize(size) static var formats: [any ImageFormatDecoding.Type] {
        var formats: [any ImageFormatDecoding.Type] = [PNGDecoder.self, JPEGDecoder.self]
        #if canImport(ImageIO) && canImport(CoreGraphics)
        formats.append(ImageIODecoder.self)
        #else
        #if canImport(CHeif)
        formats.append(HEIFDecoder.self)
        #endif
        #if canImport(CGif)
        formats.append(GIFDecoder.self)
        #endif
        #if canImport(CWebP)
        formats.append(WebPDecoder.self)
        #endif
        #if canImport(CTIFF)
        formats.append(TIFFDecoder.self)
        #endif
        #endif
        return formats
    }

    /// The decoder for `file`, by its signature; nil when no decoder here reads it.
    @inline(never)
    @_optimize(size) static func format(of file: UnsafeBufferPointer<UInt8>) -> (any ImageFormatDecoding.Type)? {
        formats.first { $0.matches(file) }
    }

    /// Decodes `bytes`; a JPEG is decoded at the smallest DCT scale whose longer edge is still at least
    /// `minimumLongestEdge` (ImageIO scales too; the other decoders decode at full size).
    @inline(never)
    @_optimize(size) package static func decode(_ bytes: [UInt8], minimumLongestEdge: Int? = nil) throws(CodecError)
        -> DecodedImage
    {
        try bytes.withUnsafeBufferPointer { (file) throws(CodecError) in
            guard let format = format(of: file) else { throw .invalidImage }
            return try format.decode(file, minimumLongestEdge: minimumLongestEdge)
        }
    }

    /// What preparation resizes from: decoded pixels, or a JPEG frame whose rows are rendered as the resampler
    /// reads them (the full-size RGB picture is never held).
    indirect enum Source {
        case pixels(Bitmap)
        case rows(JPEGFrameRows)

        @inline(never) @_optimize(size) var width: Int {
            switch self {
            case .pixels(let image): image.width
            case .rows(let rows): rows.width
            }
        }

        @inline(never) @_optimize(size) var height: Int {
            switch self {
            case .pixels(let image): image.height
            case .rows(let rows): rows.height
            }
        }

        @inline(never) @_optimize(size) var format: BitmapFormat {
            switch self {
            case .pixels(let image): image.format
            case .rows(let rows): rows.format
            }
        }

        /// The picture resized to `width`×`height` (each at most the source's; the source itself when equal).
        @inline(never) @_optimize(size) func resized(width: Int, height: Int) -> Bitmap {
            switch self {
            case .pixels(let image): AreaResampler.resize(image, width: width, height: height)
            case .rows(let rows): AreaResampler.resize(rendering: rows, width: width, height: height)
            }
        }
    }

    /// Decodes `bytes` for preparation like `decode(_:minimumLongestEdge:)`, a JPEG up to its rows only;
    /// transparency is already flattened onto white. The embedded ICC profile comes with it (nil: sRGB).
    @inline(never)
    @_optimize(size) static func decodeForPreparation(_ bytes: [UInt8], minimumLongestEdge: Int) throws(CodecError)
        -> (source: Source, orientation: Orientation, iccProfile: [UInt8]?)
    {
        let isJPEG = bytes.withUnsafeBufferPointer { JPEGDecoder.matches($0) }
        if isJPEG {
            let (rows, orientation) = try bytes.withUnsafeBufferPointer { (file) throws(CodecError) in
                try JPEGDecoder.decodeRows(file, minimumLongestEdge: minimumLongestEdge)
            }
            // Spec 7.9 step 1: the frame header's size was checked before any plane existed (`DecodeLimits`).
            return (.rows(rows), orientation, rows.iccProfile)
        }
        let decoded = try decode(bytes, minimumLongestEdge: minimumLongestEdge)
        let pixels = PixelOperations.flattenOntoWhite(decoded.pixels)
        // Spec 7.9 step 1 (a zero size cannot come out of a decoder, but the geometry is checked anyway).
        try pixels.validate()
        return (.pixels(pixels), decoded.orientation, decoded.iccProfile)
    }

    /// The stored pixel size a file declares, read from its header without decoding (nil when no decoder
    /// recognises it or its header cannot be read cheaply). Preparation uses it to pick the reduced JPEG decode.
    @inline(never) @_optimize(size) package static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        bytes.withUnsafeBufferPointer { format(of: $0) }?.declaredSize(bytes)
    }
}
