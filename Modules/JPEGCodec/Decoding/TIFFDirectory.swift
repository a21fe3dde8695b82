/// The first directory (IFD0) of a classic TIFF structure ("II*\0" or "MM\0*"), read in place: an EXIF block's
/// orientation (`ExifOrientation`) and a TIFF file's declared size (ImagePipeline's `TIFFHeader`) both read their
/// fields through it. Every read is bounds-checked against the bytes; nothing is copied.
package struct TIFFDirectory {
    private let tiff: UnsafeBufferPointer<UInt8>
    private let little: Bool
    /// Where the directory's entry count sits.
    private let start: Int
    /// Its entries (12 bytes each), as the directory declares them: an entry may still be cut short.
    package let entryCount: Int

    /// The first directory of `tiff`; nil when the header or the directory's entry count cannot be read.
    @_optimize(size) package init?(tiff: UnsafeBufferPointer<UInt8>) {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        guard Self.u16(tiff, little, 2) == 42, let directory = Self.u32(tiff, little, 4),
              let count = Self.u16(tiff, little, directory)
        else { return nil }
        self.tiff = tiff
        self.little = little
        start = directory
        entryCount = count
    }

    /// Entry `index`'s tag and type; nil when the entry is cut short.
    @_optimize(size) package func entry(_ index: Int) -> (tag: Int, type: Int)? {
        let at = start + 2 + index * 12
        guard let tag = u16(at), let type = u16(at + 2) else { return nil }
        return (tag, type)
    }

    /// Entry `index`'s value as a SHORT (the first two bytes of the value field) or a LONG (all four).
    @_optimize(size) package func value(_ index: Int, long: Bool) -> Int? {
        let at = start + 2 + index * 12 + 8
        return long ? u32(at) : u16(at)
    }

    @_optimize(size) private func u16(_ at: Int) -> Int? { Self.u16(tiff, little, at) }

    @_optimize(size) private func u32(_ at: Int) -> Int? { Self.u32(tiff, little, at) }

    @_optimize(size) private static func u16(_ tiff: UnsafeBufferPointer<UInt8>, _ little: Bool, _ at: Int) -> Int? {
        guard at >= 0, at + 2 <= tiff.count else { return nil }
        let a = Int(tiff[at]), b = Int(tiff[at + 1])
        return little ? a | b << 8 : a << 8 | b
    }

    @_optimize(size) private static func u32(_ tiff: UnsafeBufferPointer<UInt8>, _ little: Bool, _ at: Int) -> Int? {
        guard let low = u16(tiff, little, little ? at : at + 2), let high = u16(tiff, little, little ? at + 2 : at)
        else { return nil }
        return high << 16 | low
    }
}
