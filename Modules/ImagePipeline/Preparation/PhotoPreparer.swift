import Digest
import Foundation
import JPEGCodec
import ReceptionCore

/// The default `ImagePreparing`: decodes the photo (`ImageDecoder`, any format it reads), then follows spec 7.9 —
/// rounds at a maximum edge of 2,048 px shrinking ×0.75 (up to five rounds), the quality ladder 0.85, 0.75 … 0.25
/// until the JPEG is at most 1,048,576 bytes, `image_too_large` when nothing fits.
///
/// Quality mapping: the spec's quality q ∈ (0, 1] is our encoder's `Int(q × 100)` on libjpeg's 1–100 scale
/// (`ImageEncoding` documents 85 as the spec's 0.85), so the ladder is 85, 75, 65, 55, 45, 35, 25. The spec notes
/// that the reference implementation's floating-point loop stops after 0.35; spec 11.11 keeps 0.25 as the
/// nominal last rung and so do we.
///
/// Every round resizes from the decoded photo (never from an earlier round's result) by area averaging; a JPEG
/// is decoded at the smallest DCT scale that still covers 2,048 px. Transparency is flattened onto white first;
/// after resizing, a photo with an embedded ICC profile is converted to sRGB (`SRGBConversion`; a profile that
/// cannot be read is taken as sRGB and logged once), then the EXIF orientation is applied; nothing of the file's
/// metadata reaches the output.
public struct PhotoPreparer: ImagePreparing {
    /// The numbers of spec 7.9, in one place.
    public struct Configuration: Sendable, Hashable {
        /// The longest edge of the first round (2,048 px).
        public var maximumEdge: Int = 2048
        /// The largest acceptable JPEG (1 MiB).
        public var byteLimit: Int = 1_048_576
        /// The quality ladder on the encoder's 1–100 scale (0.85 … 0.25 in the spec).
        public var qualities: [Int] = [85, 75, 65, 55, 45, 35, 25]
        /// Rounds in all, the maximum edge multiplied by `shrinkFactor` after each unsuccessful one.
        public var rounds: Int = 5
        /// Edge multiplier between rounds (0.75).
        public var shrinkFactor: Double = 0.75

        /// The spec's values.
        @_optimize(size) public init() {}

        /// Hashes the edge only; `==` compares every field, so equal values hash alike.
        @_optimize(size) @inline(never) public func hash(into hasher: inout Hasher) { hasher.combine(maximumEdge) }
    }

    /// What one preparation chose, for the `reception-image prepare` report.
    package struct Outcome: Sendable {
        package var photo: PreparedPhoto
        package var quality: Int
        package var maximumEdge: Int
    }

    private let encoder: any ImageEncoding
    private let configuration: Configuration
    private let colour: ColourManagement

    /// The encoder preparation uses unless told otherwise: our `JPEGEncoder`, baseline with trellis quantisation
    /// over the Annex K tables (issue 31). On a varied set of real photos it writes ×0.925 of `cjpeg -optimize`'s
    /// bytes at equal luma SSIM on average over q60–90, ×0.987 at worst (the progressive encoder used before:
    /// ×0.990 and ×1.218), prepares as fast or faster, and needs no coefficient store. The Annex K tables keep
    /// each quality step of the ladder the picture it was (Docs/ImagePipeline.md, "Issue 31").
    public static let defaultEncoder = JPEGEncoder(options: JPEGEncoder.preparationOptions)

    /// A preparer using `encoder` (`defaultEncoder` unless given), logging what it must (a colour profile it cannot
    /// read) to `logger`.
    @inline(never) @_optimize(size) public init(
        encoder: any ImageEncoding = PhotoPreparer.defaultEncoder, configuration: Configuration = Configuration(),
        logger: ReceptionLogger = .silent
    ) {
        self.encoder = encoder
        self.configuration = configuration
        colour = ColourManagement(logger: logger)
    }

    /// Prepares one photo for upload (spec 7.9).
    @inline(never) @_optimize(size) public func prepare(_ file: Data) throws(ReceptionError) -> PreparedPhoto {
        try prepareReporting([UInt8](file)).photo
    }

