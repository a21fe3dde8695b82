import JPEGCodec

/// libFuzzer entry for the ICC profile reader and the conversion built from it: every input is read as a profile
/// (offsets, sizes, tag counts and curve counts all come from the bytes), and whatever conversion it yields for
/// RGB, RGBA and grey pixels is built and applied to a small picture of every byte value. Nothing may trap, read
/// out of bounds or allocate beyond the input's own size. Built and run by `scripts/fuzz` (`make fuzz`); seeded
/// with the profiles of scripts/icc-test-profiles (Display P3, Adobe RGB, ProPhoto, littleCMS's sRGB, grey).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzICCProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for format in [BitmapFormat.rgb8, .rgba8, .gray8] {
        let conversion = SRGBConversion(profile: bytes, format: format)
        var picture = Bitmap(
            width: 64, height: 4, format: format,
            bytes: (0..<(64 * 4 * format.bytesPerPixel)).map { UInt8(truncatingIfNeeded: $0) })
        conversion.apply(to: &picture)
        if picture.bytes.count != 64 * 4 * format.bytesPerPixel { fatalError("the conversion resized the picture") }
    }
    return 0
}
