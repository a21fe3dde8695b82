import JPEGCodec

/// Picks the decoder by the file's signature: PNG, JPEG, or a HEIF still image (HEIC) where the platform has a
/// HEIF decoder (ImageIO on Apple platforms, libheif on Linux); anything else is `invalid_image`.
package enum ImageDecoder {
    /// Decodes `bytes`; a JPEG is decoded at the smallest DCT scale whose longer edge is still at least
    /// `minimumLongestEdge` (PNG has no cheaper reduced decode and is always full size).
    package static func decode(_ bytes: [UInt8], minimumLongestEdge: Int? = nil) throws(CodecError)
        -> DecodedImage
    {
        try bytes.withUnsafeBufferPointer { (file) throws(CodecError) in
            if PNGDecoder.matches(file) { return try PNGDecoder.decode(file) }
            if JPEGDecoder.matches(file) { return try JPEGDecoder.decode(file, minimumLongestEdge: minimumLongestEdge) }
            if HEIFFile.matches(file) { return try decodeHEIF(file, minimumLongestEdge: minimumLongestEdge) }
            throw .invalidImage
        }
    }

    /// What preparation resizes from: decoded pixels, or a JPEG frame whose rows are rendered as the resampler
    /// reads them (the full-size RGB picture is never held).
    enum Source {
        case pixels(Bitmap)
        case rows(JPEGFrameRows)

        var width: Int {
            switch self {
            case .pixels(let image): image.width
            case .rows(let rows): rows.width
            }
        }

        var height: Int {
            switch self {
            case .pixels(let image): image.height
            case .rows(let rows): rows.height
            }
        }

        var format: BitmapFormat {
            switch self {
            case .pixels(let image): image.format
            case .rows(let rows): rows.format
            }
        }

        /// The picture resized to `width`×`height` (each at most the source's; the source itself when equal).
        func resized(width: Int, height: Int) -> Bitmap {
            switch self {
            case .pixels(let image): AreaResampler.resize(image, width: width, height: height)
            case .rows(let rows): AreaResampler.resize(rendering: rows, width: width, height: height)
            }
        }
    }

    /// Decodes `bytes` for preparation like `decode(_:minimumLongestEdge:)`, a JPEG up to its rows only;
    /// transparency is already flattened onto white. The embedded ICC profile comes with it (nil: sRGB).
    static func decodeForPreparation(_ bytes: [UInt8], minimumLongestEdge: Int) throws(CodecError)
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

    /// A HEIF still image through the platform's decoder; `invalid_image` where there is none. ImageIO scales
    /// while decoding, to a long edge of `minimumLongestEdge`; libheif decodes at full size.
    private static func decodeHEIF(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
        -> DecodedImage
    {
        #if canImport(ImageIO) && canImport(CoreGraphics)
        return try ImageIODecoder.decode(file, maximumLongestEdge: minimumLongestEdge)
        #elseif canImport(CHeif)
        return try HEIFDecoder.decode(file)
        #else
        throw .invalidImage
        #endif
    }

    /// The pixel size a file declares, read from its header without decoding (nil when it is not a PNG or JPEG
    /// with a readable header). Preparation uses it to pick the reduced JPEG decode.
    package static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        if bytes.count >= 24, bytes.starts(with: PNGDecoder.signature) {
            let w = Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19])
            let h = Int(bytes[20]) << 24 | Int(bytes[21]) << 16 | Int(bytes[22]) << 8 | Int(bytes[23])
            return (w, h)
        }
        return JPEGDecoder.declaredSize(bytes)
    }
}
