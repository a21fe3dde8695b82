#if canImport(SwiftUI) && canImport(UIKit)
    import Foundation
    import ImageIO
    import UIKit

    /// Decodes photos for the chat at the size they are drawn, off the main actor, and keeps the results in a cache
    /// bounded by decoded bytes. ImageIO builds the image straight at the target size (a JPEG is scaled while it is
    /// decoded), so a 12-megapixel photo shown as a 240-point thumbnail never exists at full size in memory.
    actor PhotoDecoder {
        /// Spec 7.24 thumbnails and avatars: a few screens of them fit in the default budget.
        static let defaultCostLimit = 48 * 1024 * 1024
        /// Images claiming more pixels than this are not decoded: a hostile header cannot make us allocate for it.
        static let maximumSourcePixels = 200_000_000

        private let cache = NSCache<NSString, UIImage>()

        /// A decoder whose cache holds at most `costLimit` bytes of decoded pixels.
        @_optimize(size) init(costLimit: Int = PhotoDecoder.defaultCostLimit) {
            cache.totalCostLimit = costLimit
        }

        /// The image decoded earlier under `key`, if the cache still holds it.
        @_optimize(size) func cached(_ key: PhotoKey) -> UIImage? {
            cache.object(forKey: key.cacheKey)
        }

        /// `data` decoded with its longest side at most `maxPixelSize` pixels, upright (EXIF orientation applied).
        /// With `key` the result is cached (and a cached one returned); without, it is not (the viewer's large
        /// images, picked photos whose position is their only identity). `nil` when the data is not an image, is
        /// larger than `maximumSourcePixels`, or the calling task was cancelled.
        @inline(never)
        @_optimize(size) func decode(_ data: Data, maxPixelSize: Int, cacheAs key: PhotoKey? = nil) -> UIImage? {
            if let key, let hit = cache.object(forKey: key.cacheKey) { return hit }
            guard !Task.isCancelled, let cgImage = Self.thumbnail(of: data, maxPixelSize: maxPixelSize) else {
                return nil
            }
            let image = UIImage(cgImage: cgImage)
            if let key {
                let (cost, overflow) = cgImage.bytesPerRow.multipliedReportingOverflow(by: cgImage.height)
                cache.setObject(image, forKey: key.cacheKey, cost: overflow ? Int.max : cost)
            }
            return image
        }

        /// ImageIO's thumbnail of the first image in `data`, its longest side `maxPixelSize` (never upscaled).
        @inline(never) @_optimize(size) private static func thumbnail(of data: Data, maxPixelSize: Int) -> CGImage? {
            // Keyed by `String` (the same toll-free bridged keys): dictionaries keyed by `CFString` bring that imported
            // type's conformances into the app (Docs/Footprint.md, "Size on iOS").
            let sourceOptions = [kCGImageSourceShouldCache as String: false] as CFDictionary
            guard maxPixelSize > 0, let source = CGImageSourceCreateWithData(data as CFData, sourceOptions),
                  CGImageSourceGetCount(source) > 0, hasAcceptableSize(source)
            else { return nil }
            let options = [
                kCGImageSourceCreateThumbnailFromImageAlways as String: true,
                kCGImageSourceCreateThumbnailWithTransform as String: true,
                kCGImageSourceShouldCacheImmediately as String: true,
                kCGImageSourceThumbnailMaxPixelSize as String: maxPixelSize,
            ] as CFDictionary
            return CGImageSourceCreateThumbnailAtIndex(source, 0, options)
        }

        /// Whether the header's dimensions are known, positive and within `maximumSourcePixels`.
        @inline(never) @_optimize(size) private static func hasAcceptableSize(_ source: CGImageSource) -> Bool {
            guard let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any],
                  let width = (properties[kCGImagePropertyPixelWidth as String] as? NSNumber)?.intValue,
                  let height = (properties[kCGImagePropertyPixelHeight as String] as? NSNumber)?.intValue,
                  width > 0, height > 0
            else { return false }
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            return !overflow && pixels <= maximumSourcePixels
        }
    }
#endif
