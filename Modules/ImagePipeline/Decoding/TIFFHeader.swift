import JPEGCodec

/// A TIFF file's byte order and first directory, read without libtiff: enough to recognise the file and to
/// declare its size.
enum TIFFHeader {
    /// `II*\0` or `MM\0*` (classic TIFF), `II+\0` or `MM\0+` (BigTIFF).
    @inline(never) @_optimize(size) static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool {
        guard file.count >= 8 else { return false }
        let little = file[0] == 0x49 && file[1] == 0x49, big = file[0] == 0x4D && file[1] == 0x4D
        let version = little ? Int(file[2]) | Int(file[3]) << 8 : Int(file[2]) << 8 | Int(file[3])
        return (little || big) && (version == 42 || version == 43)
    }

    /// ImageWidth (256) and ImageLength (257) of a classic TIFF's first directory; nil for BigTIFF or a directory
    /// that is cut short.
    @inline(never) @_optimize(size) static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        bytes.withUnsafeBufferPointer { (file) -> (width: Int, height: Int)? in
            guard matches(file), let directory = TIFFDirectory(tiff: file) else { return nil }
            var width: Int?, height: Int?
            for index in 0..<directory.entryCount {
                guard let entry = directory.entry(index) else { return nil }
                // SHORT (3) values sit in the first two bytes of the value field, LONG (4) in all four.
                let value = entry.type == 3 || entry.type == 4 ? directory.value(index, long: entry.type == 4) : nil
                if entry.tag == 256 { width = value } else if entry.tag == 257 { height = value }
            }
            guard let width, let height else { return nil }
            return (width, height)
        }
    }
}
