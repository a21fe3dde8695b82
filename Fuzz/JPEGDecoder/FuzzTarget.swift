import JPEGCodec

/// libFuzzer entry for the JPEG decoder: full-size decode and (chosen by the input length, so the fuzzer reaches
/// all of them) the reduced 1/8, 1/4 and 1/2 decodes preparation uses; a decoded picture is then shrunk by the
/// area resampler to a size the input also chooses, and checked against its one-by-one reference (the vector
/// passes read four lanes past a pixel's start, which the address sanitizer watches). Built and run by
/// `scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = UnsafeBufferPointer(start: data, count: size)
    let minimumLongestEdge: Int? = [nil, 1, 16, 48][size & 3]
    var decoded: Bitmap?
    checkDecode { () throws(CodecError) in
        let image = try JPEGDecoder.decode(file, minimumLongestEdge: minimumLongestEdge)
        decoded = image.pixels
        return image
    }
    if let pixels = decoded, pixels.width * pixels.height <= 1 << 20 {
        let divisor = 1 + (size >> 2) % 5
        let width = max(1, pixels.width / divisor), height = max(1, pixels.height * 2 / (divisor + 1))
        let resized = pixels.resized(width: width, height: height)
        if resized.bytes != AreaResampler.resizeOneByOne(pixels, width: resized.width, height: resized.height).bytes {
            fatalError("the resampler's vector passes differ from the one-by-one sums")
        }
    }
    return 0
}
