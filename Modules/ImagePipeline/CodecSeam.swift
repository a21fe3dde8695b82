@_exported import JPEGCodec
import ReceptionCore

// The seam between the codec, which knows nothing of ReceptionKit, and the SDK's vocabulary: `PixelBuffer` and
// `Bitmap` share their storage (arrays are copied on write, so converting copies no pixel), and every `CodecError`
// becomes the `ReceptionError` code the spec names (7.9 step 1, 5.4).

extension ReceptionError {
    /// The SDK's error for a codec refusal: `invalid_image` or `image_too_large`.
    @inline(never) @_optimize(size) package init(_ error: CodecError) {
        switch error {
        case .invalidImage: self = .invalidImage
        case .imageTooLarge: self = .imageTooLarge
        }
    }

    /// `image_too_large` (spec 7.9, 5.4): what a decoder throws for a header beyond `DecodeLimits.maximumPixels`,
    /// and what preparation throws when no encoding fits.
    package static let imageTooLarge = ReceptionError(code: Code.imageTooLarge)
}

extension PixelFormat {
    /// The codec's name for this layout.
    @inline(never) @_optimize(size) package init(_ format: BitmapFormat) {
        switch format {
        case .rgba8: self = .rgba8
        case .rgb8: self = .rgb8
        case .gray8: self = .gray8
        }
    }
}

extension BitmapFormat {
    /// The codec's name for a `PixelFormat`.
    @inline(never) @_optimize(size) package init(_ format: PixelFormat) {
        switch format {
        case .rgba8: self = .rgba8
        case .rgb8: self = .rgb8
        case .gray8: self = .gray8
        }
    }
}

extension PixelBuffer {
    /// The same pixels as a `PixelBuffer` (no copy).
    @inline(never) @_optimize(size) package init(_ bitmap: Bitmap) {
        self.init(
            width: bitmap.width, height: bitmap.height, format: PixelFormat(bitmap.format),
            bytesPerRow: bitmap.bytesPerRow, bytes: bitmap.bytes)
    }
}

extension Bitmap {
    /// The same pixels as the codec's `Bitmap` (no copy).
    @inline(never) @_optimize(size) package init(_ buffer: PixelBuffer) {
        self.init(
            width: buffer.width, height: buffer.height, format: BitmapFormat(buffer.format),
            bytesPerRow: buffer.bytesPerRow, bytes: buffer.bytes)
    }
}

/// The codec's encoder is the SDK's default `ImageEncoding` (spec 7.9 step 4).
extension JPEGEncoder: ImageEncoding {
    /// Encodes `image` at `quality` (1...100) with the other options of this encoder; `invalid_image` for bad
    /// geometry or a quality outside 1...100.
    @inline(never)
    @_optimize(size) public func encodeJPEG(_ image: PixelBuffer, quality: Int) throws(ReceptionError) -> [UInt8] {
        do { return try encodeJPEG(Bitmap(image), quality: quality) } catch { throw ReceptionError(error) }
    }

    /// Encodes `image` into `sink`; nothing is written when the input is rejected (`invalid_image`).
    @inline(never) @_optimize(size)
    public func encode<Sink: JPEGByteSink>(_ image: PixelBuffer, into sink: inout Sink) throws(ReceptionError) {
        do { try encode(Bitmap(image), into: &sink) } catch { throw ReceptionError(error) }
    }
}
