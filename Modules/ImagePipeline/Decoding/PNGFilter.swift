import JPEGCodec

/// The five PNG row filters (PNG spec §9), undone in place. `previous` is the already unfiltered row above, or nil
/// for the first row of a pass (treated as zeros).
enum PNGFilter {
    static func unfilter(
        type: UInt8, row: UnsafeMutablePointer<UInt8>, previous: UnsafeMutablePointer<UInt8>?, count: Int,
        bytesPerPixel bpp: Int
    ) throws(CodecError) {
        switch type {
        case 0:
            return
        case 1:
            var i = bpp
            while i < count { row[i] &+= row[i - bpp]; i += 1 }
        case 2:
            guard let up = previous else { return }
            for i in 0..<count { row[i] &+= up[i] }
        case 3:
            guard let up = previous else {
                var i = bpp
                while i < count { row[i] &+= row[i - bpp] >> 1; i += 1 }
                return
            }
            for i in 0..<min(bpp, count) { row[i] &+= up[i] >> 1 }
            var i = bpp
            while i < count {
                row[i] &+= UInt8((UInt16(row[i - bpp]) &+ UInt16(up[i])) >> 1)
                i += 1
            }
        case 4:
            guard let up = previous else {
                // With no row above, Paeth always predicts the left byte.
                var i = bpp
                while i < count { row[i] &+= row[i - bpp]; i += 1 }
                return
            }
            for i in 0..<min(bpp, count) { row[i] &+= up[i] }
            var i = bpp
            while i < count {
                let a = Int(row[i - bpp]), b = Int(up[i]), c = Int(up[i - bpp])
                let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                let predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
                row[i] &+= UInt8(truncatingIfNeeded: predictor)
                i += 1
            }
        default:
            throw .invalidImage
        }
    }
}
