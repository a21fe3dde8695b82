/// Reads the one EXIF field preparation needs: orientation (TIFF tag 0x0112 in IFD0). Everything else in the
/// metadata is ignored and never copied to the output (privacy: no GPS, no camera data leaves the device).
package enum ExifOrientation {
    /// The orientation in a TIFF structure ("II*\0" or "MM\0*" header, as in a JPEG APP1 after "Exif\0\0" or a PNG
    /// eXIf chunk); `.up` when the structure is malformed or the tag is absent or out of range.
    package static func read(tiff: UnsafeBufferPointer<UInt8>) -> Orientation {
        guard tiff.count >= 8 else { return .up }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return .up
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return .up }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = u16(at) else { return .up }
            // Type 3 (SHORT), count 1: the value sits in the first two bytes of the value field.
            if tag == 0x0112, u16(at + 2) == 3, let value = u16(at + 8) {
                return Orientation(rawValue: value) ?? .up
            }
        }
        return .up
    }
}
