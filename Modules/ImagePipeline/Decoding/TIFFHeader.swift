/// A TIFF file's byte order and first directory, read without libtiff: enough to recognise the file and to
/// declare its size.
enum TIFFHeader {
    /// `II*\0` or `MM\0*` (classic TIFF), `II+\0` or `MM\0+` (BigTIFF).
    static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool {
        guard file.count >= 8 else { return false }
        let little = file[0] == 0x49 && file[1] == 0x49, big = file[0] == 0x4D && file[1] == 0x4D
        let version = little ? Int(file[2]) | Int(file[3]) << 8 : Int(file[2]) << 8 | Int(file[3])
        return (little || big) && (version == 42 || version == 43)
    }

    /// ImageWidth (256) and ImageLength (257) of a classic TIFF's first directory; nil for BigTIFF or a directory
    /// that is cut short.
    static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 8, bytes.withUnsafeBufferPointer({ matches($0) }) else { return nil }
        let little = bytes[0] == 0x49
        func read(_ offset: Int, _ count: Int) -> Int? {
            guard offset >= 0, offset + count <= bytes.count else { return nil }
            let slice = bytes[offset..<(offset + count)]
            return (little ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | Int($1) }
        }
        guard read(2, 2) == 42, let directory = read(4, 4), let entries = read(directory, 2) else { return nil }
        var width: Int?, height: Int?
        for entry in 0..<entries {
            let at = directory + 2 + entry * 12
            guard let tag = read(at, 2), let type = read(at + 2, 2) else { return nil }
            // SHORT (3) values sit in the first two bytes of the value field, LONG (4) in all four.
            let value = type == 3 ? read(at + 8, 2) : type == 4 ? read(at + 8, 4) : nil
            if tag == 256 { width = value } else if tag == 257 { height = value }
        }
        guard let width, let height else { return nil }
        return (width, height)
    }
}
