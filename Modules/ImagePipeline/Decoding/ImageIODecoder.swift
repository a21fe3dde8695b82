#if canImport(ImageIO) && canImport(CoreGraphics)
    import CoreGraphics
    import Foundation
    import ImageIO
    import JPEGCodec
    import ReceptionCore

    /// Every format ImageIO reads other than PNG and JPEG (which our own decoders take first): HEIC and HEIF, GIF,
    /// WebP, TIFF, and whatever else the system reads, on Apple platforms through `CGImageSource`. The primary image
    /// (a GIF's or an animated WebP's first frame) with its orientation applied
    /// (`kCGImageSourceCreateThumbnailWithTransform`), drawn into an 8-bit RGB context over white, so 10- and 16-bit
    /// colour is reduced and alpha flattened as the Linux decoders' path does.
    ///
    /// The picture is drawn in its own colour space when that is an RGB one, so its numbers are not converted here:
    /// its ICC profile (`CGColorSpace.copyICCData`) goes with them in `DecodedImage.iccProfile` unless it is sRGB,
    /// and the shared conversion makes them sRGB on every platform alike. Other colour models (grey, CMYK, Lab) are
    /// drawn into sRGB by the system.
    ///
    /// ImageIO decodes at the size preparation needs: a long edge of `minimumLongestEdge` (2,048 px for the chat),
    /// never the full 12 or 48 MP, so a photo costs one 4-byte-per-pixel buffer of at most 2,048 × 2,048 (16 MiB),
    /// compacted to RGB in place, instead of a full-size RGBX drawing and its RGB copy (over 100 MB at 12 MP). The
    /// stored size passes `DecodeLimits` first. Compiled only where ImageIO exists, which the Linux machines this
    /// package is built on are not; the same files go through libheif, giflib, libwebp and libtiff there and are
    /// tested that way (Docs/Apple.md).
    enum ImageIODecoder: ImageFormatDecoding {
        /// Whether ImageIO recognises the file's type.
        @inline(never) @_optimize(size) static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool {
            source(file).flatMap { CGImageSourceGetType($0) } != nil
        }

        /// An image source over the caller's bytes, not a copy of them (it lives only as long as the call).
        @inline(never)
        @_optimize(size) private static func source(_ file: UnsafeBufferPointer<UInt8>) -> CGImageSource? {
            guard let base = file.baseAddress,
                  let data = CFDataCreateWithBytesNoCopy(kCFAllocatorDefault, base, file.count, kCFAllocatorNull)
            else { return nil }
            return CGImageSourceCreateWithData(data, nil)
        }

        @inline(never) @_optimize(size)
        static func decode(_ file: UnsafeBufferPointer<UInt8>, minimumLongestEdge: Int?) throws(CodecError)
            -> DecodedImage
        {
            guard let source = source(file), CGImageSourceGetCount(source) >= 1 else { throw .invalidImage }
            let index = CGImageSourceGetPrimaryImageIndex(source)
            // Keyed by `String` (the same toll-free bridged keys): a dictionary keyed by `CFString` brings that
            // imported type's conformances into the app (Docs/Footprint.md, "Size on iOS").
            guard let properties = CGImageSourceCopyPropertiesAtIndex(source, index, nil) as? [String: Any],
                  let storedWidth = properties[kCGImagePropertyPixelWidth as String] as? Int,
                  let storedHeight = properties[kCGImagePropertyPixelHeight as String] as? Int
            else { throw .invalidImage }
            try DecodeLimits.check(width: storedWidth, height: storedHeight)
            let storedEdge = max(storedWidth, storedHeight)
            let edge = minimumLongestEdge.map { min(max($0, 1), storedEdge) } ?? storedEdge
            let options: [String: Any] = [
                // Always from the full image (an embedded thumbnail is too small), scaled by the decoder itself.
                kCGImageSourceCreateThumbnailFromImageAlways as String: true,
                kCGImageSourceCreateThumbnailWithTransform as String: true,
                kCGImageSourceThumbnailMaxPixelSize as String: edge,
                kCGImageSourceShouldCacheImmediately as String: true,
            ]
            guard let image = CGImageSourceCreateThumbnailAtIndex(source, index, options as CFDictionary) else {
                throw .invalidImage
            }
            return try draw(image)
        }

        /// The image drawn over opaque white into 8-bit RGB, in its own RGB colour space (its profile reported)
        /// or else in sRGB, returned as `rgb8`.
        @inline(never) @_optimize(size) private static func draw(_ image: CGImage) throws(CodecError) -> DecodedImage {
            let width = image.width, height = image.height
            try DecodeLimits.check(width: width, height: height)
            guard let sRGB = CGColorSpace(name: CGColorSpace.sRGB) else { throw .invalidImage }
            let own = image.colorSpace.flatMap { $0.model == .rgb ? $0 : nil }
            var rgbx = [UInt8](repeating: 255, count: width * height * 4)
            var profile: [UInt8]?
            if let own, draw(image, into: &rgbx, space: own) {
                // `CFEqual`, not `==`: an optional `CFString` compared with `==` brings the imported type's
                // conformances into the app (Docs/Footprint.md, "Size on iOS").
                let isSRGB = own.name.map { CFEqual($0, CGColorSpace.sRGB) } ?? false
                profile = isSRGB ? nil : (own.copyICCData() as Data?).map { [UInt8]($0) }
            } else if !draw(image, into: &rgbx, space: sRGB) {
                throw .invalidImage
            }
            // RGBX to RGB in place: pixel i moves from 4i to 3i, never past a byte still to be read.
            let count = width * height
            rgbx.withUnsafeMutableBufferPointer { bytes in
                for pixel in 0..<count {
                    bytes[pixel * 3] = bytes[pixel * 4]
                    bytes[pixel * 3 + 1] = bytes[pixel * 4 + 1]
                    bytes[pixel * 3 + 2] = bytes[pixel * 4 + 2]
                }
            }
            rgbx.removeSubrange((count * 3)...)
            return DecodedImage(
                pixels: Bitmap(width: width, height: height, format: .rgb8, bytes: rgbx), iccProfile: profile)
        }

        /// Draws `image` over white into `rgbx` (8-bit RGBX in `space`); false when no such context can be made.
        @inline(never) @_optimize(size)
        private static func draw(_ image: CGImage, into rgbx: inout [UInt8], space: CGColorSpace) -> Bool {
            let width = image.width, height = image.height
            return rgbx.withUnsafeMutableBytes { raw -> Bool in
                guard let context = CGContext(
                    data: raw.baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                    space: space, bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue)
                else { return false }
                context.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
                context.fill(CGRect(x: 0, y: 0, width: width, height: height))
                context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
                return true
            }
        }
    }
#endif
