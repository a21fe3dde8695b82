#if canImport(ImageIO) && canImport(CoreGraphics)
    import CoreGraphics
    import Foundation
    import ImageIO
    import JPEGCodec
    import ReceptionCore

    /// HEIC and HEIF photos on Apple platforms, through ImageIO (`CGImageSource`): the photo an iPhone takes, with
    /// its orientation applied (`kCGImageSourceCreateThumbnailWithTransform`), drawn into an 8-bit RGB context over
    /// white, so 10-bit colour is reduced and alpha flattened as the libheif path does.
    ///
    /// ImageIO decodes at the size preparation needs: a long edge of `maximumLongestEdge` (2,048 px for the chat),
    /// never the full 12 or 48 MP, so a photo costs one 4-byte-per-pixel buffer of at most 2,048 × 2,048 (16 MiB),
    /// compacted to RGB in place, instead of a full-size RGBX drawing and its RGB copy (over 100 MB at 12 MP).
    /// Only reached for files `HEIFFile` recognised; a source of more than one image (a sequence) is refused.
    /// Compiled only where ImageIO exists, which the Linux machines this package is built on are not; the same
    /// files go through `HEIFDecoder` (libheif) there and are tested that way (Docs/Apple.md).
    enum ImageIODecoder {
        static func decode(_ file: UnsafeBufferPointer<UInt8>, maximumLongestEdge: Int? = nil) throws(CodecError)
            -> DecodedImage
        {
            let data = Data(buffer: file) as CFData
            guard let source = CGImageSourceCreateWithData(data, nil), CGImageSourceGetCount(source) == 1,
                  let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [CFString: Any],
                  let storedWidth = properties[kCGImagePropertyPixelWidth] as? Int,
                  let storedHeight = properties[kCGImagePropertyPixelHeight] as? Int
            else { throw .invalidImage }
            try DecodeLimits.check(width: storedWidth, height: storedHeight)
            let storedEdge = max(storedWidth, storedHeight)
            let edge = maximumLongestEdge.map { min(max($0, 1), storedEdge) } ?? storedEdge
            let options: [CFString: Any] = [
                // Always from the full image (an embedded thumbnail is too small), scaled by the decoder itself.
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceThumbnailMaxPixelSize: edge,
                kCGImageSourceShouldCacheImmediately: true,
            ]
            guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options as CFDictionary) else {
                throw .invalidImage
            }
            return try draw(image)
        }

        /// The image drawn over opaque white, returned as `rgb8`: in its own colour space with that space's ICC
        /// profile when it is an RGB space that has one (a Display P3 photo), so that preparation converts it to sRGB
        /// with the same shared code as on Linux (`SRGBConversion`, issue 51); anything else into 8-bit sRGB.
        private static func draw(_ image: CGImage) throws(CodecError) -> DecodedImage {
            let width = image.width, height = image.height
            try DecodeLimits.check(width: width, height: height)
            var profile: [UInt8]?
            var target = CGColorSpace(name: CGColorSpace.sRGB)
            if let own = image.colorSpace, own.model == .rgb, let icc = own.copyICCData() as Data? {
                profile = [UInt8](icc)
                target = own
            }
            var rgbx = [UInt8](repeating: 255, count: width * height * 4)
            let drawn = rgbx.withUnsafeMutableBytes { raw -> Bool in
                guard let space = target,
                      let context = CGContext(
                          data: raw.baseAddress, width: width, height: height, bitsPerComponent: 8,
                          bytesPerRow: width * 4, space: space,
                          bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue)
                else { return false }
                context.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
                context.fill(CGRect(x: 0, y: 0, width: width, height: height))
                context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
                return true
            }
            guard drawn else { throw .invalidImage }
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
    }
#endif
