/// Reads the one EXIF field preparation needs: orientation (TIFF tag 0x0112 in IFD0). Everything else in the
/// metadata is ignored and never copied to the output (privacy: no GPS, no camera data leaves the device).
package enum ExifOrientation {
    /// The orientation in a TIFF structure ("II*\0" or "MM\0*" header, as in a JPEG APP1 after "Exif\0\0" or a PNG
    /// eXIf chunk); `.up` when the structure is malformed or the tag is absent or out of range.
    @_optimize(size) package static func read(tiff: UnsafeBufferPointer<UInt8>) -> Orientation {
        guard let directory = TIFFDirectory(tiff: tiff) else { return .up }
        for index in 0..<directory.entryCount {
            guard let entry = directory.entry(index) else { return .up }
            // Type 3 (SHORT), count 1: the value sits in the first two bytes of the value field.
            if entry.tag == 0x0112, entry.type == 3, let value = directory.value(index, long: false) {
                return Orientation(rawValue: value) ?? .up
            }
        }
        return .up
    }
}
