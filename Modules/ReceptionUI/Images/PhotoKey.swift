#if canImport(SwiftUI) && canImport(UIKit)
    import CoreGraphics
    import Foundation

    /// What a decoded image is cached under: which photo, and the largest pixel dimension it was decoded for.
    struct PhotoKey: Hashable, Sendable {
        /// The photo: `attachment/<id>`, `pending/<message>/<photo>` or `avatar/<teammate's photo key>/<bytes>`.
        var photo: String
        /// The longest side of the decoded image, in pixels.
        var maxPixelSize: Int

        /// The key for drawing `photo` in `points` (its longest side) on a screen of `scale`. The pixel size is
        /// rounded up to a multiple of 32, so a frame that moves by a fraction of a point still hits the cache.
        @_optimize(size) init(photo: String, points: CGFloat, scale: CGFloat) {
            self.photo = photo
            maxPixelSize = Self.pixelSize(points: points, scale: scale)
        }

        /// `points` × `scale` rounded up to a multiple of 32 pixels, at least 32 and at most 8,192.
        @inline(never) @_optimize(size) static func pixelSize(points: CGFloat, scale: CGFloat) -> Int {
            let pixels = points * scale
            guard pixels.isFinite, pixels > 0 else { return 32 }
            let capped = min(pixels, 8192)
            return Int((capped / 32).rounded(.up)) * 32
        }

        /// The cache's key object.
        @_optimize(size) var cacheKey: NSString { "\(maxPixelSize)|\(photo)" as NSString }

        /// Hashes the photo only; `==` compares every field, so equal values hash alike.
        @_optimize(size) @inline(never) func hash(into hasher: inout Hasher) { hasher.combine(photo) }
    }
#endif
