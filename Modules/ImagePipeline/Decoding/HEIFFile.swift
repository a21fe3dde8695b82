import JPEGCodec

/// Recognises a HEIF still image (an iPhone's HEIC photo) by its `ftyp` box, before any decoder sees it. Only the
/// still-image brands are taken: an image sequence (`msf1`, `hevc`, …), AVIF or anything else stays
/// `invalid_image` ("Could not load this photo.", Docs/ImagePipeline.md), whatever the platform could decode.
enum HEIFFile {
    /// `heic` (HEVC), `heix` (HEVC 10-bit and range extensions), `heim` / `heis` (multiview, scalable HEVC) and
    /// `mif1` (a still image of any coding, which the decoder then has to be able to read).
    static let stillImageBrands: Set<[UInt8]> = [
        Array("heic".utf8), Array("heix".utf8), Array("heim".utf8), Array("heis".utf8), Array("mif1".utf8),
    ]

    /// Whether `file` starts with an ISO base media `ftyp` box whose major brand is a HEIF still image.
    @inline(never) @_optimize(size) package static func matches(_ file: UnsafeBufferPointer<UInt8>) -> Bool {
        guard file.count >= 16, Array(file[4..<8]) == Array("ftyp".utf8) else { return false }
        let size = Int(file[0]) << 24 | Int(file[1]) << 16 | Int(file[2]) << 8 | Int(file[3])
        guard size >= 16, size <= file.count else { return false }
        return stillImageBrands.contains(Array(file[8..<12]))
    }
}