    /// Prepares one photo and reports the quality and maximum edge that produced it.
    @inline(never) @_optimize(size) package func prepareReporting(_ file: [UInt8]) throws(ReceptionError) -> Outcome {
        let photo = try decodeForRounds(file)
        var edge = Double(configuration.maximumEdge)
        for _ in 0..<configuration.rounds {
            let limit = Int(edge.rounded(.down))
            let oriented = photo.pixels(maximumEdge: limit)
            for quality in configuration.qualities {
                let jpeg = try encoder.encodeJPEG(PixelBuffer(oriented), quality: quality)
                if jpeg.count <= configuration.byteLimit {
                    let checksum = Base64.encode(SHA256.hash(jpeg))
                    let photo = PreparedPhoto(
                        jpeg: Data(jpeg), width: oriented.width, height: oriented.height, checksum: checksum)
                    return Outcome(photo: photo, quality: quality, maximumEdge: limit)
                }
            }
            edge *= configuration.shrinkFactor
        }
        throw .imageTooLarge
    }

    /// The pixels the first round encodes: resized, converted to sRGB and oriented. A test knob: the colour tests
    /// judge the conversion on these, before JPEG's own loss (Tests/ImagePipelineTests/ColourManagementTests).
    @inline(never) @_optimize(size) package func preparedPixels(_ file: [UInt8]) throws(ReceptionError) -> Bitmap {
        try decodeForRounds(file).pixels(maximumEdge: configuration.maximumEdge)
    }

    @inline(never)
    @_optimize(size) private func decodeForRounds(_ file: [UInt8]) throws(ReceptionError) -> DecodedPhoto {
        let declared = ImageDecoder.declaredSize(file)
        let source: ImageDecoder.Source, orientation: Orientation, profile: [UInt8]?
        do {
            (source, orientation, profile) = try ImageDecoder.decodeForPreparation(
                file, minimumLongestEdge: configuration.maximumEdge)
        } catch { throw ReceptionError(error) }
        // Target sizes follow the file's own dimensions; a reduced JPEG decode only changes where we start from.
        return DecodedPhoto(
            source: source, orientation: orientation,
            conversion: colour.conversion(for: profile, format: source.format),
            width: declared.map { max($0.width, 1) } ?? source.width,
            height: declared.map { max($0.height, 1) } ?? source.height)
    }

    /// One decoded photo and what every round does with it. A class: made once per photo and only read.
    private final class DecodedPhoto {
        let source: ImageDecoder.Source
        let orientation: Orientation
        let conversion: SRGBConversion
        /// The file's own size, which the rounds' target sizes follow.
        let width: Int, height: Int

        @inline(never) @_optimize(size) init(
            source: ImageDecoder.Source, orientation: Orientation, conversion: SRGBConversion, width: Int, height: Int
        ) {
            self.source = source
            self.orientation = orientation
            self.conversion = conversion
            self.width = width
            self.height = height
        }

        /// Resized to fit `maximumEdge` (from the decoded photo, never from an earlier round), converted to sRGB
        /// on those at most 2,048 × 2,048 pixels (Docs/ImagePipeline.md, "Colour"), then oriented.
        @inline(never) @_optimize(size) func pixels(maximumEdge: Int) -> Bitmap {
            let (targetWidth, targetHeight) = PhotoPreparer.fit(width: width, height: height, maximumEdge: maximumEdge)
            var resized = source.resized(
                width: min(targetWidth, source.width), height: min(targetHeight, source.height))
            conversion.apply(to: &resized)
            return PixelOperations.apply(orientation, to: resized)
        }
    }

    /// Spec 7.9 step 3: scale down (never up) so the longer edge fits, each dimension rounded to the nearest
    /// pixel, at least 1.
    @inline(never) @_optimize(size) package static func fit(width: Int, height: Int, maximumEdge: Int) -> (Int, Int) {
        AreaResampler.fit(width: width, height: height, maximumEdge: maximumEdge)
    }
}
