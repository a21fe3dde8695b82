
/// The pixel steps of preparation besides resizing: flattening transparency onto white (spec 7.9 step 3) and
/// applying the EXIF orientation (spec 7.9, "with the stored orientation applied").
package enum PixelOperations {
    /// An `rgba8` buffer composited onto opaque white as `rgb8`; other formats are returned unchanged.
    package static func flattenOntoWhite(_ image: Bitmap) -> Bitmap {
        guard image.format == .rgba8 else { return image }
        var out = [UInt8](repeating: 0, count: image.width * image.height * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = y * image.bytesPerRow + x * 4, q = (y * image.width + x) * 3
                let alpha = Int(image.bytes[p + 3])
                for c in 0..<3 {
                    out[q + c] = UInt8((Int(image.bytes[p + c]) * alpha + 255 * (255 - alpha) + 127) / 255)
                }
            }
        }
        return Bitmap(width: image.width, height: image.height, format: .rgb8, bytes: out)
    }

    /// Interleaved RGBA with premultiplied colour turned into straight alpha (a HEIF image may store either), so
    /// `flattenOntoWhite` composites it correctly. A transparent pixel's colour is left as it is.
    package static func unpremultiply(_ rgba: inout [UInt8]) {
        var p = 0
        while p + 3 < rgba.count {
            let alpha = Int(rgba[p + 3])
            if alpha > 0 && alpha < 255 {
                for c in 0..<3 { rgba[p + c] = UInt8(min(255, (Int(rgba[p + c]) * 255 + alpha / 2) / alpha)) }
            }
            p += 4
        }
    }

    /// `image` turned so it looks right: EXIF orientations 2–8 mirror and rotate; width and height swap for 5–8.
    package static func apply(_ orientation: Orientation, to image: Bitmap) -> Bitmap {
        guard orientation != .up else { return image }
        let w = image.width, h = image.height, channels = image.format.bytesPerPixel
        let (outW, outH) = orientation.swapsAxes ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: outW * outH * channels)
        for y in 0..<outH {
            for x in 0..<outW {
                let (sx, sy): (Int, Int)
                switch orientation {
                case .up: (sx, sy) = (x, y)
                case .upMirrored: (sx, sy) = (w - 1 - x, y)
                case .down: (sx, sy) = (w - 1 - x, h - 1 - y)
                case .downMirrored: (sx, sy) = (x, h - 1 - y)
                case .leftMirrored: (sx, sy) = (y, x)
                case .right: (sx, sy) = (y, h - 1 - x)
                case .rightMirrored: (sx, sy) = (w - 1 - y, h - 1 - x)
                case .left: (sx, sy) = (w - 1 - y, x)
                }
                let p = sy * image.bytesPerRow + sx * channels, q = (y * outW + x) * channels
                for c in 0..<channels { out[q + c] = image.bytes[p + c] }
            }
        }
        return Bitmap(width: outW, height: outH, format: image.format, bytes: out)
    }
}
