import JPEGCodec

/// libFuzzer entry for the JPEG decoder: full-size decode and (chosen by the input length, so the fuzzer reaches
/// all of them) the reduced 1/8, 1/4 and 1/2 decodes preparation uses. Built and run by `scripts/fuzz`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = UnsafeBufferPointer(start: data, count: size)
    let minimumLongestEdge: Int? = [nil, 1, 16, 48][size & 3]
    checkDecode { () throws(CodecError) in try JPEGDecoder.decode(file, minimumLongestEdge: minimumLongestEdge) }
    return 0
}
